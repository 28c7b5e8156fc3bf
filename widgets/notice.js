// A notice above the board: what the position is about (a scenario's title and text) and a line of advice.
// Python sets `label`, `title`, `body`, `note` and counts `seq` up each time the notice is to be read: the page is
// then scrolled so the notice (and the board under it) is in view. The close button sends {kind: "close"}; the
// kernel clears the notice. The JavaScript keeps no state of its own.
function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "ssl-notice";
  const head = document.createElement("div");
  head.className = "ssl-notice-head";
  const label = document.createElement("span");
  label.className = "ssl-notice-label";
  const title = document.createElement("b");
  title.className = "ssl-notice-title";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "ssl-notice-close";
  close.textContent = "×";
  close.addEventListener("click", () => model.send({ kind: "close" }));
  head.append(label, title, close);
  const body = document.createElement("div");
  body.className = "ssl-notice-body";
  const note = document.createElement("div");
  note.className = "ssl-notice-note";
  box.append(head, body, note);
  el.append(box);

  const draw = () => {
    label.textContent = model.get("label");
    title.textContent = model.get("title");
    body.textContent = model.get("body");
    note.textContent = model.get("note");
    close.title = close.ariaLabel = model.get("close_label");
    box.hidden = !(model.get("title") || model.get("body"));
  };
  const show = () => {
    draw();
    if (!box.hidden) box.scrollIntoView({ block: "start" });
  };
  const keys = ["label", "title", "body", "note", "close_label"];
  keys.forEach((k) => model.on(`change:${k}`, draw));
  model.on("change:seq", show);
  draw();
  return () => {
    keys.forEach((k) => model.off(`change:${k}`, draw));
    model.off("change:seq", show);
  };
}
export default { render };
