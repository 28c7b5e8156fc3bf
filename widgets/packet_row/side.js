// The side column: the round's status (harbour master, boards of the round, pawns), the decision (buttons, cash,
// the fulfilments narrowed by the picked cards, the final ranking) and the event log.

function statusPanel(c) {
  const { m, L } = c;
  const holders = m.seats.filter((s) => s.holds_pawn);
  const round = m.boards.filter((b) => b.chosen).sort((x, y) => x.chosen_order - y.chosen_order).map((b) => b.name);
  return el("div", { class: "prb-panel prb-status" }, [
    el("div", { class: "prb-line" }, [icon("anchor", "prb-mini"), el("b", { text: L.harbour_master + ": " }),
      pawn(c, m.harbour_master), el("span", { text: m.seats[m.harbour_master].name })]),
    el("div", { class: "prb-line" }, [el("b", { text: L.round_boards + ": " }),
      el("span", { text: round.join(" → ") || "–" })]),
    m.phase === "choose" || m.phase === "decide"
      ? el("div", { class: "prb-line" }, [el("b", { text: L.pawns + ": " }),
          holders.length ? el("span", { class: "prb-pawns" }, holders.map((s) => pawn(c, s.index)))
            : el("span", { text: L.pawns_none })])
      : null,
    el("div", { class: "prb-line prb-small", text: m.short_label }),
  ]);
}

function actionsPanel(c) {
  const { m, L, ui } = c;
  const parts = [];
  const buttons = m.buttons.map((bt) => [bt, c.byText(bt.action)]).filter(([, a]) => a);
  const cash = m.cash.map((cs) => [cs, c.byText(cs.action)]).filter(([, a]) => a);
  if (buttons.length || cash.length) {
    parts.push(el("div", { class: "prb-buttons" }, [
      ...buttons.map(([bt, a]) => button("prb-btn prb-btn-" + bt.kind, bt.title, () => c.act(a), [bt.label],
        bt.title)),
      ...cash.map(([cs, a]) => button("prb-btn prb-btn-cash", cs.label, () => c.act(a), [cs.label])),
    ]));
  }
  const options = m.fulfil || [];
  if (options.length) {
    const list = c.matching.map((o) => button("prb-opt", o.label, () => c.send(o.msg),
      [el("span", { class: "prb-opt-pays", text: "+$" + o.pays }), el("span", { class: "prb-opt-label", text: o.label })],
      o.action));
    parts.push(el("div", { class: "prb-fulfil" }, [
      el("div", { class: "prb-ftitle" }, [
        el("b", { text: `${L.fulfil} (${c.matching.length}/${options.length})` }),
        ui.selHand.length || ui.selShips.length
          ? button("prb-link", L.clear, () => {
              ui.selHand = [];
              ui.selShips = [];
              c.redraw();
            }, [L.clear])
          : null,
      ]),
      el("div", { class: "prb-small", text: L.fulfil_hint }),
      list.length ? el("div", { class: "prb-opts" }, list)
        : el("div", { class: "prb-small prb-warn", text: L.fulfil_none_match }),
    ]));
  }
  if (m.ranking) {
    parts.push(el("ol", { class: "prb-ranking" }, m.ranking.map((r) =>
      el("li", { class: "prb-rank" + (r.rank === 1 ? " prb-rank-1" : "") }, [
        el("span", { class: "prb-rank-n", text: r.rank + "." }), pawn(c, r.seat),
        el("span", { text: m.seats[r.seat].name }),
        el("span", { class: "prb-small", text: r.label }),
      ]))));
  }
  return parts.length ? el("div", { class: "prb-panel prb-actions" }, parts) : null;
}

function logPanel(c) {
  const { m, L } = c;
  return el("div", { class: "prb-panel prb-log" }, [
    el("div", { class: "prb-ltitle", text: L.log }),
    el("ol", { class: "prb-lentries" }, m.log.map((e) => el("li", { class: "prb-lentry" + (e.newest ? " prb-newest" : "") }, [
      el("div", { class: "prb-lhead" }, [
        e.actor !== null && e.actor !== undefined ? pawn(c, e.actor, "prb-small-pawn") : null,
        e.action ? el("code", { class: "prb-log-action", text: e.phrase || e.action, title: e.action })
          : el("span", { class: "prb-small", text: L.log_start }),
      ]),
      ...e.texts.map((t) => el("div", { class: "prb-ltext", text: t })),
    ]))),
  ]);
}
