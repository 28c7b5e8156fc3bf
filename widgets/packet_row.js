// The Packet Row board view (anywidget ESM). Python assembles the module from widgets/common.js (what both boards
// share), the region files of widgets/packet_row/ and this file (ui/packet_row_board.py, PARTS): one drawing
// function per region, each taking the board's context `c`. It draws the synced `model`, `highlight` and `error`
// traits and reports clicks with the model's own messages ({kind: "act", verb, args}); Python validates every
// message and applies it. The only state kept here is which cards are selected to narrow the list of fulfilments,
// whether the error banner was dismissed, and which card's rule is open.
// Hidden information is Python's business: the model holds only what the viewing seat may see.

// Everything a region draws from: the model and its labels, the legal actions by their notation (the model names
// each target's action), the highlight, the selections and the fulfilments they leave.
function context(model, m, ui, send, redraw) {
  const hl = model.get("highlight") || {};
  const byText = new Map((m.actions || []).map((a) => [a.text, a]));
  const c = {
    model, m, ui, send, redraw, hl,
    error: model.get("error") || "",
    L: m.labels || {},
    byText: (text) => byText.get(text) || null,
    rules: ui.rules,
    hlBoards: new Set(hl.boards || []),
    hlSlots: new Set((hl.slots || []).map((s) => s.join(" "))),
    hlSeats: new Set(hl.seats || []),
  };
  c.act = (entry) => send(entry.msg);
  const me = m.viewer !== null && m.viewer !== undefined ? m.seats[m.viewer] : null;
  if (me && me.hand) {
    ui.selHand = ui.selHand.filter((i) => i < me.hand.length);
    ui.selShips = ui.selShips.filter((i) => i < me.ships.length);
  } else {
    ui.selHand = [];
    ui.selShips = [];
  }
  const options = m.fulfil || [];
  const selIds = me && me.hand ? ui.selHand.map((i) => me.hand[i].id) : [];
  const selDests = me ? ui.selShips.map((i) => me.ships[i].dest) : [];
  c.me = me;
  c.matching = options.filter((o) => covers(o.hand, selIds) && covers(o.ship_dests, selDests));
  c.shipDests = new Set(options.flatMap((o) => o.ship_dests));
  return c;
}

// The board top to bottom (common.js's mountBoard draws it on every change).
function boardParts(c, m) {
  const me = c.me;
  const seatsCls = "prb-seats" + (m.seats.some((s) => s.hand_hidden)
    ? (me && !me.hand_hidden ? " prb-seats-viewer" : "") : " prb-compact");
  return [
    boardHeader("prb", m, c.model, c.send, (seat) => pawn(c, seat)),
    errorBanner("prb", c.error, c.ui, c.L.dismiss, c.redraw),
    el("div", { class: "prb-main" }, [
      el("div", { class: "prb-left" }, [
        el("div", { class: "prb-boards" }, m.boards.map((b) => boardArea(c, b))),
        el("div", { class: seatsCls, style: { "--n": m.seats.length } }, m.seats.map((s) => seatArea(c, s))),
      ]),
      el("div", { class: "prb-side" }, [statusPanel(c), actionsPanel(c), logPanel(c)]),
    ]),
    c.rules.view(c.L), // last: it shows the rule of a card drawn above
  ];
}

function render({ model, el: host }) {
  return mountBoard(model, host, "prb", { context, parts: boardParts, onModel: (ui) => {
    ui.selHand = []; // indices into the viewer's hand, selected to narrow the fulfilments
    ui.selShips = []; // indices into the viewer's ships
  } });
}

export default { render };
