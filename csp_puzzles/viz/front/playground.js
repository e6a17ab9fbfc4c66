// The playground: a search the student drives (viz/playground.py holds the Session).
//
// The page shows the session's state by replaying its trace (the explorer's replay), grows
// the explorer's search tree, answers "why?" with the explorer's words, and sends each action
// to the kernel (`model.send`); the kernel answers with the new trace and what happened. With
// no kernel (an exported page) it replays what was done and says that acting needs a
// running notebook.

const ARC_LOOK = {  // AISpace2's colours, and never colour alone
  todo: { stroke: "#1565c0", width: 0.07, dash: "0.2 0.12", glyph: "" },
  inconsistent: { stroke: "#c62828", width: 0.12, dash: "", glyph: "✕" },
  consistent: { stroke: "#2e7d32", width: 0.06, dash: "", glyph: "✓" },
};

function renderPlayground(model, el) {
  if (typeof model.send !== "function") return renderOfflinePlayground(model, el);
  const playground = new Playground(model, el);
  return () => playground.close();
}

// No kernel: the replay of what was done, and a plain note.
function renderOfflinePlayground(model, el) {
  const data = model.get("data");
  const root = html("div", { class: "csp-playground cx-offline" }, el);
  html("p", { class: "cx-note-offline", role: "note" }, root, data.phrases.offline);
  const run = data.run;
  const replayModel = {
    get: (name) => (name === "data" ? { widget: "explorer", picture: data.picture, runs: [run], title: data.title }
      : name === "position" ? JSON.parse(run.events).length / STRIDE : model.get(name)),
    set: () => {}, on: () => {}, save_changes: () => {},
  };
  const explorer = new Explorer(replayModel, root);
  return () => explorer.stop();
}

