// The search tree: one node per choice (an assignment, a split, a probe), living from its
// event until the backtrack that closed its level (`closed`, from Python).
//
// Nodes differ by shape as well as colour: a circle is open, a square with a cross failed, a
// circle with a check mark is a solution, a diamond is a tentative choice (a probe), a
// triangle a folded subtree. Each node is a button: Enter or Space goes there, the arrow
// keys move to the parent (up), the first child (down) and the neighbours (left, right).

const TREE_FULL = 300;  // above this many nodes the tree shows the path and its siblings
const NODE_COLOURS = { failed: "#c62828", solution: "#2e7d32", onWay: "#a5d6a7" };

function buildTree(run) {
  const root = { id: 0, start: 0, end: Infinity, depth: 0, children: [], parent: null,
                 status: "open", v: -1, x: -1, size: 1 };
  const nodes = [root];
  const stack = [root];
  for (let at = 1; at <= run.total; at++) {
    const kind = run.kind(at);
    if (kind === ASSIGN || kind === SPLIT) {
      const parent = stack[stack.length - 1];
      const closed = run.get(at, CLOSED);
      const node = { id: nodes.length, start: at, end: closed || Infinity, depth: stack.length,
                     children: [], parent, status: "open", v: run.get(at, VAR), x: run.get(at, VALUE),
                     size: 1, tentative: kind === ASSIGN && run.get(at, CAUSE) >= 0 };
      parent.children.push(node);
      nodes.push(node);
      stack.push(node);
    } else if (kind === WIPEOUT) {
      Object.assign(stack[stack.length - 1], { status: "failed", statusAt: at });
    } else if (kind === SOLUTION) {
      Object.assign(stack[stack.length - 1], { status: "solution", statusAt: at });
    } else if (kind === BACKTRACK && stack.length > 1) {
      stack.pop();
    } else if (kind === BACKJUMP) {  // looking back: from here straight up to level `depth`
      const from = stack[stack.length - 1];
      from.jumpTo = stack[Math.min(run.get(at, DEPTH), stack.length - 1)];
      from.jumpAt = at;
    }
  }
  markFailures(nodes);
  return { root, nodes };
}

// A node whose every child failed, and that was left, failed too (when it was left); a node
// above a solution is on the way to it (from then on); count subtree sizes.
function markFailures(nodes) {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i];
    if (node.status === "open" && node.end !== Infinity && node.children.length &&
        node.children.every((c) => c.status === "failed")) Object.assign(node, { status: "failed", statusAt: node.end });
    for (const c of node.children) {
      const found = c.status === "solution" ? c.statusAt : c.solutionAt;
      if (found !== undefined) node.solutionAt = Math.min(node.solutionAt === undefined ? Infinity : node.solutionAt, found);
    }
    if (node.parent) node.parent.size += node.size;
  }
}

// What a node is at `position`: what happened to it later is not shown yet.
function statusAt(n, position) {
  if (n.status !== "open" && n.statusAt <= position) return n.status;
  return n.solutionAt !== undefined && n.solutionAt <= position ? "onWay" : "open";
}

function currentNode(tree, position) {
  let node = tree.root;
  for (;;) {
    const next = node.children.find((c) => c.start <= position && position < c.end);
    if (!next) return node;
    node = next;
  }
}

// The events of the open choices at the node, from the root down.
function pathTo(node) {
  const starts = [];
  for (let n = node; n.parent; n = n.parent) starts.unshift(n.start);
  return starts;
}

function visibleNodes(tree, current) {
  if (tree.nodes.length <= TREE_FULL) return { show: () => true, folded: () => false };
  const path = new Set();
  for (let n = current; n; n = n.parent) path.add(n);
  const show = (n) => !n.parent || path.has(n.parent);
  return { show, folded: (n) => !path.has(n) && n.children.length > 0 };
}

// Leaves get consecutive columns; a parent sits over the middle of its children.
function layOut(tree, current) {
  const { show, folded } = visibleNodes(tree, current);
  let column = 0, deepest = 0;
  const placed = [];
  const place = (n) => {
    const kids = folded(n) ? [] : n.children.filter(show);
    if (!kids.length) { n.cx = column++; } else {
      kids.forEach(place);
      n.cx = (kids[0].cx + kids[kids.length - 1].cx) / 2;
    }
    n.kids = kids;
    n.folded = folded(n);
    deepest = Math.max(deepest, n.depth);
    placed.push(n);
  };
  place(tree.root);
  return { placed, columns: Math.max(column, 1), deepest };
}

