// The picture of a state: the description's shapes, each variable drawn from its values left,
// and marks over them (the event's variable, the cause, the variable chosen, the focus).
//
// One class for the explorer, the still picture and the playground. Every variable is a
// button for assistive technology, named by its state ("SA: 2 values left: green, blue");
// one of them is in the Tab order at a time and the arrow keys move to the nearest variable
// in their direction. `onVar(v, how)` reports "hover", "focus", "click" (or Enter / Space),
// "alt" (the right button), and "escape" with v = null.
//
// A puzzle being played is drawn clean (`look`: shapes.js's CLEAN, the domains only when
// `look.domains`); its cells carry `data-cell="ROW,COL"`. With `keyboard: false` no variable
// is in the Tab order (the playground's board moves its own cursor, over islands).

const MIN_FONT_PX = 11;  // no text smaller than this when the picture has its room

// How each mark looks: never colour alone (solid, dashed, dotted, thick, two-tone).
const MARKS = {
  assign: { stroke: "#7a4f00", width: 0.11 },
  repair: { stroke: "#7a4f00", width: 0.11 },
  revise: { stroke: "#1557b0", width: 0.1, dash: [0.08, 0.06] },
  prune: { stroke: "#c2410c", width: 0.1, dash: [0.16, 0.08] },
  wipeout: { stroke: "#b71c1c", width: 0.18 },
  cause: { stroke: "#6a3d9a", width: 0.06, dash: [0.03, 0.08], cap: "round" },
  chosen: { stroke: "#1557b0", width: 0.07, dash: [0.22, 0.06, 0.05, 0.06] },
  read: { stroke: "#1557b0", width: 0.07, dash: [0.05, 0.06], cap: "round" },
  removed: { stroke: "#c2410c", width: 0.12, dash: [0.16, 0.08] },
  focus: { stroke: "#000", width: 0.16, halo: "#fff" },
  error: { stroke: "#c00000", width: 0.16, dash: [0.3, 0.08] },
  // a hint's zoom (zoom.js): the value supposed, and what the hint concludes on the way out
  supposed: { stroke: "#00695c", width: 0.1, halo: "#b2dfdb" },
  concluded: { stroke: "#1b5e20", width: 0.09, dash: [0.2, 0.06, 0.03, 0.06], halo: "#c8e6c9" },
};
const CAUSE_LINE = { stroke: "#c2410c", width: 0.09 };

// The outline marking a variable (or one of its values) with the mark `how`.
function outline(layer, p, valueKey, how) {
  const m = MARKS[how];
  const strokes = m.halo ? [[m.halo, m.width * 1.9], [m.stroke, m.width]] : [[m.stroke, m.width]];
  for (const [colour, width] of strokes) {
    const style = { fill: "none", stroke: colour, "stroke-width": width * UNIT };
    if (m.dash) style["stroke-dasharray"] = m.dash.map((d) => d * UNIT).join(" ");
    if (m.cap) style["stroke-linecap"] = m.cap;
    outlineShape(layer, p, valueKey, style);
  }
}

function outlineShape(layer, p, valueKey, style) {
  const box = (x, y, w, h) => svg("rect", Object.assign({ x: x * UNIT, y: y * UNIT, width: w * UNIT,
    height: h * UNIT }, style), layer);
  if (p.show === "bridges") {
    svg("line", Object.assign({ x1: p.x1 * UNIT, y1: p.y1 * UNIT, x2: p.x2 * UNIT, y2: p.y2 * UNIT },
      style, { "stroke-width": style["stroke-width"] * 2.4, "stroke-opacity": 0.55 }), layer);
  } else if (p.show === "places") {
    const keys = valueKey !== null && p.places[valueKey] ? [valueKey] : Object.keys(p.places);
    const xs = keys.map((k) => p.places[k][0]), ys = keys.map((k) => p.places[k][1]);
    box(Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs) + 1, Math.max(...ys) - Math.min(...ys) + 1);
  } else if (p.r !== undefined) {
    svg("circle", Object.assign({ cx: p.x * UNIT, cy: p.y * UNIT, r: p.r * 1.25 * UNIT }, style), layer);
  } else {
    box(p.x, p.y, p.w, p.h);
  }
}

