// The harbour: the water spaces (a card each, the workers above it on its building spaces), the reserved column of
// Kaispeicher beside them, and the final ranking under them.

// Buy / (free with the Fish Market) / pass, for the card being resolved (a water space or a reserved card): each
// button sends the model's message of its action.
function buyRow(c, buyLabel) {
  const { find, L, kai } = c;
  const buy = find("buy");
  const free = c.freeButton ? find("buyfree") : null;
  const pass = find("pass");
  return el("div", { class: "ssl-buy-row" }, [
    buy ? button("ssl-btn ssl-btn-buy", buyLabel, () => c.act(buy), [buyLabel], c.tip(buyLabel, buy)) : null,
    free
      ? button("ssl-btn ssl-btn-free", kai.labels.free_title, () => c.act(free), [c.freeButton.label],
        c.tip(kai.labels.free_title, free))
      : null,
    pass ? button("ssl-btn ssl-btn-pass", L.pass, () => c.act(pass), [L.pass], c.tip(L.pass, pass)) : null,
  ]);
}

// The spy step: own workers that can be swapped become buttons; once one is picked, the other players' workers it
// may swap with do. Null where the worker is drawn as usual.
function spyWorker(c, sp, k) {
  const { kai, m, ui } = c;
  if (!kai || !m.can_act) return null;
  const moves = kai.spy || {};
  const key = `${sp.index} ${k}`;
  const grey = (sp.grey || [])[k];
  const w = sp.workers[k];
  if (moves[key]) {
    const on = ui.spySel === key;
    return button("ssl-worker-btn" + (on ? " ssl-selected" : " ssl-legal"), m.seats[w].name, (ev) => {
      ev.stopPropagation();
      ui.spySel = on ? null : key;
      c.redraw();
    }, [worker(c, w, "", grey)]);
  }
  if (ui.spySel && (moves[ui.spySel] || []).some(([s2, l2]) => s2 === sp.index && l2 === k)) {
    const [s1, l1] = ui.spySel.split(" ").map(Number);
    const swap = c.find("spy", { space: s1, level: l1, space_other: sp.index, level_other: k });
    if (!swap) return null;
    return button("ssl-worker-btn ssl-target", m.seats[w].name, (ev) => {
      ev.stopPropagation();
      c.act(swap);
    }, [worker(c, w, "", grey)], c.tip(m.seats[w].name, swap));
  }
  return null;
}

// One water space: price, building spaces with their workers, the card; clickable where a worker may go.
function waterSpace(c, sp) {
  const { m } = c;
  const slots = [];
  for (let k = 0; k < sp.slots; k++) {
    const w = sp.workers[k];
    slots.push(
      el("div", { class: "ssl-bslot" + (k === sp.workers.length && sp.legal ? " ssl-next" : "") }, [
        w !== undefined ? spyWorker(c, sp, k) || worker(c, w, k === 0 && sp.current ? "ssl-decider" : "",
          (sp.grey || [])[k]) : null,
      ]),
    );
  }
  const place = m.can_act && sp.legal ? c.find("place", { space: sp.index }) : null;
  const building = el("div", { class: "ssl-building" }, slots);
  const water = el("div", { class: "ssl-water" }, [
    sp.card
      ? card(c, sp.card, { cargo: sp.cargo, cls: sp.current ? "ssl-resolving" : "", inTarget: !!place })
      : el("div", { class: "ssl-card ssl-card-gone", text: "" }),
  ]);
  const controls = [];
  if (sp.current) {
    controls.push(el("div", { class: "ssl-decider-label", text: sp.decider_label }));
    if (m.can_act) controls.push(buyRow(c, sp.buy_label));
  }
  const col = el(
    "div",
    {
      class:
        "ssl-col" +
        (place ? " ssl-legal" : "") +
        (sp.current ? " ssl-current" : "") +
        (c.hlSpaces.has(sp.index) ? " ssl-recent" : "") +
        (sp.card ? "" : " ssl-resolved"),
      title: place ? c.tip(`${sp.title}\n${sp.place_hint}`, place) : sp.title,
      "data-space": sp.index,
    },
    [
      sp.card ? el("div", { class: "ssl-price", text: sp.price_label }) : el("div", { class: "ssl-price-none" }),
      building,
      water,
      ...controls,
    ],
  );
  if (place) {
    col.setAttribute("role", "button");
    col.setAttribute("tabindex", "0");
    col.setAttribute("aria-label", sp.place_hint + " — " + (sp.card ? sp.card.name : ""));
    col.addEventListener("click", () => c.act(place));
    col.addEventListener("keydown", (ev) => {
      if (ev.target === col && (ev.key === "Enter" || ev.key === " ")) {
        ev.preventDefault();
        c.act(place);
      }
    });
  }
  return col;
}

function ranking(c) {
  const { m, L } = c;
  if (!m.ranking) return null;
  return el(
    "ol",
    { class: "ssl-ranking", "aria-label": L.final_score },
    m.ranking.map((r) =>
      el("li", { class: r.rank === 1 ? "ssl-rank ssl-rank-1" : "ssl-rank" }, [
        el("span", { class: "ssl-rank-n", text: r.rank + "." }),
        worker(c, r.seat),
        el("b", { text: m.seats[r.seat].name }),
        el("span", { class: "ssl-rank-score", text: r.label }),
      ]),
    ),
  );
}

function harbour(c) {
  const { m } = c;
  const quiet = m.spaces.every((sp) => !sp.card) && !(m.kai && m.kai.reserved.length);
  return el("section", { class: "ssl-harbour" + (quiet ? " ssl-quiet" : "") }, [
    el("div", { class: "ssl-spaces" }, [...m.spaces.map((sp) => waterSpace(c, sp)), reservedColumn(c)]),
    ranking(c),
  ]);
}
