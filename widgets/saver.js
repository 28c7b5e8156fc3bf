function render({ model, el }) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "jupyter-widgets jupyter-button widget-button ssl-save";
  const draw = () => { b.textContent = model.get("label"); b.disabled = model.get("disabled"); };
  b.addEventListener("click", () => model.send({ kind: "save" }));
  const onMsg = (msg) => {
    if (!msg || msg.kind !== "file") return;
    const url = URL.createObjectURL(new Blob([msg.text], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = msg.name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 2000);
  };
  model.on("change:label", draw);
  model.on("change:disabled", draw);
  model.on("msg:custom", onMsg);
  el.append(b);
  draw();
  return () => { model.off("change:label", draw); model.off("change:disabled", draw); model.off("msg:custom", onMsg); };
}
export default { render };
