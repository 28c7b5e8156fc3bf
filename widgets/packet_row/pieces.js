// Packet Row's pieces: icons, pawns, goods chips and cards, each drawn from the board's context `c` (packet_row.js).

// Small line icons (24×24), drawn with the current colour.
const ICONS = {
  ship: "M2 14h20l-4 6H6z M12 3v11 M12 4l7 8h-7z",
  contract: "M6 3h9l4 4v14H6z M9 10h7 M9 14h7 M9 18h4",
  start: "M6 3h9l4 4v14H6z M12 9l1.2 2.5 2.8.4-2 2 .5 2.8-2.5-1.3-2.5 1.3.5-2.8-2-2 2.8-.4z",
  captain: "M4 12h16 M6 12a6 5 0 0 1 12 0 M9 7h6 M12 4v3 M8 16h8l-1 4H9z",
  merchant: "M12 3v17 M6 20h12 M4 7h16 M4 7l-2 5h4z M20 7l-2 5h4z",
  assistant: "M12 3a3 3 0 1 0 0.01 0z M6 21v-6a6 5 0 0 1 12 0v6 M3 21h18",
  banker: "M3 9l9-5 9 5z M5 10v8 M9 10v8 M15 10v8 M19 10v8 M3 19h18",
  building: "M12 2v4 M10 4h4 M8 10l4-4 4 4v10H8z M11 20v-4h2v4",
  money: "M3 6h18v12H3z M12 9a3 3 0 1 0 0.01 0z M6 9v6 M18 9v6",
  gold: "M3 19l3-6h6l3 6z M9 13l3-6h6l3 6 M12 19l3-6",
  goods: "M4 8h16v12H4z M4 8l3-4h10l3 4 M10 12h4",
  anchor: "M12 3a2 2 0 1 0 0.01 0z M12 5v16 M8 9h8 M4 14q0 7 8 7t8-7 M2 14h4 M18 14h4",
  pawn: "M12 3a3.5 3.5 0 1 0 0.01 0z M9 10h6l2 10H7z M5 21h14",
  deck: "M5 6h12v14H5z M8 3h12v14",
};

const icon = (name, cls = "prb-icon") => svgIcon(ICONS, name, cls, "contract");

// Multiset helpers for the fulfilment filter.
function counts(items) {
  const n = new Map();
  for (const x of items) n.set(x, (n.get(x) || 0) + 1);
  return n;
}
function covers(big, small) {
  const b = counts(big);
  for (const [k, n] of counts(small)) if ((b.get(k) || 0) < n) return false;
  return true;
}

// A pawn: the seat's colour, shape and letter (its token from the model: the game's one palette).
function pawn(c, seat, cls = "") {
  const s = c.m.seats[seat];
  return el("span", { class: "prb-pawn-wrap " + cls, title: s.name }, [
    el("span", {
      class: `prb-pawn prb-shape-${s.shape} gb-token gb-shape-${s.shape}`,
      style: { background: s.colour, color: s.ink },
      text: s.short,
    }),
  ]);
}

function goodChip(info, text) {
  return el("span", {
    class: "prb-good",
    style: { background: info.good_colour, color: info.good_ink },
    title: info.good_name,
    text,
  });
}

function cardBody(c, info) {
  const k = info.kind;
  if (k === "contract") {
    return [
      el("div", { class: "prb-c-main" }, [goodChip(info, String(info.amount)),
        el("span", { class: "prb-c-gname", text: info.good_name })]),
      el("div", { class: "prb-c-dest", title: info.dest_name }, [icon("ship", "prb-mini"), info.dest_code]),
      el("div", { class: "prb-c-pays", text: "+$" + info.pays }),
    ];
  }
  if (k === "goods") {
    return [el("div", { class: "prb-c-main" }, [goodChip(info, "×" + info.amount)]),
      el("div", { class: "prb-c-gname prb-center", text: info.good_name })];
  }
  if (k === "gold") {
    return [el("div", { class: "prb-c-main prb-bars" }, Array.from({ length: info.bars }, () =>
      el("span", { class: "prb-bar" }))),
      el("div", { class: "prb-c-gname prb-center", text: info.name })];
  }
  if (k === "ship") {
    return [el("div", { class: "prb-c-main" }, [icon("ship", "prb-card-icon")]),
      el("div", { class: "prb-c-dest prb-big", title: info.dest_name, text: info.dest_code })];
  }
  if (k === "building") {
    return [el("div", { class: "prb-c-main" }, [icon("building", "prb-card-icon")]),
      el("div", { class: "prb-c-vp", text: `${info.vp} ${c.L.vp || "VP"}` })];
  }
  if (k === "money") {
    return [el("div", { class: "prb-c-main prb-c-money", text: "$" + info.value })];
  }
  return [el("div", { class: "prb-c-main" }, [icon(k, "prb-card-icon")])];
}

function cardHead(info) {
  const label = info.head || info.kind_name;
  return el("div", { class: "prb-card-head" }, [
    info.cost ? el("span", { class: "prb-cost", title: "$" + info.cost, text: "$" + info.cost }) : null,
    el("span", { class: "prb-card-kind", text: label }),
  ]);
}

// A card: a button where a click plays an action or selects it (`extra.onclick`), else a click opens its rule.
function card(c, info, extra = {}) {
  const cls = `prb-card prb-b-${info.board} prb-k-${info.kind}` + (info.start ? " prb-start" : "") +
    (extra.cls ? " " + extra.cls : "");
  const title = `${info.name}\n${info.text}` + (info.rule ? `\n\n${info.rule}` : "") +
    (extra.hint ? `\n\n${extra.hint}` : "");
  const inner = [cardHead(info), el("div", { class: "prb-card-body" }, cardBody(c, info))];
  if (extra.onclick) return button(cls + " prb-clickable", extra.label || info.name, extra.onclick, inner, title);
  return c.rules.card(el("div", { class: cls, title }, inner), info);
}
