// The Speicherstadt board view (anywidget ESM). Python assembles the module from widgets/common.js (what both boards
// share), the region files of widgets/board/ and this file (ui/board.py, PARTS): one drawing function per region,
// each taking the board's context `c`. It draws the synced `model`, `highlight` and `error` traits and reports
// clicks with the model's own messages ({kind: "act", verb, args}); Python validates every message and applies it.
// The only state kept here is which dock cubes are selected, the worker (spy) or contract cube (truck) picked first
// in a two-click move of the Kaispeicher expansion, whether the error banner was dismissed, and which card's rule is
// open.

// Everything a region draws from: the model, its labels and goods, the legal actions by verb and arguments, the
// highlight, the selections; `act(entry)` sends a legal action's message, `tip` builds a hover text.
function context(model, m, ui, send, redraw) {
  const hl = model.get("highlight") || {};
  const c = {
    model, m, ui, send, redraw, hl,
    error: model.get("error") || "",
    L: m.labels || {},
    goods: Object.fromEntries((m.goods || []).map((g) => [g.id, g])),
    find: actionIndex(m.actions),
    dock: m.dock,
    kai: m.kai || null, // the Kaispeicher expansion's part of the model (absent in the base game)
    rules: ui.rules,
    hlSpaces: new Set(hl.spaces || []),
    hlSeats: new Set(hl.seats || []),
    hlCards: new Set(hl.cards || []),
  };
  c.act = (entry) => send(entry.msg);
  // Hover texts: a legal action's plain-language explanation (from the model) after the target's own title
  // (``action``: an entry of the model's actions, or the notation text the model gave).
  const why = (action) => (action ? (m.explain || {})[action.text || action] || "" : "");
  c.tip = (base, ...actions) => {
    const said = actions.map(why).filter((x) => x);
    return said.length ? (base ? `${base}\n\n${said.join("\n")}` : said.join("\n")) : base;
  };
  ui.selected = c.dock ? ui.selected.filter((i) => i < c.dock.goods.length) : [];
  c.selGoods = c.dock ? ui.selected.map((i) => c.dock.goods[i]) : [];
  c.single = c.selGoods.length === 1 ? c.selGoods[0] : null;
  c.kaiButtons = c.kai && m.can_act ? c.kai.buttons : [];
  c.freeButton = c.kaiButtons.find((b) => b.kind === "buyfree") || null;
  if (!c.kai || !Object.keys(c.kai.spy || {}).length) ui.spySel = null;
  if (!c.dock || !(c.dock.truck || []).length) ui.truckSel = null;
  return c;
}

// The board top to bottom (common.js's mountBoard draws it on every change).
function boardParts(c, m) {
  return [
    boardHeader("ssl", m, c.model, c.send, (seat) => worker(c, seat),
      [m.last_round ? el("span", { class: "ssl-lastround", text: c.L.last_round }) : null]),
    errorBanner("ssl", c.error, c.ui, c.L.dismiss, c.redraw),
    el("div", { class: "ssl-main" }, [
      el("div", { class: "ssl-left" }, [topRow(c), harbour(c), kaiBar(c), dockPanel(c)]),
      side(c),
    ]),
    el("div", { class: "ssl-seats", style: { "--n": m.seats.length } }, m.seats.map((s) => seatArea(c, s))),
    c.rules.view(c.L), // last: it shows the rule of a card drawn above
  ];
}

function render({ model, el: host }) {
  return mountBoard(model, host, "ssl", { context, parts: boardParts, onModel: (ui) => {
    ui.selected = [];
    ui.spySel = null; // Kaispeicher spy step: "space level" of the own worker picked first
    ui.truckSel = null; // Kaispeicher truck: {good, k} of the cube picked on one of the own contracts
  } });
}

export default { render };
