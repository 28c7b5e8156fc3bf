// The seats' areas: head (token, name, metal coin, to move, winner), figures, Kaispeicher's strip, cubes being
// unloaded, contracts, cards by kind, warehouse and market hall. In the loading phase the mover's contracts,
// merchants and stores become the targets of the picked dock cube.

// A cube on a contract: a Smuggler's target on another seat's contract, or the Truck's cube to move on the mover's
// own (Kaispeicher); otherwise just the cube.
function contractCube(c, s, ct, g) {
  const { dock, m, ui, goods } = c;
  if (!dock || !m.can_act || c.single) return cube(c, g);
  const steal = s.index !== dock.seat ? c.find("smuggle", { seat: s.index, index: ct.index, good: g }) : null;
  if (steal) {
    return button("ssl-cube-btn ssl-target", `${dock.smuggle_label} ${goods[g].name}`,
      (ev) => {
        ev.stopPropagation();
        c.act(steal);
      }, [cube(c, g)], c.tip(steal.text, steal));
  }
  // the Truck's moves of this cube: the model's truck actions from this contract
  const moves = (m.actions || []).filter((a) => a.msg.verb === "truck" && a.msg.args.good === g &&
    a.msg.args.from === ct.index);
  if (s.index === dock.seat && moves.length) {
    const on = ui.truckSel && ui.truckSel.good === g && ui.truckSel.k === ct.index;
    if (ui.truckSel && !on) return cube(c, g); // the target contracts are buttons now: no button inside a button
    return button("ssl-cube-btn" + (on ? " ssl-selected" : " ssl-legal"), `${dock.truck_label} ${goods[g].name}`,
      (ev) => {
        ev.stopPropagation();
        ui.truckSel = on ? null : { good: g, k: ct.index };
        ui.selected = [];
        c.redraw();
      }, [cube(c, g)], c.tip(`${dock.truck_label} ${goods[g].name}`, ...moves));
  }
  return cube(c, g);
}

function contractCard(c, s, ct, act) {
  const { L, ui } = c;
  const slots = ct.slots.map((sl) => (sl.filled ? contractCube(c, s, ct, sl.good) : emptySlot(c, sl.good)));
  const inner = [
    el("span", { class: "ssl-contract-vp", text: ct.vp }),
    el("span", { class: "ssl-contract-slots" }, slots),
    ct.done ? el("span", { class: "ssl-done-mark", text: "✓", title: L.contract_done }) : null,
  ];
  const cls = "ssl-contract ssl-season-" + ct.card.season + (ct.done ? " ssl-complete" : "") +
    (c.hlCards.has(ct.card.id) ? " ssl-recent" : "");
  const title = cardTitle(ct.card);
  const target = act && c.single ? c.find("contract", { good: c.single, index: ct.index }) : null;
  if (target) return button(cls + " ssl-target", target.text, () => c.act(target), inner, c.tip(title, target));
  const truckTo = ui.truckSel && act
    ? c.find("truck", { good: ui.truckSel.good, from: ui.truckSel.k, to: ct.index }) : null;
  if (truckTo) return button(cls + " ssl-target", truckTo.text, () => c.act(truckTo), inner, c.tip(title, truckTo));
  return c.rules.card(el("div", { class: cls, title }, inner), ct.card);
}

