// The trace explorer: replays a search in the browser, with no kernel round trip.
//
// The Python side sends one `data` object: the picture description (plain shapes, and for
// each variable where it sits and how its domain is shown) and one or more runs (the
// variables, their initial domains and the events of a trace). Everything else (stepping,
// play, the search tree, "why?") happens here. `position` is synced back so that the
// Python handles (`stepper.position`, `.domains`, ...) follow the picture.
//
// Written as a plain ES module for anywidget; `csp-puzzles export` reuses it unchanged in a
// static page, where `model` is a small stand-in holding the same state.

const NS = "http://www.w3.org/2000/svg";
const ASSIGN = 0, PRUNE = 1, WIPEOUT = 2, BACKTRACK = 3, SOLUTION = 4, REPAIR = 5,
      BACKJUMP = 6, LEARN = 7, SPLIT = 8, REVISE = 9, UNDO = 10;  // KINDS in core/trace.py
const KIND_NAMES = ["assign", "prune", "wipeout", "backtrack", "solution", "repair", "backjump",
                    "learn", "split", "revise", "undo"];
const HIGHLIGHT = { [ASSIGN]: "#e6b800", [PRUNE]: "#ff8c00", [WIPEOUT]: "#d62728",
                    [REPAIR]: "#e6b800" };
const UNIT = 40;           // SVG units per picture unit (a grid cell)
const MIN_FONT_PX = 11;    // no text smaller than this at the default size
const CHECKPOINT = 1000;   // events between saved replay states
const TREE_FULL = 300;     // above this many nodes the tree shows the path and its siblings
const JUMPS = [[ASSIGN, "next choice", "choices"], [WIPEOUT, "next wipe-out", "wipe-outs"],
               [BACKTRACK, "next backtrack", "backtracks"], [SOLUTION, "next solution", "solutions"]];
const LOOK_BACK_JUMPS = [[BACKJUMP, "next backjump", "backjumps"], [LEARN, "next nogood", "nogoods"]];

const CSS = `
.csp-stepper { font-family: var(--jp-ui-font-family, sans-serif); font-size: 14px; color: #222;
  outline: none; border: 1px solid #ddd; border-radius: 6px; padding: 8px; max-width: 100%;
  box-sizing: border-box; background: #fff; }
.csp-stepper:focus { border-color: #4f81bd; }
.cx-main { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
.cx-picture { flex: 3 1 340px; min-width: 0; overflow-x: auto; }
.cx-picture svg { width: 100%; height: auto; display: block; }
.cx-picture svg .cx-var { cursor: pointer; }
.cx-picture img { max-width: 100%; }
.cx-side { flex: 2 1 260px; min-width: 240px; display: flex; flex-direction: column; gap: 8px; }
.cx-tree { border: 1px solid #e3e3e3; border-radius: 4px; max-height: 360px; overflow: auto; }
.cx-tree svg { display: block; }
.cx-tree .cx-node { cursor: pointer; }
.cx-caption { font-size: 12px; color: #555; margin: 2px 4px; }
.cx-why { border: 1px solid #e3e3e3; border-radius: 4px; padding: 4px 8px; font-size: 13px;
  max-height: 240px; overflow: auto; }
.cx-why ul { margin: 2px 0; padding-left: 18px; }
.cx-why li.cx-entry { cursor: pointer; }
.cx-why li.cx-entry:hover { text-decoration: underline; }
.csp-stepper .cx-stats { font-size: 13px; border-collapse: collapse; margin: 0; }
.csp-stepper .cx-stats td { padding: 0 6px; text-align: left; border: none; }
.cx-text { font-weight: bold; margin: 8px 2px 4px; min-height: 1.4em; }
.cx-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.cx-controls button { font-size: 14px; min-width: 2.4em; height: 2em; cursor: pointer; }
.cx-controls select { font-size: 13px; height: 2em; }
.cx-controls input[type=range] { flex: 1 1 200px; }
.cx-note { color: #a33; font-size: 13px; }
.cx-runs { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 6px; }
.cx-run { border: 1px solid #ccc; border-radius: 4px; padding: 2px; cursor: pointer; background: #fafafa; }
.cx-run.cx-chosen { border-color: #4f81bd; background: #eef4fb; }
.cx-run .cx-caption { text-align: center; }
`;

// -- small helpers -------------------------------------------------------------------------
function svg(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const key in attrs) node.setAttribute(key, attrs[key]);
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const key in attrs || {}) node.setAttribute(key, attrs[key]);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, size, attrs) {
  const node = svg("text", Object.assign({ x: x * UNIT, y: y * UNIT, "font-size": size * UNIT,
    "text-anchor": "middle", "dominant-baseline": "central" }, attrs || {}), parent);
  node.textContent = content;
  return node;
}

