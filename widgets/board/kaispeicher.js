// Kaispeicher's regions: the top row (cards to reserve), the reserved column, the bar of the demand/spy/fire
// decisions, and a seat's strip of break cards, grey workers, deliveries and special cards. Each is null in a base
// game (the model has no `kai` part there).

function topRow(c) {
  const { kai, m } = c;
  if (!kai) return null;
  const tops = kai.top.map((tp) => {
    if (!tp.card) return el("div", { class: "ssl-top-card ssl-top-gone" });
    const title = cardTitle(tp.card);
    const reserve = m.can_act && tp.legal ? c.find("reserve", { space: tp.index }) : null;
    const inner = [
      el("div", { class: "ssl-top-head" }, [
        el("span", { class: "ssl-card-name" + nameSize(tp.card.name), text: tp.card.name }),
      ]),
      el("div", { class: "ssl-top-body" }, [
        el("span", { class: "ssl-card-season", text: tp.card.season }),
        icon(tp.card.kind, "ssl-top-icon"),
        tp.card.badge ? el("b", { class: "ssl-top-badge", text: tp.card.badge }) : null,
        tp.card.kind === "contract"
          ? el("span", { class: "ssl-top-goods" }, tp.card.goods.map((g) => emptySlot(c, g, "ssl-slot-small")))
          : null,
        (tp.card.kind === "merchant" || tp.card.kind === "delivery") && tp.card.good ? cube(c, tp.card.good) : null,
        tp.cargo.length ? el("span", { class: "ssl-top-goods" }, tp.cargo.map((g) => cube(c, g))) : null,
      ]),
    ];
    const cls = `ssl-top-card ssl-season-${tp.card.season}`;
    if (reserve) {
      return button(cls + " ssl-legal", `${kai.top_hint} — ${tp.card.name}`, () => c.act(reserve), inner,
        c.tip(`${title}\n\n${kai.top_hint}`, reserve));
    }
    return c.rules.card(el("div", { class: cls, title }, inner), tp.card);
  });
  const topEmpty = kai.top.every((tp) => !tp.card);
  return el("section", { class: "ssl-kai-top" + (topEmpty ? " ssl-top-empty" : ""), "aria-label": kai.top_label,
    title: kai.top_hint }, [
    el("div", { class: "ssl-kai-top-label" }, [
      el("b", { text: kai.top_label }),
      topEmpty ? el("span", { class: "ssl-small", text: kai.top_empty }) : null,
      !topEmpty && m.can_act && kai.top_click ? el("span", { class: "ssl-top-click", text: kai.top_click }) : null,
    ]),
    topEmpty ? null : el("div", { class: "ssl-top-cards" }, tops),
  ]);
}

function reservedColumn(c) {
  const { kai, m } = c;
  if (!kai) return null;
  const entries = kai.reserved.map((r) => {
    const title = `${cardTitle(r.card)}\n\n${r.title}`;
    return el("div", {
      class: "ssl-res" + (r.current ? " ssl-current" : "") + (c.hlCards.has(r.card.id) ? " ssl-recent" : ""),
      title,
    }, [
      c.rules.card(el("div", { class: `ssl-res-card ssl-season-${r.card.season}` }, [
        icon(r.card.kind, "ssl-chip-icon"),
        r.card.badge ? el("b", { text: r.card.badge }) : null,
        el("span", { class: "ssl-res-name", text: r.card.name }),
      ]), r.card),
      el("div", { class: "ssl-res-foot" }, [
        worker(c, r.seat, r.current ? "ssl-decider" : "", r.grey),
        r.cargo.length ? el("span", { class: "ssl-res-cargo" }, r.cargo.map((g) => cube(c, g))) : null,
        el("span", { class: "ssl-res-price", text: r.price_label }),
      ]),
      r.current ? el("div", { class: "ssl-decider-label", text: r.decider_label }) : null,
      r.current && m.can_act ? buyRow(c, r.buy_label) : null,
    ]);
  });
  if (!entries.length && m.phase !== "demand") return null;
  return el("div", { class: "ssl-reserved", "aria-label": kai.reserved_label }, [
    el("div", { class: "ssl-price ssl-res-head", text: kai.reserved_label }),
    el("div", { class: "ssl-res-list" }, entries.length ? entries : [
      el("i", { class: "ssl-res-empty", text: kai.reserved_empty }),
    ]),
  ]);
}