// The transparent shapes a variable's button is made of (one per value for `places`).
function hitShapes(g, p) {
  const clear = { fill: "transparent" };
  if (p.show === "bridges") {
    const dx = p.x2 - p.x1, dy = p.y2 - p.y1, len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len * 0.2, ny = dx / len * 0.2;
    const band = [[p.x1 + nx, p.y1 + ny], [p.x2 + nx, p.y2 + ny], [p.x2 - nx, p.y2 - ny], [p.x1 - nx, p.y1 - ny]];
    svg("polygon", Object.assign({ points: band.map(([x, y]) => `${x * UNIT},${y * UNIT}`).join(" ") }, clear), g);
  } else if (p.show === "places") {
    for (const [key, [x, y]] of Object.entries(p.places)) {
      const hit = svg("rect", Object.assign({ x: x * UNIT, y: y * UNIT, width: UNIT, height: UNIT }, clear), g);
      hit.dataset.value = key;
    }
  } else if (p.r !== undefined) {
    svg("circle", Object.assign({ cx: p.x * UNIT, cy: p.y * UNIT, r: p.r * UNIT }, clear), g);
  } else {
    svg("rect", Object.assign({ x: p.x * UNIT, y: p.y * UNIT, width: p.w * UNIT, height: p.h * UNIT }, clear), g);
  }
}

// Where a variable sits, for moving between variables with the arrow keys.
function centre(p) {
  if (p.show === "bridges") return [(p.x1 + p.x2) / 2, (p.y1 + p.y2) / 2];
  if (p.show === "places") {
    const spots = Object.values(p.places);
    return [spots.reduce((s, [x]) => s + x, 0) / spots.length + 0.5,
            spots.reduce((s, [, y]) => s + y, 0) / spots.length + 0.5];
  }
  if (p.r !== undefined) return [p.x, p.y];
  return [p.x + p.w / 2, p.y + p.h / 2];
}

// The smallest font of the picture, in picture units, so that text stays readable.
function smallestFont(picture) {
  let smallest = 0.3;
  for (const p of picture.variables) {
    if (p.show === "digits") {
      const n = (p.layout || []).length || 9;
      smallest = Math.min(smallest, 0.78 * p.h / Math.ceil(Math.sqrt(n)));
    }
  }
  for (const s of picture.shapes.concat(picture.over || [])) if (s.type === "text") smallest = Math.min(smallest, s.size);
  return smallest;
}

// The nearest variable from `from` in the direction of an arrow key (null: none that way).
function nearest(centres, from, key) {
  const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
  const [x0, y0] = centres[from];
  let best = null, bestScore = Infinity;
  centres.forEach((c, v) => {
    if (!c || v === from) return;
    const along = (c[0] - x0) * dx + (c[1] - y0) * dy;
    const across = Math.abs((c[0] - x0) * dy - (c[1] - y0) * dx);
    if (along <= 1e-9) return;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = v; }
  });
  return best;
}

