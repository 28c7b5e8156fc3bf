// The seats: head (pawn, name, harbour master, money), where the pawn went and the score, the ships and the hand.
// The viewer's usable cards and ships are picked to narrow the fulfilments; a money card the viewer may cash is the
// button of that action. Other seats' hands are hidden by Python (the model never holds them).

function seatArea(c, s) {
  const { m, L, ui } = c;
  const mine = s.viewer && m.can_act;
  const ships = s.ships.map((info, i) => {
    if (mine && c.shipDests.has(info.dest)) {
      const on = ui.selShips.includes(i);
      return card(c, info, { cls: "prb-small-card prb-usable" + (on ? " prb-selected" : ""),
        label: `${L.selected}: ${info.name}`,
        onclick: () => {
          ui.selShips = on ? ui.selShips.filter((x) => x !== i) : [...ui.selShips, i];
          c.redraw();
        } });
    }
    return card(c, info, { cls: "prb-small-card" });
  });
  let hand;
  if (s.hand_hidden) {
    hand = el("div", { class: "prb-secret", text: L.hand_hidden });
  } else if (!s.hand.length) {
    hand = el("div", { class: "prb-small", text: L.hand_empty });
  } else {
    hand = s.hand.map((info, i) => {
      const cash = mine && info.cash ? m.cash.find((cs) => cs.value === info.value) : null;
      const cashAct = cash ? c.byText(cash.action) : null;
      if (cashAct) { // the model's cash action (its notation as the label): the page writes no notation
        return card(c, info, { cls: "prb-small-card prb-legal", label: cash.action, hint: cash.action,
          onclick: () => c.act(cashAct) });
      }
      if (mine && info.usable) {
        const on = ui.selHand.includes(i);
        return card(c, info, { cls: "prb-small-card prb-usable" + (on ? " prb-selected" : ""),
          label: `${L.selected}: ${info.name}`,
          onclick: () => {
            ui.selHand = on ? ui.selHand.filter((x) => x !== i) : [...ui.selHand, i];
            c.redraw();
          } });
      }
      return card(c, info, { cls: "prb-small-card" });
    });
  }
  const where = s.pawn ? m.boards.find((b) => b.id === s.pawn[0]) : null;
  return el("section", {
    class: "prb-seat" + (s.to_move ? " prb-tomove" : "") + (s.viewer ? " prb-viewer" : "") +
      (c.hlSeats.has(s.index) ? " prb-recent-seat" : "") + (s.winner ? " prb-won" : ""),
    style: { "--seat": s.colour, "--seat-ink": s.ink },
    "data-seat": s.index,
  }, [
    el("div", { class: "prb-shead" }, [
      pawn(c, s.index),
      el("span", { class: "prb-sname", text: s.name }),
      s.viewer ? el("span", { class: "prb-tag prb-tag-you", text: L.viewer }) : null,
      s.harbour_master ? el("span", { class: "prb-hm", title: L.harbour_master }, [icon("anchor", "prb-mini"),
        L.harbour_master]) : null,
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
}
