// The board of a puzzle being played: one gesture a move, Tatham's (the picture's `play`,
// csp_puzzles/puzzle/picture.py).
//
// - drag: pointer down on an island and up on another in its row or column (or just toward
//   it): the line between them takes the next value of `cycle` (after the last, it is
//   cleared); the right button or Shift marks `none`. Keys: the arrows move between
//   islands, Ctrl+arrow lays a line that way, Shift+arrow marks `none`, Enter then an arrow
//   lays a line too.
// - cycle: a click cycles a cell through `cycle` and back to open; a right-click gives it
//   `alt`; Enter or space cycles the cell the keyboard is on.
// - type: a click (or the arrows) chooses a cell, a key types the value of that key,
//   Backspace or Delete clears it; in pencil mode a key removes that value, or puts it back.
//
// The board works out each move from what the page shows and hands it on at once
// (`onMove({kind, v, value}, time)`, kind "set", "clear", "remove" or "restore"); it never
// waits for the kernel. `time` is when the gesture happened, for the latency figures.

const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
const DRAG_LEAST = 0.35;  // a release this far (in cells) from the island says a direction

// The value after `current` in `cycle`, and after the last one null (cleared).
function nextInCycle(cycle, current) {
  const i = current === null ? -1 : cycle.indexOf(current);
  return i + 1 < cycle.length ? cycle[i + 1] : null;
}