function nodeWords(run, n) {
  return n.parent ? stepWords(run, n.start) : run.phrases.tree_root;
}

// The node's mark: its shape says its status, its colour repeats it.
function nodeShape(g, n, status, X, Y, r) {
  const x = X(n), y = Y(n);
  if (n.folded) {
    return svg("polygon", { points: `${x},${y - r} ${x - r * 1.4},${y + r * 1.6} ${x + r * 1.4},${y + r * 1.6}`,
      class: "cx-mark", fill: status === "failed" ? NODE_COLOURS.failed : "var(--cx-node)" }, g);
  }
  if (status === "failed") {
    svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: NODE_COLOURS.failed, class: "cx-mark" }, g);
    svg("path", { d: `M${x - r * 0.55},${y - r * 0.55} L${x + r * 0.55},${y + r * 0.55} M${x + r * 0.55},${y - r * 0.55} L${x - r * 0.55},${y + r * 0.55}`,
      stroke: "#fff", "stroke-width": Math.max(1.2, r / 3.5) }, g);
  } else if (n.tentative) {
    svg("polygon", { points: `${x},${y - r * 1.3} ${x + r * 1.3},${y} ${x},${y + r * 1.3} ${x - r * 1.3},${y}`,
      fill: "var(--cx-node)", class: "cx-mark" }, g);
  } else if (status === "solution") {
    svg("circle", { cx: x, cy: y, r: r * 1.15, fill: NODE_COLOURS.solution, class: "cx-mark" }, g);
    svg("path", { d: `M${x - r * 0.55},${y} L${x - r * 0.1},${y + r * 0.45} L${x + r * 0.6},${y - r * 0.45}`,
      stroke: "#fff", fill: "none", "stroke-width": Math.max(1.2, r / 3.5) }, g);
  } else {
    svg("circle", { cx: x, cy: y, r, fill: status === "onWay" ? NODE_COLOURS.onWay : "var(--cx-node)", class: "cx-mark" }, g);
  }
}

