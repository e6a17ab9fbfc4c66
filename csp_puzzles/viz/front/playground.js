// The playground: a search the student drives, or a puzzle played as a puzzle
// (viz/playground.py holds the Session).
//
// The kernel answers every action with `state`: each variable's values left (numbers into
// `data.init`), which variables the player set, the words to say, the marks. The page draws
// only what changed, and draws a move's own effect before the kernel answers: each action
// carries a number (`id`), the kernel's state says the last one it answered, and the moves
// still unanswered are drawn again over it. Choosing a cell and showing its values need no
// round trip. The search tree and "why?" replay the session's trace (`replay`), only while
// they are open. A hint that supposes can be zoomed into (zoom.js): its frames are drawn on
// the picture in place of the board until the zoom is left; any action leaves it first.
// With no kernel (an exported page) it replays what was done and says that acting needs a
// running notebook.

const TIMINGS_KEPT = 500;  // gestures whose latency the page keeps (for the benchmark)

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
  const run = model.get("replay");
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
    this.phrases = this.data.phrases;
    this.play = this.data.picture && this.data.picture.play;  // a puzzle played by gestures
    this.token = Math.random().toString(36).slice(2);  // this view, among others of the model
    this.nextId = 1;
    this.pending = [];  // the moves sent and not answered yet, oldest first
    this.snapshots = [];  // snapshots[k]: the board after k actions undo can take back
    this.before = {};  // a variable's values before the player set it (what clear brings back)
    this.selected = null;
    this.timings = [];
    this.root = html("div", { class: "csp-playground", tabindex: "0", role: "region",
      "aria-label": this.data.title ? `playground: ${this.data.title}` : "playground" }, el);
    this.root.cspTimings = this.timings;  // read by the latency benchmark
    this.layOut();
    for (const type of ["keydown", "keypress", "keyup"]) this.root.addEventListener(type, (e) => this.keyed(e));
    // the right button is a gesture on the board: JupyterLab's own menu would take the pointer
    this.root.querySelector(".cx-picture").addEventListener("contextmenu", (e) => { e.preventDefault(); e.stopPropagation(); });
    this.onState = () => this.applyState(this.model.get("state"));
    this.onReplay = () => this.tree.update(this.model.get("replay"));
    model.on("change:state", this.onState);
    model.on("change:replay", this.onReplay);
    this.applyState(model.get("state"));
    this.tree.update(model.get("replay"));
  }
  close() {
    this.model.off("change:state", this.onState);
    this.model.off("change:replay", this.onReplay);
  }
  // -- the page ---------------------------------------------------------------------------------
  layOut() {
    const root = this.root, data = this.data, phrases = this.phrases;
    if (data.title) html("div", { class: "cx-caption" }, root, data.title);
    const graphOnly = data.graph && !data.puzzle;
    // the words beside the hands: the controls, the message line and the status together,
    // beside a puzzle, above a constraint graph (it takes the whole width)
    const top = graphOnly ? html("div", { class: "cx-hands" }, root) : null;
    const main = html("div", { class: "cx-main" }, root);
    const pictureHost = html("div", { class: "cx-picture csp-stepper-image" }, main);
    const side = html("div", { class: "cx-side" }, main);
    const hands = top || side;
    this.addControls(hands);
    this.answer = html("div", { class: "cx-answer", role: "status", "aria-live": "polite" }, hands);
    this.status = html("div", { class: "cx-text cx-status" }, hands);
    this.hintSteps = html("div", { class: "cx-hint-steps" }, hands);  // a hint's trial, step by step
    this.stepList = html("div", {}, this.hintSteps);
    this.zoom = new HintZoom(this.hintSteps, { phrases, say: (t) => this.say(t),
      changed: () => this.zoomChanged(), home: () => this.root.focus() });
    this.keyIndex = new Map(data.keys.map((k, i) => [k, i]));
    this.addSolverControls(hands);
    this.values = html("div", { class: "cx-values", role: "group", "aria-label": "values" }, side);
    if (this.play) html("div", { class: "cx-caption cx-help" }, side, this.play.help);
    const onVar = (v, how, e) => this.pointed(v, how, e);
    const names = data.names;
    if (graphOnly) {
      this.graph = new ArcGraph(pictureHost, hands, data.graph, { keys: data.keys, names, phrases,
        onVar, send: (a, f) => this.send(a, f), say: (t) => this.say(t) });
      html("div", { class: "cx-caption" }, side, phrases.graph_legend);
    } else {
      this.view = new PictureView(pictureHost, data.picture, data.keys, { names, phrases,
        label: phrases.picture, onVar, look: this.play ? { domains: false } : null,
        keyboard: !this.play || this.play.gesture !== "drag" });
    }
    if (this.play) {
      this.board = new Board(this.view, this.play, data.init, { phrases,
        valueOf: (v) => this.valueOf(v), leftOf: (v) => this.leftKeys(v),
        onMove: (move, time) => this.move(move, time), onSelect: (v) => this.select(v),
        say: (t) => this.say(t) });
    }
    const box = html("details", { class: "cx-search-box" }, root);
    if (!data.puzzle) box.open = true;  // a search by hand: the tree is the lesson
    html("summary", {}, box, phrases.tree_open);
    this.tree = new SessionTree(box, phrases, () => box.open);
    box.addEventListener("toggle", () => { if (box.open) this.tree.draw(); });
    if (data.graph && !graphOnly) {  // a puzzle's graph is a thicket: open it on demand
      const details = html("details", { class: "cx-graph-box" }, root);
      html("summary", {}, details, phrases.graph_open);
      html("div", { class: "cx-caption" }, details, phrases.graph_legend);
      const host = html("div", { class: "cx-picture cx-graph" }, details);
      this.graph = new ArcGraph(host, details, data.graph, { keys: data.keys, names, phrases,
        onVar, send: (a, f) => this.send(a, f), say: (t) => this.say(t) });
    }
  }
  button(parent, label, title, act) {
    const b = html("button", { type: "button", title, "aria-label": title }, parent, label);
    b.addEventListener("click", (e) => act(e));
    return b;
  }
  // what a player does: undo, redo, hint, check, trials, the pencil, the domains
  addControls(side) {
    const row = html("div", { class: "cx-controls cx-play" }, side), p = this.phrases;
    this.undoButton = this.button(row, "undo", p.undo_title, (e) => this.send("undo", {}, e.timeStamp));
    this.redoButton = this.button(row, "redo", p.redo_title, (e) => this.send("redo", {}, e.timeStamp));
    this.button(row, "hint", p.hint_title, () => this.send("hint"));
    this.applyButton = this.button(row, "apply", p.apply_title, () => this.send("apply"));
    this.button(row, "check", p.check_title, () => this.send("check"));
    this.tryButton = this.button(row, "try", p.try_title, () => this.toggleTrying());
    this.tryButton.setAttribute("aria-pressed", "false");
    this.acceptButton = this.button(row, "accept", p.accept_title, () => this.send("accept"));
    this.rejectButton = this.button(row, "reject", p.reject_title, () => this.send("reject"));
    if (this.play && this.play.gesture === "type") {
      this.pencilButton = this.button(row, "pencil", p.pencil_title, () => this.togglePencil());
      this.pencilButton.setAttribute("aria-pressed", "false");
    }
    if (this.play) {
      this.domainsButton = this.button(row, "show domains", p.domains_title, () => this.toggleDomains());
      this.domainsButton.setAttribute("aria-pressed", "false");
    }
    const settings = html("div", { class: "cx-controls cx-settings" }, side);
    this.after = this.choice(settings, p.after_label, p.after_title, this.data.after, (key) => this.send("after", { how: key }));
    this.checking = this.choice(settings, p.checking_label, p.checking_title, this.data.checking, (key) => this.send("checking", { how: key }));
  }
  // what the solver does, on demand
  addSolverControls(side) {
    const row = html("div", { class: "cx-controls cx-solver" }, side), p = this.phrases;
    this.button(row, "propagate", p.propagate_title, () => this.send("propagate"));
    this.button(row, "arc consistency", p.ac3_title, () => this.send("arc consistency"));
    this.button(row, "suggest", p.suggest_title, () => this.send("suggest"));
    this.button(row, "let the engine finish", p.finish_title, () => this.send("finish"));
    if (this.data.puzzle) this.button(row, "mistakes", p.mistakes_title, () => this.send("mistakes"));
  }
  choice(parent, label, title, options, act) {
    const wrap = html("label", { class: "cx-label" }, parent, label + " ");
    const select = html("select", { title, "aria-label": title }, wrap);
    for (const [key, words] of options) html("option", { value: key }, select, words);
    select.addEventListener("change", () => act(select.value));
    return select;
  }
  say(words) {
    this.answer.textContent = words;
  }
  // "try": the next move is a supposition, a trial of its own (pzprjs's trial mode)
  toggleTrying(on) {
    this.trying = on === undefined ? !this.trying : on;
    this.tryButton.setAttribute("aria-pressed", String(this.trying));
    if (on === undefined) this.say(this.trying ? this.phrases.trying : this.phrases.not_trying);
  }
  togglePencil() {
    this.board.pencil = !this.board.pencil;
    this.pencilButton.setAttribute("aria-pressed", String(this.board.pencil));
    this.say(this.board.pencil ? this.phrases.pencil_on : this.phrases.pencil_off);
  }
  toggleDomains() {
    this.leaveZoom();
    const shown = !(this.view.look && this.view.look.domains);
    this.view.setLook({ domains: shown });
    this.domainsButton.setAttribute("aria-pressed", String(shown));
    this.draw();
  }
  // -- the keys: none leaves the playground --------------------------------------------------------
  keyed(e) {
    e.stopPropagation();  // the notebook's own keys (a, b, d d, m, r, y, z, Enter, ...) stay out
    if (e.type !== "keydown" || ["Shift", "Control", "Alt", "Meta", "CapsLock"].includes(e.key)) return;
    const target = e.target, native = target.closest && target.closest("button, select, input, summary, a");
    const letter = e.key.length === 1 ? e.key.toLowerCase() : "";
    if (e.key === "Escape" && this.zoom.active) {
      this.zoom.leave();  // one level of the zoom
    } else if ((e.ctrlKey || e.metaKey) && (letter === "z" || letter === "y")) {
      this.send(letter === "y" || e.shiftKey ? "redo" : "undo", {}, e.timeStamp);
    } else if (this.board && !native && this.board.key(e)) {
      // a digit typed, a cell cleared
    } else if (!e.ctrlKey && !e.metaKey && !e.altKey && (letter === "u" || letter === "r")) {
      this.send(letter === "u" ? "undo" : "redo", {}, e.timeStamp);  // Tatham's keys
    } else if (e.key === "Tab" || (native && ["Enter", " ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
      "Home", "End", "PageUp", "PageDown"].includes(e.key))) {
      return;  // the browser's own: focus moves, a button is pressed, an option chosen
    } else {
      this.say(fill(this.phrases.key_nothing, { name: e.key === " " ? "space" : e.key,
        values: this.play ? this.play.help : this.phrases.keys_help }));
    }
    if (e.key !== "Tab") e.preventDefault();
  }
  // -- the pointer on the picture ------------------------------------------------------------------
  // A variable's shape clicked (or Enter on it), right-clicked or focused: the board makes
  // its move (a typed puzzle's cell is chosen: `select` through the board), and a click
  // shows the variable's values.
  pointed(v, how, e) {
    if (how === "escape" && this.zoom.active) { this.zoom.leave(); return; }
    if (how === "escape") { this.select(null); return; }  // Escape: nothing chosen
    if (v === null || how === "hover") return;
    const time = e && e.timeStamp ? e.timeStamp : performance.now();
    if (this.board) this.board.clicked(v, how, time);
    if (how === "click" && !(this.play && this.play.gesture === "type")) this.select(v);
  }
  // A variable chosen: its values and "why?", from what the page holds (no round trip).
  select(v) {
    this.selected = v;
    if (this.board && this.play.gesture === "type") this.board.selected = v;
    for (const view of [this.view, this.graph && this.graph.view]) if (view) view.setPressed(v);
    this.drawMarks();
    this.drawValues();
    this.tree.drawWhy(v);
  }
  // -- moves, drawn at once --------------------------------------------------------------------
  // A move of the board: drawn now, sent to the kernel, drawn again when it answers.
  move(move, time) {
    if (this.trying && (move.kind === "set" || move.kind === "assign")) {
      move = Object.assign({}, move, { kind: "suppose" });
      this.toggleTrying(false);
    }
    const key = this.data.keys[move.v], fields = { var: key };
    if (move.value !== undefined) fields.value = move.value;
    const id = this.send(move.kind, fields, time, move);
    this.predict(move);
    this.draw();
    this.drawn(id);
    if (move.v === this.selected) this.drawValues();
  }
  // What the page knows of a move before the kernel answers.
  predict(move) {
    const v = move.v, init = this.data.init[v], domains = this.domains;
    if (move.kind === "set" || move.kind === "assign" || move.kind === "suppose") {
      if (!this.assigned.has(v)) this.before[v] = domains[v];
      domains[v] = [init.indexOf(move.value)];
      this.assigned.add(v);
    } else if (move.kind === "clear") {
      domains[v] = this.before[v] || init.map((_, i) => i);
      this.assigned.delete(v);
    } else if (move.kind === "remove") {
      domains[v] = domains[v].filter((i) => init[i] !== move.value);
    } else if (move.kind === "restore") {
      const back = new Set(domains[v].concat([init.indexOf(move.value)]));
      domains[v] = init.map((_, i) => i).filter((i) => back.has(i));
    } else if (move.kind === "undo" || move.kind === "redo") {
      const depth = this.depth + (move.kind === "undo" ? -1 : 1), known = this.snapshots[depth];
      if (!known) return;
      this.domains = known.domains.map((d) => d.slice());
      this.assigned = new Set(known.assigned);
      this.depth = depth;
    }
  }
  send(action, fields, time, move) {
    this.leaveZoom();  // an action changes the board: the picture shows it
    const id = this.nextId++;
    this.model.send(Object.assign({ action, id, view: this.token }, fields || {}));
    const entry = { id, action, at: time === undefined ? performance.now() : time, sent: performance.now(),
      drawn: null, received: null, applied: null, answered: null };
    this.timings.push(entry);
    if (this.timings.length > TIMINGS_KEPT) this.timings.shift();
    this.pending.push(move || { kind: action });
    this.pending[this.pending.length - 1].id = id;
    if (action === "undo" || action === "redo") {
      this.predict({ kind: action });
      this.draw();
      this.drawn(id);
    }
    return id;
  }
  timing(id) {
    for (let i = this.timings.length - 1; i >= 0; i--) if (this.timings[i].id === id) return this.timings[i];
    return null;
  }
  // the next frame after a change: when the player sees it
  drawn(id, field = "drawn") {
    const entry = this.timing(id);
    if (entry && entry[field] === null) requestAnimationFrame(() => { entry[field] = performance.now(); });
  }
  // -- the kernel's answer ---------------------------------------------------------------------
  applyState(state) {
    const received = performance.now(), mine = state.view === this.token;
    this.state = state;
    this.domains = state.domains.map((d) => d.slice());
    this.assigned = new Set(state.assigned);
    this.depth = state.undo;
    this.snapshots[state.undo] = { domains: this.domains.map((d) => d.slice()), assigned: state.assigned.slice() };
    this.snapshots.length = state.undo + state.redo + 1;
    if (mine) this.pending = this.pending.filter((m) => m.id > state.id);
    for (const move of this.pending) this.predict(move);  // still on their way: drawn again
    for (const v of state.assigned) if (!this.before[v]) this.before[v] = this.data.init[v].map((_, i) => i);
    this.drawHintSteps();
    this.draw();
    this.drawStatus();
    this.drawValues();
    if (this.board) this.board.labelIslands();
    if (this.selected !== null) this.tree.drawWhy(this.selected);
    if (mine) {
      const entry = this.timing(state.id);
      if (entry) Object.assign(entry, { received, applied: performance.now() });
      this.drawn(state.id, "answered");
    }
  }
  valueOf(v) {
    return this.assigned.has(v) && this.domains[v].length === 1 ? this.data.init[v][this.domains[v][0]] : null;
  }
  leftKeys(v) {
    return this.domains[v].map((i) => this.data.init[v][i]);
  }
  stateOf(v) {
    const init = this.data.init[v], words = this.data.words[v], left = this.domains[v];
    const keys = left.map((i) => init[i]);
    // once solved, a cell left alone (or marked so) is drawn as the solution shows it: blank
    const blank = this.state.status === "solved" && this.play && keys.length === 1 && keys[0] === this.play.blank;
    return { left: keys, all: init, words: left.map((i) => words[i]), assigned: this.assigned.has(v), blank };
  }
  draw() {
    const frame = this.zoom.frame();
    if (frame) { this.drawFrame(frame); return; }
    const stateOf = (v) => this.stateOf(v);
    if (this.view) {
      this.view.draw(stateOf);
      this.view.mark(this.marks(), null);
    }
    if (this.graph) this.graph.draw(stateOf, this.marks(), this.state);
  }
  marks() {
    const marks = (this.state.marks || []).slice();
    for (const v of this.state.errors || []) marks.push([v, null, "error"]);
    // the variable chosen, outlined (a click on Singles is a move, not a choice)
    if (this.selected !== null && !(this.play && this.play.gesture === "cycle")) marks.push([this.selected, null, "chosen"]);
    return marks;
  }
  drawMarks() {
    if (this.zoom.active) return;  // the zoom's own marks stay
    if (this.view) this.view.mark(this.marks(), null);
    if (this.graph) this.graph.view.mark(this.marks(), null);
  }
  drawStatus() {
    const state = this.state, p = this.phrases;
    const decided = this.assigned.size;
    const single = this.domains.filter((d, v) => d.length === 1 && !this.assigned.has(v)).length;
    let said = state.status === "solved" ? p.now_solved.trim() : state.status === "wipeout" ? p.now_wipeout.trim()
      : fill(p.status_open, { n: decided, k: this.domains.length, m: single });
    said = said.replace(/\.$/, "") + fill(p.status_counts, { n: state.moves, k: state.hints });
    if (state.trials) said += fill(p.status_trials, { n: state.trials });
    this.status.textContent = said;
    if (this.answer.textContent !== state.answer && state.view === this.token) this.say(state.answer);
    else if (this.answer.textContent === "" && state.answer) this.say(state.answer);
    this.applyButton.disabled = !state.hint;
    this.undoButton.disabled = !state.undo;
    this.redoButton.disabled = !state.redo;
    this.acceptButton.disabled = this.rejectButton.disabled = !state.trials;
    this.after.value = state.after;
    this.checking.value = state.checking;
  }
  // The steps of the hint shown when it rests on a trial (each refutes the supposition),
  // and its zoom.
  drawHintSteps() {
    const state = this.state, steps = state.hint_steps || [];
    this.zoom.offer(state.zoom || [], state.hint ? `${state.hints}` : null);
    if (this.shownSteps === steps.join("\n")) return;
    this.shownSteps = steps.join("\n");
    this.stepList.replaceChildren();
    if (!steps.length) return;
    const box = html("details", {}, this.stepList);
    html("summary", {}, box, fill(this.phrases.hint_steps, { n: steps.length }));
    const list = html("ol", {}, box);
    for (const step of steps) html("li", {}, list, step);
  }
  // -- the zoom: a frame drawn in place of the board ---------------------------------------------
  // The frame with the explorer's look (every domain shown), its marks over it.
  drawFrame(frame) {
    const data = this.data, keys = data.keys;
    const stateOf = (v) => {
      const left = frame.domains[keys[v]] || [], all = data.init[v];
      return { left, all, words: left.map((k) => data.words[v][all.indexOf(k)]), assigned: false, blank: false };
    };
    const marks = [];
    for (const [key, value, how] of this.zoom.marks()) {
      if (this.keyIndex.has(key)) marks.push([this.keyIndex.get(key), value, how]);
    }
    if (this.view) {
      this.view.draw(stateOf);
      this.view.mark(marks, null);
    }
    if (this.graph) this.graph.draw(stateOf, marks, this.state);
  }
  // The zoom opened, moved or left: the picture's look, the picture, the step in the list.
  zoomChanged() {
    const active = this.zoom.active;
    if (this.view && active !== !!this.lookBeforeZoom) {
      if (active) {
        this.lookBeforeZoom = { look: this.view.look };
        this.view.setLook(null);
      } else {
        this.view.setLook(this.lookBeforeZoom.look);
        this.lookBeforeZoom = null;
      }
    }
    this.draw();
    const step = this.zoom.step();
    this.stepList.querySelectorAll("li").forEach((li, i) => {
      if (i === step) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    });
  }
  leaveZoom() {
    if (this.zoom.active) this.zoom.close(false);
  }
  drawValues() {
    const box = this.values, data = this.data, v = this.selected, p = this.phrases;
    box.replaceChildren();
    if (v === null) { html("span", { class: "cx-caption" }, box, p.pick); return; }
    html("span", { class: "cx-caption" }, box, fill(p.values_of, { name: data.names[v] }));
    const open = this.state.status === "open";
    for (const i of this.domains[v]) {
      const key = data.init[v][i], words = data.words[v][i];
      const b = html("button", { type: "button", title: fill(p.value_title, { name: data.names[v], value: words }) }, box, words);
      b.dataset.value = key;
      b.disabled = !open;
      b.addEventListener("click", (e) => {
        if (this.play) this.move({ kind: "set", v, value: key }, e.timeStamp);
        else this.move({ kind: "assign", v, value: key }, e.timeStamp);
      });
    }
    if (!this.play && this.domains[v].length > 1) {
      this.button(box, "split", fill(p.split_title, { name: data.names[v] }), () => this.send("split", { var: data.keys[v] }));
    }
  }
}
