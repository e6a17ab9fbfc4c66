// Your code, stepped (viz/code_stepper.py): a recorded run of a function, the line about to
// run marked in its source, the call stack, the watched values, and the picture of the
// domains at that moment, drawn by the explorer's PictureView.
//
// Python sends the steps as numbers (C_STRIDE numbers each, then one text number per
// watched name: viz/recorder.py), the source of every function that ran, and each distinct
// state of the domains in the picture's keys (viz/code_page.py). Moving, the jumps,
// breakpoints and predict-then-check happen here; viz/code_page.py's `Shown` says the same
// in Python, and the browser tests hold the two to each other.

const CODE_JUMPS = [  // [kind, button label, title, key]
  ["line", "▶", "step: the next line", "ArrowRight"],
  ["over", "↷", "over: the next line of this function (its calls run through)", "ArrowDown"],
  ["call", "call", "call: the next call of a function", "c"],
  ["shrink", "shrink", "shrink: the next time a domain shrinks", "s"],
  ["return", "return", "return: the next return (or raise)", "r"],
  ["breakpoint", "▶●", "continue to the next breakpoint", "b"],
];

// A recorded run, read as numbers; the same answers as code_page.Shown.
class CodeRun {
  constructor(raw) {
    Object.assign(this, raw);
    this.st = int32s(raw.steps);
    this.snaps = raw.picture ? int32s(raw.snapshots) : null;
    this.width = raw.picture ? raw.keys.length : 0;
    this.shrinking = new Set(raw.shrinks);
    this.firstOfFrame = null;
  }
  get(i, field) { return this.st[i * this.stride + field]; }
  watched(i, w) { return this.st[i * this.stride + this.fields + w]; }
  text(n) { return n >= 0 ? this.texts[n] : ""; }
  name(i) { return this.codes[this.get(i, C_CODE)][0]; }
  isReturn(i) { return this.get(i, C_KIND) !== C_LINE_STEP; }  // a return or a raise
  place(i) { return `${this.codes[this.get(i, C_CODE)][1]}:${this.get(i, C_LINE)}`; }
  isCall(j) {  // the first step of its frame
    if (!this.firstOfFrame) {
      const flags = new Uint8Array(this.total);
      let highest = 0;
      for (let i = 0; i < this.total; i++) {
        const frame = this.get(i, C_FRAME);
        flags[i] = frame > highest ? 1 : 0;
        highest = Math.max(highest, frame);
      }
      this.firstOfFrame = flags;
    }
    return this.firstOfFrame[j] === 1;
  }
  sentence(i) {
    const heading = fill(this.phrases.heading, { k: i + 1, n: this.total });
    const slots = { name: this.name(i), depth: this.get(i, C_DEPTH) };
    if (this.isReturn(i)) {
      const phrase = this.get(i, C_KIND) === C_RETURN ? this.phrases.returns : this.phrases.raises;
      return heading + fill(phrase, Object.assign(slots, { value: this.text(this.get(i, C_VALUE)) }));
    }
    return heading + fill(this.phrases.line, Object.assign(slots, { m: this.get(i, C_LINE) }));
  }
  state(i) {  // for each variable of the picture, its value numbers left (null: no domains)
    const s = this.get(i, C_SNAP);
    if (s < 0 || !this.snaps) return null;
    const out = [];
    for (let v = 0; v < this.width; v++) out.push(this.sets[this.snaps[s * this.width + v]]);
    return out;
  }
  removed(i, j) {  // [v, x] shown at step i and gone at step j, when both show the same domains
    const source = this.get(i, C_SOURCE);
    const before = this.state(i), after = this.state(j);
    if (source < 0 || source !== this.get(j, C_SOURCE) || !before || !after) return [];
    const gone = [];
    for (let v = 0; v < this.width; v++) {
      if (before[v] === after[v]) continue;
      const left = new Set(after[v]);
      for (const x of before[v]) if (!left.has(x)) gone.push([v, x]);
    }
    return gone;
  }
  target(i, kind, stops) {  // the step a jump lands on, or null
    const depth = this.get(i, C_DEPTH);
    for (let j = i + 1; j < this.total; j++) {
      const line = !this.isReturn(j);
      if (kind === "line" || (kind === "over" && this.get(j, C_DEPTH) <= depth)
          || (kind === "call" && this.isCall(j)) || (kind === "shrink" && this.shrinking.has(j))
          || (kind === "return" && !line) || (kind === "breakpoint" && line && stops.has(this.place(j)))) return j;
    }
    return null;
  }
  finished(i) {  // the step after line i has run
    const depth = this.get(i, C_DEPTH);
    for (let j = i + 1; j < this.total; j++) if (this.get(j, C_DEPTH) <= depth) return j;
    return null;
  }
  returning(i) {  // the step where the frame of step i returns
    const frame = this.get(i, C_FRAME);
    for (let j = i; j < this.total; j++) if (this.get(j, C_FRAME) === frame && this.isReturn(j)) return j;
    return null;
  }
  question(i) {
    const phrases = this.phrases, name = this.name(i);
    if (this.isReturn(i)) {
      const phrase = this.get(i, C_KIND) === C_RETURN ? phrases.ask_nothing_return : phrases.ask_nothing_raise;
      return { ask: "nothing", k: i, text: fill(phrase, { name, value: this.text(this.get(i, C_VALUE)) }) };
    }
    const end = this.finished(i);
    const gone = end === null ? [] : this.removed(i, end);
    if (gone.length) return { ask: "removals", k: end, answer: gone, text: fill(phrases.ask_removals, { m: this.get(i, C_LINE) }) };
    const back = this.returning(i);
    if (back === null) return { ask: "nothing", k: i, text: fill(phrases.ask_nothing_end, { name }) };
    const seen = this.returns[String(this.get(i, C_CODE))] || [];
    const choices = seen.length <= this.most_choices ? seen.map((n) => this.texts[n]) : [];
    return { ask: "return", k: back, answer: this.text(this.get(back, C_VALUE)), choices,
             text: fill(choices.length ? phrases.ask_return : phrases.ask_return_free, { name }) };
  }
  checkReturn(i, answer) {
    const asked = this.question(i), squash = (t) => String(t).trim().split(/\s+/).join(" ");
    const slots = { name: this.name(i), value: asked.answer, k: asked.k + 1 };
    if (squash(answer) === squash(asked.answer)) return fill(this.phrases.right_return, slots);
    return fill(this.phrases.wrong_return, Object.assign(slots, { other: answer }));
  }
  checkRemovals(i, picked) {  // picked: a Set of "v,x"
    const phrases = this.phrases, expected = this.question(i).answer || [];
    const wanted = new Set(expected.map(([v, x]) => `${v},${x}`));
    const right = Array.from(picked).filter((pair) => wanted.has(pair)).length;
    if (right === wanted.size && picked.size === wanted.size) return fill(phrases.right_removals, { n: wanted.size });
    const lines = [fill(phrases.some_removals, { right, total: wanted.size })];
    for (const [v, x] of expected) {
      if (!picked.has(`${v},${x}`)) lines.push(fill(phrases.missed, { name: this.names[v], value: this.words[x] }));
    }
    const extra = Array.from(picked).filter((pair) => !wanted.has(pair)).map((pair) => pair.split(",").map(Number));
    extra.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [v, x] of extra) lines.push(fill(phrases.not_removed, { name: this.names[v], value: this.words[x] }));
    return lines.join(" ");
  }
}

