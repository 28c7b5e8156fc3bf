// The Speicherstadt board view (anywidget ESM, no build step).
// It draws the synced `model`, `highlight` and `error` traits and reports clicks with
// model.send({kind: ...}); Python validates every message and applies it. The only state kept here is
// which dock cubes are selected and whether the error banner was dismissed.

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

  const send = (msg) => model.send(msg);

  function draw() {
    const m = model.get("model") || {};
    if (!m.format) {
      root.replaceChildren(el("div", { class: "ssl-empty", text: "…" }));
      return;
    }
    const hl = model.get("highlight") || {};
    const error = model.get("error") || "";
    const goods = Object.fromEntries((m.goods || []).map((g) => [g.id, g]));
    const legal = new Set(m.legal || []);
    const L = m.labels || {};
    const dock = m.dock;
    if (dock) selected = selected.filter((i) => i < dock.goods.length);
    else selected = [];
    const selGoods = dock ? selected.map((i) => dock.goods[i]) : [];
    const single = selGoods.length === 1 ? selGoods[0] : null;

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
    function worker(seat, cls = "") {
      const s = m.seats[seat];
      return el("span", { class: "ssl-worker-wrap " + cls, title: s.name }, [
        el("span", {
          class: "ssl-worker ssl-shape-" + s.shape,
          style: { background: s.colour, color: s.ink },
          text: s.short,
        }),
      ]);
    }
    function card(info, extra = {}) {
      const node = el(
        "div",
        {
          class: `ssl-card ssl-season-${info.season} ssl-kind-${info.kind}` + (extra.cls ? " " + extra.cls : ""),
          title: `${info.name} (${info.season_name})\n${info.text}`,
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
      el(
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

    // ---- harbour: the water spaces with their building spaces -------------------------------
    const hlSpaces = new Set(hl.spaces || []);
    const columns = m.spaces.map((sp) => {
      const slots = [];
      for (let k = 0; k < sp.slots; k++) {
        const w = sp.workers[k];
        slots.push(
          el("div", { class: "ssl-bslot" + (k === sp.workers.length && sp.legal ? " ssl-next" : "") }, [
            w !== undefined ? worker(w, k === 0 && sp.current ? "ssl-decider" : "") : null,
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
        if (m.can_act) {
          controls.push(
            el("div", { class: "ssl-buy-row" }, [
              button("ssl-btn ssl-btn-buy", sp.buy_label, () => send({ kind: "buy" }), [sp.buy_label]),
              button("ssl-btn ssl-btn-pass", L.pass, () => send({ kind: "pass" }), [L.pass]),
            ]),
          );
        }
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
          title: clickable ? `${sp.title}\n${sp.place_hint}` : sp.title,
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
    const quiet = m.spaces.every((sp) => !sp.card);
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
    const harbour = el("section", { class: "ssl-harbour" + (quiet ? " ssl-quiet" : "") }, [
      el("div", { class: "ssl-spaces" }, columns),
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
            draw();
          },
          [cube(g)],
        );
      });
      const tools = [];
      if (m.can_act && selGoods.length === 3) {
        const order = (m.goods || []).map((g) => g.id);
        const given = [...selGoods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
        tools.push(el("span", { class: "ssl-tool-label", text: L.convert_to }));
        for (const g of order) {
          const text = `convert ${given.join(" ")} to ${g}`;
          if (!legal.has(text)) continue;
          tools.push(
            button("ssl-cube-btn ssl-legal", goods[g].name, () => send({ kind: "convert", goods: given, to: g }), [
              cube(g),
            ]),
          );
        }
      }
      if (m.can_act && selGoods.length === 2) {
        const order = (m.goods || []).map((g) => g.id);
        const given = [...selGoods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
        if (legal.has(`hallsell ${given.join(" ")}`)) {
          tools.push(button("ssl-btn", L.hallsell, () => send({ kind: "hallsell", goods: given }), [L.hallsell]));
        }
      }
      dockPanel = el("section", { class: "ssl-dock", "aria-label": dock.label }, [
        el("div", { class: "ssl-dock-head" }, [worker(dock.seat), el("b", { text: dock.label })]),
        el("div", { class: "ssl-dock-cubes" }, cubes.length ? cubes : [el("i", { text: L.dock_empty })]),
        el("div", { class: "ssl-dock-tools" }, tools),
        m.can_act ? el("div", { class: "ssl-dock-hint", text: L.dock_hint }) : null,
        m.can_act && legal.has("done")
          ? button("ssl-btn ssl-btn-done", L.done, () => send({ kind: "done" }), [L.done])
          : null,
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
              el("span", { class: "ssl-fire", title: `${f.name} (${f.season_name})\n${f.text}` }, [
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
        ? el("span", { class: `ssl-chip ssl-season-${m.discard.last.season}`, title: m.discard.last.text }, [
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
        m.stock.map((s) =>
          el("span", { class: "ssl-stock-item" + (s.count ? "" : " ssl-zero"), title: goods[s.good].name }, [
            cube(s.good),
            el("span", { text: "×" + s.count }),
          ]),
        ),
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
            el("code", { class: "ssl-log-action", text: entry.action || L.log_start }),
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
        stat(L.track, s.track > 0 ? "+" + s.track : s.track, L.track_hint),
        stat(L.score, s.score, m.phase === "over" ? L.final_score + "\n" + breakdown : L.score_hint + "\n" + breakdown),
        stat(L.firemen, s.firemen, L.firemen, "fireman"),
      ]);
      const contracts = s.contracts.map((c) => {
        const target = act && single ? `contract ${single} ${c.index}` : null;
        const ok = target && legal.has(target);
        const slots = c.slots.map((sl) => (sl.filled ? cube(sl.good) : emptySlot(sl.good)));
        const inner = [
          el("span", { class: "ssl-contract-vp", text: c.vp }),
          el("span", { class: "ssl-contract-slots" }, slots),
          c.done ? el("span", { class: "ssl-done-mark", text: "✓", title: L.contract_done }) : null,
        ];
        const cls =
          "ssl-contract ssl-season-" + c.card.season + (c.done ? " ssl-complete" : "") +
          (hlCards.has(c.card.id) ? " ssl-recent" : "");
        const title = `${c.card.name} (${c.card.season_name})\n${c.card.text}`;
        if (ok) {
          return button(cls + " ssl-target", target, () => send({ kind: "contract", good: single, index: c.index }),
            inner, title);
        }
        return el("div", { class: cls, title }, inner);
      });
      const groups = s.groups.map((g) =>
        el("div", { class: "ssl-group" }, [
          el("span", { class: "ssl-group-label", text: g.label }),
          ...g.cards.map((c) => {
            const inner = [
              icon(c.kind, "ssl-chip-icon"),
              c.kind === "merchant" && c.good ? cube(c.good) : null,
              c.badge && c.kind !== "merchant" ? el("b", { text: c.badge }) : null,
              g.cards.length === 1 || c.kind === "merchant" ? el("span", { text: c.name }) : null,
            ];
            const cls = "ssl-chip ssl-season-" + c.season + (hlCards.has(c.id) ? " ssl-recent" : "");
            const title = `${c.name} (${c.season_name})\n${c.text}`;
            if (act && single && c.kind === "merchant" && c.good === single && legal.has(`sell ${single}`)) {
              return button(cls + " ssl-target", `sell ${single}`, () => send({ kind: "sell", good: single }), inner,
                title);
            }
            return el("span", { class: cls, title }, inner);
          }),
        ]),
      );
      const store = (place, info, title, verb) => {
        const target = act && single ? `${verb} ${single}` : null;
        const drop = target && legal.has(target);
        const cells = [];
        for (let k = 0; k < Math.max(info.cap, info.goods.length); k++) {
          const g = info.goods[k];
          const take = g !== undefined ? `take ${g} ${place}` : null;
          if (g === undefined) cells.push(el("span", { class: "ssl-slot ssl-slot-store" }));
          else if (act && !drop && legal.has(take)) {
            const tip = (dock.take_labels || {})[take] || take;
            cells.push(button("ssl-cube-btn ssl-legal", tip, () => send({ kind: "take", good: g, source: place }),
              [cube(g)], tip));
          } else cells.push(cube(g));
        }
        const inner = [
          el("span", { class: "ssl-store-label", text: title }),
          el("span", { class: "ssl-store-cells" }, cells),
        ];
        if (drop) {
          const msg = place === "warehouse" ? { kind: "store", good: single } : { kind: "keep", good: single };
          return button("ssl-store ssl-target", target, () => send(msg), inner, target);
        }
        return el("div", { class: "ssl-store" + (info.cap ? "" : " ssl-none") }, inner);
      };
      const warehouse = s.warehouse.has
        ? store("warehouse", s.warehouse, L.warehouse, "store")
        : el("div", { class: "ssl-store ssl-none" }, [el("span", { class: "ssl-store-label", text: L.no_warehouse })]);
      const hall = store("hall", s.hall, L.hall, "keep");
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
      el("div", { class: "ssl-main" }, [el("div", { class: "ssl-left" }, [harbour, dockPanel]), side]),
      el("div", { class: "ssl-seats" }, seats),
    ];
    root.replaceChildren(...parts.filter(Boolean));
  }

  const onModel = () => {
    selected = [];
    draw();
  };
  const onError = () => {
    dismissed = false;
    draw();
  };
  model.on("change:model", onModel);
  model.on("change:highlight", draw);
  model.on("change:error", onError);
  draw();
  return () => {
    wrap.remove();
    model.off("change:model", onModel);
    model.off("change:highlight", draw);
    model.off("change:error", onError);
  };
}

export default { render };
