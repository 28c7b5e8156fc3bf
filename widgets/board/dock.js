// The dock of the loading phase: the cubes to load (picked first, then their target clicked: a contract, a merchant,
// a store), the exchange and the market-hall sale of the picked cubes, Kaispeicher's Auction Hall, Smuggler and
// Truck, and "done".

function dockPanel(c) {
  const { m, dock, goods, ui, L, find } = c;
  if (!dock) return null;
  const cubes = dock.goods.map((g, i) => {
    const on = ui.selected.includes(i);
    if (!m.can_act) return cube(c, g);
    return button(
      "ssl-cube-btn" + (on ? " ssl-selected" : "") + ((dock.moves[g] || []).length ? " ssl-legal" : ""),
      goods[g] ? goods[g].name : g,
      () => {
        ui.selected = on ? ui.selected.filter((x) => x !== i) : [...ui.selected, i];
        ui.truckSel = null;
        c.redraw();
      },
      [cube(c, g)],
      c.tip(goods[g] ? goods[g].name : g, ...(dock.moves[g] || [])),
    );
  });
  const order = (m.goods || []).map((g) => g.id);
  const given = [...c.selGoods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const tools = [];
  const kConvert = dock.k_convert || 3; // the Harbour Master (Kaispeicher) exchanges 2:1
  if (m.can_act && given.length === kConvert) {
    tools.push(el("span", { class: "ssl-tool-label", text: dock.convert_label || L.convert_to }));
    for (const g of order) {
      const conv = find("convert", { goods: given, to: g });
      if (conv) {
        tools.push(button("ssl-cube-btn ssl-legal", goods[g].name, () => c.act(conv), [cube(c, g)],
          c.tip(goods[g].name, conv)));
      }
    }
  }
  if (m.can_act && given.length === 2) {
    const sale = find("hallsell", { goods: given });
    if (sale) tools.push(button("ssl-btn", L.hallsell, () => c.act(sale), [L.hallsell], c.tip(L.hallsell, sale)));
  }
  // Kaispeicher: the Auction Hall takes a good from the stock; Smuggler and Truck act on contracts.
  const extras = [];
  if (m.can_act && dock.pending) extras.push(el("b", { class: "ssl-pending", text: dock.pending_label }));
  if (m.can_act && (dock.auction || []).length) {
    extras.push(
      el("span", { class: "ssl-tool-group" }, [
        icon("auction_hall", "ssl-chip-icon ssl-light"),
        el("span", { class: "ssl-tool-label", text: dock.auction_label }),
        ...dock.auction.map((g) => [g, find("auction", { good: g })]).filter(([, a]) => a).map(([g, a]) =>
          button("ssl-cube-btn ssl-legal", `${dock.auction_label}: ${goods[g].name}`, () => c.act(a), [cube(c, g)],
            c.tip(`${dock.auction_label}: ${goods[g].name}`, a))),
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
  const done = m.can_act ? find("done") : null;
  return el("section", { class: "ssl-dock", "aria-label": dock.label }, [
    el("div", { class: "ssl-dock-head" }, [worker(c, dock.seat), el("b", { text: dock.label })]),
    el("div", { class: "ssl-dock-cubes" }, cubes.length ? cubes : [el("i", { text: L.dock_empty })]),
    el("div", { class: "ssl-dock-tools" }, tools),
    m.can_act ? el("div", { class: "ssl-dock-hint", text: dock.hint || L.dock_hint }) : null,
    done ? button("ssl-btn ssl-btn-done", L.done, () => c.act(done), [L.done], c.tip(L.done, done)) : null,
    extras.length ? el("div", { class: "ssl-dock-extras" }, extras) : null,
  ]);
}