class PictureView {
  // `keys[v]` names variable v as the description does; `names[v]` in words.
  constructor(host, picture, keys, { names, phrases, label, onVar, look, keyboard }) {
    this.picture = picture;
    this.names = names;
    this.phrases = phrases;
    this.onVar = onVar || (() => {});
    this.look = look || null;
    this.keyboard = keyboard !== false;
    this.focused = null;
    this.tabStop = null;
    this.build(host, label);
    this.placeVariables(keys);
  }
  build(host, label) {
    const picture = this.picture;
    const [x0, y0, x1, y1] = picture.bounds;
    const pad = picture.axes ? 0.75 : 0.1;
    const left = x0 - pad, top = y0 - pad, width = x1 - x0 + pad + 0.1, height = y1 - y0 + pad + 0.1;
    const minPx = Math.ceil(width * MIN_FONT_PX / smallestFont(picture));
    this.svg = svg("svg", { viewBox: `${left * UNIT} ${top * UNIT} ${width * UNIT} ${height * UNIT}`,
      role: "group", "aria-label": label, style: `max-width:${Math.max(minPx, width * 72)}px` }, host);
    svg("title", {}, this.svg).textContent = label;
    // the picture asks for the width its smallest text needs, and shrinks on a narrow screen
    host.style.flexBasis = `${minPx}px`;
    svg("rect", { x: left * UNIT, y: top * UNIT, width: width * UNIT, height: height * UNIT,
      fill: picture.background || "#fff" }, this.svg);
    const under = svg("g", { "aria-hidden": "true" }, this.svg);
    this.causeShapes = {};
    for (const s of picture.shapes) {
      const node = shape(under, s);
      if (s.cause) (this.causeShapes[s.cause] = this.causeShapes[s.cause] || []).push([node, s]);
    }
    if (picture.axes) this.drawAxes(under);
    // each variable: its drawing (hidden from assistive technology, its name says it all),
    // and over the drawings, a button of the same shape, which the pointer and the keys reach
    this.drawLayer = svg("g", { "aria-hidden": "true" }, this.svg);
    this.varLayer = svg("g", {}, this.svg);
    this.markLayer = svg("g", { "pointer-events": "none", "aria-hidden": "true" }, this.svg);
    this.overLayer = svg("g", { "pointer-events": "none", "aria-hidden": "true" }, this.svg);
    this.focusLayer = svg("g", { class: "cx-focus", "pointer-events": "none", "aria-hidden": "true" }, this.svg);
  }
  drawAxes(layer) {
    const axes = this.picture.axes, [x0, y0] = this.picture.bounds;
    const fill = { fill: "#474747" };
    for (let c = 0; c < axes.cols; c++) text(layer, axes.x + c + 0.5, y0 - 0.4, String(axes.col0 + c), 0.3, fill);
    for (let r = 0; r < axes.rows; r++) text(layer, x0 - 0.4, axes.y + r + 0.5, String(axes.row0 + r), 0.3, fill);
  }
  placeVariables(keys) {
    const index = new Map(keys.map((k, i) => [k, i]));
    this.places = keys.map(() => null);
    this.groups = keys.map(() => null);
    this.drawings = keys.map(() => null);
    this.drawn = keys.map(() => null);
    this.centres = keys.map(() => null);
    for (const p of this.picture.variables) {
      const v = index.get(p.var);
      if (v === undefined) continue;
      this.places[v] = p;
      this.centres[v] = centre(p);
      this.drawings[v] = svg("g", {}, this.drawLayer);
      const g = svg("g", { class: "cx-var", role: "button", tabindex: "-1" }, this.varLayer);
      g.dataset.var = p.var;
      if (p.cell) g.dataset.cell = p.cell.join(",");
      hitShapes(g, p);
      g.addEventListener("mouseenter", () => this.onVar(v, "hover"));
      g.addEventListener("click", (e) => { this.focusOn(v, false); this.onVar(v, "click", e); });
      if (this.look) {  // a puzzle played: the right button is a move (Singles: circle it)
        g.addEventListener("contextmenu", (e) => { e.preventDefault(); this.focusOn(v, false); this.onVar(v, "alt", e); });
      }
      // the ring shows the keyboard's focus; a click's focus is shown by the click's result
      g.addEventListener("mousedown", () => { this.byPointer = true; });
      g.addEventListener("focus", () => {
        this.focused = this.byPointer ? null : v;
        this.byPointer = false;
        this.drawFocus();
        this.onVar(v, "focus");
      });
      g.addEventListener("blur", () => { if (this.focused === v) { this.focused = null; this.drawFocus(); } });
      g.addEventListener("keydown", (e) => this.keydown(e, v));
      this.groups[v] = g;
    }
    const first = this.places.findIndex((p) => p);
    if (first >= 0 && this.keyboard) this.setTabStop(first);
    this.over = (this.picture.over || []).map((s) => ({ s, node: shape(this.overLayer, s),
      vars: (s.decided || []).map((k) => index.get(k)).filter((v) => v !== undefined) }));
  }
  setTabStop(v) {
    if (this.tabStop !== null && this.groups[this.tabStop]) this.groups[this.tabStop].setAttribute("tabindex", "-1");
    this.tabStop = v;
    this.groups[v].setAttribute("tabindex", "0");
  }
  focusOn(v, move) {
    this.setTabStop(v);
    if (move) this.groups[v].focus();
  }
  keydown(e, v) {
    if (e.key === "Enter" || e.key === " ") {
      this.onVar(v, "click", e);
    } else if (e.key === "Escape") {
      this.onVar(null, "escape");
    } else if (e.key.startsWith("Arrow")) {
      const next = nearest(this.centres, v, e.key);
      if (next !== null) this.focusOn(next, true);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();  // the explorer's and the notebook's keys stay out of it
  }
  // The clean look of a puzzle being played (null: every domain drawn, as the explorer does).
  setLook(look) {
    this.look = look;
    this.drawn = this.drawn.map(() => null);
  }
  // stateOf(v) -> {left, all, words, assigned}: the value keys left, all value keys, the
  // words left, whether the player decided it; only the variables whose state changed are
  // drawn again
  draw(stateOf) {
    for (let v = 0; v < this.places.length; v++) {
      const p = this.places[v];
      if (!p) continue;
      const state = stateOf(v);
      const key = state.left.join(",") + (state.assigned ? "!" : "") + (state.blank ? "_" : "");
      if (this.drawn[v] === key) continue;
      this.drawn[v] = key;
      const drawing = this.drawings[v];
      drawing.replaceChildren();
      if (this.look && CLEAN[p.show]) {
        CLEAN[p.show](drawing, p, state.left, state.all, { assigned: !!state.assigned, domains: !!this.look.domains,
          blank: !!state.blank });
      } else {
        SHOW[p.show](drawing, p, state.left, state.all);
      }
      this.groups[v].setAttribute("aria-label", stateWords(this.phrases, this.names[v], state.words));
    }
    for (const o of this.over) {
      if (!o.vars.length) continue;
      const done = o.vars.every((v) => this.drawn[v] !== null && stateOf(v).left.length === 1);
      o.node.setAttribute("fill", done ? o.s.decided_fill : o.s.fill);
    }
    this.drawFocus();
  }
  // marks: [v, value key or null, how]; `cause` lights the shapes drawn for that constraint
  mark(marks, cause) {
    this.markLayer.replaceChildren();
    for (const [node, s] of Object.values(this.causeShapes).flat()) {
      node.setAttribute("stroke", s.stroke);
      node.setAttribute("stroke-width", s.width * UNIT);
    }
    for (const [node] of (cause !== null && cause !== undefined && this.causeShapes[cause]) || []) {
      node.setAttribute("stroke", CAUSE_LINE.stroke);
      node.setAttribute("stroke-width", CAUSE_LINE.width * UNIT);
    }
    for (const [v, valueKey, how] of marks) {
      if (v !== null && v >= 0 && this.places[v]) outline(this.markLayer, this.places[v], valueKey, how);
    }
  }
  setPressed(v) {
    this.groups.forEach((g, w) => { if (g) g.setAttribute("aria-pressed", String(w === v)); });
  }
  drawFocus() {
    this.focusLayer.replaceChildren();
    if (this.focused !== null && this.places[this.focused]) outline(this.focusLayer, this.places[this.focused], null, "focus");
  }
}
