// How a picture's shapes and variables are drawn (the description: csp_puzzles/puzzle/picture.py).
//
// `SHOW[how](g, p, left, all)` draws variable `p` with the value keys `left` still possible
// (of `all`), by the way its domain is shown: digits, shade, colour, list, bridges, places.
// An empty domain is always drawn with a sign as well as a colour ("∅", a cross, a band).
// `CLEAN[how](g, p, left, all, look)` draws a puzzle being played, as Tatham's games look:
// what the player decided (`look.assigned`) plainly, the rest only as pencil marks.

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
// A cell's candidates as small pencil marks, each at its place of the keypad.
function pencilMarks(g, p, left, all) {
  const order = p.layout || all;
  const per = Math.ceil(Math.sqrt(order.length));
  for (const key of left) {
    const i = order.indexOf(key);
    const cx = p.x + p.w * ((i % per) + 0.5) / per, cy = p.y + p.h * (Math.floor(i / per) + 0.55) / per;
    text(g, cx, cy, key, 0.78 * p.h / per, { fill: "#595959" });
  }
}

function digitCell(g, p, left) {
  svg("rect", { x: p.x * UNIT, y: p.y * UNIT, width: p.w * UNIT, height: p.h * UNIT,
    fill: left.length === 0 ? "#f3c6c6" : (p.given ? "#f2f2f2" : "#fff"), stroke: "#555",
    "stroke-width": 0.025 * UNIT }, g);
}

function bigDigit(g, p, key) {
  text(g, p.x + p.w / 2, p.y + p.h * 0.53, key, 0.6 * p.h,
    { fill: p.given ? "#111" : "#1f4fa8", "font-weight": "bold" });
}

function emptySign(g, p) {
  text(g, p.x + p.w / 2, p.y + p.h / 2, "∅", 0.5 * p.h, { fill: "#b71c1c" });
}

