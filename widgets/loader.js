function render({ model, el }) {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = ".json,application/json";
  input.style.display = "none";
  const b = document.createElement("button");
  b.type = "button";
  b.className = "jupyter-widgets jupyter-button widget-button ssl-load";
  const draw = () => { b.textContent = model.get("label"); b.disabled = model.get("disabled"); };
  b.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    const bytes = await file.arrayBuffer();
    model.send({ kind: "load", name: file.name }, undefined, [new DataView(bytes)]);
    input.value = "";
  });
  model.on("change:label", draw);
  model.on("change:disabled", draw);
  el.append(b, input);
  draw();
  return () => { model.off("change:label", draw); model.off("change:disabled", draw); };
}
export default { render };
