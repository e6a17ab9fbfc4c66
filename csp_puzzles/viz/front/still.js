// A still picture: one description drawn at given domains, no controls (viz/still.py).
// The same picture code as the explorer's, so it is named and reachable by keyboard alike.

function drawStill(root, data) {
  root.replaceChildren();
  if (data.title) html("div", { class: "cx-caption" }, root, data.title);
  const host = html("div", { class: "cx-picture" }, root);
  const live = html("div", { class: "cx-live", role: "status", "aria-live": "polite" }, root);
  const view = new PictureView(host, data.picture, data.keys, {
    names: data.names, phrases: data.phrases, label: data.title || data.phrases.still,
    onVar: (v, how) => {
      if (v !== null && (how === "focus" || how === "click")) live.textContent = view.groups[v].getAttribute("aria-label");
    } });
  view.draw((v) => {
    const left = data.domains[v];
    return { left: left.map(([key]) => key), all: data.all[v], words: left.map(([, word]) => word) };
  });
}

function renderStill(model, el) {
  const root = html("div", { class: "csp-picture" }, el);
  const draw = () => drawStill(root, model.get("data"));
  model.on("change:data", draw);
  draw();
  return () => {};
}
