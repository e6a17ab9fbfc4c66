// What every part of the front end shares: SVG and HTML helpers, filling the words Python
// sends, and a packed run read as numbers.
//
// The page never words an event itself: Python (viz/words.py) sends templates such as
// "queens 0 and 1 removes {value} from {var}" and phrases such as "{name}: no value left";
// `fill` puts the names in. KIND_NAMES, the kind numbers (ASSIGN, PRUNE, ...) and the fields
// of a packed event (KIND, VAR, ...) are written above this file by viz/frontend.py, from
// the core's own lists.

const NS = "http://www.w3.org/2000/svg";
const UNIT = 40;  // SVG units per picture unit (a grid cell)

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

// A control button: its text, and a title that names it (for the tooltip and for
// assistive technology), as every widget's controls have.
function controlButton(parent, label, title, act) {
  const b = html("button", { title, "aria-label": title, type: "button" }, parent, label);
  b.addEventListener("click", () => { act(); });
  return b;
}

function text(parent, x, y, content, size, attrs) {
  const node = svg("text", Object.assign({ x: x * UNIT, y: y * UNIT, "font-size": size * UNIT,
    "text-anchor": "middle", "dominant-baseline": "central" }, attrs || {}), parent);
  node.textContent = content;
  return node;
}

// Python's words.fill: the slots filled, and "1 values" said "1 value" (the nouns COUNTED).
const ONE_OF = new RegExp(`(?<![\\d.,])\\b(1 (?:${COUNTED.join("|")}))s\\b`, "g");
function fill(template, slots) {
  const text = template.replace(/\{(\w+)\}/g, (whole, key) => (key in slots ? String(slots[key]) : whole));
  return text.replace(ONE_OF, "$1");
}

// "SA: 2 values left: green, blue", as words.state_words says it.
function stateWords(phrases, name, values) {
  if (!values.length) return fill(phrases.no_value, { name });
  if (values.length === 1) return fill(phrases.one_value, { name, values: values[0] });
  return fill(phrases.values_left, { name, n: values.length, values: values.join(", ") });
}

// A packed run (viz/packing.py): the events as one Int32Array, STRIDE numbers each.
class RunData {
  constructor(raw) {
    Object.assign(this, raw);
    // the events come as JSON text (a list is walked through by the widget machinery)
    this.ev = Int32Array.from(typeof raw.events === "string" ? JSON.parse(raw.events) : raw.events);
    this.total = this.ev.length / STRIDE;
    this._touches = null;
    this._counts = null;
  }
  get(at, field) {  // a field of event `at`, counting from 1
    return this.ev[(at - 1) * STRIDE + field];
  }
  kind(at) { return this.ev[(at - 1) * STRIDE + KIND]; }
  // for each variable, the numbers of the events about it, in order
  touches(v) {
    if (!this._touches) {
      const lists = this.init.map(() => []);
      for (let at = 1; at <= this.total; at++) {
        const w = this.get(at, VAR);
        if (w >= 0) lists[w].push(at);
      }
      this._touches = lists;
    }
    return this._touches[v];
  }
  // how many events of each summary row happened in the first p events: counts[row][p]
  counts() {
    if (!this._counts) {
      const counts = this.rows.map(() => new Int32Array(this.total + 1));
      for (let at = 1; at <= this.total; at++) {
        const row = this.get(at, ROW);
        for (let r = 0; r < counts.length; r++) counts[r][at] = counts[r][at - 1] + (row === r ? 1 : 0);
      }
      this._counts = counts;
    }
    return this._counts;
  }
  // how many wipe-outs and solutions happened in the first p events (they change the tree)
  outcomes() {
    if (!this._outcomes) {
      const seen = new Int32Array(this.total + 1);
      for (let at = 1; at <= this.total; at++) {
        const kind = this.kind(at);
        seen[at] = seen[at - 1] + (kind === WIPEOUT || kind === SOLUTION || kind === BACKTRACK ? 1 : 0);
      }
      this._outcomes = seen;
    }
    return this._outcomes;
  }
  // the line under the picture: where the replay stands and the event, in Python's words
  sentence(position) {
    if (position === 0) return this.start;
    const v = this.get(position, VAR), x = this.get(position, VALUE);
    const heading = fill(this.heading, { k: position, depth: this.get(position, DEPTH) });
    return heading + fill(this.templates[this.get(position, SAID)],
      { var: v >= 0 ? this.names[v] : "", value: x >= 0 ? this.words[x] : "" });
  }
  inForce(at, position) {  // what event `at` did still holds at `position`
    const closed = this.get(at, CLOSED);
    return at <= position && (closed === 0 || closed > position);
  }
}

// The first index of a sorted array whose item is above `limit`.
function upperBound(items, limit) {
  let lo = 0, hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid] <= limit) lo = mid + 1; else hi = mid;
  }
  return lo;
}