// -- replaying a run -----------------------------------------------------------------------
// The solver's trail mechanism: an assignment opens a level, a backtrack closes it and puts
// back every value removed inside it. `removedBy[v]` says which event removed each value.
class Replay {
  constructor(run) {
    this.run = run;
    this.fresh();
    this.checkpoints = new Map();
  }
  fresh() {
    this.present = this.run.init.map((d) => new Set(d));
    this.removedBy = this.run.init.map(() => new Map());
    this.trail = [];
    this.marks = [];
    this.position = 0;
  }
  save() {
    return { present: this.present.map((s) => new Set(s)),
             removedBy: this.removedBy.map((m) => new Map(m)),
             trail: this.trail.slice(), marks: this.marks.slice(), position: this.position };
  }
  load(state) {
    this.present = state.present.map((s) => new Set(s));
    this.removedBy = state.removedBy.map((m) => new Map(m));
    this.trail = state.trail.slice();
    this.marks = state.marks.slice();
    this.position = state.position;
  }
  remove(v, x, at) {
    if (this.present[v].delete(x)) {
      this.removedBy[v].set(x, at);
      this.trail.push([v, x]);
    }
  }
  apply(at) {  // apply event number `at` (1-based)
    const [kind, v, x] = this.run.events[at - 1];
    if (kind === ASSIGN) {
      this.marks.push(this.trail.length);
      for (const other of Array.from(this.present[v])) if (other !== x) this.remove(v, other, at);
    } else if (kind === SPLIT) {  // a level whose removals follow as prune events
      this.marks.push(this.trail.length);
    } else if (kind === PRUNE) {
      this.remove(v, x, at);
    } else if (kind === REPAIR) {  // local search: `v` now holds `x`; never undone
      this.present[v] = new Set([x]);
      this.removedBy[v] = new Map(this.run.init[v].filter((y) => y !== x).map((y) => [y, at]));
    } else if (kind === BACKTRACK) {
      const mark = this.marks.length ? this.marks.pop() : 0;
      while (this.trail.length > mark) {
        const [w, y] = this.trail.pop();
        this.present[w].add(y);
        this.removedBy[w].delete(y);
      }
    }
  }
  seek(position) {
    if (position < this.position) {
      let best = 0;
      for (const p of this.checkpoints.keys()) if (p <= position && p > best) best = p;
      if (best) this.load(this.checkpoints.get(best)); else this.fresh();
    }
    while (this.position < position) {
      this.position += 1;
      this.apply(this.position);
      if (this.position % CHECKPOINT === 0 && !this.checkpoints.has(this.position)) {
        this.checkpoints.set(this.position, this.save());
      }
    }
  }
  domain(v) {  // the values left, in the initial order
    const left = this.present[v];
    return this.run.init[v].filter((x) => left.has(x));
  }
}

// -- the search tree -----------------------------------------------------------------------
// One node per assignment; a node lives from its assign event until the backtrack undoing it.
function buildTree(run) {
  const root = { id: 0, start: 0, end: Infinity, depth: 0, children: [], parent: null,
                 status: "open", v: -1, x: -1, size: 1 };
  const nodes = [root];
  const stack = [root];
  run.events.forEach(([kind, v, x, , depth], i) => {
    const at = i + 1;
    if (kind === ASSIGN || kind === SPLIT) {
      while (stack.length > depth) stack.pop();  // levels closed without a backtrack event
      const parent = stack[stack.length - 1];
      const node = { id: nodes.length, start: at, end: Infinity, depth, children: [], parent,
                     status: "open", v, x, size: 1 };
      parent.children.push(node);
      nodes.push(node);
      stack.push(node);
    } else if (kind === WIPEOUT) {
      stack[stack.length - 1].status = "failed";
    } else if (kind === SOLUTION) {
      stack[stack.length - 1].status = "solution";
    } else if (kind === BACKTRACK && stack.length > 1) {
      stack.pop().end = at;
    } else if (kind === BACKJUMP) {  // looking back: from here straight up to level `depth`
      const from = stack[stack.length - 1];
      from.jumpTo = stack[Math.min(depth, stack.length - 1)];
      from.jumpAt = at;
    }
  });
  // a node whose every child failed, and that was left, failed too
  for (let i = nodes.length - 1; i > 0; i--) {
    const node = nodes[i];
    if (node.status === "open" && node.end !== Infinity && node.children.length &&
        node.children.every((c) => c.status === "failed")) node.status = "failed";
    if (node.children.some((c) => c.status === "solution" || c.hasSolution)) node.hasSolution = true;
    node.parent.size += node.size;
  }
  return { root, nodes };
}

function currentNode(tree, position) {
  let node = tree.root;
  for (;;) {
    const next = node.children.find((c) => c.start <= position && position < c.end);
    if (!next) return node;
    node = next;
  }
}

// -- sentences, in the words of the view -----------------------------------------------------
function describe(run, position) {
  const total = run.events.length;
  if (position === 0) {
    return `start: the initial domains; ${total} events follow` +
      (run.truncated ? " (the trace was cut short)" : "");
  }
  const [kind, v, x, c, depth] = run.events[position - 1];
  const where = `event ${position} of ${total}, depth ${depth}`;
  if (run.sentences) return `${where}: ${run.sentences[position - 1]}`;
  const name = v >= 0 ? run.names[v] : "";
  const value = x >= 0 ? run.words[x] : "";
  const cause = c >= 0 ? run.causes[c] : null;
  let said;
  if (kind === ASSIGN) said = `assign ${name} = ${value}`;
  else if (kind === PRUNE && run.verb) said = `${cause || "propagation"}: ${name} cannot ${run.verb} ${value}`;
  else if (kind === PRUNE) said = `${cause || "propagation"} removes ${value} from ${name}`;
  else if (kind === WIPEOUT) said = `wipe-out${v >= 0 ? " on " + name : ""} (${cause || "no value left"}): backtrack`;
  else if (kind === BACKTRACK) said = `backtrack: undo ${name} = ${value}`;
  else if (kind === REPAIR) said = `${cause || "repair"}: ${name} = ${value}, ${depth} conflict${depth === 1 ? "" : "s"} left`;
  else if (kind === BACKJUMP) said = `backjump from ${name}: ${cause}`;  // cause: the conflict, worded
  else if (kind === LEARN) said = `learn: ${cause} cannot all hold`;
  else if (kind === SPLIT) said = `split: keep ${name} in ${value}`;
  else said = "solution found: every variable has a value that satisfies every constraint";
  return `${where}: ${said}`;
}

