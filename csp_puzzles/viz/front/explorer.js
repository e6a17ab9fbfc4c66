// The trace explorer: replays one or more runs in the browser, with no kernel round trip.
//
// The Python side sends one `data` object: the picture description and the packed runs
// (viz/packing.py), words included. Stepping, playing, the tree, "why?" and the summary
// all happen here; `position` is synced back so that the Python handles (`stepper.position`,
// `.domains`, ...) follow the picture. Position k is the state just after event k (events
// count from 1); position 0 is the start.

const JUMP_KINDS = ["assign", "wipeout", "backtrack", "solution", "backjump", "learn", "repair", "revise"];
const RATES = [1, 2, 5, 10, 20, 50, 100];
const REDUCED_RATES = [1, 2, 5];  // when the reader asks for reduced motion

class Explorer {
  constructor(model, el) {
    this.model = model;
    this.data = model.get("data");
    this.runs = this.data.runs.map((raw) => new RunData(raw));
    this.runIndex = Math.min(model.get("run") || 0, this.runs.length - 1);
    this.position = model.get("position") || 0;
    this.chosen = null;    // the variable "why?" shows (hovered, focused or pinned)
    this.pinned = false;
    this.previewing = null;
    this.playing = null;
    this.note = "";
    this.drawnNode = null;
    this.syncTimer = null;
    this.root = html("div", { class: "csp-stepper csp-explorer", tabindex: "0", role: "region",
      "aria-label": this.data.title ? `trace explorer: ${this.data.title}` : "trace explorer" }, el);
    this.layOut();
    this.addControls();
    this.listen();
    this.choose(this.runIndex);
    this.position = Math.max(0, Math.min(this.run.total, this.position));
    this.show();
  }
  layOut() {
    const root = this.root, phrases = this.runs[0].phrases;
    this.runsBar = html("div", { class: "cx-runs" }, root);
    if (this.data.title) html("div", { class: "cx-caption" }, root, this.data.title);
    const main = html("div", { class: "cx-main" }, root);
    this.pictureHost = html("div", { class: "cx-picture csp-stepper-image" }, main);
    const side = html("div", { class: "cx-side" }, main);
    html("div", { class: "cx-caption" }, side, phrases.tree_legend);
    this.treeHost = html("div", { class: "cx-tree" }, side);
    this.pathLine = html("div", { class: "cx-caption cx-path" }, side);
    this.queue = html("div", { class: "cx-caption cx-queue" }, side);
    this.why = html("div", { class: "cx-why", role: "group", "aria-label": "why?" }, side);
    this.stats = html("table", { class: "cx-stats csp-stepper-stats" }, side);
    this.predictor = new Predictor(this, side);
    if (this.data.picture) html("div", { class: "cx-caption cx-legend" }, root, phrases.marks);
    this.preview = html("div", { class: "cx-caption cx-preview", hidden: "" }, root);
    this.sentence = html("div", { class: "cx-text csp-stepper-text" }, root);
    this.live = html("div", { class: "cx-live", role: "status", "aria-live": "polite" }, root);
  }
  addControls() {
    const controls = html("div", { class: "cx-controls" }, this.root);
    const button = (label, title, act) => controlButton(controls, label, title, act);
    button("|◀", "first: the initial domains", () => { this.stop(); this.go(0); });
    button("◀", "back one event", () => { this.stop(); this.go(this.position - 1); });
    button("▶", "step: the next event", () => { this.stop(); this.go(this.position + 1); });
    button("▶|", "end: the last event", () => { this.stop(); this.go(this.run.total); });
    this.playButton = button("play", "play / pause", () => (this.playing ? this.stop() : this.play()));
    this.speed = this.select(controls, "speed", "events per second", this.rates().map((r) => [r, `${r} events/s`]));
    const wanted = 1000 / (this.model.get("interval") || 400);
    this.speed.value = String(this.rates().reduce((a, b) => (Math.abs(b - wanted) < Math.abs(a - wanted) ? b : a)));
    const sliderLabel = html("label", { class: "cx-label cx-slider" }, controls, "event ");
    this.slider = html("input", { type: "range", min: "0", value: "0", title: "event" }, sliderLabel);
    this.slider.addEventListener("input", () => { this.stop(); this.go(Number(this.slider.value)); });
    const present = new Set(this.runs.flatMap((r) => r.jumps.map(([kind]) => kind)));
    const kinds = JUMP_KINDS.filter((k) => present.has(k));
    const words = Object.fromEntries(this.runs.flatMap((r) => r.jumps.map(([k, label]) => [k, label])));
    this.jumpKind = this.select(controls, "jump to", "what to jump to", kinds.map((k) => [k, words[k]]));
    button("jump", "jump to the next event of the chosen kind", () => { this.stop(); this.jump(this.jumpKind.value); });
    this.noteBox = html("span", { class: "cx-note", role: "status" }, controls);
  }
  select(parent, label, title, options) {
    const holder = html("label", { class: "cx-label" }, parent, `${label} `);
    const chooser = html("select", { title }, holder);
    for (const [value, words] of options) html("option", { value: String(value) }, chooser, words);
    return chooser;
  }
  rates() {
    const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    return reduced ? REDUCED_RATES : RATES;
  }
  listen() {
    this.root.addEventListener("keydown", (e) => this.keydown(e));
    this.root.addEventListener("mouseleave", () => { if (!this.pinned && this.chosen !== null) { this.chosen = null; this.show(); } });
    this.model.on("change:position", () => {
      const p = this.model.get("position");
      if (p !== this.position && !this.playing) this.go(p, true);
    });
    this.model.on("change:run", () => {
      const i = this.model.get("run");
      if (i !== this.runIndex) { this.stop(); this.choose(i); this.position = -1; this.go(this.model.get("position") || 0, true); }
    });
    this.model.on("change:note", () => { this.note = this.model.get("note"); this.noteBox.textContent = this.note; });
  }
  keydown(e) {
    const onControl = e.target === this.root || e.target.tagName === "BUTTON";
    if (!onControl) return;  // the slider, the tree and the picture have their own keys
    const targets = { ArrowRight: this.position + 1, ArrowLeft: this.position - 1, Home: 0, End: this.run.total };
    if (!(e.key in targets)) return;
    e.preventDefault();
    e.stopPropagation();  // the notebook's own shortcuts stay out of it
    this.stop();
    this.go(targets[e.key]);
  }
  choose(index) {
    this.runIndex = index;
    this.run = this.runs[index];
    this.replay = new Replay(this.run);
    this.tree = buildTree(this.run);
    this.treeView = new TreeView(this.treeHost, this.run, this.tree, {
      go: (p) => { this.stop(); this.go(p); }, inspect: (n) => this.inspect(n) });
    this.slider.max = String(this.run.total);
    this.pictureHost.replaceChildren();
    this.view = null;
    if (this.data.picture) {
      this.view = new PictureView(this.pictureHost, this.data.picture, this.run.keys, {
        names: this.run.names, phrases: this.run.phrases, label: this.run.phrases.picture,
        onVar: (v, how) => this.pointAt(v, how) });
    } else {
      this.drawImage();
    }
    this.chosen = null; this.pinned = false; this.drawnNode = null;
    this.drawRuns();
  }
  drawImage() {
    const img = html("img", { alt: "the search state, drawn by the kernel" }, this.pictureHost);
    const update = () => { const src = this.model.get("image"); if (src) img.src = src; };
    this.model.on("change:image", update);
    update();
  }
  drawRuns() {
    if (this.runs.length < 2) return;
    this.runsBar.replaceChildren();
    const most = Math.max(...this.runs.map((r) => r.nodes), 1);
    this.runs.forEach((r, i) => {
      const box = html("button", { type: "button", class: "cx-run" + (i === this.runIndex ? " cx-chosen" : ""),
        "aria-pressed": String(i === this.runIndex), "aria-label": `replay ${r.label}: ${r.nodes} nodes` }, this.runsBar);
      html("span", { class: "cx-caption" }, box, `${r.label}: ${r.nodes} nodes`);
      html("span", { class: "cx-bar", "aria-hidden": "true", style: `width:${Math.max(2, 140 * r.nodes / most)}px` }, box);
      const mini = html("span", { class: "cx-mini" }, box);
      new TreeView(mini, r, buildTree(r), { compact: true }).draw(r.total);
      box.addEventListener("click", () => {
        this.stop(); this.choose(i);
        this.model.set("run", i); this.model.set("position", 0); this.model.save_changes();
        this.position = -1; this.go(0);
      });
    });
  }
  // the variable "why?" follows: hovering or focusing shows it, a click or Enter pins it
  pointAt(v, how) {
    if (how === "click" && this.predictor.active) {  // a click answers the open question
      this.predictor.pick(v);
      return;
    }
    if (how === "click") {
      this.pinned = !(this.pinned && this.chosen === v);
      this.chosen = v;
    } else if (how === "escape") {
      this.pinned = false;
      this.chosen = null;
    } else if (!this.pinned) {
      this.chosen = v;
    }
    this.show();
    if (how === "focus" || how === "click") this.announce(this.whyText());
  }
  go(target, fromKernel) {
    target = Math.max(0, Math.min(this.run.total, target));
    if (target !== this.position) this.note = "";
    if (this.predictor.asked && target !== this.predictor.at) this.predictor.reset();
    this.position = target;
    this.show();
    if (!this.playing) this.announce(this.sentence.textContent);
    if (!fromKernel) this.sync();
  }
  announce(words) {
    this.live.textContent = words;
  }
  sync() {
    if (this.playing) {  // a message per frame is wasted while playing: send every quarter second
      if (!this.syncTimer) this.syncTimer = setTimeout(() => { this.syncTimer = null; this.sync(); }, 250);
      return;
    }
    if (this.model.get("position") !== this.position) {
      this.model.set("position", this.position);
      this.model.save_changes();
    }
  }
  jump(kind) {
    const run = this.run, k = KIND_NAMES.indexOf(kind);
    let target = this.position + 1;
    while (target <= run.total && run.kind(target) !== k) target++;
    if (target > run.total) {
      this.note = run.nothing_ahead[kind] || `no more ${kind} events ahead`;
      this.noteBox.textContent = this.note;
      this.announce(this.note);
      return false;
    }
    this.go(target);
    return true;
  }
  play() {
    if (this.position >= this.run.total) this.go(0);
    const rate = Number(this.speed.value), t0 = performance.now(), p0 = this.position;
    this.playButton.textContent = "pause";
    const tick = (now) => {
      if (!this.playing) return;
      const due = Math.min(this.run.total, p0 + Math.floor((now - t0) * rate / 1000) + 1);
      if (due !== this.position) this.go(due);
      if (this.position >= this.run.total) { this.stop(); return; }
      this.playing = requestAnimationFrame(tick);
    };
    this.playing = requestAnimationFrame(tick);
  }
  stop() {
    if (!this.playing) return;
    cancelAnimationFrame(this.playing);
    this.playing = null;
    this.playButton.textContent = "play";
    this.announce(this.sentence.textContent);
    this.sync();
  }
  // -- what is shown ---------------------------------------------------------------------
  show() {
    const run = this.run;
    this.replay.seek(this.position);
    if (this.view) this.drawPicture(this.position);
    this.slider.value = String(this.position);
    this.sentence.textContent = run.sentence(this.position);
    this.noteBox.textContent = this.note;
    this.drawStats();
    this.drawWhy();
    // the tree changes when the search moves to another node, or a node fails or succeeds
    const node = currentNode(this.tree, this.position);
    const drawn = `${node.id}:${run.outcomes()[this.position]}`;
    if (drawn !== this.drawnNode) {
      this.drawnNode = drawn;
      this.treeView.draw(this.position);
    }
    this.pathLine.textContent = pathLine(run, this.replay, this.position, pathTo(node));
    this.queue.textContent = queueLine(run, this.position);
  }
  drawPicture(position) {
    const run = this.run, replay = this.replay;
    this.view.draw((v) => {
      const left = replay.domain(v);
      return { left: left.map((x) => run.values[x]), all: run.init[v].map((x) => run.values[x]),
               words: left.map((x) => run.words[x]) };
    });
    const marks = [];
    let cause = null;
    if (position > 0) {
      const kind = KIND_NAMES[run.kind(position)], v = run.get(position, VAR), x = run.get(position, VALUE);
      const c = run.get(position, CAUSE);
      cause = c >= 0 ? run.causes[c] : null;
      for (const w of (cause !== null && run.scopes[cause]) || []) if (w !== v) marks.push([w, null, "cause"]);
      if (v >= 0 && MARKS[kind]) marks.push([v, kind === "wipeout" || x < 0 ? null : run.values[x], kind]);
    }
    if (this.chosen !== null) marks.push([this.chosen, null, "chosen"]);
    this.view.mark(marks, cause);
    this.view.setPressed(this.pinned ? this.chosen : null);
  }
  // hovering or focusing a tree node shows its state until the pointer or the focus leaves
  inspect(node) {
    const target = node ? node.start : null;
    if (target === this.previewing || !this.view) return;
    this.previewing = target;
    this.pictureHost.classList.toggle("cx-previewing", target !== null && target !== this.position);
    if (target === null || target === this.position) {
      this.preview.hidden = true;
      this.replay.seek(this.position);
      this.drawPicture(this.position);
      return;
    }
    this.preview.textContent = fill(this.run.phrases.preview, { k: target });
    this.preview.hidden = false;
    this.replay.seek(target);
    this.drawPicture(target);
    this.replay.seek(this.position);
  }
  drawStats() {
    this.stats.replaceChildren();
    for (const [label, value] of summaryRows(this.run, this.replay, this.position)) {
      const tr = html("tr", {}, this.stats);
      html("th", { scope: "row" }, tr, label);
      html("td", {}, tr, value);
    }
  }
  whyVariable() {
    if (this.chosen !== null) return this.chosen;
    const v = this.position ? this.run.get(this.position, VAR) : -1;
    return v >= 0 ? v : null;
  }
  whyText() {
    const v = this.whyVariable();
    if (v === null) return "";
    return whyLines(this.run, this.replay, this.position, v).map((line) => line.text).join(". ");
  }
  drawWhy() {
    const why = this.why, v = this.whyVariable();
    why.replaceChildren();
    if (v === null) {
      html("div", { class: "cx-caption" }, why, this.run.phrases.why_hint);
      return;
    }
    const lines = whyLines(this.run, this.replay, this.position, v);
    const head = html("div", { class: "cx-why-head" }, why, lines[0].text);
    if (this.pinned && this.chosen === v) html("span", { class: "cx-pin" }, head, ` (${this.run.phrases.pinned})`);
    let list = null;
    for (const line of lines.slice(1)) {
      if (line.at === null) {
        html("div", { class: "cx-caption" }, why, line.text);
        list = null;
        continue;
      }
      list = list || html("ul", {}, why);
      const item = html("li", { class: "cx-entry" }, list);
      item.dataset.event = String(line.at);
      const go = html("button", { type: "button", class: "cx-link", title: `go to event ${line.at}` }, item, line.text);
      go.addEventListener("click", () => { this.stop(); this.go(line.at); });
    }
  }
}