// Predict, then check, at a line: the explorer's panel, asking what the line removes or what
// the function returns (the picked values work as the explorer's do).
class CodePredictor extends Predictor {
  ask() {
    const ex = this.explorer, run = ex.run;
    this.reset();
    this.asked = run.question(ex.position);
    this.at = ex.position;
    this.picked = new Set();
    html("div", { class: "cx-question" }, this.body, this.asked.text);
    this.values = html("div", { class: "cx-values" }, this.body);
    if (this.asked.ask === "removals") {
      const check = html("button", { type: "button", class: "cx-check" }, this.body, run.phrases.check);
      check.addEventListener("click", () => this.answer(run.checkRemovals(this.at, this.picked)));
    } else if (this.asked.ask === "return") {
      this.offerReturns(run);
    }
    this.feedback = html("div", { class: "cx-feedback" }, this.body);
    ex.announce(this.asked.text);
  }
  offerReturns(run) {
    const check = (answer) => { if (!this.answered) this.answer(run.checkReturn(this.at, answer)); };
    for (const choice of this.asked.choices) {
      const b = html("button", { type: "button", class: "cx-choice" }, this.values, choice);
      b.addEventListener("click", () => check(choice));
    }
    if (this.asked.choices.length) return;
    const label = html("label", { class: "cx-label" }, this.values, `${run.phrases.answer} `);
    const typed = html("input", { type: "text", class: "cx-typed" }, label);
    typed.addEventListener("keydown", (e) => { e.stopPropagation(); if (e.key === "Enter") check(typed.value); });
    const b = html("button", { type: "button", class: "cx-check" }, this.values, run.phrases.check);
    b.addEventListener("click", () => check(typed.value));
  }
  get picking() { return this.asked !== null && this.asked.ask === "removals" && !this.answered; }
}