// -- the picture ---------------------------------------------------------------------------
function shape(parent, s) {
  const common = {};
  if (s.fill !== undefined) common.fill = s.fill;
  if (s.stroke !== undefined) common.stroke = s.stroke;
  if (s.width !== undefined) common["stroke-width"] = s.width * UNIT;
  if (s.dash) common["stroke-dasharray"] = s.dash.map((d) => d * UNIT).join(" ");
  if (s.type === "rect") {
    return svg("rect", Object.assign({ x: s.x * UNIT, y: s.y * UNIT, width: s.w * UNIT,
      height: s.h * UNIT }, common), parent);
  }
  if (s.type === "line") {
    return svg("line", Object.assign({ x1: s.x1 * UNIT, y1: s.y1 * UNIT, x2: s.x2 * UNIT,
      y2: s.y2 * UNIT, "stroke-linecap": "round" }, common), parent);
  }
  if (s.type === "circle") {
    return svg("circle", Object.assign({ cx: s.x * UNIT, cy: s.y * UNIT, r: s.r * UNIT }, common), parent);
  }
  if (s.type === "polygon") {
    return svg("polygon", Object.assign({ points: s.points.map(([x, y]) => `${x * UNIT},${y * UNIT}`).join(" ") }, common), parent);
  }
  return text(parent, s.x, s.y, s.text, s.size, { fill: s.colour || "#222",
    "font-weight": s.bold ? "bold" : "normal" });
}

function wedge(parent, x, y, r, from, to, colour) {
  const p = (a) => [(x + r * Math.sin(a)) * UNIT, (y - r * Math.cos(a)) * UNIT];
  const [x0, y0] = p(from), [x1, y1] = p(to);
  const large = to - from > Math.PI ? 1 : 0;
  svg("path", { d: `M${x * UNIT},${y * UNIT} L${x0},${y0} A${r * UNIT},${r * UNIT} 0 ${large} 1 ${x1},${y1} Z`,
                fill: colour, "fill-opacity": 0.55, stroke: "none" }, parent);
}

