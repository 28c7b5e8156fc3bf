// The move list: the record's moves grouped by round (a head "R3" per round, "R3…" where a round goes on after a
// variation or a variation starts within it), each move with its seat's colour, the review's glyph and its
// comment; variations indented after the move they replace, chance variations with a die (⚄). Python sends the tree
// (the `tree` trait); the JavaScript only draws it and reports clicks ({kind: "goto"}) and keys ({kind: "step"}).
// Python puts widgets/common.js before this file (its element helper `el` and `listen`, the view's life).
const STEP_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
// Fields that take typing and controls that use the arrows themselves keep their keys.
const OWN_KEYS = "textarea, select, [contenteditable]:not([contenteditable=false]), [role=slider], [role=textbox], "
  + "[role=spinbutton], [role=combobox]";
const NOT_TYPED = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file", "color"]);

function keepsKeys(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest(OWN_KEYS)) return true;
  const input = target.closest("input");
  return !!input && !NOT_TYPED.has(input.type);
}

// ← → Home End step through the record with the focus anywhere on the page: one keydown listener per page, however
// many tree views are drawn (the move list shown twice, two apps on a page). It picks one shown view, the one
// around the focus (its app, or the tree itself), else with nothing focused the last one drawn, and that view sends
// one message per press: a relative step that Python takes in order, so no press is lost, however fast.
function pageKeys() {
  const key = Symbol.for("speicherstadt_lab.stepKeys");
  const reg = window[key] || (window[key] = { views: [] });
  if (!reg.listening) {
    reg.listening = true;
    document.addEventListener("keydown", (ev) => {
      const to = STEP_KEYS[ev.key];
      if (!to || ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      if (keepsKeys(ev.target)) return;
      const shown = reg.views.filter((v) => v.shown());
      const nothing = ev.target === document.body || ev.target === document.documentElement;
      const view = shown.find((v) => v.scope().contains(ev.target)) || (nothing ? shown[shown.length - 1] : null);
      if (!view) return;
      ev.preventDefault();
      view.send(to);
    });
  }
  return reg;
}

function render({ model, el: host }) {
  const box = el("div", { class: "ssl-tree", tabindex: "0" });
  host.append(box);
  const labels = () => model.get("labels") || {};
  const seatOf = (s) => (model.get("seats") || [])[s] || { colour: "#999", name: "?" };
  const goto = (id) => model.send({ kind: "goto", id });

  function note(id, text) {
    return el("span", { class: "ssl-t-note", text, title: text, "data-for": id, onclick: () => goto(id) });
  }
  function chip(item) {
    const chance = item.k === "chance";
    const who = chance ? labels().chance || "Chance" : seatOf(item.s).name;
    const shown = item.t || item.a; // the move as a phrase (card, price); its notation on hover
    const title = `${item.p}. ${who}: ${shown}` + (item.t ? ` [${item.a}]` : "") + (item.g ? ` ${item.g}` : "") +
      (item.c ? `\n${item.c}` : "");
    const mark = chance ? el("span", { class: "ssl-t-die", text: "⚄" })
      : el("span", { class: "ssl-t-dot", style: { background: seatOf(item.s).colour } });
    return el("button", {
      type: "button",
      class: "ssl-t-move" + (item.v ? " ssl-t-fork" : "") + (chance ? " ssl-chance" : "")
        + (item.f ? " ssl-t-" + item.f : ""),
      "data-id": item.i, "data-ply": item.p, "data-round": item.r, "data-notation": item.a, title,
      onclick: () => goto(item.i),
    }, [
      mark,
      el("span", { class: "ssl-t-act", text: shown }),
      item.g ? el("span", { class: "ssl-t-glyph", text: item.g }) : null,
    ]);
  }
  function line(items, depth) {
    const chanceLine = depth > 0 && items.length > 0 && items[0].k === "chance";
    const cls = "ssl-t-line" + (depth ? " ssl-t-var" : "") + (chanceLine ? " ssl-t-chancevar" : "");
    const row = el("div", { class: cls });
    let group = row;
    for (const item of items) {
      if (item.h) {
        const head = `${labels().round || "R"}${item.r}${item.h === "more" ? "…" : ""}`;
        group = el("div", { class: "ssl-t-rnd", "data-round": item.r },
          [el("span", { class: "ssl-t-round", text: head })]);
        row.append(group);
      }
      group.append(chip(item));
      if (item.c) group.append(note(item.i, item.c));
      for (const alt of item.v || []) group.append(line(alt, depth + 1));
    }
    return row;
  }
  function mark(focused = box.contains(document.activeElement)) {
    for (const old of box.querySelectorAll(".ssl-t-cur")) old.classList.remove("ssl-t-cur");
    const cur = box.querySelector(`button[data-id="${model.get("current")}"]`);
    if (!cur) return;
    cur.classList.add("ssl-t-cur");
    if (focused && document.activeElement !== cur) cur.focus({ preventScroll: true });
    const b = box.getBoundingClientRect();
    const c = cur.getBoundingClientRect();
    if (c.top < b.top || c.bottom > b.bottom) box.scrollTop += c.top - b.top - box.clientHeight / 2;
  }
  function draw() {
    const tree = model.get("tree") || {};
    const focused = box.contains(document.activeElement);
    const start = el("button", { type: "button", class: "ssl-t-move ssl-t-start", text: labels().start || "Start",
      "data-id": tree.root, onclick: () => goto(tree.root) });
    const head = el("div", { class: "ssl-t-rnd ssl-t-head" }, [start, tree.c ? note(tree.root, tree.c) : null]);
    const main = line(tree.line || [], 0);
    main.prepend(head);
    box.replaceChildren(main);
    mark(focused);
  }
  const keys = pageKeys();
  const view = {
    scope: () => host.closest(".ssl-app") || host,
    shown: () => host.isConnected && (host.checkVisibility ? host.checkVisibility() : host.getClientRects().length > 0),
    send: (to) => model.send({ kind: "step", to }),
  };
  keys.views.push(view);
  const stop = listen(model, {
    "change:tree": draw,
    "change:seats": draw,
    "change:labels": draw,
    "change:current": () => mark(),
  });
  draw();
  return () => {
    keys.views.splice(keys.views.indexOf(view), 1);
    stop();
  };
}
export default { render };
