function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "ssl-tree";
  el.append(box);
  const seatOf = (s) => (model.get("seats") || [])[s] || { colour: "#999", name: "?" };
  function chip(item, ply, newRound) {
    const seat = seatOf(item.s);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ssl-t-move" + (item.v ? " ssl-t-fork" : "");
    b.dataset.id = item.i;
    b.title = `${ply}. ${seat.name}: ${item.a}`;
    const dot = document.createElement("span");
    dot.className = "ssl-t-dot";
    dot.style.background = seat.colour;
    b.append(dot, document.createTextNode(item.a));
    b.addEventListener("click", () => model.send({ kind: "goto", id: item.i }));
    return b;
  }
  function line(items, firstPly, depth) {
    const row = document.createElement("div");
    row.className = depth ? "ssl-t-line ssl-t-var" : "ssl-t-line";
    let round = null;
    items.forEach((item, k) => {
      if (item.r !== undefined && item.r !== round) {
        round = item.r;
        const r = document.createElement("span");
        r.className = "ssl-t-round";
        r.textContent = (model.get("labels").round || "R") + item.r;
        row.append(r);
      }
      row.append(chip(item, firstPly + k, depth));
      for (const alt of item.v || []) row.append(line(alt, firstPly + k, depth + 1));
      if (item.v) round = null;
    });
    return row;
  }
  function mark() {
    for (const old of box.querySelectorAll(".ssl-t-cur")) old.classList.remove("ssl-t-cur");
    const cur = box.querySelector(`[data-id="${model.get("current")}"]`);
    if (!cur) return;
    cur.classList.add("ssl-t-cur");
    const top = cur.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }
  function draw() {
    const tree = model.get("tree") || {};
    const start = document.createElement("button");
    start.type = "button";
    start.className = "ssl-t-move ssl-t-start" + ((tree.v || []).length ? " ssl-t-fork" : "");
    start.dataset.id = tree.root;
    start.textContent = model.get("labels").start || "Start";
    start.addEventListener("click", () => model.send({ kind: "goto", id: tree.root }));
    const main = line(tree.line || [], 1, 0);
    main.prepend(start);
    box.replaceChildren(main);
    mark();
  }
  model.on("change:tree", draw);
  model.on("change:seats", draw);
  model.on("change:labels", draw);
  model.on("change:current", mark);
  draw();
  return () => {
    model.off("change:tree", draw);
    model.off("change:seats", draw);
    model.off("change:labels", draw);
    model.off("change:current", mark);
  };
}
export default { render };