// How one variable looks with the values `left` (value keys), by the way its domain is shown.
const SHOW = {
  digits(g, p, left, all) {
    const empty = left.length === 0;
    svg("rect", { x: p.x * UNIT, y: p.y * UNIT, width: p.w * UNIT, height: p.h * UNIT,
      fill: empty ? "#f3c6c6" : (p.given ? "#f2f2f2" : "#fff"), stroke: "#555",
      "stroke-width": 0.025 * UNIT }, g);
    if (left.length === 1) {
      text(g, p.x + p.w / 2, p.y + p.h * 0.53, left[0], 0.6 * p.h,
        { fill: p.given ? "#111" : "#1f4fa8", "font-weight": "bold" });
    } else if (!empty) {
      const order = p.layout || all;
      const per = Math.ceil(Math.sqrt(order.length));
      for (const key of left) {
        const i = order.indexOf(key);
        const cx = p.x + p.w * ((i % per) + 0.5) / per, cy = p.y + p.h * (Math.floor(i / per) + 0.55) / per;
        text(g, cx, cy, key, 0.78 * p.h / per, { fill: "#666" });
      }
    }
  },
  shade(g, p, left) {
    const decided = left.length === 1;
    const on = decided && left[0] === p.on;
    const fill = left.length === 0 ? "#f3c6c6" : on ? "#333" : decided ? "#fff" : "#e8eef7";
    svg("rect", { x: p.x * UNIT, y: p.y * UNIT, width: p.w * UNIT, height: p.h * UNIT, fill,
      stroke: "#888", "stroke-width": 0.025 * UNIT }, g);
    if (decided && !on) {
      svg("circle", { cx: (p.x + p.w / 2) * UNIT, cy: (p.y + p.h / 2) * UNIT, r: 0.36 * p.h * UNIT,
        fill: "none", stroke: "#4a8a3a", "stroke-width": 0.04 * UNIT }, g);
    }
    text(g, p.x + p.w / 2, p.y + p.h / 2, p.label, 0.5 * p.h, { fill: on ? "#fff" : "#222",
      "font-weight": decided ? "bold" : "normal" });
  },
  colour(g, p, left) {
    const colours = p.colours || {};
    const paint = (k) => colours[k] || k;
    const round = p.r !== undefined;
    const outline = round
      ? { cx: p.x * UNIT, cy: p.y * UNIT, r: p.r * UNIT }
      : { x: p.x * UNIT, y: p.y * UNIT, width: p.w * UNIT, height: p.h * UNIT };
    const cx = round ? p.x : p.x + p.w / 2, cy = round ? p.y : p.y + p.h / 2;
    const r = round ? p.r : Math.min(p.w, p.h) / 2;
    if (left.length === 1) {
      svg(round ? "circle" : "rect", Object.assign({ fill: paint(left[0]) }, outline), g);
    } else {
      svg(round ? "circle" : "rect", Object.assign({ fill: left.length ? "#fff" : "#f3c6c6" }, outline), g);
      const share = 2 * Math.PI / Math.max(left.length, 1);
      left.forEach((k, i) => wedge(g, cx, cy, r * 0.8, i * share, (i + 1) * share, paint(k)));
    }
    svg(round ? "circle" : "rect", Object.assign({ fill: "none", stroke: "#222",
      "stroke-width": 0.03 * UNIT }, outline), g);
    if (p.label) {
      text(g, cx, cy, p.label, 0.55 * r, { fill: "#111", "font-weight": "bold", stroke: "#fff",
        "stroke-width": 0.06 * UNIT, "paint-order": "stroke" });
    }
  },
  list(g, p, left) {
    const fill = left.length === 1 ? "#9ec1e8" : left.length ? "#fff" : "#ffd0d0";
    svg("circle", { cx: p.x * UNIT, cy: p.y * UNIT, r: p.r * UNIT, fill, stroke: "#222",
      "stroke-width": 0.03 * UNIT }, g);
    if (p.label) text(g, p.x, p.y - p.r - 0.3, p.label, 0.34, { "font-weight": "bold" });
    if (!left.length) { text(g, p.x, p.y, "empty", 0.3, { fill: "#a00" }); return; }
    const lines = [];
    for (let i = 0; i < left.length; i += 3) lines.push(left.slice(i, i + 3).join(" "));
    const size = left.length === 1 ? 0.5 : 0.3;
    lines.forEach((line, i) => text(g, p.x, p.y + (i - (lines.length - 1) / 2) * size * 1.15, line, size));
  },
  bridges(g, p, left) {
    const counts = left.map(Number);
    const sure = counts.length ? Math.min(...counts) : 0;
    const dx = p.x2 - p.x1, dy = p.y2 - p.y1, len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len, ny = dx / len, gap = 0.13;
    const h = 0.17;  // the hover target: a band round the line
    const band = [[p.x1 + nx * h, p.y1 + ny * h], [p.x2 + nx * h, p.y2 + ny * h],
                  [p.x2 - nx * h, p.y2 - ny * h], [p.x1 - nx * h, p.y1 - ny * h]];
    svg("polygon", { points: band.map(([x, y]) => `${x * UNIT},${y * UNIT}`).join(" "),
      fill: "transparent" }, g);
    for (let i = 0; i < sure; i++) {
      const s = (i - (sure - 1) / 2) * gap;
      svg("line", { x1: (p.x1 + nx * s) * UNIT, y1: (p.y1 + ny * s) * UNIT, x2: (p.x2 + nx * s) * UNIT,
        y2: (p.y2 + ny * s) * UNIT, stroke: "#5b3a1a", "stroke-width": 0.06 * UNIT }, g);
    }
    if (counts.length === 1) return;
    svg("line", { x1: p.x1 * UNIT, y1: p.y1 * UNIT, x2: p.x2 * UNIT, y2: p.y2 * UNIT,
      stroke: counts.length ? "#8a8a8a" : "#d62728", "stroke-width": 0.03 * UNIT,
      "stroke-dasharray": `${0.1 * UNIT} ${0.1 * UNIT}` }, g);
    const label = counts.length ? left.join("") : "∅";
    const mx = (p.x1 + p.x2) / 2, my = (p.y1 + p.y2) / 2, w = 0.12 + 0.19 * label.length;
    svg("rect", { x: (mx - w / 2) * UNIT, y: (my - 0.17) * UNIT, width: w * UNIT, height: 0.34 * UNIT,
      rx: 0.08 * UNIT, fill: "#fff", "fill-opacity": 0.85 }, g);
    text(g, mx, my, label, 0.3, { fill: counts.length ? "#555" : "#d62728" });
  },
  places(g, p, left, all) {
    const keep = new Set(left);
    for (const key of all) {
      const [x, y] = p.places[key];
      const hit = svg("rect", { x: x * UNIT, y: y * UNIT, width: UNIT, height: UNIT, fill: "transparent" }, g);
      hit.dataset.value = key;
      if (!keep.has(key)) {
        const m = 0.28;
        for (const [a, b, c, d] of [[m, m, 1 - m, 1 - m], [m, 1 - m, 1 - m, m]]) {
          svg("line", { x1: (x + a) * UNIT, y1: (y + b) * UNIT, x2: (x + c) * UNIT, y2: (y + d) * UNIT,
            stroke: "#b22222", "stroke-width": 0.05 * UNIT, "stroke-opacity": p.symbol ? 1 : 0.45 }, g);
        }
      } else if (left.length === 1 && p.symbol) {
        text(g, x + 0.5, y + 0.54, p.symbol, 0.72, { fill: "#111" });
      } else if (p.symbol) {
        svg("circle", { cx: (x + 0.5) * UNIT, cy: (y + 0.5) * UNIT, r: 0.07 * UNIT, fill: "#555" }, g);
      } else {
        svg("rect", { x: (x + 0.08) * UNIT, y: (y + 0.08) * UNIT, width: 0.84 * UNIT, height: 0.84 * UNIT,
          rx: 0.1 * UNIT, fill: left.length === 1 ? "#4f81bd" : "#cfe0f3" }, g);
        text(g, x + 0.5, y + 0.5, key, 0.36, { fill: left.length === 1 ? "#fff" : "#223" });
      }
    }
    if (!left.length) {
      const xs = all.map((k) => p.places[k][0]), ys = all.map((k) => p.places[k][1]);
      const x0 = Math.min(...xs), y0 = Math.min(...ys);
      svg("rect", { x: x0 * UNIT, y: y0 * UNIT, width: (Math.max(...xs) - x0 + 1) * UNIT,
        height: (Math.max(...ys) - y0 + 1) * UNIT, fill: "#d62728", "fill-opacity": 0.25 }, g);
    }
  },
};

