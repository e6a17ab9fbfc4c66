// Zooming into a hint that supposes (the frames come from viz/zoom.py): the supposition,
// each step with what it read and what it removes, the wipe-out, and back out to the board.
//
// The playground draws the frame this holds on its own picture, with the explorer's look
// (every domain shown) and the board's marks; nothing goes to the kernel: a zoom is a
// picture of a supposition, not a move. A step that zooms itself (a forcing chain inside a
// trial) opens one level deeper; leaving goes back one level, and from the first level back
// to the board as it is. Each frame's sentence goes to the live region.

class HintZoom {
  // host: where the controls go; say(words): the live region; changed(): draw again;
  // home(): where the focus goes when the control it was on goes
  constructor(host, { phrases, say, changed, home }) {
    this.phrases = phrases;
    this.say = say;
    this.changed = changed;
    this.home = home;
    this.frames = [];  // the zoom of the hint shown ([]: none)
    this.offered = null;  // which hint it belongs to
    this.levels = [];  // the zooms open, outermost first: {frames, at}
    const box = html("div", { class: "cx-zoom" }, host);
    this.enterButton = controlButton(box, "zoom in", phrases.zoom_title, () => this.enter());
    this.controls = html("div", { class: "cx-controls cx-zoom-controls", role: "group", "aria-label": "zoom" }, box);
    const p = phrases;
    this.previousButton = controlButton(this.controls, "◀ back", p.zoom_previous_title, () => this.go(-1));
    this.nextButton = controlButton(this.controls, "forward ▶", p.zoom_next_title, () => this.go(1));
    this.innerButton = controlButton(this.controls, "open this step", p.zoom_inner_title, () => this.open());
    this.leaveButton = controlButton(this.controls, "leave", p.zoom_leave_title, () => this.leave());
    this.where = html("span", { class: "cx-caption cx-zoom-where" }, this.controls);
    this.legend = html("div", { class: "cx-caption" }, box, p.zoom_legend);
    this.show();
  }
  get active() { return this.levels.length > 0; }
  // The frame drawn now (null: the board as it is).
  frame() {
    if (!this.active) return null;
    const level = this.levels[this.levels.length - 1];
    return level.frames[level.at];
  }
  // The frame's marks, and the suppositions of the levels around it (still supposed).
  marks() {
    const outer = this.levels.slice(0, -1).map((level) => level.frames[0].marks).flat();
    return outer.filter((mark) => mark[2] === "supposed").concat(this.frame().marks);
  }
  // The zoom of the hint shown, `id` naming that hint; another hint (or none) closes the
  // zoom open.
  offer(frames, id) {
    if (id === this.offered) return;
    this.offered = id;
    this.frames = frames || [];
    if (this.active) this.close(false);
    else this.show();
  }
  enter() {
    if (!this.frames.length) return;
    this.levels = [{ frames: this.frames, at: 0 }];
    this.update();
    this.nextButton.focus();
    this.tell();
  }
  go(by) {
    const level = this.levels[this.levels.length - 1];
    if (!level) return;
    const at = level.at + by;
    if (at < 0) { this.say(this.phrases.zoom_first); return; }
    if (at >= level.frames.length) { this.say(this.phrases.zoom_last); return; }
    level.at = at;
    this.update();
    this.tell();
  }
  // One level deeper: the zoom of the step shown.
  open() {
    const frame = this.frame();
    if (!frame || !frame.inner) { this.say(this.phrases.zoom_no_inner); return; }
    this.levels.push({ frames: frame.inner, at: 0 });
    this.update();
    this.tell();
  }
  // One level back; from the first, back to the board.
  leave() {
    if (!this.active) return;
    this.levels.pop();
    if (!this.active) { this.close(true); return; }
    this.update();
    this.tell();
  }
  // Back to the board as it is (`said`: say so, and give the focus back to "zoom in").
  close(said) {
    const focused = this.controls.contains(document.activeElement);
    this.levels = [];
    this.update();
    if (said) this.say(this.phrases.zoom_left);
    if (focused && this.enterButton.hidden) this.home();
    else if (focused) this.enterButton.focus();
  }
  tell() {
    const frame = this.frame(), depth = this.levels.length, level = this.levels[depth - 1];
    const slots = { k: level.at + 1, n: level.frames.length, m: depth, name: frame.sentence };
    const said = fill(depth > 1 ? this.phrases.zoom_frame_deeper : this.phrases.zoom_frame, slots);
    this.say(said + (frame.inner ? this.phrases.zoom_has_inner : ""));
  }
  update() {
    this.show();
    this.changed();
  }
  // The controls as the zoom stands.
  show() {
    const active = this.active, frame = this.frame();
    this.enterButton.hidden = active || !this.frames.length;
    this.controls.hidden = this.legend.hidden = !active;
    if (active) {
      const depth = this.levels.length, level = this.levels[depth - 1];
      const slots = { k: level.at + 1, n: level.frames.length, m: depth };
      this.where.textContent = fill(depth > 1 ? this.phrases.zoom_where_deeper : this.phrases.zoom_where, slots);
      this.previousButton.setAttribute("aria-disabled", String(level.at === 0));
      this.nextButton.setAttribute("aria-disabled", String(level.at === level.frames.length - 1));
      this.innerButton.setAttribute("aria-disabled", String(!frame.inner));
    }
  }
  // Which step of the hint's own list the first level shows (-1: the supposition, or the
  // way back out).
  step() {
    if (this.levels.length !== 1) return -1;
    const level = this.levels[0];
    return level.at >= 1 && level.at <= level.frames.length - 2 ? level.at - 1 : -1;
  }
}
