// The four boards: each with its head (name, state, deck, "choose"), its current and its future supply; a slot
// whose card may be taken is the button of that action.

function boardSlot(c, b, s, where) {
  const key = `${b.id} ${where} ${s.index}`;
  const cls = "prb-slot" + (c.hlSlots.has(key) ? " prb-recent" : "") + (s.legal ? " prb-legal" : "");
  let inner;
  if (s.card) {
    const take = s.legal ? c.byText(s.action) : null;
    inner = card(c, s.card, take ? { onclick: () => c.act(take), label: `${s.action}: ${s.card.name}`,
      hint: s.action } : {});
  } else {
    inner = el("div", { class: "prb-card prb-gone", title: c.L.empty_slot });
  }
  return el("div", { class: cls }, [inner, s.pawn !== null && s.pawn !== undefined ? pawn(c, s.pawn, "prb-on-slot")
    : null]);
}

function boardArea(c, b) {
  const { L } = c;
  const choose = b.choose.legal ? c.byText(b.choose.action) : null;
  const head = el("div", { class: "prb-bhead" }, [
    el("span", { class: "prb-bname", text: b.name }),
    b.active ? el("span", { class: "prb-tag prb-tag-active", text: L.active }) : null,
    b.chosen && !b.active ? el("span", { class: "prb-tag prb-tag-chosen", text: `${L.chosen} ${b.chosen_order}` })
      : null,
    b.short ? el("span", { class: "prb-tag prb-tag-short", text: L.short }) : null,
    el("span", { class: "prb-deck", title: b.discard_label }, [icon("deck", "prb-mini"), b.deck_label]),
    choose
      ? button("prb-btn prb-btn-choose", `${b.choose.label}: ${b.name}`, () => c.act(choose), [b.choose.label])
      : null,
  ]);
  return el("section", {
    class: `prb-bd prb-b-${b.id}` + (b.active ? " prb-active" : "") + (b.chosen ? " prb-chosen" : "") +
      (c.hlBoards.has(b.id) ? " prb-recent-board" : "") + (choose ? " prb-choosable" : ""),
    "data-board": b.id,
  }, [
    head,
    el("div", { class: "prb-supplies" }, [
      el("div", { class: "prb-supply prb-cur", style: { "--slots": b.current.length } }, [
        el("div", { class: "prb-slabel", text: L.current }),
        el("div", { class: "prb-row" }, b.current.map((s) => boardSlot(c, b, s, "current"))),
      ]),
      el("div", { class: "prb-supply prb-fut", style: { "--slots": b.future.length } }, [
        el("div", { class: "prb-slabel", text: L.future }),
        el("div", { class: "prb-row" }, b.future.map((s) => boardSlot(c, b, s, "future"))),
      ]),
    ]),
  ]);
}
