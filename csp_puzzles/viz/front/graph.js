// AC-3 by hand on the constraint graph, as AISpace2 draws it: a node per variable listing
// its values, a box per constraint, an arc from the box to each variable of its scope.
//
// The arcs show AC-3's queue as it is: dashed blue while waiting, the front one (the next
// AC-3 revises) thick with ▶, none once the queue is empty. Click an arc (or Enter on it) to
// revise it, in one go or, with "fine step", in AISpace2's stages: the arc highlighted, then
// red (values will go) or green (consistent), then the values removed. `ArcGraph` draws into
// its host and asks the playground to act through `send(action, fields)`.

const ARC_LOOK = {  // AISpace2's colours, and never colour alone
  todo: { stroke: "#1565c0", width: 0.07, dash: "0.2 0.12", glyph: "" },
  front: { stroke: "#0d47a1", width: 0.13, dash: "", glyph: "▶" },
  inconsistent: { stroke: "#c62828", width: 0.12, dash: "", glyph: "✕" },
  consistent: { stroke: "#2e7d32", width: 0.06, dash: "", glyph: "✓" },
};
const QUEUE_LISTED = 8;  // arcs of the queue named in its line

class ArcGraph {
  // graph: the picture with `arcs` and `constraints`; keys, names: the variables
  constructor(host, controls, graph, { keys, names, phrases, onVar, send, say }) {
    this.graph = graph;
    this.keys = keys;
    this.names = names;
    this.phrases = phrases;
    this.send = send;
    this.say = say;
    this.fine = null;  // the arc of a fine step under way: {index, stage}
    this.stop = 0;  // the arc in the Tab order
    this.state = { todo: [], inspected: null };
    this.view = new PictureView(host, graph, keys, { names, phrases, label: phrases.graph_legend, onVar });
    this.layer = svg("g", { class: "cx-arcs" });
    this.view.svg.insertBefore(this.layer, this.view.drawLayer);
    this.queueLine = html("div", { class: "cx-caption cx-queue-now" }, controls);
    const row = html("div", { class: "cx-controls" }, controls);
    this.nextArc = html("button", { type: "button", title: phrases.revise_next_title, "aria-label": phrases.revise_next_title },
      row, phrases.revise_next);
    this.nextArc.addEventListener("click", () => this.reviseFront());
    const label = html("label", { class: "cx-label" }, row);
    this.fineBox = html("input", { type: "checkbox" }, label);
    label.append(" " + phrases.fine_step);
    this.nextStep = html("button", { type: "button", title: phrases.fine_next_title, "aria-label": phrases.fine_next_title },
      row, phrases.fine_next);
    this.nextStep.hidden = true;
    this.nextStep.addEventListener("click", () => this.fineStep());
  }
  draw(stateOf, marks, state) {
    this.state = state;
    this.view.draw(stateOf);
    this.view.mark(marks, null);
    this.drawArcs();
    this.drawQueue();
  }
  // where arc i stands: highlighted by a fine step, checked by one, first in the queue,
  // waiting in it, or out of it (consistent, as AC-3 keeps it)
  arcState(i) {
    const arc = this.graph.arcs[i], seen = this.state.inspected, todo = this.state.todo;
    if (this.fine && this.fine.index === i && this.fine.stage === 1) return "highlighted";
    if (seen && seen.constraint === arc.constraint && seen.var === arc.var) {
      return seen.doomed.length ? "inconsistent" : "consistent";
    }
    const place = todo.findIndex(([c, v]) => c === arc.constraint && v === arc.var);
    return place === 0 ? "front" : place > 0 ? "todo" : "consistent";
  }
  arcWords(arc) {
    return fill(this.phrases.arc, { name: this.names[this.keys.indexOf(arc.var)], other: arc.constraint });
  }
  drawArcs() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.arc : null;
    const phrases = this.phrases;
    this.layer.replaceChildren();
    this.graph.arcs.forEach((arc, i) => {
      const how = this.arcState(i);
      const look = ARC_LOOK[how === "highlighted" ? "todo" : how];
      const said = { todo: phrases.arc_todo, front: phrases.arc_front, highlighted: phrases.arc_highlighted,
        inconsistent: phrases.arc_inconsistent, consistent: phrases.arc_consistent }[how];
      const g = svg("g", { class: `cx-arc cx-arc-${how}`, role: "button", tabindex: i === this.stop ? "0" : "-1",
        "aria-label": `${this.arcWords(arc)}: ${said}` }, this.layer);
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
  }
  drawQueue() {
    const todo = this.state.todo, phrases = this.phrases;
    this.nextArc.disabled = !todo.length;
    if (!todo.length) { this.queueLine.textContent = phrases.queue_now_empty; return; }
    const named = todo.slice(0, QUEUE_LISTED).map(([c, v], i) => (i === 0 ? "▶ " : "")
      + fill(phrases.arc, { name: this.names[this.keys.indexOf(v)], other: c }));
    let said = named.join(", ");
    if (todo.length > QUEUE_LISTED) said += fill(phrases.queue_more, { n: todo.length - QUEUE_LISTED });
    this.queueLine.textContent = fill(phrases.queue_now, { n: todo.length, values: said });
  }
  // Enter or Space revises the arc; the arrow keys go to the next or the previous arc.
  arcKey(e, i) {
    const arcs = this.layer.children, count = arcs.length;
    if (e.key === "Enter" || e.key === " ") {
      this.clickArc(i);
    } else if (e.key.startsWith("Arrow")) {
      const next = (i + (e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : count - 1)) % count;
      arcs[i].setAttribute("tabindex", "-1");
      arcs[next].setAttribute("tabindex", "0");
      this.stop = next;
      arcs[next].focus();
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }
  reviseFront() {
    const front = this.state.todo[0];
    if (!front) return;
    const i = this.graph.arcs.findIndex((a) => a.constraint === front[0] && a.var === front[1]);
    if (i >= 0) this.clickArc(i);
    else this.send("revise", { constraint: front[0], var: front[1] });
  }
  clickArc(i) {
    const arc = this.graph.arcs[i];
    if (!this.fineBox.checked) {
      this.fine = null;
      this.send("revise", { constraint: arc.constraint, var: arc.var });
      return;
    }
    if (this.fine && this.fine.index === i) { this.fineStep(); return; }
    this.fine = { index: i, stage: 1 };  // 1: highlighted
    this.say(fill(this.phrases.fine_highlighted, { name: this.names[this.keys.indexOf(arc.var)], other: arc.constraint }));
    this.nextStep.hidden = false;
    this.drawArcs();
  }
  // The next stage of a fine step: 1 highlighted -> 2 checked (red or green, the kernel says
  // which values have no support) -> 3 revised (the values go, the arc is green).
  fineStep() {
    if (!this.fine) return;
    const arc = this.graph.arcs[this.fine.index];
    this.fine.stage += 1;
    if (this.fine.stage === 2) {
      this.send("inspect", { constraint: arc.constraint, var: arc.var });
    } else {
      this.fine = null;
      this.nextStep.hidden = true;
      this.send("revise", { constraint: arc.constraint, var: arc.var });
    }
  }
}
