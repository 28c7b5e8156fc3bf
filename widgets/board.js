// The Speicherstadt board view (anywidget ESM, no build step).
// It draws the synced `model`, `highlight` and `error` traits and reports clicks with
// model.send({kind: ...}); Python validates every message and applies it. The only state kept here is
// which dock cubes are selected, the worker (spy) or contract cube (truck) picked first in a two-click move
// of the Kaispeicher expansion, and whether the error banner was dismissed.

const SVG = "http://www.w3.org/2000/svg";

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

// A card's rule (from the model: the rules section it belongs to), put after its text in its hover text.
const ruleOf = (card) => (card && card.rule ? `\n\n${card.rule}` : "");

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) node.style.setProperty(prop, v);
        else node.style[prop] = v;
      }
    }
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function icon(name, cls = "ssl-icon") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name] || ICONS.contract);
  svg.append(path);
  return svg;
}

// Long card names get a smaller type so they fit the card's head.
function nameSize(name) {
  if (name.length > 16) return " ssl-longer";
  return name.length > 11 ? " ssl-long" : "";
}

// A clickable element: a real button, so it works with the keyboard and screen readers.
function button(cls, label, onclick, children = [], title = undefined) {
  return el("button", { type: "button", class: cls, title, "aria-label": label, onclick }, children);
}

