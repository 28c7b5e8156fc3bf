// The app's sync probe for browser tests and scripts: window.sslPing(n) sends {kind: "ping", n}; the kernel
// answers by setting the `pong` trait to n once it has handled every message sent before the ping.
// The element shows the answer as data-pong, so a test waits for the app's own state, never for time.
function render({ model, el }) {
  el.classList.add("ssl-probe");
  el.style.display = "none";
  const draw = () => { el.dataset.pong = String(model.get("pong")); };
  window.sslPing = (n) => model.send({ kind: "ping", n });
  model.on("change:pong", draw);
  draw();
  return () => model.off("change:pong", draw);
}
export default { render };
