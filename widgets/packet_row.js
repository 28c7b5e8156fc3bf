// The Packet Row board view (anywidget ESM, no build step).
// It draws the synced `model`, `highlight` and `error` traits and reports clicks with
// model.send({kind: ...}); Python validates every message and applies it. The only state kept here is
// which cards are selected to narrow the list of fulfilments, and whether the error banner was dismissed.
// Hidden information is Python's business: the model holds only what the viewing seat may see.

const SVG = "http://www.w3.org/2000/svg";

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
    } else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function icon(name, cls = "prb-icon") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name] || ICONS.contract);
  svg.append(path);
  return svg;
}

// A clickable element: a real button, so it works with the keyboard and screen readers.
function button(cls, label, onclick, children = [], title = undefined) {
  return el("button", { type: "button", class: cls, title: title || label, "aria-label": label, onclick }, children);
}

// Multiset helpers for the fulfilment filter.
function counts(items) {
  const c = new Map();
  for (const x of items) c.set(x, (c.get(x) || 0) + 1);
  return c;
}
function covers(big, small) {
  const b = counts(big);
  for (const [k, n] of counts(small)) if ((b.get(k) || 0) < n) return false;
  return true;
}

function render({ model, el: host }) {
  const root = el("div", { class: "prb-board" });
  const wrap = el("div", { class: "prb-wrap" }, [root]);
  host.append(wrap);
  let selHand = []; // indices into the viewer's hand, selected to narrow the fulfilments
  let selShips = []; // indices into the viewer's ships
  let dismissed = false;

  // every click names the position it was made on (model.rev); Python refuses one made on an earlier position
  const send = (msg) => model.send(msg.kind === "lang" ? msg : { ...msg, rev: (model.get("model") || {}).rev });


  function draw() {
    const m = model.get("model") || {};
    if (!m.format) {
      root.replaceChildren(el("div", { class: "prb-empty", text: "…" }));
      return;
    }
    const hl = model.get("highlight") || {};
    const error = model.get("error") || "";
    const L = m.labels || {};
    const hlBoards = new Set(hl.boards || []);
    const hlSlots = new Set((hl.slots || []).map((s) => s.join(" ")));
    const hlSeats = new Set(hl.seats || []);
    const me = m.viewer !== null && m.viewer !== undefined ? m.seats[m.viewer] : null;
    const options = m.fulfil || [];
    if (me && me.hand) {
      selHand = selHand.filter((i) => i < me.hand.length);
      selShips = selShips.filter((i) => i < me.ships.length);
    } else {
      selHand = [];
      selShips = [];
    }
    const selIds = me && me.hand ? selHand.map((i) => me.hand[i].id) : [];
    const selDests = me ? selShips.map((i) => me.ships[i].dest) : [];
    const matching = options.filter((o) => covers(o.hand, selIds) && covers(o.ship_dests, selDests));
    const shipDests = new Set(options.flatMap((o) => o.ship_dests));

    // ---- pieces ------------------------------------------------------------------------------
    function pawn(seat, cls = "") {
      const s = m.seats[seat];
      return el("span", { class: "prb-pawn-wrap " + cls, title: s.name }, [
        el("span", {
          class: "prb-pawn prb-shape-" + s.shape,
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
    function cardBody(info) {
      const k = info.kind;
      if (k === "contract") {
        return [
          el("div", { class: "prb-c-main" }, [goodChip(info, String(info.amount)), el("span", { class: "prb-c-gname", text: info.good_name })]),
          el("div", { class: "prb-c-dest", title: info.dest_name }, [icon("ship", "prb-mini"), info.dest_code]),
          el("div", { class: "prb-c-pays", text: "+$" + info.pays }),
        ];
      }
      if (k === "goods") {
        return [el("div", { class: "prb-c-main" }, [goodChip(info, "×" + info.amount)]),
          el("div", { class: "prb-c-gname prb-center", text: info.good_name })];
      }
      if (k === "gold") {
        return [el("div", { class: "prb-c-main prb-bars" }, Array.from({ length: info.bars }, () => el("span", { class: "prb-bar" }))),
          el("div", { class: "prb-c-gname prb-center", text: info.name })];
      }
      if (k === "ship") {
        return [el("div", { class: "prb-c-main" }, [icon("ship", "prb-card-icon")]),
          el("div", { class: "prb-c-dest prb-big", title: info.dest_name, text: info.dest_code })];
      }
      if (k === "building") {
        return [el("div", { class: "prb-c-main" }, [icon("building", "prb-card-icon")]),
          el("div", { class: "prb-c-vp", text: `${info.vp} ${L.vp || "VP"}` })];
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
    function card(info, extra = {}) {
      const cls = `prb-card prb-b-${info.board} prb-k-${info.kind}` + (info.start ? " prb-start" : "") + (extra.cls ? " " + extra.cls : "");
      const title = `${info.name}\n${info.text}` + (info.rule ? `\n\n${info.rule}` : "") + (extra.hint ? `\n\n${extra.hint}` : "");
      const inner = [cardHead(info), el("div", { class: "prb-card-body" }, cardBody(info))];
      if (extra.onclick) return button(cls + " prb-clickable", extra.label || info.name, extra.onclick, inner, title);
      return el("div", { class: cls, title }, inner);
    }

    // ---- header ------------------------------------------------------------------------------
    const mover = m.to_move;
    const header = el("header", { class: "prb-top" }, [
      el("div", { class: "prb-title" }, [
        el("span", { class: "prb-title-name", text: m.title }),
        el("span", { class: "prb-round", text: m.round_label }),
      ]),
      el("ol", { class: "prb-phases" },
        m.phases.map((p) => el("li", { class: p.current ? "prb-phase prb-current" : "prb-phase", text: p.name }))),
      el("div", { class: "prb-prompt", role: "status" }, [
        mover !== null && mover !== undefined ? pawn(mover) : null,
        el("span", { text: m.prompt }),
      ]),
      model.get("lang_switch") === false ? null : el("div", { class: "prb-lang", role: "group" }, ["en", "de"].map((code) =>
        button("prb-lang-btn" + (m.lang === code ? " prb-on" : ""), code.toUpperCase(),
          () => send({ kind: "lang", lang: code }), [code.toUpperCase()]))),
    ]);

    const banner = error && !dismissed
      ? el("div", { class: "prb-error", role: "alert" }, [
          el("span", { text: error }),
          button("prb-error-x", L.dismiss, () => { dismissed = true; draw(); }, ["×"]),
        ])
      : null;

    // ---- the four boards ---------------------------------------------------------------------
    const boards = m.boards.map((b) => {
      function slot(s, where) {
        const key = `${b.id} ${where} ${s.index}`;
        const cls = "prb-slot" + (hlSlots.has(key) ? " prb-recent" : "") + (s.legal ? " prb-legal" : "");
        let inner;
        if (s.card) {
          const take = s.legal
            ? () => send({ kind: "take", board: b.id, supply: where, slot: s.index })
            : null;
          inner = card(s.card, take ? { onclick: take, label: `${s.action}: ${s.card.name}`, hint: s.action } : {});
        } else {
          inner = el("div", { class: "prb-card prb-gone", title: L.empty_slot });
        }
        return el("div", { class: cls }, [inner, s.pawn !== null && s.pawn !== undefined ? pawn(s.pawn, "prb-on-slot") : null]);
      }
      const head = el("div", { class: "prb-bhead" }, [
        el("span", { class: "prb-bname", text: b.name }),
        b.active ? el("span", { class: "prb-tag prb-tag-active", text: L.active }) : null,
        b.chosen && !b.active ? el("span", { class: "prb-tag prb-tag-chosen", text: `${L.chosen} ${b.chosen_order}` }) : null,
        b.short ? el("span", { class: "prb-tag prb-tag-short", text: L.short }) : null,
        el("span", { class: "prb-deck", title: b.discard_label }, [icon("deck", "prb-mini"), b.deck_label]),
        b.choose.legal
          ? button("prb-btn prb-btn-choose", `${b.choose.label}: ${b.name}`, () => send({ kind: "choose", board: b.id }), [b.choose.label])
          : null,
      ]);
      return el("section", {
        class: `prb-bd prb-b-${b.id}` + (b.active ? " prb-active" : "") + (b.chosen ? " prb-chosen" : "") +
          (hlBoards.has(b.id) ? " prb-recent-board" : "") + (b.choose.legal ? " prb-choosable" : ""),
        "data-board": b.id,
      }, [
        head,
        el("div", { class: "prb-supplies" }, [
          el("div", { class: "prb-supply prb-cur", style: { "--slots": b.current.length } }, [
            el("div", { class: "prb-slabel", text: L.current }),
            el("div", { class: "prb-row" }, b.current.map((s) => slot(s, "current"))),
          ]),
          el("div", { class: "prb-supply prb-fut", style: { "--slots": b.future.length } }, [
            el("div", { class: "prb-slabel", text: L.future }),
            el("div", { class: "prb-row" }, b.future.map((s) => slot(s, "future"))),
          ]),
        ]),
      ]);
    });

    // ---- side panel: round status, actions, fulfilments, log -----------------------------------
    const holders = m.seats.filter((s) => s.holds_pawn);
    const status = el("div", { class: "prb-panel prb-status" }, [
      el("div", { class: "prb-line" }, [icon("anchor", "prb-mini"), el("b", { text: L.harbour_master + ": " }),
        pawn(m.harbour_master), el("span", { text: m.seats[m.harbour_master].name })]),
      el("div", { class: "prb-line" }, [el("b", { text: L.round_boards + ": " }),
        el("span", { text: m.boards.filter((b) => b.chosen).sort((x, y) => x.chosen_order - y.chosen_order).map((b) => b.name).join(" → ") || "–" })]),
      m.phase === "choose" || m.phase === "decide"
        ? el("div", { class: "prb-line" }, [el("b", { text: L.pawns + ": " }),
            holders.length ? el("span", { class: "prb-pawns" }, holders.map((s) => pawn(s.index))) : el("span", { text: L.pawns_none })])
        : null,
      el("div", { class: "prb-line prb-small", text: m.short_label }),
    ]);

    const actionParts = [];
    if (m.buttons.length || m.cash.length) {
      actionParts.push(el("div", { class: "prb-buttons" }, [
        ...m.buttons.map((bt) => button("prb-btn prb-btn-" + bt.kind, bt.title, () => send({ kind: bt.kind }), [bt.label], bt.title)),
        ...m.cash.map((c) => button("prb-btn prb-btn-cash", c.label, () => send({ kind: "cash", value: c.value }), [c.label])),
      ]));
    }
    if (options.length) {
      const list = matching.map((o) => button("prb-opt", o.label, () => send({ kind: "fulfil", contracts: o.contracts, ships: o.ships, goods: o.goods }),
        [el("span", { class: "prb-opt-pays", text: "+$" + o.pays }), el("span", { class: "prb-opt-label", text: o.label })], o.action));
      actionParts.push(el("div", { class: "prb-fulfil" }, [
        el("div", { class: "prb-ftitle" }, [
          el("b", { text: `${L.fulfil} (${matching.length}/${options.length})` }),
          selHand.length || selShips.length
            ? button("prb-link", L.clear, () => { selHand = []; selShips = []; draw(); }, [L.clear])
            : null,
        ]),
        el("div", { class: "prb-small", text: L.fulfil_hint }),
        list.length ? el("div", { class: "prb-opts" }, list) : el("div", { class: "prb-small prb-warn", text: L.fulfil_none_match }),
      ]));
    }
    if (m.ranking) {
      actionParts.push(el("ol", { class: "prb-ranking" }, m.ranking.map((r) =>
        el("li", { class: "prb-rank" + (r.rank === 1 ? " prb-rank-1" : "") }, [
          el("span", { class: "prb-rank-n", text: r.rank + "." }), pawn(r.seat), el("span", { text: m.seats[r.seat].name }),
          el("span", { class: "prb-small", text: r.label }),
        ]))));
    }
    const actions = actionParts.length ? el("div", { class: "prb-panel prb-actions" }, actionParts) : null;

    const log = el("div", { class: "prb-panel prb-log" }, [
      el("div", { class: "prb-ltitle", text: L.log }),
      el("ol", { class: "prb-lentries" }, m.log.map((e) => el("li", { class: "prb-lentry" + (e.newest ? " prb-newest" : "") }, [
        el("div", { class: "prb-lhead" }, [
          e.actor !== null && e.actor !== undefined ? pawn(e.actor, "prb-small-pawn") : null,
          e.action ? el("code", { class: "prb-log-action", text: e.phrase || e.action, title: e.action })
            : el("span", { class: "prb-small", text: L.log_start }),
        ]),
        ...e.texts.map((t) => el("div", { class: "prb-ltext", text: t })),
      ]))),
    ]);

    // ---- seats -------------------------------------------------------------------------------
    const seats = m.seats.map((s) => {
      const mine = s.viewer && m.can_act;
      const ships = s.ships.map((info, i) => {
        if (mine && shipDests.has(info.dest)) {
          const on = selShips.includes(i);
          return card(info, { cls: "prb-small-card prb-usable" + (on ? " prb-selected" : ""), label: `${L.selected}: ${info.name}`,
            onclick: () => { selShips = on ? selShips.filter((x) => x !== i) : [...selShips, i]; draw(); } });
        }
        return card(info, { cls: "prb-small-card" });
      });
      let hand;
      if (s.hand_hidden) {
        hand = el("div", { class: "prb-secret", text: L.hand_hidden });
      } else if (!s.hand.length) {
        hand = el("div", { class: "prb-small", text: L.hand_empty });
      } else {
        hand = s.hand.map((info, i) => {
          const cash = mine && info.cash ? m.cash.find((c) => c.value === info.value) : null;
          if (cash) {  // the model's cash action (its notation as the label): the page writes no notation
            return card(info, { cls: "prb-small-card prb-legal", label: cash.action, hint: cash.action,
              onclick: () => send({ kind: "cash", value: info.value }) });
          }
          if (mine && info.usable) {
            const on = selHand.includes(i);
            return card(info, { cls: "prb-small-card prb-usable" + (on ? " prb-selected" : ""), label: `${L.selected}: ${info.name}`,
              onclick: () => { selHand = on ? selHand.filter((x) => x !== i) : [...selHand, i]; draw(); } });
          }
          return card(info, { cls: "prb-small-card" });
        });
      }
      const where = s.pawn ? m.boards.find((b) => b.id === s.pawn[0]) : null;
      return el("section", {
        class: "prb-seat" + (s.to_move ? " prb-tomove" : "") + (s.viewer ? " prb-viewer" : "") +
          (hlSeats.has(s.index) ? " prb-recent-seat" : "") + (s.winner ? " prb-won" : ""),
        style: { "--seat": s.colour, "--seat-ink": s.ink },
        "data-seat": s.index,
      }, [
        el("div", { class: "prb-shead" }, [
          pawn(s.index),
          el("span", { class: "prb-sname", text: s.name }),
          s.viewer ? el("span", { class: "prb-tag prb-tag-you", text: L.viewer }) : null,
          s.harbour_master ? el("span", { class: "prb-hm", title: L.harbour_master }, [icon("anchor", "prb-mini"), L.harbour_master]) : null,
          s.to_move ? el("span", { class: "prb-tag prb-tag-move", text: L.to_move }) : null,
          s.winner ? el("span", { class: "prb-tag prb-tag-won", text: L.winner }) : null,
          el("span", { class: "prb-money", title: L.money, text: s.money_label }),
        ]),
        el("div", { class: "prb-sline prb-small" }, [
          s.holds_pawn ? el("span", {}, [icon("pawn", "prb-mini"), L.pawns]) : null,
          where ? el("span", { text: `→ ${where.name}` + (s.pawn[1] === "future" ? ` (${L.future})` : "") }) : null,
          s.score_label ? el("span", { class: "prb-score", title: s.breakdown, text: s.score_label }) : null,
        ]),
        el("div", { class: "prb-holdings prb-ships" }, [
          el("span", { class: "prb-small prb-label", text: L.ships + ":" }),
          ...(ships.length ? ships : [el("span", { class: "prb-small", text: L.no_ships })]),
        ]),
        el("div", { class: "prb-holdings prb-hand" }, [
          s.hand_hidden ? null : el("span", { class: "prb-small prb-label", text: s.hand_label + ":" }),
          ...[].concat(hand),
        ]),
      ]);
    });

    root.replaceChildren(...[
      header,
      banner,
      el("div", { class: "prb-main" }, [
        el("div", { class: "prb-left" }, [
          el("div", { class: "prb-boards" }, boards),
          el("div", { class: "prb-seats" + (m.seats.some((s) => s.hand_hidden) ? (me && !me.hand_hidden ? " prb-seats-viewer" : "") : " prb-compact"),
            style: { "--n": m.seats.length } }, seats),
        ]),
        el("div", { class: "prb-side" }, [status, actions, log]),
      ]),
    ].filter(Boolean));
  }

  const onModel = () => {
    selHand = [];
    selShips = [];
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
