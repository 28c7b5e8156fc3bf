// The Tutorial page's progress kept in the browser for the session (sessionStorage: this tab only, kept through a
// reload, gone with the tab). Python sets `stored` (JSON text) whenever the progress changes; this view writes it
// under `key`. When the view appears (the Tutorial page shown after a reload) it reports what the tab holds as
// {kind: "restore", text} (and marks itself data-reported="stored"; "none" when the tab holds nothing, and then
// keeps the kernel's); Python checks it and restores. The JavaScript neither reads nor changes the progress.
function render({ model, el }) {
  el.classList.add("ssl-lesson-store");
  el.style.display = "none";
  let storage = null;
  try {
    storage = window.sessionStorage;
  } catch (e) {
    storage = null; // storage blocked by the browser: the progress lives in the kernel only
  }
  const key = model.get("key");
  const raw = storage ? storage.getItem(key) : null;
  if (raw !== null) model.send({ kind: "restore", text: raw });
  el.dataset.reported = raw !== null ? "stored" : "none";
  const write = () => {
    const text = model.get("stored");
    if (storage && text) storage.setItem(key, text);
  };
  if (raw === null) write(); // nothing kept yet: keep what the kernel has (a lesson a link opened)
  model.on("change:stored", write);
  return () => model.off("change:stored", write);
}
export default { render };
