// Die Speicherstadt's pieces: icons, cubes, workers and cards, each drawn from the board's context `c` (board.js).

// Small line icons (24×24), drawn with the current colour.
const ICONS = {
  ship: "M2 14h20l-4 6H6z M12 3v11 M12 4l7 8h-7z",
  contract: "M6 3h9l4 4v14H6z M9 10h7 M9 14h7 M9 18h4",
  fireman: "M4 16q0-9 8-9t8 9z M2 16h20v2H2z M12 7v9",
  fire: "M12 2c3 5 7 8 7 13a7 7 0 0 1-14 0c0-4 3-6 4-9 1 3 2 4 3 4 0-3 0-5 0-8z",
  merchant: "M12 3v17 M6 20h12 M4 7h16 M4 7l-2 5h4z M20 7l-2 5h4z",
  warehouse: "M3 10l9-6 9 6v10H3z M9 20v-6h6v6",
  counting_office: "M3 9l9-5 9 5z M5 10v8 M9 10v8 M15 10v8 M19 10v8 M3 19h18",
  bank: "M12 4a8 3 0 1 0 0.01 0z M4 7v4a8 3 0 0 0 16 0V7 M4 11v4a8 3 0 0 0 16 0v-4",
  building: "M12 2v4 M10 4h4 M8 10l4-4 4 4v10H8z M11 20v-4h2v4",
  chamber_of_commerce: "M3 9l9-5 9 5z M6 10v8 M12 10v8 M18 10v8 M3 19h18 M12 6v1",
  port: "M12 3a2 2 0 1 0 0.01 0z M12 5v15 M8 9h8 M4 14a8 6 0 0 0 16 0",
  coin: "M12 3a9 9 0 1 0 0.01 0z M12 7v10 M9 9h5a2 2 0 0 1 0 4h-4a2 2 0 0 0 0 4h5",
  // Kaispeicher
  delivery: "M3 11l7-5 7 5v9H3z M8 20v-5h4v5 M15 14h7 M19 11l3 3-3 3",
  spy: "M2 12q10-9 20 0q-10 9-20 0z M12 9a3 3 0 1 0 0.01 0z M5 5l3 3 M19 5l-3 3",
  fish_market: "M3 12q8-8 15 0q-7 8-15 0z M18 12l4-4v8z M7 11h.01",
  harbour_master: "M12 3a2 2 0 1 0 0.01 0z M12 5v16 M8 9h8 M4 14q0 7 8 7t8-7 M2 14h4 M18 14h4",
  savings_bank: "M4 11a8 6 0 0 1 16 0v6H4z M8 17v3 M16 17v3 M10 8h4 M20 11h2",
  thief: "M3 10q9-5 18 0v3q-9 4-18 0z M8 11a1 1 0 1 0 0.01 0z M16 11a1 1 0 1 0 0.01 0z",
  auction_hall: "M4 15l8-8 3 3-8 8z M10 5l5 5 M13 3l5 5 M14 21h8",
  smuggler: "M3 8h18v12H3z M3 12h18 M9 8v12 M15 8v12 M7 4l5 4 5-4",
  truck: "M2 6h12v10H2z M14 10h4l3 3v3h-7z M6 18a2 2 0 1 0 0.01 0z M17 18a2 2 0 1 0 0.01 0z",
  coffee_break: "M4 9h12v6a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5z M16 11h2a2 2 0 0 1 0 4h-2 M8 3v3 M12 3v3",
  warehouse_workers: "M12 3a3 3 0 1 0 0.01 0z M6 21v-6a6 5 0 0 1 12 0v6 M3 21h18",
  fire_chief: "M4 16q0-9 8-9t8 9z M2 16h20v2H2z M12 9l1 2h2l-1.5 1.5.5 2-2-1-2 1 .5-2L9 11h2z",
  insurance: "M12 2l8 3v6c0 5-4 9-8 11-4-2-8-6-8-11V5z M8 12l3 3 5-6",
  fire_engine: "M2 8h13v9H2z M15 11h4l3 3v3h-7z M3 5l12 3 M6 19a2 2 0 1 0 0.01 0z M18 19a2 2 0 1 0 0.01 0z",
  press: "M4 4h13v16H4z M17 8h3v10a2 2 0 0 1-2 2 M7 8h7 M7 12h7 M7 16h4",
  mayor: "M6 3l6 6 6-6 M12 9v3 M12 15a3 3 0 1 0 0.01 0z M8 21h8",
  harbour_tour: "M2 15h20l-3 5H5z M6 15V9h10v6 M9 9V6h4v3 M22 21q-5-2-10 0t-10 0",
  deichtorhallen: "M2 10l5-5 5 5 5-5 5 5v10H2z M7 20v-5 M17 20v-5",
  accountant: "M5 3h14v18H5z M8 7h8 M8 11h3 M13 11h3 M8 15h3 M13 15h3",
};