class CodeStepperView {
  constructor(model, el) {
    this.model = model;
    this.run = new CodeRun(model.get("data"));
    this.runs = [this.run];
    this.replay = { domain: (v) => (this.run.state(this.position) || this.run.all)[v] };
    this.position = Math.max(0, Math.min(this.run.total - 1, model.get("position") || 0));
    this.stops = new Set((model.get("breakpoints") || []).map(([file, line]) => this.stopKey(file, line)));
    this.note = model.get("note") || "";
    const title = this.run.title;
    this.root = html("div", { class: "csp-stepper csp-code-stepper", tabindex: "0", role: "region",
      "aria-label": title ? `code stepper: ${title}` : "code stepper" }, el);
    if (title) html("div", { class: "cx-caption" }, this.root, title);
    html("div", { class: "cx-caption cx-recorded" }, this.root, this.run.note);
    const main = html("div", { class: "cx-main" }, this.root);
    this.buildCode(html("div", { class: "cx-code-panel" }, main));
    this.buildSide(html("div", { class: "cx-side" }, main));
    this.sentence = html("div", { class: "cx-text csp-stepper-text" }, this.root);
    this.live = html("div", { class: "cx-live", role: "status", "aria-live": "polite" }, this.root);
    this.addControls();
    html("div", { class: "cx-caption" }, this.root, this.run.phrases.legend);
    html("div", { class: "cx-caption" }, this.root, this.run.phrases.keys);
    this.listen();
    this.show();
  }
  stopKey(file, line) {  // a breakpoint as CodeRun.place names it, from Python's [path, line]
    return `${this.run.files.findIndex((f) => f.path === file)}:${line}`;
  }
  buildCode(panel) {
    const run = this.run, phrases = run.phrases;
    this.code = html("div", { class: "csp-code", role: "group", "aria-label": phrases.code }, panel);
    this.lineOf = new Map();
    this.rows = [];
    run.files.forEach((file, f) => {
      for (const [first, lines] of file.blocks) {
        html("div", { class: "cx-code-file" }, this.code, `${file.label}, lines ${first}–${first + lines.length - 1}`);
        lines.forEach((source, k) => this.addRow(f, first + k, source));
      }
    });
    if (this.rows.length) this.rows[0].setAttribute("tabindex", "0");
  }
  addRow(file, line, source) {
    const row = html("div", { class: "cx-code-line", role: "button", tabindex: "-1", "aria-pressed": "false" }, this.code);
    row.dataset.line = String(line);
    row.dataset.file = String(file);
    html("span", { class: "cx-mark", "aria-hidden": "true" }, row);
    html("span", { class: "cx-number" }, row, String(line));
    html("span", { class: "cx-source" }, row, source || " ");
    const at = this.rows.length;
    row.addEventListener("click", () => this.toggleStop(row));
    row.addEventListener("keydown", (e) => this.rowKey(e, at));
    this.lineOf.set(`${file}:${line}`, row);
    this.rows.push(row);
  }
  rowKey(e, at) {
    let next = null;
    if (e.key === "Enter" || e.key === " ") this.toggleStop(this.rows[at]);
    else if (e.key === "ArrowDown") next = Math.min(this.rows.length - 1, at + 1);
    else if (e.key === "ArrowUp") next = Math.max(0, at - 1);
    else return;
    e.preventDefault();
    e.stopPropagation();  // the stepper's and the notebook's keys stay out of it
    if (next === null) return;
    this.rows[at].setAttribute("tabindex", "-1");
    this.rows[next].setAttribute("tabindex", "0");
    this.rows[next].focus();
  }
  toggleStop(row) {
    const key = `${row.dataset.file}:${row.dataset.line}`, on = !this.stops.has(key);
    if (on) this.stops.add(key); else this.stops.delete(key);
    this.drawStops();
    this.announce(fill(on ? this.run.phrases.breakpoint_on : this.run.phrases.breakpoint_off, { m: row.dataset.line }));
    const files = this.run.files;
    this.model.set("breakpoints", Array.from(this.stops).map((k) => k.split(":").map(Number))
      .map(([f, line]) => [files[f].path, line]));
    this.model.save_changes();
  }
  drawStops() {
    for (const [key, row] of this.lineOf) row.setAttribute("aria-pressed", String(this.stops.has(key)));
  }
  buildSide(side) {
    const run = this.run;
    this.view = null;
    if (run.picture) {  // in a block of its own: PictureView sizes its host as a flex item
      this.pictureHost = html("div", { class: "cx-picture csp-stepper-image" }, html("div", {}, side));
      this.view = new PictureView(this.pictureHost, run.picture, run.keys, {
        names: run.names, phrases: run.phrases, label: run.phrases.picture,
        onVar: (v, how) => this.pointAt(v, how) });
      this.pictureOf = html("div", { class: "cx-caption cx-picture-of" }, side);
    }
    this.stack = html("div", { class: "cx-caption cx-stack" }, side);
    this.values = html("table", { class: "cx-stats cx-locals" }, side);
    this.predictor = new CodePredictor(this, side);
  }
  pointAt(v, how) {
    if (how === "click" && this.predictor.picking) { this.predictor.pick(v); return; }
    if (v !== null && (how === "focus" || how === "click")) this.announce(this.view.groups[v].getAttribute("aria-label"));
  }
  addControls() {
    const controls = html("div", { class: "cx-controls" }, this.root), last = this.run.total - 1;
    controlButton(controls, "|◀", "first: the first step", () => this.go(0));
    controlButton(controls, "◀", "back one step", () => this.go(this.position - 1));
    this.keys = { ArrowLeft: () => this.go(this.position - 1), Home: () => this.go(0), End: () => this.go(last) };
    for (const [kind, label, title, key] of CODE_JUMPS) {
      controlButton(controls, label, title, () => this.jump(kind)).setAttribute("aria-keyshortcuts", key);
      this.keys[key] = () => this.jump(kind);
    }
    controlButton(controls, "▶|", "end: the last step", () => this.go(last));
    const sliderLabel = html("label", { class: "cx-label cx-slider" }, controls, "step ");
    this.slider = html("input", { type: "range", min: "0", max: String(last), value: "0", title: "position in the recording" }, sliderLabel);
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.noteBox = html("span", { class: "cx-note", role: "status" }, controls);
  }
  listen() {
    this.root.addEventListener("keydown", (e) => {
      if (e.target !== this.root && e.target.tagName !== "BUTTON") return;
      if (e.ctrlKey || e.metaKey || e.altKey || !(e.key in this.keys)) return;
      e.preventDefault();
      e.stopPropagation();  // the notebook's own shortcuts stay out of it
      this.keys[e.key]();
    });
    this.model.on("change:position", () => {
      const p = this.model.get("position");
      if (p !== this.position) this.go(p, true);
    });
    this.model.on("change:note", () => { this.note = this.model.get("note"); this.noteBox.textContent = this.note; });
    this.model.on("change:breakpoints", () => {
      this.stops = new Set((this.model.get("breakpoints") || []).map(([file, line]) => this.stopKey(file, line)));
      this.drawStops();
    });
  }
  jump(kind) {
    const found = this.run.target(this.position, kind, this.stops);
    if (found === null) {
      this.note = this.run.phrases[`jump_${kind}`];
      this.noteBox.textContent = this.note;
      this.announce(this.note);
      return false;
    }
    this.go(found);
    return true;
  }
  go(target, fromKernel) {
    target = Math.max(0, Math.min(this.run.total - 1, target));
    if (target !== this.position) this.note = "";
    if (this.predictor.asked && target !== this.predictor.at) this.predictor.reset();
    this.position = target;
    this.show();
    this.announce(this.said());
    if (!fromKernel && this.model.get("position") !== target) {
      this.model.set("position", target);
      this.model.save_changes();
    }
  }
  stop() {}  // nothing plays: the predictor's "show me" calls it
  announce(words) { this.live.textContent = words; }
  said() {  // the live region: where, the line's source, the values there
    const run = this.run, i = this.position, row = this.lineOf.get(run.place(i));
    const source = row ? row.lastChild.textContent.trim() : "";
    const values = run.watch.map((name, w) => [name, run.watched(i, w)]).filter(([, n]) => n >= 0)
      .map(([name, n]) => `${name} = ${shortened(run.text(n), run.said_length)}`);
    return [this.sentence.textContent, source, values.join(", ")].filter((t) => t).join(". ");
  }
  // -- what is shown ---------------------------------------------------------------------
  show() {
    const i = this.position;
    this.sentence.textContent = this.run.sentence(i);
    this.slider.value = String(i);
    this.noteBox.textContent = this.note;
    this.markLines(i);
    this.drawStack(i);
    this.drawValues(i);
    if (this.view) this.drawPicture(i);
  }
  markLines(i) {
    for (const row of this.code.querySelectorAll(".cx-now, .cx-ran")) {
      row.classList.remove("cx-now", "cx-ran");
      row.removeAttribute("aria-current");
    }
    const before = i > 0 ? this.lineOf.get(this.run.place(i - 1)) : null;
    const now = this.lineOf.get(this.run.place(i));
    if (before && before !== now) before.classList.add("cx-ran");
    if (!now) return;
    now.classList.add("cx-now");
    now.setAttribute("aria-current", "step");
    const box = this.code;  // scroll the listing only, never the notebook
    if (now.offsetTop < box.scrollTop || now.offsetTop + now.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, now.offsetTop - box.clientHeight / 3);
    }
  }
  drawStack(i) {
    const run = this.run, frames = [];
    for (let s = i; s >= 0; s = run.get(s, C_CALLER)) frames.unshift(fill(run.phrases.frame, { name: run.name(s), m: run.get(s, C_LINE) }));
    this.stack.textContent = fill(run.phrases.stack, { values: frames.join(" › ") });
  }
  drawValues(i) {
    const run = this.run, table = this.values;
    table.replaceChildren();
    html("caption", { class: "cx-caption" }, table, run.phrases.watched);
    const same = i > 0 && run.get(i - 1, C_FRAME) === run.get(i, C_FRAME);
    const row = (name, value, changed) => {
      const tr = html("tr", {}, table);
      html("th", { scope: "row" }, tr, name);
      const td = html("td", {}, tr);
      html("code", {}, td, value);
      if (changed) html("span", { class: "cx-changed" }, td, ` (${run.phrases.changed})`);
    };
    let shown = 0;
    run.watch.forEach((name, w) => {
      const n = run.watched(i, w);
      if (n < 0) return;
      shown += 1;
      row(name, run.text(n), same && run.watched(i - 1, w) !== n);
    });
    if (run.get(i, C_KIND) === C_RETURN) row("returns", run.text(run.get(i, C_VALUE)), false);
    else if (run.isReturn(i)) row("raises", run.text(run.get(i, C_VALUE)).replace(/^raises /, ""), false);
    else if (!shown) html("tr", {}, table).appendChild(html("td", { class: "cx-caption" }, null, run.phrases.absent));
  }
  drawPicture(i) {
    const run = this.run, state = run.state(i), where = run.get(i, C_PLACE);
    const [place, code] = where >= 0 ? run.places[where] : [null, null];
    this.pictureOf.textContent = state ? fill(run.phrases.picture_of, { name: place, other: run.codes[code][0] })
      : run.phrases.no_picture;
    const left = state || run.all;
    this.view.draw((v) => ({ left: left[v].map((x) => run.values[x]), all: run.all[v].map((x) => run.values[x]),
      words: left[v].map((x) => run.words[x]) }));
    const marks = i > 0 ? run.removed(i - 1, i).map(([v, x]) => [v, run.values[x], "prune"]) : [];
    this.view.mark(marks, null);
  }
}

