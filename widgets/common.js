// What the views share. The two boards (widgets/board.js for Die Speicherstadt, widgets/packet_row.js for Packet Row)
// use all of it; the move tree (tree.js) and the chart (chart.js) its element helper `el` and `listen`.
// Python puts this file before each view's own files into the one ESM string anywidget loads (ui/widget_base.py,
// `assemble`): plain top-level definitions, no imports, no build tool. A board draws its model and reports clicks;
// an action click is always one of the model's own messages ({kind: "act", verb, args}, listed in `model.actions`),
// so no view spells a click or a notation text itself.

const SVG = "http://www.w3.org/2000/svg";

// A DOM element: props (class, text, style with --custom properties, on* listeners, attributes) and children.
function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) node.style.setProperty(prop, v);
        else node.style[prop] = v;
      }
    } else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A small line icon (24×24) of a board's icon table, drawn with the current colour.
function svgIcon(table, name, cls, fallback) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", table[name] || table[fallback]);
  svg.append(path);
  return svg;
}

// A clickable element: a real button, so it works with the keyboard and screen readers (hover text: the label
// unless a title is given).
function button(cls, label, onclick, children = [], title = undefined) {
  return el("button", { type: "button", class: cls, title: title || label, "aria-label": label, onclick }, children);
}

// The board's sender: every click names the position it was made on (model.rev), so Python refuses one made on an
// earlier position; the language switch is no action and carries none.
function sender(model) {
  return (msg) => model.send(msg.kind === "lang" ? msg : { ...msg, rev: (model.get("model") || {}).rev });
}

// The model's legal actions by verb and arguments: find("contract", {good, index}) is the model's entry
// ({msg, text}) or null. The page sends entry.msg as it is.
function actionIndex(actions) {
  const keyOf = (verb, args) => verb + JSON.stringify(Object.keys(args || {}).sort().map((k) => [k, args[k]]));
  const byKey = new Map((actions || []).map((a) => [keyOf(a.msg.verb, a.msg.args), a]));
  return (verb, args = {}) => byKey.get(keyOf(verb, args)) || null;
}

// ---- the header: title, round, phases, prompt, the board's own EN/DE switch -------------------------------------

function langSwitch(p, model, m, send) {
  if (model.get("lang_switch") === false) return null;
  return el("div", { class: `${p}-lang gb-lang`, role: "group" }, ["en", "de"].map((code) =>
    button(`${p}-lang-btn gb-lang-btn` + (m.lang === code ? ` ${p}-on gb-on` : ""), code.toUpperCase(),
      () => send({ kind: "lang", lang: code }), [code.toUpperCase()])));
}

function boardHeader(p, m, model, send, moverPiece, titleExtras = []) {
  return el("header", { class: `${p}-top gb-top` }, [
    el("div", { class: `${p}-title gb-title` }, [
      el("span", { class: `${p}-title-name gb-title-name`, text: m.title }),
      el("span", { class: `${p}-round gb-round`, text: m.round_label }),
      ...titleExtras,
    ]),
    el("ol", { class: `${p}-phases gb-phases` }, m.phases.map((ph) =>
      el("li", { class: `${p}-phase gb-phase` + (ph.current ? ` ${p}-current gb-current` : ""), text: ph.name }))),
    el("div", { class: `${p}-prompt gb-prompt`, role: "status" }, [
      m.to_move !== null && m.to_move !== undefined ? moverPiece(m.to_move) : null,
      el("span", { text: m.prompt }),
    ]),
    langSwitch(p, model, m, send),
  ]);
}

// The refusal of the last click, until dismissed (× button) or the next refusal.
function errorBanner(p, error, ui, label, redraw) {
  if (!error || ui.dismissed) return null;
  return el("div", { class: `${p}-error gb-error`, role: "alert" }, [
    el("span", { text: error }),
    button(`${p}-error-x gb-error-x`, label, () => {
      ui.dismissed = true;
      redraw();
    }, ["×"]),
  ]);
}