const SHOW = {
  digits(g, p, left, all) {
    digitCell(g, p, left);
    if (left.length === 1) bigDigit(g, p, left[0]);
    else if (left.length === 0) emptySign(g, p);
    else pencilMarks(g, p, left, all);
  },
  shade(g, p, left) {
    const decided = left.length === 1;
    const on = decided && left[0] === p.on;
    const fill = left.length === 0 ? "#f3c6c6" : on ? "#333" : decided ? "#fff" : "#e8eef7";
    svg("rect", { x: p.x * UNIT, y: p.y * UNIT, width: p.w * UNIT, height: p.h * UNIT, fill,
      stroke: "#888", "stroke-width": 0.025 * UNIT }, g);
    if (decided && !on) {
      svg("circle", { cx: (p.x + p.w / 2) * UNIT, cy: (p.y + p.h / 2) * UNIT, r: 0.36 * p.h * UNIT,
        fill: "none", stroke: "#2e6b22", "stroke-width": 0.05 * UNIT }, g);
    }
    text(g, p.x + p.w / 2, p.y + p.h / 2, p.label, 0.5 * p.h, { fill: on ? "#fff" : "#222",
      "font-weight": decided ? "bold" : "normal" });
    if (!left.length) text(g, p.x + p.w * 0.8, p.y + p.h * 0.22, "∅", 0.3 * p.h, { fill: "#b71c1c" });
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
      if (!left.length && !p.label) text(g, cx, cy, "∅", 0.9 * r, { fill: "#b71c1c" });
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
    // `paint`: the values are colours, and a node with one left takes it (a map's region)
    const fill = left.length === 1 ? (p.paint ? left[0] : "#9ec1e8") : left.length ? "#fff" : "#ffd0d0";
    svg("circle", { cx: p.x * UNIT, cy: p.y * UNIT, r: p.r * UNIT, fill, stroke: "#222",
      "stroke-width": 0.03 * UNIT }, g);
    if (p.label) text(g, p.x, p.y - p.r - 0.3, p.label, 0.34, { "font-weight": "bold" });
    if (!left.length) { text(g, p.x, p.y, "empty", 0.3, { fill: "#a00" }); return; }
    const lines = [];
    const per = p.per_line || 3;
    for (let i = 0; i < left.length; i += per) lines.push(left.slice(i, i + per).join(" "));
    const size = left.length === 1 ? 0.5 : 0.3;
    const halo = p.paint && left.length === 1 ? { stroke: "#fff", "stroke-width": 0.08 * UNIT, "paint-order": "stroke" } : {};
    lines.forEach((line, i) => text(g, p.x, p.y + (i - (lines.length - 1) / 2) * size * 1.15, line, size, halo));
  },
  bridges(g, p, left) {
    const counts = left.map(Number);
    const sure = counts.length ? Math.min(...counts) : 0;
    strokes(g, p, sure, { stroke: "#5b3a1a", "stroke-width": 0.06 * UNIT });
    if (counts.length === 1) return;
    svg("line", { x1: p.x1 * UNIT, y1: p.y1 * UNIT, x2: p.x2 * UNIT, y2: p.y2 * UNIT,
      stroke: counts.length ? "#8a8a8a" : "#b71c1c", "stroke-width": 0.03 * UNIT,
      "stroke-dasharray": `${0.1 * UNIT} ${0.1 * UNIT}` }, g);
    const label = counts.length ? left.join("") : "∅";
    const [mx, my] = p.mark || [(p.x1 + p.x2) / 2, (p.y1 + p.y2) / 2];  // off a crossing
    const w = 0.12 + 0.19 * label.length;
    svg("rect", { x: (mx - w / 2) * UNIT, y: (my - 0.17) * UNIT, width: w * UNIT, height: 0.34 * UNIT,
      rx: 0.08 * UNIT, fill: "#fff", "fill-opacity": 0.85 }, g);
    text(g, mx, my, label, 0.3, { fill: counts.length ? "#555" : "#b71c1c" });
  },
  places(g, p, left, all) {
    const keep = new Set(left);
    for (const key of all) {
      const [x, y] = p.places[key];
      if (!keep.has(key)) {
        const m = 0.28;
        for (const [a, b, c, d] of [[m, m, 1 - m, 1 - m], [m, 1 - m, 1 - m, m]]) {
          svg("line", { x1: (x + a) * UNIT, y1: (y + b) * UNIT, x2: (x + c) * UNIT, y2: (y + d) * UNIT,
            stroke: "#b22222", "stroke-width": 0.05 * UNIT, "stroke-opacity": p.symbol ? 1 : 0.8 }, g);
        }
      } else if (left.length === 1 && p.symbol) {
        text(g, x + 0.5, y + 0.54, p.symbol, 0.72, { fill: "#111" });
      } else if (p.symbol) {
        svg("circle", { cx: (x + 0.5) * UNIT, cy: (y + 0.5) * UNIT, r: 0.07 * UNIT, fill: "#555" }, g);
      } else {
        svg("rect", { x: (x + 0.08) * UNIT, y: (y + 0.08) * UNIT, width: 0.84 * UNIT, height: 0.84 * UNIT,
          rx: 0.1 * UNIT, fill: left.length === 1 ? "#2f5f9e" : "#cfe0f3" }, g);
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


// A line of `count` parallel strokes between the ends of `p`, `gap` apart.
function strokes(g, p, count, attrs) {
  const dx = p.x2 - p.x1, dy = p.y2 - p.y1, len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len, ny = dx / len, gap = 0.13;
  for (let i = 0; i < count; i++) {
    const s = (i - (count - 1) / 2) * gap;
    svg("line", Object.assign({ x1: (p.x1 + nx * s) * UNIT, y1: (p.y1 + ny * s) * UNIT,
      x2: (p.x2 + nx * s) * UNIT, y2: (p.y2 + ny * s) * UNIT }, attrs), g);
  }
}

// A small cross at the middle of a line: "no bridge", as Tatham marks it.
function noLine(g, p, colour) {
  const [mx, my] = p.mark || [(p.x1 + p.x2) / 2, (p.y1 + p.y2) / 2], m = 0.12;
  for (const [a, b] of [[-m, -m], [-m, m]]) {
    svg("line", { x1: (mx + a) * UNIT, y1: (my + b) * UNIT, x2: (mx - a) * UNIT, y2: (my - b) * UNIT,
      stroke: colour, "stroke-width": 0.045 * UNIT, "stroke-linecap": "round" }, g);
  }
}

// The clean board: a decided value drawn as the puzzle shows it; an undecided variable
// blank, or its values as pencil marks when they were narrowed or `look.domains` asks; a
// solved puzzle's cells left alone (`look.blank`) plain, as the solution shows them.
const CLEAN = {
  digits(g, p, left, all, look) {
    digitCell(g, p, left);
    if (left.length === 1 && (look.assigned || p.given)) bigDigit(g, p, left[0]);
    else if (left.length === 0) emptySign(g, p);
    else if (look.domains || left.length < all.length) pencilMarks(g, p, left, all);
  },
  shade(g, p, left, all, look) {
    const one = left.length === 1, on = one && left[0] === p.on, decided = one && look.assigned && !look.blank;
    const pencil = !decided && one && !look.blank;  // one value left, not chosen: a pencil mark
    const fill = !left.length ? "#f3c6c6" : decided && on ? "#333" : pencil && on ? "#c9c9c9"
      : !one && look.domains ? "#e8eef7" : "#fff";
    svg("rect", { x: p.x * UNIT, y: p.y * UNIT, width: p.w * UNIT, height: p.h * UNIT, fill,
      stroke: "#888", "stroke-width": 0.025 * UNIT }, g);
    if (one && !on && !look.blank) {
      svg("circle", { cx: (p.x + p.w / 2) * UNIT, cy: (p.y + p.h / 2) * UNIT, r: 0.36 * p.h * UNIT,
        fill: "none", stroke: decided ? "#2e6b22" : "#6b6b6b", "stroke-width": (decided ? 0.05 : 0.03) * UNIT,
        "stroke-dasharray": decided ? "none" : `${0.06 * UNIT} ${0.05 * UNIT}` }, g);
    }
    text(g, p.x + p.w / 2, p.y + p.h / 2, p.label, 0.5 * p.h, { fill: decided && on ? "#fff" : "#222",
      "font-weight": decided ? "bold" : "normal" });
    if (!left.length) text(g, p.x + p.w * 0.8, p.y + p.h * 0.22, "∅", 0.3 * p.h, { fill: "#b71c1c" });
  },
  bridges(g, p, left, all, look) {
    const counts = left.map(Number);
    if (look.blank) return;
    if (counts.length === 1 && look.assigned) {
      if (counts[0] > 0) strokes(g, p, counts[0], { stroke: "#3b2412", "stroke-width": 0.07 * UNIT });
      else noLine(g, p, "#8a1c1c");
      return;
    }
    if (!counts.length) { SHOW.bridges(g, p, left, all); return; }
    if (!look.domains && left.length === all.length) return;
    const sure = Math.min(...counts), most = Math.max(...counts);
    if (sure > 0) strokes(g, p, sure, { stroke: "#8c6d4f", "stroke-width": 0.035 * UNIT });
    if (most > sure) {
      svg("line", { x1: p.x1 * UNIT, y1: p.y1 * UNIT, x2: p.x2 * UNIT, y2: p.y2 * UNIT, stroke: "#8a8a8a",
        "stroke-width": 0.025 * UNIT, "stroke-dasharray": `${0.08 * UNIT} ${0.1 * UNIT}` }, g);
    }
    if (most === 0) noLine(g, p, "#8a8a8a");
    if (look.domains && counts.length > 1) {
      const [mx, my] = p.mark || [(p.x1 + p.x2) / 2, (p.y1 + p.y2) / 2];
      text(g, mx, my - 0.18, left.join(""), 0.24, { fill: "#4a4a4a", stroke: "#eaf3fb",
        "stroke-width": 0.05 * UNIT, "paint-order": "stroke" });
    }
  },
};