class Board {
  // view: the PictureView; play: the picture's `play`; init[v]: every value key of v;
  // valueOf(v): v's value key when the player set it, else null; leftOf(v): the keys left
  constructor(view, play, init, { valueOf, leftOf, onMove, onSelect, say, phrases }) {
    this.view = view;
    this.play = play;
    this.init = init;
    this.valueOf = valueOf;
    this.leftOf = leftOf;
    this.onMove = onMove;
    this.onSelect = onSelect;
    this.say = say;
    this.phrases = phrases;
    this.pencil = false;
    this.selected = null;  // the variable a typed key goes to
    this.armed = null;  // an island whose next arrow key lays a line (Enter, then an arrow)
    if (play.gesture === "drag") this.buildIslands();
  }
  // -- moves ----------------------------------------------------------------------------------
  setTo(v, value, time) {
    this.onMove(value === null ? { kind: "clear", v } : { kind: "set", v, value }, time);
  }
  cycle(v, time) {
    if (this.given(v)) return;
    this.setTo(v, nextInCycle(this.play.cycle, this.valueOf(v)), time);
  }
  alternative(v, time) {
    if (this.given(v)) return;
    const value = this.play.gesture === "drag" ? this.play.none : this.play.alt;
    this.setTo(v, this.valueOf(v) === value ? null : value, time);
  }
  given(v) {
    const p = this.view.places[v];
    if (!p || !p.given) return false;
    this.say(fill(this.phrases.given_cell, { name: this.view.names[v] }));
    return true;
  }
  // A click on a variable's own shape (a cell), or Enter / space on it.
  clicked(v, how, time) {
    if (this.play.gesture === "cycle" && how === "click") this.cycle(v, time);
    else if (this.play.gesture === "cycle" && how === "alt") this.alternative(v, time);
    else if (this.play.gesture === "type" && (how === "click" || how === "focus")) this.choose(v);
  }
  choose(v) {
    this.selected = v;
    this.onSelect(v);
  }
  // A key that reached the playground's root: true when it meant something here.
  key(e) {
    const time = e.timeStamp;
    if (this.play.gesture !== "type" || this.selected === null) return false;
    const v = this.selected, name = this.view.names[v];
    if (e.key === "Backspace" || e.key === "Delete") {
      if (!this.given(v)) this.setTo(v, null, time);
      return true;
    }
    if (e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey) return false;
    if (!this.init[v].includes(e.key)) {
      if (!/[0-9]/.test(e.key)) return false;
      this.say(fill(this.phrases.not_a_value, { name, value: e.key, values: this.init[v].join(", ") }));
      return true;
    }
    if (this.given(v)) return true;
    if (this.pencil) {
      const kind = this.leftOf(v).includes(e.key) ? "remove" : "restore";
      this.onMove({ kind, v, value: e.key }, time);
    } else {
      this.setTo(v, e.key, time);
    }
    return true;
  }
  // -- islands: the cells of a drag ------------------------------------------------------------
  buildIslands() {
    const cells = this.play.cells, view = this.view;
    this.cellIndex = new Map(cells.map((c, i) => [c.cell.join(","), i]));
    this.lineOf = new Map();  // "i|j" -> the variable joining islands i and j
    this.linesAt = cells.map(() => []);
    view.places.forEach((p, v) => {
      if (!p || !p.ends) return;
      const [a, b] = p.ends.map((end) => this.cellIndex.get(end.join(",")));
      if (a === undefined || b === undefined) return;
      this.lineOf.set(`${a}|${b}`, v);
      this.lineOf.set(`${b}|${a}`, v);
      this.linesAt[a].push([v, b]);
      this.linesAt[b].push([v, a]);
    });
    this.centres = cells.map((c) => [c.x, c.y]);
    this.layer = svg("g", { class: "cx-islands" }, view.svg);
    view.svg.insertBefore(this.layer, view.markLayer);
    this.targets = cells.map((c, i) => {
      const g = svg("g", { class: "cx-island", role: "button", tabindex: i === 0 ? "0" : "-1" }, this.layer);
      g.dataset.cell = c.cell.join(",");
      svg("circle", { cx: c.x * UNIT, cy: c.y * UNIT, r: c.r * 1.15 * UNIT, fill: "transparent" }, g);
      g.addEventListener("pointerdown", (e) => this.pointerDown(e, i));
      g.addEventListener("keydown", (e) => this.islandKey(e, i));
      g.addEventListener("focus", () => this.focusIsland(i));
      g.addEventListener("blur", () => { if (this.focused === i) { this.focused = null; this.ring.replaceChildren(); } });
      return g;
    });
    this.focused = null;
    this.ring = svg("g", { "pointer-events": "none", "aria-hidden": "true" }, view.svg);
    view.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    view.svg.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  // Each island says how many lines it has and needs ("island (0,4): 1 of 3 bridges").
  labelIslands() {
    if (!this.targets) return;
    this.play.cells.forEach((c, i) => {
      let laid = 0;
      for (const [v] of this.linesAt[i]) laid += Number(this.valueOf(v) || 0);
      const said = this.play.laid && c.need !== undefined
        ? fill(this.play.laid, { name: c.name, n: laid, k: c.need }) : c.name;
      this.targets[i].setAttribute("aria-label", said);
    });
  }
  pointerDown(e, i) {
    this.byPointer = true;  // the focus that follows is the pointer's: no ring, no words
    this.drag = { from: i, alt: e.button === 2 || e.shiftKey, id: e.pointerId };
    this.moveTabStop(i);
  }
  pointerUp(e) {
    this.byPointer = false;
    const drag = this.drag;
    this.drag = null;
    if (!drag || e.pointerId !== drag.id) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under && under.closest ? under.closest(".cx-island") : null;
    let to = target && this.targets.includes(target) ? this.targets.indexOf(target) : null;
    let v = to !== null && to !== drag.from ? this.lineOf.get(`${drag.from}|${to}`) : undefined;
    if (v === undefined) {  // released on water (or on an island further on): its direction
      const [x, y] = this.toPicture(e.clientX, e.clientY), [x0, y0] = this.centres[drag.from];
      const dx = x - x0, dy = y - y0;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < DRAG_LEAST) return;  // a click on the island
      const toward = Math.abs(dx) >= Math.abs(dy) ? [Math.sign(dx), 0] : [0, Math.sign(dy)];
      v = this.lineToward(drag.from, toward);
      if (v === undefined) { this.say(this.phrases.no_line_there); return; }
    }
    if (drag.alt || e.shiftKey) this.alternative(v, e.timeStamp);
    else this.cycle(v, e.timeStamp);
  }
  toPicture(clientX, clientY) {
    const point = this.view.svg.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    const local = point.matrixTransform(this.view.svg.getScreenCTM().inverse());
    return [local.x / UNIT, local.y / UNIT];
  }
  // The line from island i toward a direction [dx, dy], if it has one.
  lineToward(i, [dx, dy]) {
    const [x0, y0] = this.centres[i];
    for (const [v, j] of this.linesAt[i]) {
      const [x, y] = this.centres[j];
      if (Math.sign(x - x0) === dx && Math.sign(y - y0) === dy) return v;
    }
    return undefined;
  }
  islandKey(e, i) {
    const toward = DIRECTIONS[e.key];
    if (toward && (e.ctrlKey || e.metaKey || e.shiftKey || this.armed === i)) {
      this.armed = null;
      const v = this.lineToward(i, toward);
      if (v === undefined) this.say(this.phrases.no_line_there);
      else if (e.shiftKey) this.alternative(v, e.timeStamp);
      else this.cycle(v, e.timeStamp);
    } else if (toward) {
      const next = nearest(this.centres, i, e.key);
      if (next !== null) { this.moveTabStop(next); this.targets[next].focus(); }
    } else if (e.key === "Enter" || e.key === " ") {
      this.armed = i;
      this.say(fill(this.phrases.armed, { name: this.play.cells[i].name }));
    } else if (e.key === "Escape" && this.armed !== null) {
      this.armed = null;
      this.say(this.phrases.disarmed);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }
  moveTabStop(i) {
    this.targets.forEach((g, j) => g.setAttribute("tabindex", j === i ? "0" : "-1"));
  }
  focusIsland(i) {
    this.focused = i;
    this.moveTabStop(i);
    const layer = this.ring, c = this.play.cells[i];
    layer.replaceChildren();
    if (this.byPointer) { this.byPointer = false; return; }
    for (const [colour, width] of [["#fff", 0.3], ["#000", 0.16]]) {
      svg("circle", { cx: c.x * UNIT, cy: c.y * UNIT, r: c.r * 1.3 * UNIT, fill: "none", stroke: colour,
        "stroke-width": width * UNIT }, layer);
    }
    this.say(this.targets[i].getAttribute("aria-label"));
  }
}
