// The side column: the supply (draw pile with its seasons and fires, discard, stock and bag) and the event log.

function pileBox(c) {
  const { m, L } = c;
  return el("div", { class: "ssl-box ssl-pile", title: m.pile.label }, [
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
            c.rules.card(el("span", { class: "ssl-fire", title: cardTitle(f) }, [
              icon("fire", "ssl-fire-icon"),
              el("span", { text: f.strength }),
            ]), f),
          )
        : [el("span", { class: "ssl-small", text: L.no_fires })]),
    ]),
  ]);
}

function discardBox(c) {
  const { m, L } = c;
  const last = m.discard.last;
  return el("div", { class: "ssl-box ssl-discard" }, [
    el("div", { class: "ssl-box-head" }, [el("b", { text: L.discard }), el("span", { text: m.discard.label })]),
    last
      ? c.rules.card(el("span", { class: `ssl-chip ssl-season-${last.season}`, title: last.text + ruleOf(last) }, [
          icon(last.kind, "ssl-chip-icon"),
          last.badge ? el("b", { text: last.badge }) : null,
          el("span", { text: last.name }),
        ]), last)
      : el("i", { class: "ssl-small", text: L.empty }),
  ]);
}

function stockBox(c) {
  const { m, L, dock, goods } = c;
  return el("div", { class: "ssl-box ssl-stock" }, [
    el("div", { class: "ssl-box-head" }, [el("b", { text: L.stock }), el("span", { text: m.stock_label })]),
    el(
      "div",
      { class: "ssl-stock-row" },
      m.stock.map((s) => {
        const inner = [cube(c, s.good), el("span", { text: "×" + s.count })];
        const auction = m.can_act && dock && (dock.auction || []).includes(s.good)
          ? c.find("auction", { good: s.good }) : null;
        if (auction) {
          const label = `${dock.auction_label}: ${goods[s.good].name}`;
          return button("ssl-stock-item ssl-target", label, () => c.act(auction), inner, c.tip(label, auction));
        }
        return el("span", { class: "ssl-stock-item" + (s.count ? "" : " ssl-zero"), title: goods[s.good].name },
          inner);
      }),
    ),
    el("div", { class: "ssl-box-head ssl-bag" }, [el("b", { text: L.bag }), el("span", { text: m.bag_label })]),
  ]);
}

function logBox(c) {
  const { m, L } = c;
  return el("div", { class: "ssl-box ssl-log" }, [
    el("div", { class: "ssl-box-head" }, [el("b", { text: L.log })]),
    el(
      "ol",
      { class: "ssl-log-list" },
      m.log.map((entry) =>
        el("li", { class: entry.newest ? "ssl-log-entry ssl-newest" : "ssl-log-entry" }, [
          entry.actor !== null && entry.actor !== undefined ? worker(c, entry.actor) : null,
          el("code", { class: "ssl-log-action", text: entry.phrase || entry.action || L.log_start,
            title: entry.action || "" }),
          el("ul", {}, entry.texts.map((t) => el("li", { text: t }))),
        ]),
      ),
    ),
  ]);
}

function side(c) {
  return el("aside", { class: "ssl-side" }, [
    el("div", { class: "ssl-supply" }, [pileBox(c), discardBox(c), stockBox(c)]),
    logBox(c),
  ]);
}