class Playground {
  constructor(model, el) {
    this.model = model;
    this.data = model.get("data");
    this.selected = null;
    this.fine = null;  // the arc of a fine step under way: {constraint, var, stage}
    this.root = html("div", { class: "csp-playground", tabindex: "0", role: "region",
      "aria-label": this.data.title ? `playground: ${this.data.title}` : "playground" }, el);
    this.layOut();
    this.addControls();
    // data and state change together: one update for both, as soon as both are in
    this.root.addEventListener("keydown", (e) => this.typed(e));
    this.onChange = () => {
      if (this.pending) return;
      this.pending = true;
      queueMicrotask(() => { this.pending = false; this.update(); });
    };
    model.on("change:data", this.onChange);
    model.on("change:state", this.onChange);
    this.update();
  }
  close() {
    this.model.off("change:data", this.onChange);
    this.model.off("change:state", this.onChange);
  }
  layOut() {
    const root = this.root, phrases = this.data.phrases;
    if (this.data.title) html("div", { class: "cx-caption" }, root, this.data.title);
    this.status = html("div", { class: "cx-text cx-status" }, root);
    this.answer = html("div", { class: "cx-answer", role: "status", "aria-live": "polite" }, root);
    // a puzzle's own picture, and its constraint graph below when it is small; a CSP's
    // picture is its constraint graph
    const main = html("div", { class: "cx-main" }, root);
    const graphOnly = this.data.graph && !this.data.puzzle;
    this.pictureHost = graphOnly ? null : html("div", { class: "cx-picture csp-stepper-image" }, main);
    if (graphOnly) this.graphHost = html("div", { class: "cx-picture cx-graph csp-stepper-image" }, main);
    const side = html("div", { class: "cx-side" }, main);
    this.values = html("div", { class: "cx-values", role: "group", "aria-label": "values" }, side);
    html("div", { class: "cx-caption" }, side, phrases.tree_legend);
    this.treeHost = html("div", { class: "cx-tree" }, side);
    this.why = html("div", { class: "cx-why", role: "group", "aria-label": "why?" }, side);
    if (this.data.graph && graphOnly) html("div", { class: "cx-caption" }, side, phrases.graph_legend);
    if (this.data.graph && !graphOnly) {  // a puzzle's graph is a thicket: open it on demand
      const details = html("details", { class: "cx-graph-box" }, root);
      html("summary", {}, details, phrases.graph_open);
      html("div", { class: "cx-caption" }, details, phrases.graph_legend);
      this.graphHost = html("div", { class: "cx-picture cx-graph" }, details);
    }
  }
  addControls() {
    const controls = html("div", { class: "cx-controls" }, this.root);
    const button = (label, title, act) => {
      const b = html("button", { type: "button", title, "aria-label": title }, controls, label);
      b.addEventListener("click", act);
      return b;
    };
    button("hint", "hint: the next deduction the rules can make, and why", () => this.send("hint"));
    this.applyButton = button("apply", "apply the hint", () => this.send("apply"));
    button("undo", "undo: take back the last action", () => { this.showUndone(); this.send("undo"); });
    button("propagate", "propagate: the inference, to a fixpoint", () => this.send("propagate"));
    button("arc consistency", "arc consistency: revise every arc of AC-3's queue", () => this.send("arc consistency"));
    button("suggest", "suggest: the variable and value the engine would choose", () => this.send("suggest"));
    button("let the engine finish", "finish: let the engine's search go on from here", () => this.send("finish"));
    if (this.data.puzzle) button("mistakes", "mistakes: the decisions that disagree with the solution", () => this.send("mistakes"));
    if (this.data.graph) {
      const label = html("label", { class: "cx-label" }, controls);
      this.fineBox = html("input", { type: "checkbox" }, label);
      label.append(" fine step");
      this.nextButton = button(this.data.phrases.fine_next, "next step of the revision", () => this.fineStep());
      this.nextButton.hidden = true;
    }
  }
  send(action, fields) {
    this.model.send(Object.assign({ action }, fields || {}));
  }
  // -- the state, from the session's trace --------------------------------------------------
  update() {
    this.data = this.model.get("data");
    this.state = this.model.get("state");
    const run = this.run = new RunData(this.data.run);
    this.replay = new Replay(run);
    this.replay.seek(run.total);
    if (!this.view && this.pictureHost) {
      this.view = new PictureView(this.pictureHost, this.data.picture, run.keys, {
        names: run.names, phrases: run.phrases, label: run.phrases.picture,
        onVar: (v, how) => { if (how === "click") this.select(v); } });
    }
    if (this.view) {
      this.view.draw((v) => this.stateOf(v));
      this.view.mark(this.marks(), null);
    }
    this.drawStatus();
    this.drawTree();
    this.drawValues();
    this.drawWhy();
    if (this.data.graph) this.drawGraph();
  }
  stateOf(v) {
    const run = this.run, left = this.replay.domain(v);
    return { left: left.map((x) => run.values[x]), all: run.init[v].map((x) => run.values[x]),
             words: left.map((x) => run.words[x]) };
  }
  marks() {
    const marks = (this.state.marks || []).slice(), run = this.run;
    if (run.total) {  // the last event, marked as the explorer marks it (a wipe-out in red)
      const kind = KIND_NAMES[run.kind(run.total)], v = run.get(run.total, VAR), x = run.get(run.total, VALUE);
      if (v >= 0 && MARKS[kind]) marks.push([v, kind === "wipeout" || x < 0 ? null : run.values[x], kind]);
    }
    if (this.selected !== null) marks.push([this.selected, null, "chosen"]);
    return marks;
  }
  drawStatus() {
    const fixed = this.replay.present.filter((s) => s.size === 1).length;
    this.status.textContent = this.state.status === "open"
      ? fill(this.run.phrases.status_open, { n: fixed, k: this.replay.present.length })
      : this.state.status === "solved" ? this.run.phrases.now_solved.trim() : this.run.phrases.now_wipeout.trim();
    if (this.answer.textContent !== this.state.answer) this.answer.textContent = this.state.answer;
    this.applyButton.disabled = !this.state.hint;
  }
  drawTree() {
    const tree = buildTree(this.run);
    const view = new TreeView(this.treeHost, this.run, tree, { go: () => {}, inspect: () => {} });
    view.draw(this.run.total);
  }
  select(v) {
    this.selected = v;
    for (const view of [this.view, this.graphView]) {
      if (!view) continue;
      view.setPressed(v);
      view.mark(this.marks(), null);
    }
    this.drawValues();
    this.drawWhy();
    this.answer.textContent = stateWords(this.run.phrases, this.run.names[v], this.stateOf(v).words);
  }
  drawValues() {
    const box = this.values, run = this.run, v = this.selected;
    box.replaceChildren();
    if (v === null) { html("span", { class: "cx-caption" }, box, run.phrases.pick); return; }
    html("span", { class: "cx-caption" }, box, fill(run.phrases.values_of, { name: run.names[v] }));
    const open = this.state.status === "open";
    for (const x of this.replay.domain(v)) {
      const b = html("button", { type: "button", title: `assign ${run.names[v]} = ${run.words[x]}` }, box, run.words[x]);
      b.dataset.value = run.values[x];
      b.disabled = !open;
      b.addEventListener("click", () => {
        this.showChosen(v, x);
        this.send("assign", { var: run.keys[v], value: run.values[x] });
      });
    }
    if (this.replay.present[v].size > 1) {
      const split = html("button", { type: "button", title: `split: keep the lower half of ${run.names[v]}'s values` }, box, "split");
      split.disabled = !open;
      split.addEventListener("click", () => this.send("split", { var: run.keys[v] }));
    }
  }
  // Play by keyboard: with a variable chosen, typing one of its values' keys assigns it
  typed(e) {
    const v = this.selected, run = this.run;
    if (v === null || e.ctrlKey || e.metaKey || e.altKey || this.state.status !== "open") return;
    const x = this.replay.domain(v).find((y) => run.values[y] === e.key);
    if (x === undefined) return;
    e.preventDefault();
    e.stopPropagation();  // the notebook's own keys stay out of it
    this.showChosen(v, x);
    this.send("assign", { var: run.keys[v], value: run.values[x] });
  }
  // What the page knows before the kernel answers, shown at once: a value chosen holds the
  // variable; undo brings back the state the trace had before the last action.
  showChosen(v, x) {
    if (!this.view || this.state.status !== "open") return;
    this.view.draw((w) => (w === v ? { left: [this.run.values[x]], all: this.stateOf(v).all,
      words: [this.run.words[x]] } : this.stateOf(w)));
  }
  showUndone() {
    const starts = this.state.starts || [];
    if (!this.view || starts.length !== (this.state.history || []).length || !starts.length) return;
    this.replay.seek(starts[starts.length - 1]);
    this.view.draw((v) => this.stateOf(v));
    this.replay.seek(this.run.total);
  }
  drawWhy() {
    const why = this.why, v = this.selected;
    why.replaceChildren();
    if (v === null) return;
    for (const line of whyLines(this.run, this.replay, this.run.total, v)) {
      html("div", { class: line.head ? "cx-why-head" : line.at === null ? "cx-caption" : "cx-entry" }, why, line.text);
    }
  }
}