class TreeView {
  // `go(position)` moves the replay; `inspect(node or null)` previews a node's state
  constructor(host, run, tree, { go, inspect, compact }) {
    this.host = host;
    this.run = run;
    this.tree = tree;
    this.go = go || (() => {});
    this.inspect = inspect || (() => {});
    this.compact = !!compact;
    this.focusId = null;
    this.elements = new Map();
  }
  draw(position) {
    const hadFocus = this.host.contains(document.activeElement);
    this.host.replaceChildren();
    this.elements.clear();
    const current = currentNode(this.tree, position);
    const { placed, columns, deepest } = layOut(this.tree, current);
    const compact = this.compact;
    const dx = compact ? 9 : 22, dy = compact ? 14 : 34, r = compact ? 3.5 : 7;
    const room = compact ? 0 : 190;  // for the label of the current node
    const width = columns * dx + 2 * dx + room, height = (deepest + 1) * dy + (compact ? 10 : 30);
    const box = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: compact ? "img" : "group",
      "aria-label": compact ? this.run.phrases.tree_small : this.run.phrases.tree }, this.host);
    const X = (n) => dx * 1.5 + n.cx * dx, Y = (n) => (compact ? 8 : 14) + n.depth * dy;
    this.drawEdges(svg("g", { "aria-hidden": "true" }, box), placed, current, position, X, Y);
    const marks = svg("g", {}, box);
    for (const n of placed) this.drawNode(marks, n, n === current, position, X, Y, r);
    if (!compact) {  // keep the current node in view; focus stays on the node it was on
      this.host.scrollLeft = Math.max(0, X(current) - this.host.clientWidth / 2);
      this.host.scrollTop = Math.max(0, Y(current) - this.host.clientHeight / 2);
      const stop = this.elements.get(this.focusId) || this.elements.get(current.id);
      if (stop) stop.setAttribute("tabindex", "0");
      if (hadFocus && stop) stop.focus({ preventScroll: true });
    }
    this.placed = placed;
  }
  drawEdges(edges, placed, current, position, X, Y) {
    const onPath = new Set();
    for (let n = current; n; n = n.parent) onPath.add(n);
    for (const n of placed) {
      for (const k of n.kids) {
        svg("line", { x1: X(n), y1: Y(n), x2: X(k), y2: Y(k), class: onPath.has(k) ? "cx-edge cx-on-path" : "cx-edge" }, edges);
      }
    }
    for (const n of placed) {  // a backjump: a dashed arc up to the level it returns to
      const to = n.jumpTo;
      if (!to || !placed.includes(to)) continue;
      const bend = Math.max(X(n), X(to)) + 33;
      svg("path", { d: `M ${X(n)} ${Y(n)} C ${bend} ${Y(n)}, ${bend} ${Y(to)}, ${X(to)} ${Y(to)}`,
        fill: "none", stroke: "#7b3294", "stroke-width": this.compact ? 1 : 2, "stroke-dasharray": "4 3",
        opacity: n.jumpAt > position ? 0.4 : 1 }, edges);
    }
  }
  describeNode(n, now) {
    const phrases = this.run.phrases;
    const status = now === "failed" ? phrases.node_failed : now === "solution" ? phrases.node_solution
      : n.tentative ? phrases.node_tentative : now === "onWay" ? phrases.node_on_way : phrases.node_open;
    const folded = n.folded ? fill(phrases.node_folded, { n: n.size - 1 }) : "";
    return fill(phrases.node, { name: nodeWords(this.run, n), k: n.start, values: status + folded });
  }
  drawNode(layer, n, isCurrent, position, X, Y, r) {
    const g = svg("g", { class: "cx-node" + (isCurrent ? " cx-current" : "") + (n.start > position ? " cx-later" : "") }, layer);
    g.dataset.node = String(n.id);
    g.dataset.start = String(n.start);
    const now = statusAt(n, position);
    const said = this.describeNode(n, now);
    if (!this.compact) {
      svg("circle", { cx: X(n), cy: Y(n), r: r * 2, class: "cx-ring" }, g);
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "-1");
      g.setAttribute("aria-label", said);
      if (isCurrent) g.setAttribute("aria-current", "step");
      this.wire(g, n);
    } else {
      svg("title", {}, g).textContent = said;
    }
    nodeShape(g, n, now, X, Y, r);
    if (!this.compact && isCurrent && n !== this.tree.root) {
      const label = text(g, (X(n) + r + 4) / UNIT, Y(n) / UNIT, nodeWords(this.run, n), 12 / UNIT, { class: "cx-node-label" });
      label.setAttribute("text-anchor", "start");
    }
    this.elements.set(n.id, g);
  }
  wire(g, n) {
    g.addEventListener("click", (e) => { e.stopPropagation(); this.focusId = n.id; this.go(n.start); });
    g.addEventListener("mouseenter", () => this.inspect(n));
    g.addEventListener("mouseleave", () => this.inspect(null));
    g.addEventListener("focus", () => { this.focusId = n.id; this.inspect(n); });
    g.addEventListener("blur", () => this.inspect(null));
    g.addEventListener("keydown", (e) => this.keydown(e, n));
  }
  keydown(e, n) {
    let next = null;
    if (e.key === "Enter" || e.key === " ") {
      this.focusId = n.id;
      this.go(n.start);
    } else if (e.key === "ArrowUp") {
      next = n.parent;
    } else if (e.key === "ArrowDown") {
      next = n.kids && n.kids.length ? n.kids[0] : null;
    } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const row = this.placed.filter((m) => m.depth === n.depth).sort((a, b) => a.cx - b.cx);
      next = row[row.indexOf(n) + (e.key === "ArrowLeft" ? -1 : 1)] || null;
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    if (next && this.elements.has(next.id)) {
      const from = this.elements.get(n.id), to = this.elements.get(next.id);
      from.setAttribute("tabindex", "-1");
      to.setAttribute("tabindex", "0");
      this.focusId = next.id;
      to.focus();
    }
  }
}