function render({ model, el: host }) {
  const root = el("div", { class: "ssl-board" });
  const wrap = el("div", { class: "ssl-wrap" }, [root]);
  host.append(wrap);
  let selected = []; // indices into the dock's goods
  let dismissed = false;
  let spySel = null; // Kaispeicher spy step: "space level" of the own worker picked first
  let truckSel = null; // Kaispeicher truck: {good, k} of the cube picked on one of the own contracts

  // every click names the position it was made on (model.rev); Python refuses one made on an earlier position
  const send = (msg) => model.send(msg.kind === "lang" ? msg : { ...msg, rev: (model.get("model") || {}).rev });


  function draw() {
    const m = model.get("model") || {};
    if (!m.format) {
      root.replaceChildren(el("div", { class: "ssl-empty", text: "…" }));
      return;
    }
    const hl = model.get("highlight") || {};
    const error = model.get("error") || "";
    const goods = Object.fromEntries((m.goods || []).map((g) => [g.id, g]));
    // The legal actions as the clicks that make them (the model's, from the game's grammar): the page looks a
    // click up here (its action's notation and explanation) and sends the model's message; it never writes notation.
    const keyOf = (msg) => JSON.stringify(Object.keys(msg).sort().map((k) => [k, msg[k]]));
    const byMsg = new Map((m.actions || []).map((a) => [keyOf(a.msg), a]));
    const find = (msg) => byMsg.get(keyOf(msg)) || null;
    const L = m.labels || {};
    const dock = m.dock;
    // Hover texts: a legal action's plain-language explanation (from the model) after the target's own title
    // (``action``: an entry of the model's actions, or the notation text the model gave).
    const why = (action) => (action ? (m.explain || {})[action.text || action] || "" : "");
    const tip = (base, ...actions) => {
      const said = actions.map(why).filter((x) => x);
      return said.length ? (base ? `${base}\n\n${said.join("\n")}` : said.join("\n")) : base;
    };
    if (dock) selected = selected.filter((i) => i < dock.goods.length);
    else selected = [];
    const selGoods = dock ? selected.map((i) => dock.goods[i]) : [];
    const single = selGoods.length === 1 ? selGoods[0] : null;
    const kai = m.kai || null; // the Kaispeicher expansion's part of the model (absent in the base game)
    const kaiButtons = kai && m.can_act ? kai.buttons : [];
    const freeButton = kaiButtons.find((b) => b.kind === "buyfree") || null;
    if (!kai || !Object.keys(kai.spy || {}).length) spySel = null;
    if (!dock || !(dock.truck || []).length) truckSel = null;

    // ---- pieces ------------------------------------------------------------------------------
    function cube(gid, extra = {}) {
      const g = goods[gid] || { name: gid, colour: "#999", ink: "#000", short: "?" };
      return el("span", {
        class: "ssl-cube" + (extra.cls ? " " + extra.cls : ""),
        style: { background: g.colour, color: g.ink },
        title: extra.title || g.name,
        text: g.short,
      });
    }
    function emptySlot(gid, cls = "") {
      const g = goods[gid];
      return el("span", {
        class: "ssl-slot ssl-slot-good " + cls,
        style: g ? { "--good": g.colour } : {},
        title: g ? g.name : "",
        text: g ? g.short : "",
      });
    }
    // A worker: colour + shape + letter. A grey worker (Kaispeicher) is grey in its owner's shape, with the
    // owner's letter and a dot of the owner's colour.
    function worker(seat, cls = "", grey = false, title = undefined) {
      const s = m.seats[seat];
      return el("span", { class: "ssl-worker-wrap " + cls + (grey ? " ssl-grey" : ""), title: title || s.name }, [
        el("span", {
          class: "ssl-worker ssl-shape-" + s.shape,
          style: grey ? {} : { background: s.colour, color: s.ink },
          text: s.short,
        }),
        grey ? el("span", { class: "ssl-grey-dot", style: { background: s.colour } }) : null,
      ]);
    }
    function card(info, extra = {}) {
      const node = el(
        "div",
        {
          class: `ssl-card ssl-season-${info.season} ssl-kind-${info.kind}` + (extra.cls ? " " + extra.cls : ""),
          title: `${info.name} (${info.season_name})\n${info.text}${ruleOf(info)}`,
        },
        [
          el("div", { class: "ssl-card-head" }, [
            el("span", { class: "ssl-card-name" + nameSize(info.name), text: info.name }),
          ]),
          el("div", { class: "ssl-card-body" }, [
            el("span", { class: "ssl-card-season", text: info.season }),
            icon(info.kind, "ssl-card-icon"),
            info.badge ? el("span", { class: "ssl-card-badge", text: info.badge }) : null,
          ]),
          info.kind === "contract"
            ? el("div", { class: "ssl-card-goods" }, info.goods.map((g) => emptySlot(g, "ssl-slot-small")))
            : null,
          info.kind === "merchant" && info.good ? el("div", { class: "ssl-card-goods" }, [cube(info.good)]) : null,
          extra.cargo && extra.cargo.length
            ? el("div", { class: "ssl-cargo" }, extra.cargo.map((g) => cube(g)))
            : null,
        ],
      );
      return node;
    }

    // ---- header ------------------------------------------------------------------------------
    const mover = m.to_move;
    const header = el("header", { class: "ssl-top" }, [
      el("div", { class: "ssl-title" }, [
        el("span", { class: "ssl-title-name", text: m.title }),
        el("span", { class: "ssl-round", text: m.round_label }),
        m.last_round ? el("span", { class: "ssl-lastround", text: L.last_round }) : null,
      ]),
      el(
        "ol",
        { class: "ssl-phases" },
        m.phases.map((p) => el("li", { class: p.current ? "ssl-phase ssl-current" : "ssl-phase", text: p.name })),
      ),
      el("div", { class: "ssl-prompt", role: "status" }, [
        mover !== null && mover !== undefined ? worker(mover) : null,
        el("span", { text: m.prompt }),
      ]),
      model.get("lang_switch") === false
        ? null
        : el(
            "div",
            { class: "ssl-lang", role: "group" },
            ["en", "de"].map((code) =>
              button(
                "ssl-lang-btn" + (m.lang === code ? " ssl-on" : ""),
                code.toUpperCase(),
                () => send({ kind: "lang", lang: code }),
                [code.toUpperCase()],
              ),
            ),
          ),
    ]);

    const banner =
      error && !dismissed
        ? el("div", { class: "ssl-error", role: "alert" }, [
            el("span", { text: error }),
            button("ssl-error-x", L.dismiss, () => {
              dismissed = true;
              draw();
            }, ["×"]),
          ])
        : null;

    // Buy / (free with the Fish Market) / pass, for the card being resolved (a water space or a reserved card).
    function buyRow(buyLabel) {
      return el("div", { class: "ssl-buy-row" }, [
        find({ kind: "buy" })
          ? button("ssl-btn ssl-btn-buy", buyLabel, () => send({ kind: "buy" }), [buyLabel],
            tip(buyLabel, find({ kind: "buy" })))
          : null,
        freeButton
          ? button("ssl-btn ssl-btn-free", kai.labels.free_title, () => send({ kind: "buyfree" }), [freeButton.label],
            tip(kai.labels.free_title, find({ kind: "buyfree" })))
          : null,
        button("ssl-btn ssl-btn-pass", L.pass, () => send({ kind: "pass" }), [L.pass],
          tip(L.pass, find({ kind: "pass" }))),
      ]);
    }

    // The spy step: own workers that can be swapped become buttons; once one is picked, the other
    // players' workers it may swap with do. Null where the worker is drawn as usual.
    function spyWorker(sp, k) {
      if (!kai || !m.can_act) return null;
      const moves = kai.spy || {};
      const key = `${sp.index} ${k}`;
      const grey = (sp.grey || [])[k];
      const w = sp.workers[k];
      if (moves[key]) {
        const on = spySel === key;
        return button("ssl-worker-btn" + (on ? " ssl-selected" : " ssl-legal"), m.seats[w].name, (ev) => {
          ev.stopPropagation();
          spySel = on ? null : key;
          draw();
        }, [worker(w, "", grey)]);
      }
      if (spySel && (moves[spySel] || []).some(([s2, l2]) => s2 === sp.index && l2 === k)) {
        const [s1, l1] = spySel.split(" ").map(Number);
        return button("ssl-worker-btn ssl-target", m.seats[w].name, (ev) => {
          ev.stopPropagation();
          send({ kind: "spy", space: s1, level: l1, space_other: sp.index, level_other: k });
        }, [worker(w, "", grey)]);
      }
      return null;
    }

    // ---- harbour: the water spaces with their building spaces -------------------------------
    const hlSpaces = new Set(hl.spaces || []);
    const columns = m.spaces.map((sp) => {
      const slots = [];
      for (let k = 0; k < sp.slots; k++) {
        const w = sp.workers[k];
        slots.push(
          el("div", { class: "ssl-bslot" + (k === sp.workers.length && sp.legal ? " ssl-next" : "") }, [
            w !== undefined ? spyWorker(sp, k) || worker(w, k === 0 && sp.current ? "ssl-decider" : "",
              (sp.grey || [])[k]) : null,
          ]),
        );
      }
      const clickable = m.can_act && sp.legal;
      const building = el("div", { class: "ssl-building" }, slots);
      const water = el("div", { class: "ssl-water" }, [
        sp.card
          ? card(sp.card, { cargo: sp.cargo, cls: sp.current ? "ssl-resolving" : "" })
          : el("div", { class: "ssl-card ssl-card-gone", text: "" }),
      ]);
      const controls = [];
      if (sp.current) {
        controls.push(el("div", { class: "ssl-decider-label", text: sp.decider_label }));
        if (m.can_act) controls.push(buyRow(sp.buy_label));
      }
      const col = el(
        "div",
        {
          class:
            "ssl-col" +
            (clickable ? " ssl-legal" : "") +
            (sp.current ? " ssl-current" : "") +
            (hlSpaces.has(sp.index) ? " ssl-recent" : "") +
            (sp.card ? "" : " ssl-resolved"),
          title: clickable ? tip(`${sp.title}\n${sp.place_hint}`, sp.action) : sp.title,
          "data-space": sp.index,
        },
        [
          sp.card ? el("div", { class: "ssl-price", text: sp.price_label }) : el("div", { class: "ssl-price-none" }),
          building,
          water,
          ...controls,
        ],
      );
      if (clickable) {
        col.setAttribute("role", "button");
        col.setAttribute("tabindex", "0");
        col.setAttribute("aria-label", sp.place_hint + " — " + (sp.card ? sp.card.name : ""));
        const place = () => send({ kind: "place", space: sp.index });
        col.addEventListener("click", place);
        col.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            place();
          }
        });
      }
      return col;
    });
    const quiet = m.spaces.every((sp) => !sp.card) && !(m.kai && m.kai.reserved.length);
    const ranking = m.ranking
      ? el(
          "ol",
          { class: "ssl-ranking", "aria-label": L.final_score },
          m.ranking.map((r) =>
            el("li", { class: r.rank === 1 ? "ssl-rank ssl-rank-1" : "ssl-rank" }, [
              el("span", { class: "ssl-rank-n", text: r.rank + "." }),
              worker(r.seat),
              el("b", { text: m.seats[r.seat].name }),
              el("span", { class: "ssl-rank-score", text: r.label }),
            ]),
          ),
        )
      : null;
    // ---- Kaispeicher: the top row, the reserved column, and the demand/spy/fire decisions -------------
    let topRow = null;
    let reservedCol = null;
    let kaiBar = null;
    if (kai) {
      const hlCardsTop = new Set(hl.cards || []);
      const tops = kai.top.map((tp) => {
        if (!tp.card) return el("div", { class: "ssl-top-card ssl-top-gone" });
        const title = `${tp.card.name} (${tp.card.season_name})\n${tp.card.text}${ruleOf(tp.card)}`;
        const inner = [
          el("div", { class: "ssl-top-head" }, [
            el("span", { class: "ssl-card-name" + nameSize(tp.card.name), text: tp.card.name }),
          ]),
          el("div", { class: "ssl-top-body" }, [
            el("span", { class: "ssl-card-season", text: tp.card.season }),
            icon(tp.card.kind, "ssl-top-icon"),
            tp.card.badge ? el("b", { class: "ssl-top-badge", text: tp.card.badge }) : null,
            tp.card.kind === "contract"
              ? el("span", { class: "ssl-top-goods" }, tp.card.goods.map((g) => emptySlot(g, "ssl-slot-small")))
              : null,
            (tp.card.kind === "merchant" || tp.card.kind === "delivery") && tp.card.good ? cube(tp.card.good) : null,
            tp.cargo.length ? el("span", { class: "ssl-top-goods" }, tp.cargo.map((g) => cube(g))) : null,
          ]),
        ];
        const cls = `ssl-top-card ssl-season-${tp.card.season}`;
        if (m.can_act && tp.legal) {
          return button(cls + " ssl-legal", `${kai.top_hint} — ${tp.card.name}`,
            () => send({ kind: "reserve", space: tp.index }), inner,
            tip(`${title}\n\n${kai.top_hint}`, find({ kind: "reserve", space: tp.index })));
        }
        return el("div", { class: cls, title }, inner);
      });
      const topEmpty = kai.top.every((tp) => !tp.card);
      topRow = el("section", { class: "ssl-kai-top" + (topEmpty ? " ssl-top-empty" : ""), "aria-label": kai.top_label,
        title: kai.top_hint }, [
        el("div", { class: "ssl-kai-top-label" }, [
          el("b", { text: kai.top_label }),
          topEmpty ? el("span", { class: "ssl-small", text: kai.top_empty }) : null,
          !topEmpty && m.can_act && kai.top_click ? el("span", { class: "ssl-top-click", text: kai.top_click }) : null,
        ]),
        topEmpty ? null : el("div", { class: "ssl-top-cards" }, tops),
      ]);
      const entries = kai.reserved.map((r) => {
        const title = `${r.card.name} (${r.card.season_name})\n${r.card.text}${ruleOf(r.card)}\n\n${r.title}`;
        return el("div", {
          class: "ssl-res" + (r.current ? " ssl-current" : "") + (hlCardsTop.has(r.card.id) ? " ssl-recent" : ""),
          title,
        }, [
          el("div", { class: `ssl-res-card ssl-season-${r.card.season}` }, [
            icon(r.card.kind, "ssl-chip-icon"),
            r.card.badge ? el("b", { text: r.card.badge }) : null,
            el("span", { class: "ssl-res-name", text: r.card.name }),
          ]),
          el("div", { class: "ssl-res-foot" }, [
            worker(r.seat, r.current ? "ssl-decider" : "", r.grey),
            r.cargo.length ? el("span", { class: "ssl-res-cargo" }, r.cargo.map((g) => cube(g))) : null,
            el("span", { class: "ssl-res-price", text: r.price_label }),
          ]),
          r.current ? el("div", { class: "ssl-decider-label", text: r.decider_label }) : null,
          r.current && m.can_act ? buyRow(r.buy_label) : null,
        ]);
      });
      const showReserved = entries.length || m.phase === "demand";
      reservedCol = !showReserved ? null : el("div", { class: "ssl-reserved", "aria-label": kai.reserved_label }, [
        el("div", { class: "ssl-price ssl-res-head", text: kai.reserved_label }),
        el("div", { class: "ssl-res-list" }, entries.length ? entries : [
          el("i", { class: "ssl-res-empty", text: kai.reserved_empty }),
        ]),
      ]);
      // The decisions of the demand, spy and fire steps (each message spelled out, as Python checks them).
      const decide = {
        break: () => send({ kind: "break" }),
        stop: () => send({ kind: "stop" }),
        double: () => send({ kind: "double" }),
        insure: () => send({ kind: "insure" }),
        pass: () => send({ kind: "pass" }),
      };
      const barButtons = kaiButtons
        .filter((b) => decide[b.kind])
        .map((b) =>
          button("ssl-btn" + (b.kind === "pass" ? " ssl-btn-pass" : " ssl-btn-buy"), b.label, decide[b.kind], [b.label],
            tip(b.label, b.action)),
        );
      const fire = kai.fire;
      const firePanel = fire
        ? el("div", { class: "ssl-kai-fire", title: fire.card.text + ruleOf(fire.card) }, [
            el("span", { class: "ssl-fire" }, [icon("fire", "ssl-fire-icon"), el("b", { text: fire.label })]),
            ...fire.totals.map((x) =>
              el("span", { class: "ssl-fire-total" + (x.seat === fire.seat ? " ssl-on" : "") }, [
                worker(x.seat),
                el("span", { text: x.total }),
                x.delta ? el("b", { class: x.delta > 0 ? "ssl-plus" : "ssl-minus",
                                     text: (x.delta > 0 ? "+" : "−") + Math.abs(x.delta) }) : null,
              ]),
            ),
          ])
        : null;
      const hintText = m.can_act ? kai.spy_hint || kai.hint : "";
      const spyHint = hintText ? el("span", { class: "ssl-kai-hint", text: hintText }) : null;
      if (firePanel || barButtons.length || spyHint) {
        kaiBar = el("section", { class: "ssl-kai-bar", role: "group" }, [
          mover !== null && mover !== undefined ? worker(mover) : null,
          firePanel,
          spyHint,
          el("div", { class: "ssl-kai-buttons" }, barButtons),
        ]);
      }
    }

    const harbour = el("section", { class: "ssl-harbour" + (quiet ? " ssl-quiet" : "") }, [
      el("div", { class: "ssl-spaces" }, [...columns, reservedCol]),
      ranking,
    ]);

    // ---- the dock (loading) -------------------------------------------------------------------
    let dockPanel = null;
    if (dock) {
      const cubes = dock.goods.map((g, i) => {
        const on = selected.includes(i);
        const usable = m.can_act;
        if (!usable) return cube(g);
        return button(
          "ssl-cube-btn" + (on ? " ssl-selected" : "") + ((dock.moves[g] || []).length ? " ssl-legal" : ""),
          goods[g] ? goods[g].name : g,
          () => {
            selected = on ? selected.filter((x) => x !== i) : [...selected, i];
            truckSel = null;
            draw();
          },
          [cube(g)],
          tip(goods[g] ? goods[g].name : g, ...(dock.moves[g] || [])),
        );
      });
      const tools = [];
      const kConvert = dock.k_convert || 3; // the Harbour Master (Kaispeicher) exchanges 2:1
      if (m.can_act && selGoods.length === kConvert) {
        const order = (m.goods || []).map((g) => g.id);
        const given = [...selGoods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
        tools.push(el("span", { class: "ssl-tool-label", text: dock.convert_label || L.convert_to }));
        for (const g of order) {
          const conv = find({ kind: "convert", goods: given, to: g });
          if (!conv) continue;
          tools.push(
            button("ssl-cube-btn ssl-legal", goods[g].name, () => send(conv.msg), [
              cube(g),
            ], tip(goods[g].name, conv)),
          );
        }
      }
      if (m.can_act && selGoods.length === 2) {
        const order = (m.goods || []).map((g) => g.id);
        const given = [...selGoods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
        const sale = find({ kind: "hallsell", goods: given });
        if (sale) {
          tools.push(button("ssl-btn", L.hallsell, () => send(sale.msg), [L.hallsell], tip(L.hallsell, sale)));
        }
      }
      // Kaispeicher: the Auction Hall takes a good from the stock; Smuggler and Truck act on contracts.
      const extras = [];
      if (m.can_act && dock.pending) extras.push(el("b", { class: "ssl-pending", text: dock.pending_label }));
      if (m.can_act && (dock.auction || []).length) {
        extras.push(
          el("span", { class: "ssl-tool-group" }, [
            icon("auction_hall", "ssl-chip-icon ssl-light"),
            el("span", { class: "ssl-tool-label", text: dock.auction_label }),
            ...dock.auction.map((g) =>
              button("ssl-cube-btn ssl-legal", `${dock.auction_label}: ${goods[g].name}`,
                () => send({ kind: "auction", good: g }), [cube(g)],
                tip(`${dock.auction_label}: ${goods[g].name}`, find({ kind: "auction", good: g }))),
            ),
          ]),
        );
      }
      if (m.can_act && (dock.smuggle || []).length) {
        extras.push(el("span", { class: "ssl-tool-group" }, [icon("smuggler", "ssl-chip-icon ssl-light"),
          el("span", { text: dock.smuggle_label })]));
      }
      if (m.can_act && (dock.truck || []).length) {
        extras.push(el("span", { class: "ssl-tool-group" }, [icon("truck", "ssl-chip-icon ssl-light"),
          el("span", { text: dock.truck_label })]));
      }
      dockPanel = el("section", { class: "ssl-dock", "aria-label": dock.label }, [
        el("div", { class: "ssl-dock-head" }, [worker(dock.seat), el("b", { text: dock.label })]),
        el("div", { class: "ssl-dock-cubes" }, cubes.length ? cubes : [el("i", { text: L.dock_empty })]),
        el("div", { class: "ssl-dock-tools" }, tools),
        m.can_act ? el("div", { class: "ssl-dock-hint", text: dock.hint || L.dock_hint }) : null,
        m.can_act && find({ kind: "done" })
          ? button("ssl-btn ssl-btn-done", L.done, () => send({ kind: "done" }), [L.done],
            tip(L.done, find({ kind: "done" })))
          : null,
        extras.length ? el("div", { class: "ssl-dock-extras" }, extras) : null,
      ]);
    }

    // ---- supply: pile, discard, stock, bag -----------------------------------------------------
    const pile = el("div", { class: "ssl-box ssl-pile", title: m.pile.label }, [
      el("div", { class: "ssl-box-head" }, [el("b", { text: L.pile }), el("span", { text: m.pile.label })]),
      el(
        "div",
        { class: "ssl-seasons" },
        m.pile.seasons.map((se) =>
          el("div", { class: `ssl-season ssl-season-${se.season}` + (se.count ? "" : " ssl-zero"), title: se.name }, [
            el("span", { class: "ssl-season-letter", text: se.season }),
            el("span", { class: "ssl-season-count", text: se.count }),
          ]),
        ),
      ),
      el("div", { class: "ssl-fires" }, [
        el("span", { class: "ssl-small", text: L.fires_left + ":" }),
        ...(m.pile.fires.length
          ? m.pile.fires.map((f) =>
              el("span", { class: "ssl-fire", title: `${f.name} (${f.season_name})\n${f.text}${ruleOf(f)}` }, [
                icon("fire", "ssl-fire-icon"),
                el("span", { text: f.strength }),
              ]),
            )
          : [el("span", { class: "ssl-small", text: L.no_fires })]),
      ]),
    ]);
    const discard = el("div", { class: "ssl-box ssl-discard" }, [
      el("div", { class: "ssl-box-head" }, [el("b", { text: L.discard }), el("span", { text: m.discard.label })]),
      m.discard.last
        ? el("span", { class: `ssl-chip ssl-season-${m.discard.last.season}`, title: m.discard.last.text + ruleOf(m.discard.last) }, [
            icon(m.discard.last.kind, "ssl-chip-icon"),
            m.discard.last.badge ? el("b", { text: m.discard.last.badge }) : null,
            el("span", { text: m.discard.last.name }),
          ])
        : el("i", { class: "ssl-small", text: L.empty }),
    ]);
    const stock = el("div", { class: "ssl-box ssl-stock" }, [
      el("div", { class: "ssl-box-head" }, [el("b", { text: L.stock }), el("span", { text: m.stock_label })]),
      el(
        "div",
        { class: "ssl-stock-row" },
        m.stock.map((s) => {
          const inner = [cube(s.good), el("span", { text: "×" + s.count })];
          if (m.can_act && dock && (dock.auction || []).includes(s.good)) {
            const label = `${dock.auction_label}: ${goods[s.good].name}`;
            return button("ssl-stock-item ssl-target", label, () => send({ kind: "auction", good: s.good }), inner,
              tip(label, find({ kind: "auction", good: s.good })));
          }
          return el("span", { class: "ssl-stock-item" + (s.count ? "" : " ssl-zero"), title: goods[s.good].name },
            inner);
        }),
      ),
      el("div", { class: "ssl-box-head ssl-bag" }, [el("b", { text: L.bag }), el("span", { text: m.bag_label })]),
    ]);

    const log = el("div", { class: "ssl-box ssl-log" }, [
      el("div", { class: "ssl-box-head" }, [el("b", { text: L.log })]),
      el(
        "ol",
        { class: "ssl-log-list" },
        m.log.map((entry) =>
          el("li", { class: entry.newest ? "ssl-log-entry ssl-newest" : "ssl-log-entry" }, [
            entry.actor !== null && entry.actor !== undefined ? worker(entry.actor) : null,
            el("code", { class: "ssl-log-action", text: entry.phrase || entry.action || L.log_start,
              title: entry.action || "" }),
            el(
              "ul",
              {},
              entry.texts.map((t) => el("li", { text: t })),
            ),
          ]),
        ),
      ),
    ]);
    const side = el("aside", { class: "ssl-side" }, [
      el("div", { class: "ssl-supply" }, [pile, discard, stock]),
      log,
    ]);

    // ---- seat areas -------------------------------------------------------------------------------
    const hlSeats = new Set(hl.seats || []);
    const hlCards = new Set(hl.cards || []);

    // A cube on a contract: a Smuggler's target on another seat's contract, or the Truck's cube to move on
    // the mover's own (Kaispeicher); otherwise just the cube.
    function contractCube(s, c, g) {
      if (!dock || !m.can_act || single) return cube(g);
      const steal = s.index !== dock.seat ? find({ kind: "smuggle", seat: s.index, index: c.index, good: g }) : null;
      if (steal) {
        return button("ssl-cube-btn ssl-target", `${dock.smuggle_label} ${goods[g].name}`,
          () => send(steal.msg), [cube(g)], tip(steal.text, steal));
      }
      // the Truck's moves of this cube: the model's truck actions from this contract
      const moves = (m.actions || []).filter((a) => a.msg.kind === "truck" && a.msg.good === g && a.msg.from === c.index);
      if (s.index === dock.seat && moves.length) {
        const on = truckSel && truckSel.good === g && truckSel.k === c.index;
        if (truckSel && !on) return cube(g); // the target contracts are buttons now: no button inside a button
        return button("ssl-cube-btn" + (on ? " ssl-selected" : " ssl-legal"), `${dock.truck_label} ${goods[g].name}`,
          (ev) => {
            ev.stopPropagation();
            truckSel = on ? null : { good: g, k: c.index };
            selected = [];
            draw();
          }, [cube(g)], tip(`${dock.truck_label} ${goods[g].name}`, ...moves));
      }
      return cube(g);
    }

    // A seat's Kaispeicher holdings: break cards, grey workers, delivery points and its special cards.
    function kaiStrip(s) {
      const k = s.kai;
      if (!k) return null;
      const KL = kai.labels;
      const items = [];
      if (k.breaks) {
        items.push(el("span", { class: "ssl-kai-item", title: KL.breaks_title }, [
          icon("coffee_break", "ssl-chip-icon"), el("span", { text: k.breaks_label })]));
      }
      if (k.grey) {
        items.push(el("span", { class: "ssl-kai-item", title: KL.grey_title }, [
          worker(s.index, "", true), el("span", { text: k.grey_label })]));
      }
      if (k.delivered || k.delivers) {
        items.push(el("span", { class: "ssl-kai-item", title: KL.delivered_title }, [
          icon("delivery", "ssl-chip-icon"), el("span", { text: k.delivered_label })]));
      }
      for (const c of k.specials) {
        items.push(el("span", {
          class: `ssl-chip ssl-special ssl-use-${c.use} ssl-season-${c.season}` + (c.active ? " ssl-active" : "") +
            (hlCards.has(c.id) ? " ssl-recent" : ""),
          title: `${c.name} (${c.season_name})\n${c.text}${ruleOf(c)}`,
        }, [icon(c.kind, "ssl-chip-icon"), el("span", { text: c.name }),
          el("small", { class: "ssl-use", text: c.use_label })]));
      }
      return items.length ? el("div", { class: "ssl-kai-strip", "aria-label": KL.specials }, items) : null;
    }

    const seats = m.seats.map((s) => {
      const act = m.can_act && s.loading && dock;
      const stat = (label, value, title, iconName) =>
        el("div", { class: "ssl-stat", title }, [
          iconName ? icon(iconName, "ssl-stat-icon") : null,
          el("span", { class: "ssl-stat-value", text: value }),
          el("span", { class: "ssl-stat-label", text: label }),
        ]);
      const breakdown = s.breakdown.map(([k, v]) => `${k}: ${v}`).join("\n");
      const head = el("div", { class: "ssl-seat-head", style: { borderColor: s.colour } }, [
        worker(s.index),
        el("b", { class: "ssl-seat-name", text: s.name }),
        s.first ? el("span", { class: "ssl-metal", title: L.metal_coin, "aria-label": L.metal_coin, text: "1" }) : null,
        s.to_move ? el("span", { class: "ssl-tomove", text: L.to_move }) : null,
        s.winner ? el("span", { class: "ssl-winner", text: L.winner }) : null,
      ]);
      const stats = el("div", { class: "ssl-stats" }, [
        stat(L.coins, s.coins, L.coins, "coin"),
        stat(L.track, s.track > 0 ? "+" + s.track : s.track, kai ? kai.labels.track_hint : L.track_hint),
        stat(L.score, s.score, m.phase === "over" ? L.final_score + "\n" + breakdown : L.score_hint + "\n" + breakdown),
        stat(L.firemen, s.firemen, L.firemen, "fireman"),
      ]);
      const contracts = s.contracts.map((c) => {
        const target = act && single ? find({ kind: "contract", good: single, index: c.index }) : null;
        const slots = c.slots.map((sl) => (sl.filled ? contractCube(s, c, sl.good) : emptySlot(sl.good)));
        const inner = [
          el("span", { class: "ssl-contract-vp", text: c.vp }),
          el("span", { class: "ssl-contract-slots" }, slots),
          c.done ? el("span", { class: "ssl-done-mark", text: "✓", title: L.contract_done }) : null,
        ];
        const cls =
          "ssl-contract ssl-season-" + c.card.season + (c.done ? " ssl-complete" : "") +
          (hlCards.has(c.card.id) ? " ssl-recent" : "");
        const title = `${c.card.name} (${c.card.season_name})\n${c.card.text}${ruleOf(c.card)}`;
        if (target) {
          return button(cls + " ssl-target", target.text, () => send(target.msg), inner, tip(title, target));
        }
        const truckTo = truckSel && act ? find({ kind: "truck", good: truckSel.good, from: truckSel.k, to: c.index }) : null;
        if (truckTo) {
          return button(cls + " ssl-target", truckTo.text, () => send(truckTo.msg), inner, tip(title, truckTo));
        }
        return el("div", { class: cls, title }, inner);
      });
      const groups = s.groups.map((g) =>
        el("div", { class: "ssl-group" }, [
          el("span", { class: "ssl-group-label", text: g.label }),
          ...g.cards.map((c) => {
            const inner = [
              icon(c.kind, "ssl-chip-icon"),
              (c.kind === "merchant" || c.kind === "delivery") && c.good ? cube(c.good) : null,
              c.badge && c.kind !== "merchant" ? el("b", { text: c.badge }) : null,
              // the name, unless the group's label and the card's number say it all (never an icon alone)
              g.cards.length === 1 || c.kind === "merchant" || c.kind === "delivery" || !c.badge
                ? el("span", { text: c.name })
                : null,
            ];
            const cls = "ssl-chip ssl-season-" + c.season + (hlCards.has(c.id) ? " ssl-recent" : "");
            const title = `${c.name} (${c.season_name})\n${c.text}${ruleOf(c)}`;
            const sale = act && single && c.kind === "merchant" && c.good === single
              ? find({ kind: "sell", good: single }) : null;
            if (sale) return button(cls + " ssl-target", sale.text, () => send(sale.msg), inner, tip(title, sale));
            const delivery = act && single && c.kind === "delivery" && c.good === single
              ? find({ kind: "deliver", good: single }) : null;
            if (delivery) {
              return button(cls + " ssl-target", delivery.text, () => send(delivery.msg), inner, tip(title, delivery));
            }
            return el("span", { class: cls, title }, inner);
          }),
        ]),
      );
      const store = (place, info, title) => {
        const drop = !act || !single ? null
          : find(place === "warehouse" ? { kind: "store", good: single } : { kind: "keep", good: single });
        const cells = [];
        for (let k = 0; k < Math.max(info.cap, info.goods.length); k++) {
          const g = info.goods[k];
          const take = g !== undefined && act && !drop ? find({ kind: "take", good: g, source: place }) : null;
          if (g === undefined) cells.push(el("span", { class: "ssl-slot ssl-slot-store" }));
          else if (take) {
            const label = (dock.take_labels || {})[take.text] || take.text;
            cells.push(button("ssl-cube-btn ssl-legal", label, () => send(take.msg), [cube(g)], tip(label, take)));
          } else cells.push(cube(g));
        }
        const inner = [
          el("span", { class: "ssl-store-label", text: title }),
          el("span", { class: "ssl-store-cells" }, cells),
        ];
        if (drop) {
          return button("ssl-store ssl-target", drop.text, () => send(drop.msg), inner, tip(drop.text, drop));
        }
        return el("div", { class: "ssl-store" + (info.cap ? "" : " ssl-none") }, inner);
      };
      const warehouse = s.warehouse.has
        ? store("warehouse", s.warehouse, L.warehouse)
        : el("div", { class: "ssl-store ssl-none" }, [el("span", { class: "ssl-store-label", text: L.no_warehouse })]);
      const hall = store("hall", s.hall, L.hall);
      return el(
        "section",
        {
          class:
            "ssl-seat" +
            (s.to_move ? " ssl-active" : "") +
            (hlSeats.has(s.index) ? " ssl-recent" : "") +
            (s.winner ? " ssl-won" : ""),
          style: { "--seat": s.colour, "--seat-ink": s.ink },
          "data-seat": s.index,
        },
        [
          head,
          stats,
          kaiStrip(s),
          s.unloading.length
            ? el("div", { class: "ssl-unloading" }, [
                el("span", { class: "ssl-small", text: L.unloading + ":" }),
                ...s.unloading.map((g) => cube(g)),
              ])
            : null,
          s.contracts.length ? el("div", { class: "ssl-contracts" }, contracts) : null,
          groups.length ? el("div", { class: "ssl-groups" }, groups) : null,
          !s.contracts.length && !groups.length
            ? el("div", { class: "ssl-small ssl-nocards", text: L.no_cards })
            : null,
          el("div", { class: "ssl-stores" }, [warehouse, hall]),
        ],
      );
    });

    const parts = [
      header,
      banner,
      el("div", { class: "ssl-main" }, [el("div", { class: "ssl-left" }, [topRow, harbour, kaiBar, dockPanel]), side]),
      el("div", { class: "ssl-seats", style: { "--n": m.seats.length } }, seats), // one row of seats (board.css)
    ];
    root.replaceChildren(...parts.filter(Boolean));
  }

  const onModel = () => {
    selected = [];
    spySel = null;
    truckSel = null;
    draw();
  };
  const onError = () => {
    dismissed = false;
    draw();
  };
  model.on("change:model", onModel);
  model.on("change:highlight", draw);
  model.on("change:error", onError);
  model.on("change:lang_switch", draw);
  draw();
  return () => {
    wrap.remove();
    model.off("change:lang_switch", draw);
    model.off("change:model", onModel);
    model.off("change:highlight", draw);
    model.off("change:error", onError);
  };
}

export default { render };