function cardGroup(c, g, act) {
  return el("div", { class: "ssl-group" }, [
    el("span", { class: "ssl-group-label", text: g.label }),
    ...g.cards.map((cd) => {
      const inner = [
        icon(cd.kind, "ssl-chip-icon"),
        (cd.kind === "merchant" || cd.kind === "delivery") && cd.good ? cube(c, cd.good) : null,
        cd.badge && cd.kind !== "merchant" ? el("b", { text: cd.badge }) : null,
        // the name, unless the group's label and the card's number say it all (never an icon alone)
        g.cards.length === 1 || cd.kind === "merchant" || cd.kind === "delivery" || !cd.badge
          ? el("span", { text: cd.name })
          : null,
      ];
      const cls = "ssl-chip ssl-season-" + cd.season + (c.hlCards.has(cd.id) ? " ssl-recent" : "");
      const title = cardTitle(cd);
      const sale = act && c.single && cd.kind === "merchant" && cd.good === c.single
        ? c.find("sell", { good: c.single }) : null;
      if (sale) return button(cls + " ssl-target", sale.text, () => c.act(sale), inner, c.tip(title, sale));
      const delivery = act && c.single && cd.kind === "delivery" && cd.good === c.single
        ? c.find("deliver", { good: c.single }) : null;
      if (delivery) {
        return button(cls + " ssl-target", delivery.text, () => c.act(delivery), inner, c.tip(title, delivery));
      }
      return c.rules.card(el("span", { class: cls, title }, inner), cd);
    }),
  ]);
}

// The warehouse or the market hall: a target for the picked cube (store/keep), or its cubes to take back.
function store(c, place, info, title, act) {
  const { dock } = c;
  let drop = null;
  if (act && c.single) {
    drop = place === "warehouse" ? c.find("store", { good: c.single }) : c.find("keep", { good: c.single });
  }
  const cells = [];
  for (let k = 0; k < Math.max(info.cap, info.goods.length); k++) {
    const g = info.goods[k];
    const take = g !== undefined && act && !drop ? c.find("take", { good: g, source: place }) : null;
    if (g === undefined) cells.push(el("span", { class: "ssl-slot ssl-slot-store" }));
    else if (take) {
      const label = (dock.take_labels || {})[take.text] || take.text;
      cells.push(button("ssl-cube-btn ssl-legal", label, () => c.act(take), [cube(c, g)], c.tip(label, take)));
    } else cells.push(cube(c, g));
  }
  const inner = [
    el("span", { class: "ssl-store-label", text: title }),
    el("span", { class: "ssl-store-cells" }, cells),
  ];
  if (drop) return button("ssl-store ssl-target", drop.text, () => c.act(drop), inner, c.tip(drop.text, drop));
  return el("div", { class: "ssl-store" + (info.cap ? "" : " ssl-none") }, inner);
}

function seatArea(c, s) {
  const { m, L, kai } = c;
  const act = m.can_act && s.loading && c.dock;
  const stat = (label, value, title, iconName) =>
    el("div", { class: "ssl-stat", title }, [
      iconName ? icon(iconName, "ssl-stat-icon") : null,
      el("span", { class: "ssl-stat-value", text: value }),
      el("span", { class: "ssl-stat-label", text: label }),
    ]);
  const breakdown = s.breakdown.map(([k, v]) => `${k}: ${v}`).join("\n");
  const head = el("div", { class: "ssl-seat-head", style: { borderColor: s.colour } }, [
    worker(c, s.index),
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
  const contracts = s.contracts.map((ct) => contractCard(c, s, ct, act));
  const groups = s.groups.map((g) => cardGroup(c, g, act));
  const warehouse = s.warehouse.has
    ? store(c, "warehouse", s.warehouse, L.warehouse, act)
    : el("div", { class: "ssl-store ssl-none" }, [el("span", { class: "ssl-store-label", text: L.no_warehouse })]);
  const hall = store(c, "hall", s.hall, L.hall, act);
  return el(
    "section",
    {
      class:
        "ssl-seat" +
        (s.to_move ? " ssl-active" : "") +
        (c.hlSeats.has(s.index) ? " ssl-recent" : "") +
        (s.winner ? " ssl-won" : ""),
      style: { "--seat": s.colour, "--seat-ink": s.ink },
      "data-seat": s.index,
    },
    [
      head,
      stats,
      kaiStrip(c, s),
      s.unloading.length
        ? el("div", { class: "ssl-unloading" }, [
            el("span", { class: "ssl-small", text: L.unloading + ":" }),
            ...s.unloading.map((g) => cube(c, g)),
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
}