const icon = (name, cls = "ssl-icon") => svgIcon(ICONS, name, cls, "contract");

// A card's rule (from the model: the rules section it belongs to), put after its text in its hover text.
const ruleOf = (card) => (card && card.rule ? `\n\n${card.rule}` : "");
// A card's hover text: name (season), what it does, its rule.
const cardTitle = (info) => `${info.name} (${info.season_name})\n${info.text}${ruleOf(info)}`;

// Long card names get a smaller type so they fit the card's head.
function nameSize(name) {
  if (name.length > 16) return " ssl-longer";
  return name.length > 11 ? " ssl-long" : "";
}

function cube(c, gid, extra = {}) {
  const g = c.goods[gid] || { name: gid, colour: "#999", ink: "#000", short: "?" };
  return el("span", {
    class: "ssl-cube" + (extra.cls ? " " + extra.cls : ""),
    style: { background: g.colour, color: g.ink },
    title: extra.title || g.name,
    text: g.short,
  });
}

function emptySlot(c, gid, cls = "") {
  const g = c.goods[gid];
  return el("span", {
    class: "ssl-slot ssl-slot-good " + cls,
    style: g ? { "--good": g.colour } : {},
    title: g ? g.name : "",
    text: g ? g.short : "",
  });
}

// A worker: colour + shape + letter (the seat's token from the model: the game's one palette). A grey worker
// (Kaispeicher) is grey in its owner's shape, with the owner's letter and a dot of the owner's colour.
function worker(c, seat, cls = "", grey = false, title = undefined) {
  const s = c.m.seats[seat];
  return el("span", { class: "ssl-worker-wrap " + cls + (grey ? " ssl-grey" : ""), title: title || s.name }, [
    el("span", {
      class: `ssl-worker ssl-shape-${s.shape} gb-token gb-shape-${s.shape}`,
      style: grey ? {} : { background: s.colour, color: s.ink },
      text: s.short,
    }),
    grey ? el("span", { class: "ssl-grey-dot", style: { background: s.colour } }) : null,
  ]);
}

// A card on a water space. `extra.inTarget`: the card sits in a target (its column places a worker), so its rule
// opens from its ⓘ; otherwise a click on the card opens it.
function card(c, info, extra = {}) {
  const node = el(
    "div",
    {
      class: `ssl-card ssl-season-${info.season} ssl-kind-${info.kind}` + (extra.cls ? " " + extra.cls : ""),
      title: cardTitle(info),
    },
    [
      el("div", { class: "ssl-card-head" }, [
        el("span", { class: "ssl-card-name" + nameSize(info.name), text: info.name }),
        extra.inTarget ? c.rules.info(info, c.L) : null,
      ]),
      el("div", { class: "ssl-card-body" }, [
        el("span", { class: "ssl-card-season", text: info.season }),
        icon(info.kind, "ssl-card-icon"),
        info.badge ? el("span", { class: "ssl-card-badge", text: info.badge }) : null,
      ]),
      info.kind === "contract"
        ? el("div", { class: "ssl-card-goods" }, info.goods.map((g) => emptySlot(c, g, "ssl-slot-small")))
        : null,
      info.kind === "merchant" && info.good ? el("div", { class: "ssl-card-goods" }, [cube(c, info.good)]) : null,
      extra.cargo && extra.cargo.length
        ? el("div", { class: "ssl-cargo" }, extra.cargo.map((g) => cube(c, g)))
        : null,
    ],
  );
  return extra.inTarget ? node : c.rules.card(node, info);
}
