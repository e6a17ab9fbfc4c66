// AC-3 by hand, on the constraint graph (the playground's second picture): a node per
// variable listing its values, a box per constraint, an arc from the box to each variable.
// Click an arc to revise it; with "fine step", the revision goes in AISpace2's stages: the
// arc highlighted, then red (values will go) or green (consistent), then the values
// removed and the arc green.

// The arc's state: in the queue ("todo"), found inconsistent or consistent by a fine step,
// or out of the queue (consistent, as AC-3 keeps it).
function arcState(state, arc) {
  const seen = state.inspected;
  if (seen && seen.constraint === arc.constraint && seen.var === arc.var) {
    return seen.doomed.length ? "inconsistent" : "consistent";
  }
  return state.todo.some(([c, v]) => c === arc.constraint && v === arc.var) ? "todo" : "consistent";
}

Playground.prototype.drawGraph = function drawGraph() {
  const graph = this.data.graph, run = this.run;
  if (!this.graphView) {
    this.graphView = new PictureView(this.graphHost, graph, run.keys, {
      names: run.names, phrases: run.phrases, label: run.phrases.graph_legend,
      onVar: (v, how) => { if (how === "click") this.select(v); } });
    this.arcLayer = svg("g", { class: "cx-arcs" });
    this.graphView.svg.insertBefore(this.arcLayer, this.graphView.drawLayer);
  }
  this.graphView.draw((v) => this.stateOf(v));
  this.graphView.mark(this.marks(), null);
  this.drawArcs();
};

Playground.prototype.drawArcs = function drawArcs() {
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.arc : null;
  this.arcLayer.replaceChildren();
  this.data.graph.arcs.forEach((arc, i) => {
    const how = this.fine && this.fine.index === i && this.fine.stage === 1 ? "highlighted" : arcState(this.state, arc);
    const look = ARC_LOOK[how === "highlighted" ? "todo" : how];
    const g = svg("g", { class: `cx-arc cx-arc-${how}`, role: "button", tabindex: i === (this.arcStop || 0) ? "0" : "-1",
      "aria-label": `${fill(this.run.phrases.arc, { name: this.run.names[this.run.keys.indexOf(arc.var)], other: arc.constraint })}: ${how === "todo" ? "to do" : how}` }, this.arcLayer);
    g.dataset.arc = String(i);
    g.dataset.constraint = arc.constraint;
    g.dataset.arcVar = arc.var;  // not data-var: that names a variable's own shape
    const line = { x1: arc.x1 * UNIT, y1: arc.y1 * UNIT, x2: arc.x2 * UNIT, y2: arc.y2 * UNIT };
    if (how === "highlighted") svg("line", Object.assign({ stroke: "#000", "stroke-width": 0.3 * UNIT, "stroke-opacity": 0.35 }, line), g);
    svg("line", Object.assign({ stroke: look.stroke, "stroke-width": look.width * UNIT,
      "stroke-dasharray": look.dash ? look.dash.split(" ").map((d) => d * UNIT).join(" ") : "none" }, line), g);
    svg("line", Object.assign({ stroke: "transparent", "stroke-width": 0.3 * UNIT }, line), g);
    if (look.glyph) {
      // the glyph sits on the arc just before the node (the box covers the arc's start)
      const length = Math.hypot(arc.x2 - arc.x1, arc.y2 - arc.y1) || 1;
      const back = Math.min(0.45, length / 2) / length;
      text(g, arc.x2 - (arc.x2 - arc.x1) * back, arc.y2 - (arc.y2 - arc.y1) * back, look.glyph, 0.34,
        { fill: look.stroke, "font-weight": "bold", "aria-hidden": "true" });
    }
    g.addEventListener("click", () => this.clickArc(i));
    g.addEventListener("keydown", (e) => this.arcKey(e, i));
    if (focused === String(i)) g.focus();
  });
};

// Enter or Space revises the arc; the arrow keys go to the next or the previous arc.
Playground.prototype.arcKey = function arcKey(e, i) {
  const arcs = this.arcLayer.children, count = arcs.length;
  if (e.key === "Enter" || e.key === " ") {
    this.clickArc(i);
  } else if (e.key.startsWith("Arrow")) {
    const next = (i + (e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : count - 1)) % count;
    arcs[i].setAttribute("tabindex", "-1");
    arcs[next].setAttribute("tabindex", "0");
    this.arcStop = next;
    arcs[next].focus();
  } else {
    return;
  }
  e.preventDefault();
  e.stopPropagation();
};

Playground.prototype.clickArc = function clickArc(i) {
  const arc = this.data.graph.arcs[i];
  if (!this.fineBox || !this.fineBox.checked) {
    this.fine = null;
    this.send("revise", { constraint: arc.constraint, var: arc.var });
    return;
  }
  if (this.fine && this.fine.index === i) { this.fineStep(); return; }
  this.fine = { index: i, stage: 1 };  // 1: highlighted
  this.answer.textContent = fill(this.run.phrases.fine_highlighted,
    { name: this.run.names[this.run.keys.indexOf(arc.var)], other: arc.constraint });
  this.nextButton.hidden = false;
  this.drawArcs();
};

// The next stage of a fine step: 1 highlighted -> 2 checked (red or green, the kernel says
// which values have no support) -> 3 revised (the values go, the arc is green).
Playground.prototype.fineStep = function fineStep() {
  if (!this.fine) return;
  const arc = this.data.graph.arcs[this.fine.index];
  this.fine.stage += 1;
  if (this.fine.stage === 2) {
    this.send("inspect", { constraint: arc.constraint, var: arc.var });
  } else {
    this.fine = null;
    this.nextButton.hidden = true;
    this.send("revise", { constraint: arc.constraint, var: arc.var });
  }
};