// Numbers sent as base64 of 32-bit little-endian integers (code_page.numbers_text).
function int32s(text) {
  const chars = atob(text), bytes = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) bytes[i] = chars.charCodeAt(i);
  const view = new DataView(bytes.buffer), out = new Int32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(4 * i, true);
  return out;
}

// A value said in the live region: at most `most` characters.
function shortened(text, most) {
  return text.length <= most ? text : `${text.slice(0, most - 1)}…`;
}

// The code stepper's own style, beside the explorer's (style.js): the listing and its marks.
// The marks are translucent, so that they keep the text's contrast in light and dark themes.
const CODE_CSS = `
.cx-code-panel { flex: 3 1 420px; min-width: 0; }
.csp-code { position: relative; max-height: 460px; overflow: auto; border: 1px solid var(--cx-line);
  border-radius: 4px; font-family: var(--jp-code-font-family, ui-monospace, Menlo, Consolas, monospace);
  font-size: 13px; line-height: 1.45; }
.cx-code-file { font-family: var(--jp-ui-font-family, system-ui, sans-serif); font-size: 12px;
  background: var(--cx-raised); padding: 2px 6px; border-bottom: 1px solid var(--cx-line); }
.cx-code-line { display: flex; white-space: pre; cursor: pointer; min-height: 1.45em; }
.cx-code-line:focus-visible { outline: 3px solid var(--cx-accent); outline-offset: -3px; }
.cx-code-line .cx-mark { flex: 0 0 2.2em; text-align: center; }
.cx-code-line .cx-number { flex: 0 0 3em; text-align: right; padding-right: 0.8em; user-select: none; }
.cx-code-line .cx-source { flex: 1 1 auto; }
.cx-code-line.cx-now { background: rgba(255, 193, 7, 0.3); font-weight: bold; box-shadow: inset 4px 0 0 var(--cx-accent); }
.cx-code-line.cx-ran { background: rgba(25, 118, 210, 0.13); }
.cx-code-line.cx-now .cx-mark::before { content: "▶"; }
.cx-code-line.cx-ran .cx-mark::before { content: "›"; }
.cx-code-line[aria-pressed="true"] .cx-mark::after { content: "●"; color: #c62828; }
.csp-code-stepper table.cx-locals { width: 100%; border-collapse: collapse; table-layout: auto; margin: 0; }
.csp-code-stepper .cx-locals caption { text-align: left; }
.csp-code-stepper .cx-locals tr { background: none; }
.csp-code-stepper .cx-locals th { vertical-align: top; text-align: left; width: 1%; white-space: nowrap;
  padding: 0 8px 0 0; border: none; font-family: var(--jp-code-font-family, monospace); }
.csp-code-stepper .cx-locals td { text-align: left; font-weight: normal; padding: 0; border: none; max-width: none; }
.csp-code-stepper .cx-locals code { white-space: pre-wrap; word-break: break-word; background: none;
  padding: 0; color: inherit; font-size: 13px; }
.cx-changed { font-style: italic; }
.cx-stack { font-family: var(--jp-code-font-family, monospace); }
.csp-code-stepper input.cx-typed { font: inherit; color: var(--cx-fg); background: var(--cx-bg);
  border: 1px solid var(--cx-line); border-radius: 4px; min-height: 24px; }
`;

function renderCode(model, el) {
  ensureStyle();
  if (!document.getElementById("csp-code-style")) {
    html("style", { id: "csp-code-style" }, document.head).textContent = CODE_CSS;
  }
  const view = new CodeStepperView(model, el);
  return () => { view.stop(); };
}