// ---- a card's rule on click -------------------------------------------------------------------------------------
// A click on a card that is no target of a legal action (or on a card's ⓘ) opens its rule (the card's text and the
// rulebook's section, from the model: `info.text`, `info.rule`) in a small popover inside the board; a second click
// on the card, its close button or Escape closes it. No message goes to Python. The popover follows the card by id
// through redraws (a language switch re-words it) and closes when the card is no longer on the board.
function ruleBook(wrap, redraw) {
  const book = { open: null, at: null, shown: new Map() };
  book.begin = () => book.shown.clear();
  book.toggle = (info, node) => {
    if (book.open === info.id) {
      book.open = null;
    } else {
      book.open = info.id;
      const r = node.getBoundingClientRect();
      const w = wrap.getBoundingClientRect();
      book.at = { top: r.bottom - w.top + 4, left: Math.max(0, Math.min(r.left - w.left, w.width - 330)) };
    }
    redraw();
  };
  // a card element that opens its rule on click (it is no target: a target's click plays its action)
  book.card = (node, info) => {
    if (!info || !info.id) return node;
    book.shown.set(info.id, info);
    node.classList.add("gb-has-rule");
    if (book.open === info.id) node.classList.add("gb-rule-on");
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      book.toggle(info, node);
    });
    // reachable by the keyboard too: Tab to the card, Enter or Space opens its rule
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-haspopup", "dialog");
    node.setAttribute("aria-expanded", book.open === info.id ? "true" : "false");
    node.addEventListener("keydown", (ev) => {
      if (ev.target === node && (ev.key === "Enter" || ev.key === " ")) {
        ev.preventDefault();
        ev.stopPropagation();
        book.toggle(info, node);
      }
    });
    return node;
  };
  // the ⓘ of a card that sits inside a target (a water space one places a worker on)
  book.info = (info, L) => {
    if (!info || !info.id) return null;
    book.shown.set(info.id, info);
    const node = button("gb-rule-btn" + (book.open === info.id ? " gb-rule-on" : ""),
      `${L.rule_open || "Rule"}: ${info.name}`, (ev) => {
        ev.stopPropagation();
        book.toggle(info, node);
      }, ["i"]);
    node.setAttribute("aria-expanded", book.open === info.id ? "true" : "false");
    return node;
  };
  book.close = () => {
    if (book.open === null) return false;
    book.open = null;
    redraw();
    return true;
  };
  book.view = (L) => {
    const info = book.open !== null ? book.shown.get(book.open) : null;
    if (!info) {
      book.open = null;
      return null;
    }
    const style = book.at ? { top: `${book.at.top}px`, left: `${book.at.left}px` } : {};
    return el("div", { class: "gb-rule-pop", role: "dialog", "aria-label": info.name, "data-card": info.id, style }, [
      el("div", { class: "gb-rule-head" }, [
        el("b", { text: info.name }),
        button("gb-rule-x", L.rule_close || "Close", (ev) => {
          ev.stopPropagation();
          book.close();
        }, ["×"]),
      ]),
      info.text ? el("p", { class: "gb-rule-text", text: info.text }) : null,
      info.rule ? el("p", { class: "gb-rule-rule", text: info.rule }) : null,
    ]);
  };
  return book;
}

// ---- the view's life: draw on every change of the synced traits, clean up when the view goes -----------------

// Call each handler on its event of the model ({"change:tree": draw, ...}); the function returned stops them all (a
// view's teardown). Every view uses it, the boards, the move tree and the chart.
function listen(model, handlers) {
  const pairs = Object.entries(handlers);
  for (const [event, handler] of pairs) model.on(event, handler);
  return () => {
    for (const [event, handler] of pairs) model.off(event, handler);
  };
}

// A board's `render`: the board's frame in `host` (classes of prefix `p`), drawn again on every change of its traits.
// Each drawing starts from `context(model, m, ui, send, redraw)`, the board's own (it holds `rules`, the card-rule
// popover), and puts `parts(c, m)` in order; an empty model draws "…". `onModel(ui)` runs first on a new model (a
// board forgets its half-made selections there). Escape closes a rule. Returns the teardown.
function mountBoard(model, host, p, { context, parts, onModel }) {
  const send = sender(model);
  const root = el("div", { class: `${p}-board gb-board` });
  const wrap = el("div", { class: `${p}-wrap gb-wrap` }, [root]);
  host.append(wrap);
  const ui = { dismissed: false };
  const redraw = () => {
    const m = model.get("model") || {};
    if (!m.format) {
      root.replaceChildren(el("div", { class: `${p}-empty gb-empty`, text: "…" }));
      return;
    }
    const c = context(model, m, ui, send, redraw);
    c.rules.begin();
    root.replaceChildren(...parts(c, m).filter(Boolean));
  };
  ui.rules = ruleBook(wrap, redraw);
  const onKey = (ev) => {
    if (ev.key === "Escape" && ui.rules.close()) ev.preventDefault();
  };
  const stop = listen(model, {
    "change:model": () => {
      onModel(ui);
      redraw();
    },
    "change:highlight": redraw,
    "change:error": () => {
      ui.dismissed = false;
      redraw();
    },
    "change:lang_switch": redraw,
  });
  document.addEventListener("keydown", onKey);
  onModel(ui);
  redraw();
  return () => {
    wrap.remove();
    document.removeEventListener("keydown", onKey);
    stop();
  };
}