// The outline marking a variable (or one of its values) in the highlight layer.
function outline(layer, p, valueKey, colour, thin) {
  const w = (thin ? 0.05 : 0.1) * UNIT;
  const dash = thin ? { "stroke-dasharray": `${0.12 * UNIT} ${0.08 * UNIT}` } : {};
  const box = (x, y, wd, ht) => svg("rect", Object.assign({ x: x * UNIT, y: y * UNIT, width: wd * UNIT,
    height: ht * UNIT, fill: "none", stroke: colour, "stroke-width": w }, dash), layer);
  if (p.show === "bridges") {
    svg("line", Object.assign({ x1: p.x1 * UNIT, y1: p.y1 * UNIT, x2: p.x2 * UNIT, y2: p.y2 * UNIT,
      stroke: colour, "stroke-opacity": 0.5, "stroke-width": (thin ? 0.14 : 0.3) * UNIT,
      "stroke-linecap": "round" }, dash), layer);
  } else if (p.show === "places") {
    const keys = valueKey !== null && p.places[valueKey] ? [valueKey] : Object.keys(p.places);
    const xs = keys.map((k) => p.places[k][0]), ys = keys.map((k) => p.places[k][1]);
    box(Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs) + 1, Math.max(...ys) - Math.min(...ys) + 1);
  } else if (p.r !== undefined) {
    svg("circle", Object.assign({ cx: p.x * UNIT, cy: p.y * UNIT, r: p.r * 1.25 * UNIT, fill: "none",
      stroke: colour, "stroke-width": w }, dash), layer);
  } else {
    box(p.x, p.y, p.w, p.h);
  }
}

// The smallest font of the picture, in picture units, so the SVG never shrinks text below 11 px.
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

class Picture {
  constructor(host, picture, run, onVar) {
    this.picture = picture;
    this.run = run;
    const [x0, y0, x1, y1] = picture.bounds;
    const axes = picture.axes;
    const pad = axes ? 0.75 : 0.1;
    const left = x0 - pad, top = y0 - pad, width = x1 - x0 + pad + 0.1, height = y1 - y0 + pad + 0.1;
    const minPx = Math.ceil(width * MIN_FONT_PX / smallestFont(picture));
    this.svg = svg("svg", { viewBox: `${left * UNIT} ${top * UNIT} ${width * UNIT} ${height * UNIT}`,
      role: "img", style: `min-width:${minPx}px; max-width:${Math.max(minPx, width * 72)}px` }, host);
    // the picture claims the width its smallest text needs; the side panel wraps below if need be
    host.style.flexBasis = `${minPx}px`;
    if (picture.background) {
      svg("rect", { x: left * UNIT, y: top * UNIT, width: width * UNIT, height: height * UNIT,
        fill: picture.background }, this.svg);
    }
    const under = svg("g", {}, this.svg);
    this.causeShapes = {};
    for (const s of picture.shapes) {
      const node = shape(under, s);
      if (s.cause) (this.causeShapes[s.cause] = this.causeShapes[s.cause] || []).push([node, s]);
    }
    if (axes) {
      const fill = { fill: "#777" };
      for (let c = 0; c < axes.cols; c++) text(this.svg, axes.x + c + 0.5, y0 - 0.4, String(axes.col0 + c), 0.3, fill);
      for (let r = 0; r < axes.rows; r++) text(this.svg, x0 - 0.4, axes.y + r + 0.5, String(axes.row0 + r), 0.3, fill);
    }
    this.varLayer = svg("g", {}, this.svg);
    this.varLayer.addEventListener("mouseleave", () => onVar(null, false));
    this.cause = svg("g", { "pointer-events": "none" }, this.svg);
    this.highlight = svg("g", { "pointer-events": "none" }, this.svg);
    this.overLayer = svg("g", { "pointer-events": "none" }, this.svg);
    // picture entries by trace variable (the same key the sentences use)
    const index = new Map(run.keys.map((k, i) => [k, i]));
    this.places = run.keys.map(() => null);
    this.groups = run.keys.map(() => null);
    this.drawn = run.keys.map(() => null);
    for (const p of picture.variables) {
      const v = index.get(p.var);
      if (v === undefined) continue;
      this.places[v] = p;
      const g = svg("g", { class: "cx-var" }, this.varLayer);
      g.dataset.var = String(v);
      g.addEventListener("mouseenter", () => onVar(v, false));
      g.addEventListener("click", () => onVar(v, true));
      this.groups[v] = g;
    }
    this.over = (picture.over || []).map((s) => ({ s, node: shape(this.overLayer, s),
      vars: (s.decided || []).map((k) => index.get(k)).filter((v) => v !== undefined) }));
  }
  draw(replay, event, chosen) {
    const run = this.run;
    for (let v = 0; v < this.places.length; v++) {
      const p = this.places[v];
      if (!p) continue;
      const left = replay.domain(v);
      const key = left.join(",");
      if (this.drawn[v] === key) continue;
      this.drawn[v] = key;
      const g = this.groups[v];
      while (g.firstChild) g.removeChild(g.firstChild);
      SHOW[p.show](g, p, left.map((x) => run.values[x]), run.init[v].map((x) => run.values[x]));
    }
    for (const o of this.over) {
      if (!o.vars.length) continue;
      const done = o.vars.every((v) => replay.present[v].size === 1);
      o.node.setAttribute("fill", done ? o.s.decided_fill : o.s.fill);
    }
    this.cause.replaceChildren();
    this.highlight.replaceChildren();
    for (const [node, s] of Object.values(this.causeShapes).flat()) {
      node.setAttribute("stroke", s.stroke); node.setAttribute("stroke-width", s.width * UNIT);
    }
    if (event) {
      const [kind, v, x, c] = event;
      const causeName = c >= 0 ? run.causes[c] : null;
      for (const [node] of this.causeShapes[causeName] || []) {
        node.setAttribute("stroke", "#ff8c00"); node.setAttribute("stroke-width", 0.09 * UNIT);
      }
      for (const w of (run.scopes && causeName !== null && run.scopes[causeName]) || []) {
        if (w !== v && this.places[w]) outline(this.cause, this.places[w], null, "#ff8c00", true);
      }
      if (v >= 0 && this.places[v] && HIGHLIGHT[kind]) {
        const key = kind === WIPEOUT || x < 0 ? null : run.values[x];
        outline(this.highlight, this.places[v], key, HIGHLIGHT[kind], false);
      }
    }
    if (chosen !== null && this.places[chosen]) outline(this.highlight, this.places[chosen], null, "#2a7ab8", true);
  }
}

