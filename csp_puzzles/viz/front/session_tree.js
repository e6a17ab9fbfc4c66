// The search tree and "why?" of a session, from its trace (the explorer's own tree and
// words), drawn only while they are shown.
//
// The session's trace only grows (an undo is an event too), so each new run is replayed
// from where the last one stopped, never from the start.

class SessionTree {
  constructor(host, phrases, shown) {
    this.phrases = phrases;
    this.shown = shown;  // () -> whether the tree is on screen (its box open)
    html("div", { class: "cx-caption" }, host, phrases.tree_legend);
    this.treeHost = html("div", { class: "cx-tree" }, host);
    this.why = html("div", { class: "cx-why", role: "group", "aria-label": "why?" }, host);
    this.raw = null;
    this.run = null;
    this.replay = null;
    this.stale = true;
    this.chosen = null;
  }
  // a new run from the kernel: drawn now if shown, else when next shown
  update(raw) {
    if (!raw || raw === this.raw) return;
    this.raw = raw;
    this.stale = true;
    if (this.shown()) this.draw();
  }
  bringUpToDate() {
    const run = new RunData(this.raw);
    if (!this.replay || run.total < this.replay.position) {
      this.replay = new Replay(run);
    } else {
      this.replay.run = run;  // the events so far are the same: go on from there
    }
    this.replay.seek(run.total);
    this.run = run;
    this.stale = false;
  }
  draw() {
    if (!this.raw) return;
    if (this.stale) this.bringUpToDate();
    const run = this.run;
    new TreeView(this.treeHost, run, buildTree(run), { go: () => {}, inspect: () => {} }).draw(run.total);
    this.drawWhy(this.chosen);
  }
  // "why?" for variable v: its values and what removed the others
  drawWhy(v) {
    this.chosen = v;
    if (!this.shown() || !this.raw) return;
    if (this.stale) this.bringUpToDate();
    this.why.replaceChildren();
    if (v === null) return;
    for (const line of whyLines(this.run, this.replay, this.run.total, v)) {
      html("div", { class: line.head ? "cx-why-head" : line.at === null ? "cx-caption" : "cx-entry" }, this.why, line.text);
    }
  }
}
