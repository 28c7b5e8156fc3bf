// A plotly figure drawn from JSON: the `figure` trait ({data, layout}) and `config`. plotly.js itself never travels
// through the websocket: it is loaded once per page as a static file the Jupyter server already serves (the
// package installs plotly's plotly.min.js as an asset under share/jupyter/labextensions/, which JupyterLab serves
// at fullLabextensionsUrl = /lab/extensions and Voilà, alone or as a server extension, at /voila/labextensions),
// so the browser caches it. Only where that file cannot be had does the page ask the kernel for it:
// {kind: "need_plotly"}, answered by {kind: "plotly", source}.
// Changes come as {kind: "patch", traces: [[i, {key: value|null}]], layout: {key: value|null}} messages, applied to
// the model's figure in the page (never saved back), so a view made later starts from the figure as it is now; a
// click on a point sends {kind: "click", trace, point}, which Python checks. Once plotly.js is in and the view has
// drawn, it says {kind: "shown"}: the page's first widgets are up, and a figure left empty until then (the app's
// first charts) can come. The JavaScript keeps no game state.
// Python puts widgets/common.js before this file (its element helper `el` and `listen`, the view's life).

const FAILED = "ssl-chart-failed";

function labextensionsUrl() {
  const config = document.getElementById("jupyter-config-data");
  if (!config) return null;
  try {
    const url = JSON.parse(config.textContent).fullLabextensionsUrl;
    return typeof url === "string" && url ? url.replace(/\/+$/, "") : null;
  } catch (err) {
    return null;
  }
}

function addScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.async = true;
    s.onload = () => (window.Plotly && window.Plotly.react ? resolve(window.Plotly)
                                                          : reject(new Error(src + " defined no Plotly")));
    s.onerror = () => reject(new Error("could not load " + src));
    document.head.append(s);
  });
}

function fromKernel(model) {
  return new Promise((resolve, reject) => {
    const answer = (msg) => {
      if (!msg || msg.kind !== "plotly") return;
      model.off("msg:custom", answer);
      if (typeof msg.source !== "string" || !msg.source) {
        reject(new Error(msg.error || "the kernel has no plotly.js"));
        return;
      }
      const url = URL.createObjectURL(new Blob([msg.source], { type: "text/javascript" }));
      addScript(url).then(resolve, reject).finally(() => URL.revokeObjectURL(url));
    };
    model.on("msg:custom", answer);
    model.send({ kind: "need_plotly" });
  });
}

// The page's first idle moment: evaluating plotly.js takes the main thread for a while, and the widgets drawn with
// the chart (the board above it) come first. No deadline: on a busy machine drawing the page's widgets can take
// longer than a second, and the chart, below the fold, waits until they are done.
function idle() {
  return new Promise((resolve) => {
    if (window.requestIdleCallback) window.requestIdleCallback(() => resolve());
    else setTimeout(resolve, 0);
  });
}

// One load per page, shared by every chart (window: each widget's module is evaluated on its own).
function plotly(model) {
  if (window.Plotly && window.Plotly.react) return Promise.resolve(window.Plotly);
  if (!window.sslPlotly) {
    const base = labextensionsUrl();
    const path = model.get("plotly_path");
    const served = base && path ? idle().then(() => addScript(base + "/" + path))
                                : Promise.reject(new Error("no labextensions URL"));
    window.sslPlotly = served.catch(() => fromKernel(model));
    window.sslPlotly.catch(() => { window.sslPlotly = null; });  // a later chart tries again
  }
  return window.sslPlotly;
}

function patched(base, change) {
  const out = { ...base };
  for (const [key, value] of Object.entries(change || {})) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

function initialize({ model }) {
  model.on("msg:custom", (msg) => {
    if (!msg || msg.kind !== "patch") return;
    const fig = model.get("figure") || {};
    const data = (fig.data || []).slice();
    for (const [i, change] of msg.traces || []) {
      if (i >= 0 && i < data.length) data[i] = patched(data[i], change);
    }
    // set in the page only (no save_changes): the kernel already holds this figure
    model.set("figure", { data, layout: patched(fig.layout, msg.layout) });
  });
}

function render({ model, el: host }) {
  const gd = el("div", { class: "ssl-chart" });
  host.append(gd);
  let lib = null;
  let alive = true;
  let width = 0;
  const draw = () => {
    if (!lib || !alive) return;
    const fig = model.get("figure") || {};
    const layout = fig.layout || {};
    // a width left open is the container's (plotly.js would take 700 px)
    lib.react(gd, fig.data || [], "autosize" in layout ? layout : { ...layout, autosize: true },
              model.get("config") || {});
  };
  // hidden (another page of the app shown): width 0, nothing to do; shown again or resized: fit the new width
  const fit = new ResizeObserver(() => {
    const w = gd.clientWidth;
    if (lib && alive && w > 0 && w !== width) {
      width = w;
      lib.Plots.resize(gd);
    }
  });
  const onClick = (ev) => {
    const p = ev && ev.points && ev.points[0];
    if (p) model.send({ kind: "click", trace: p.curveNumber, point: p.pointNumber });
  };
  plotly(model).then((Plotly) => {
    if (!alive) return;
    lib = Plotly;
    draw();
    width = gd.clientWidth;
    gd.on("plotly_click", onClick);
    fit.observe(gd);
    model.send({ kind: "shown" });
  }, (err) => {
    host.classList.add(FAILED);
    gd.textContent = "plotly.js: " + err.message;
    console.error("chart: plotly.js could not be loaded", err);
  });
  const stop = listen(model, { "change:figure": draw, "change:config": draw });
  return () => {
    alive = false;
    fit.disconnect();
    stop();
    if (lib) lib.purge(gd);
  };
}

export default { initialize, render };