// -- the tree drawing ----------------------------------------------------------------------
function visibleNodes(tree, current) {
  if (tree.nodes.length <= TREE_FULL) return { show: (n) => true, folded: () => false };
  const path = new Set();
  for (let n = current; n; n = n.parent) path.add(n);
  const show = (n) => !n.parent || path.has(n.parent);
  return { show, folded: (n) => !path.has(n) && n.children.length > 0 };
}

function drawTree(host, run, tree, position, jump, compact) {
  host.replaceChildren();
  const current = currentNode(tree, position);
  const { show, folded } = visibleNodes(tree, current);
  const dx = compact ? 9 : 22, dy = compact ? 14 : 34, r = compact ? 3.5 : 7;
  // leaves get consecutive columns; a parent sits over the middle of its children
  let column = 0;
  const placed = [];
  let deepest = 0;
  const place = (n) => {
    const kids = folded(n) ? [] : n.children.filter(show);
    if (!kids.length) { n.cx = column++; } else {
      kids.forEach(place);
      n.cx = (kids[0].cx + kids[kids.length - 1].cx) / 2;
    }
    n.kids = kids;
    deepest = Math.max(deepest, n.depth);
    placed.push(n);
  };
  place(tree.root);
  const room = compact ? 0 : 190;  // for the label of the current node
  const width = Math.max(column, 1) * dx + 2 * dx + room, height = (deepest + 1) * dy + (compact ? 10 : 30);
  const box = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}` }, host);
  const X = (n) => dx * 1.5 + n.cx * dx, Y = (n) => (compact ? 8 : 14) + n.depth * dy;
  const edges = svg("g", {}, box), marks = svg("g", {}, box);
  const onPath = new Set();
  for (let n = current; n; n = n.parent) onPath.add(n);
  for (const n of placed) {
    for (const k of n.kids) {
      svg("line", { x1: X(n), y1: Y(n), x2: X(k), y2: Y(k), stroke: onPath.has(k) ? "#2a7ab8" : "#bbb",
        "stroke-width": onPath.has(k) ? 2.5 : 1 }, edges);
    }
  }
  for (const n of placed) {  // a backjump: a dashed arc up to the level it returns to
    const to = n.jumpTo;
    if (!to || !placed.includes(to)) continue;
    const bend = Math.max(X(n), X(to)) + dx * 1.5;
    svg("path", { d: `M ${X(n)} ${Y(n)} C ${bend} ${Y(n)}, ${bend} ${Y(to)}, ${X(to)} ${Y(to)}`,
      fill: "none", stroke: "#8e44ad", "stroke-width": compact ? 1 : 2, "stroke-dasharray": "4 3",
      opacity: n.jumpAt > position ? 0.35 : 1 }, edges);
  }
  for (const n of placed) {
    const colour = n.status === "failed" ? "#d62728" : n.status === "solution" ? "#2ca02c"
      : n.hasSolution ? "#98d098" : "#9aa7b5";
    const later = n.start > position;
    const g = svg("g", { class: "cx-node", opacity: later ? 0.35 : 1 }, marks);
    g.dataset.node = String(n.id);
    g.dataset.start = String(n.start);
    if (folded(n)) {
      svg("polygon", { points: `${X(n)},${Y(n) - r} ${X(n) - r * 1.4},${Y(n) + r * 1.6} ${X(n) + r * 1.4},${Y(n) + r * 1.6}`,
        fill: colour, stroke: "#555" }, g);
    } else {
      svg("circle", { cx: X(n), cy: Y(n), r, fill: colour, stroke: n === current ? "#111" : "#555",
        "stroke-width": n === current ? 3 : 1 }, g);
    }
    const name = n.v >= 0 ? `${run.names[n.v]} = ${run.words[n.x]}` : "start";
    const title = svg("title", {}, g);
    title.textContent = `${name} (event ${n.start}` + (folded(n) ? `, ${n.size - 1} nodes below, folded` : "") + ")";
    if (!compact && n === current && n !== tree.root) {
      const label = text(g, (X(n) + r + 4) / UNIT, Y(n) / UNIT, name, 12 / UNIT, { fill: "#111",
        "font-weight": "bold", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" });
      label.setAttribute("text-anchor", "start");
    }
    g.addEventListener("click", (e) => { e.stopPropagation(); jump(n.start); });
  }
  if (!compact) {  // keep the current node in view
    host.scrollLeft = Math.max(0, X(current) - host.clientWidth / 2);
    host.scrollTop = Math.max(0, Y(current) - host.clientHeight / 2);
  }
}

// -- the widget ------------------------------------------------------------------------------
function render({ model, el }) {
  if (!document.getElementById("csp-explorer-style")) {
    const style = html("style", { id: "csp-explorer-style" }, document.head);
    style.textContent = CSS;
  }
  const data = model.get("data");
  const root = html("div", { class: "csp-stepper csp-explorer", tabindex: "0" }, el);
  let runIndex = Math.min(model.get("run") || 0, data.runs.length - 1);
  let run, replay, tree, counts, touches, view = null;
  let position = model.get("position") || 0;
  let chosen = null, pinned = false, playing = null, note = "", drawnNode = null;

  const runsBar = html("div", { class: "cx-runs" }, root);
  if (data.title) html("div", { class: "cx-caption" }, root, data.title);
  const main = html("div", { class: "cx-main" }, root);
  const pictureHost = html("div", { class: "cx-picture csp-stepper-image" }, main);
  const side = html("div", { class: "cx-side" }, main);
  html("div", { class: "cx-caption" }, side,
    "search tree: a node per choice; red failed, green solution; click to go there");
  const treeHost = html("div", { class: "cx-tree" }, side);
  const pathLine = html("div", { class: "cx-caption cx-path" }, side);
  const why = html("div", { class: "cx-why" }, side);
  const stats = html("table", { class: "cx-stats csp-stepper-stats" }, side);
  const sentence = html("div", { class: "cx-text csp-stepper-text" }, root);
  const controls = html("div", { class: "cx-controls" }, root);
  const button = (label, title, act) => {
    const b = html("button", { title, type: "button" }, controls, label);
    b.addEventListener("click", () => { act(); root.focus({ preventScroll: true }); });
    return b;
  };
  button("|◀", "first: the initial domains", () => { stop(); go(0); });
  button("◀", "back one event", () => { stop(); go(position - 1); });
  button("▶", "step: the next event", () => { stop(); go(position + 1); });
  button("▶|", "end: the last event", () => { stop(); go(run.events.length); });
  const playButton = button("play", "play / pause", () => (playing ? stop() : play()));
  const speed = html("select", { title: "events per second" }, controls);
  const rates = [1, 2, 5, 10, 20, 50, 100];
  const wanted = 1000 / (model.get("interval") || 400);
  const nearest = rates.reduce((a, b) => (Math.abs(b - wanted) < Math.abs(a - wanted) ? b : a));
  for (const rate of rates) html("option", { value: String(rate) }, speed, `${rate} events/s`);
  speed.value = String(nearest);
  const slider = html("input", { type: "range", min: "0", value: "0", title: "event" }, controls);
  slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
  const jumpKind = html("select", { title: "what to jump to" }, controls);
  const looksBack = data.runs.some((r) => r.events.some(([kind]) => kind === BACKJUMP || kind === LEARN));
  const jumps = looksBack ? [...JUMPS, ...LOOK_BACK_JUMPS] : JUMPS;
  for (const [kind, label] of jumps) html("option", { value: String(kind) }, jumpKind, label);
  button("jump", "jump to the next event of the chosen kind", () => { stop(); jump(Number(jumpKind.value)); });
  const noteBox = html("span", { class: "cx-note" }, controls);

  function choose(index) {
    runIndex = index;
    run = data.runs[index];
    replay = new Replay(run);
    tree = buildTree(run);
    touches = run.init.map(() => []);
    run.events.forEach(([, v], i) => { if (v >= 0) touches[v].push(i + 1); });
    counts = KIND_NAMES.map(() => new Int32Array(run.events.length + 1));
    run.events.forEach(([kind], i) => {
      for (let k = 0; k < counts.length; k++) counts[k][i + 1] = counts[k][i] + (kind === k ? 1 : 0);
    });
    slider.max = String(run.events.length);
    pictureHost.replaceChildren();
    view = data.picture ? new Picture(pictureHost, data.picture, run, (v, click) => {
      if (click) { pinned = !(pinned && chosen === v); chosen = pinned ? v : null; } else if (!pinned) chosen = v;
      show();
    }) : null;
    if (!view) {
      const img = html("img", { alt: "the search state" }, pictureHost);
      const update = () => { const src = model.get("image"); if (src) img.src = src; };
      model.on("change:image", update);
      update();
    }
    chosen = null; pinned = false; drawnNode = null;
    drawRuns();
  }

  function drawRuns() {
    if (data.runs.length < 2) return;
    runsBar.replaceChildren();
    const most = Math.max(...data.runs.map((r) => r.nodes), 1);
    data.runs.forEach((r, i) => {
      const box = html("div", { class: "cx-run" + (i === runIndex ? " cx-chosen" : ""), title: `replay ${r.label}` }, runsBar);
      html("div", { class: "cx-caption" }, box, `${r.label}: ${r.nodes} nodes`);
      const bar = html("div", { style: `height:6px;background:#4f81bd;width:${Math.max(2, 140 * r.nodes / most)}px` }, box);
      bar.setAttribute("aria-hidden", "true");
      const mini = html("div", { style: "max-width:220px;max-height:120px;overflow:hidden" }, box);
      drawTree(mini, r, buildTree(r), r.events.length, () => {}, true);
      box.addEventListener("click", () => {
        stop(); choose(i); model.set("run", i); model.set("position", 0); model.save_changes();
        position = -1; go(0);
      });
    });
  }

  function go(target, fromKernel) {
    target = Math.max(0, Math.min(run.events.length, target));
    if (target !== position) note = "";
    position = target;
    show();
    if (!fromKernel) sync();
  }

  let syncTimer = null;
  function sync() {
    if (playing) {  // a message per frame is wasted while playing: send every quarter second
      if (!syncTimer) syncTimer = setTimeout(() => { syncTimer = null; sync(); }, 250);
      return;
    }
    if (model.get("position") !== position) { model.set("position", position); model.save_changes(); }
  }

  function jump(kind) {
    const c = counts[kind];
    let target = position + 1;
    while (target <= run.events.length && c[target] === c[position]) target++;
    if (target > run.events.length) {
      const words = [...JUMPS, ...LOOK_BACK_JUMPS].find(([k]) => k === kind)[2];
      note = `no more ${words} ahead`;
      noteBox.textContent = note;
      return false;
    }
    go(target);
    return true;
  }

  function play() {
    if (position >= run.events.length) go(0);
    const rate = Number(speed.value);
    const t0 = performance.now(), p0 = position;
    playButton.textContent = "pause";
    const tick = (now) => {
      if (!playing) return;
      const due = Math.min(run.events.length, p0 + Math.floor((now - t0) * rate / 1000) + 1);
      if (due !== position) go(due);
      if (position >= run.events.length) { stop(); return; }
      playing = requestAnimationFrame(tick);
    };
    playing = requestAnimationFrame(tick);
  }

  function stop() {
    if (!playing) return;
    cancelAnimationFrame(playing);
    playing = null;
    playButton.textContent = "play";
    sync();
  }

  function show() {
    replay.seek(position);
    const event = position ? run.events[position - 1] : null;
    if (view) view.draw(replay, event, chosen);
    slider.value = String(position);
    sentence.textContent = describe(run, position);
    noteBox.textContent = note;
    drawStats();
    drawWhy(event);
    // the tree only changes when the search moves to another node (an assign or a backtrack)
    const node = currentNode(tree, position);
    if (node !== drawnNode) {
      drawnNode = node;
      drawTree(treeHost, run, tree, position, (p) => { stop(); go(p); }, false);
      drawPath();
    }
  }

  function drawPath() {
    if (tree.nodes.length === 1) {
      pathLine.textContent = "no choices: propagation alone decided every variable";
      return;
    }
    const steps = [];
    for (let n = currentNode(tree, position); n.parent; n = n.parent) steps.unshift(`${run.names[n.v]} = ${run.words[n.x]}`);
    pathLine.textContent = steps.length ? "choices so far: " + steps.join(" › ") : "no choice made yet";
  }

  function drawStats() {
    const rows = [["assignments (nodes)", counts[ASSIGN][position]], ["values pruned", counts[PRUNE][position]],
      ["wipe-outs", counts[WIPEOUT][position]], ["backtracks", counts[BACKTRACK][position]],
      ["solutions", counts[SOLUTION][position]]];
    if (counts[BACKJUMP][run.events.length] || counts[LEARN][run.events.length]) {
      rows.push(["backjumps", counts[BACKJUMP][position]], ["nogoods learnt", counts[LEARN][position]]);
    }
    let fixed = 0, left = 0;
    for (const s of replay.present) { fixed += s.size === 1 ? 1 : 0; left += s.size; }
    rows.push(["variables with one value", `${fixed} of ${replay.present.length}`], ["values left", left]);
    stats.replaceChildren();
    for (const [label, value] of rows) {
      const tr = html("tr", {}, stats);
      html("td", {}, tr, label);
      html("td", { style: "text-align:right;font-weight:bold" }, tr, String(value));
    }
  }

  function drawWhy(event) {
    why.replaceChildren();
    const v = chosen !== null ? chosen : (event && event[1] >= 0 ? event[1] : null);
    if (v === null) {
      html("div", { class: "cx-caption" }, why, "why? point at a variable in the picture to see its values and what removed the others");
      return;
    }
    const left = replay.domain(v).map((x) => run.words[x]);
    html("div", {}, why, `${run.names[v]}: ${left.length ? "{" + left.join(", ") + "}" : "no value left"}` +
      (pinned && chosen === v ? " (pinned: click again to release)" : ""));
    const entry = (list, at, said) => {
      const item = html("li", { class: "cx-entry", title: `go to event ${at}` }, list, said);
      item.dataset.event = String(at);
      item.addEventListener("click", () => { stop(); go(at); });
    };
    const reason = (at) => {
      const [kind, w, y, c] = run.events[at - 1];
      return kind === ASSIGN ? `the search chose ${run.names[w]} = ${run.words[y]}`
        : (c >= 0 ? run.causes[c] : "propagation");
    };
    const removed = Array.from(replay.removedBy[v].entries()).sort((a, b) => a[1] - b[1]);
    if (!removed.length) html("div", { class: "cx-caption" }, why, "nothing removed now");
    const list = html("ul", {}, why);
    for (const [x, at] of removed) entry(list, at, `${run.words[x]}: removed at event ${at} by ${reason(at)}`);
    // what happened to it before and was undone by backtracking
    const inForce = new Set(removed.map(([, at]) => at));
    const undone = [];
    for (const at of touches[v]) {
      if (at > position) break;
      const [kind, , x] = run.events[at - 1];
      if ((kind === PRUNE || kind === ASSIGN) && !inForce.has(at)) undone.push([at, kind, x]);
    }
    if (!undone.length) return;
    html("div", { class: "cx-caption" }, why, `earlier, undone by backtracking (${undone.length}):`);
    const earlier = html("ul", {}, why);
    for (const [at, kind, x] of undone.slice(-8)) {
      entry(earlier, at, kind === ASSIGN ? `event ${at}: the search chose ${run.words[x]}`
        : `event ${at}: ${run.words[x]} removed by ${reason(at)}`);
    }
  }

  root.addEventListener("keydown", (e) => {
    if (e.target !== root && e.target.tagName !== "BUTTON") return;  // the slider has its own keys
    const targets = { ArrowRight: position + 1, ArrowLeft: position - 1, Home: 0, End: run.events.length };
    if (!(e.key in targets)) return;
    e.preventDefault();
    e.stopPropagation();  // the notebook's own shortcuts stay out of it
    stop();
    go(targets[e.key]);
  });
  model.on("change:position", () => {
    const p = model.get("position");
    if (p !== position && !playing) go(p, true);
  });
  model.on("change:run", () => {
    const i = model.get("run");
    if (i !== runIndex) { stop(); choose(i); position = -1; go(model.get("position") || 0, true); }
  });
  model.on("change:note", () => { note = model.get("note"); noteBox.textContent = note; });

  choose(runIndex);
  position = Math.max(0, Math.min(run.events.length, position));
  show();
  return () => { stop(); };
}

export default { render };