// The decisions of the demand, spy and fire steps: each button sends the model's message of its action.
function kaiBar(c) {
  const { kai, m } = c;
  if (!kai) return null;
  const barButtons = c.kaiButtons
    .filter((b) => b.kind !== "buyfree")
    .map((b) => [b, c.find(b.kind)])
    .filter(([, a]) => a)
    .map(([b, a]) =>
      button("ssl-btn" + (b.kind === "pass" ? " ssl-btn-pass" : " ssl-btn-buy"), b.label, () => c.act(a), [b.label],
        c.tip(b.label, a)));
  const fire = kai.fire;
  const firePanel = fire
    ? c.rules.card(el("div", { class: "ssl-kai-fire", title: fire.card.text + ruleOf(fire.card) }, [
        el("span", { class: "ssl-fire" }, [icon("fire", "ssl-fire-icon"), el("b", { text: fire.label })]),
        ...fire.totals.map((x) =>
          el("span", { class: "ssl-fire-total" + (x.seat === fire.seat ? " ssl-on" : "") }, [
            worker(c, x.seat),
            el("span", { text: x.total }),
            x.delta ? el("b", { class: x.delta > 0 ? "ssl-plus" : "ssl-minus",
                                 text: (x.delta > 0 ? "+" : "−") + Math.abs(x.delta) }) : null,
          ]),
        ),
      ]), fire.card)
    : null;
  const hintText = m.can_act ? kai.spy_hint || kai.hint : "";
  const spyHint = hintText ? el("span", { class: "ssl-kai-hint", text: hintText }) : null;
  if (!firePanel && !barButtons.length && !spyHint) return null;
  return el("section", { class: "ssl-kai-bar", role: "group" }, [
    m.to_move !== null && m.to_move !== undefined ? worker(c, m.to_move) : null,
    firePanel,
    spyHint,
    el("div", { class: "ssl-kai-buttons" }, barButtons),
  ]);
}

// A seat's Kaispeicher holdings: break cards, grey workers, delivery points and its special cards.
function kaiStrip(c, s) {
  const k = s.kai;
  if (!k) return null;
  const KL = c.kai.labels;
  const items = [];
  if (k.breaks) {
    items.push(el("span", { class: "ssl-kai-item", title: KL.breaks_title }, [
      icon("coffee_break", "ssl-chip-icon"), el("span", { text: k.breaks_label })]));
  }
  if (k.grey) {
    items.push(el("span", { class: "ssl-kai-item", title: KL.grey_title }, [
      worker(c, s.index, "", true), el("span", { text: k.grey_label })]));
  }
  if (k.delivered || k.delivers) {
    items.push(el("span", { class: "ssl-kai-item", title: KL.delivered_title }, [
      icon("delivery", "ssl-chip-icon"), el("span", { text: k.delivered_label })]));
  }
  for (const sc of k.specials) {
    items.push(c.rules.card(el("span", {
      class: `ssl-chip ssl-special ssl-use-${sc.use} ssl-season-${sc.season}` + (sc.active ? " ssl-active" : "") +
        (c.hlCards.has(sc.id) ? " ssl-recent" : ""),
      title: cardTitle(sc),
    }, [icon(sc.kind, "ssl-chip-icon"), el("span", { text: sc.name }),
      el("small", { class: "ssl-use", text: sc.use_label })]), sc));
  }
  return items.length ? el("div", { class: "ssl-kai-strip", "aria-label": KL.specials }, items) : null;
}
