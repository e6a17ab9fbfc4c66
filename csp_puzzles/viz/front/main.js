// One module for every widget of the package: the data says which one to draw.

function render({ model, el }) {
  ensureStyle();
  const widget = (model.get("data") || {}).widget;
  if (widget === "picture") return renderStill(model, el);
  if (widget === "code") return renderCode(model, el);
  if (widget === "playground" && typeof renderPlayground === "function") return renderPlayground(model, el);
  const explorer = new Explorer(model, el);
  return () => { explorer.stop(); };
}

export default { render };
