// Predict, then check: at any point of a replay, the explorer asks what comes next (which
// variable the search chooses, which values propagation removes now), the student answers
// by clicking, and the page says right or wrong with the reason, from the trace.
// viz/shown.py (question, check_variable, check_removals) says the same in Python.

function question(run, position) {
  const k = position + 1;
  if (k > run.total) return { ask: "nothing", k, text: "" };
  const kind = run.kind(k), cause = run.get(k, CAUSE);
  if ((kind === ASSIGN || kind === SPLIT) && cause < 0) {
    return { ask: "variable", k, answer: run.get(k, VAR), text: run.phrases.ask_variable };
  }
  if (kind === PRUNE) {
    let n = k;
    while (n < run.total && run.kind(n + 1) === PRUNE) n++;
    const answer = [];
    for (let at = k; at <= n; at++) answer.push([run.get(at, VAR), run.get(at, VALUE), at]);
    return { ask: "removals", k, n, answer, text: fill(run.phrases.ask_removals, { k, n }) };
  }
  const heading = fill(run.heading, { k, depth: run.get(k, DEPTH) });
  return { ask: "nothing", k, text: fill(run.phrases.ask_nothing, { k, name: run.sentence(k).slice(heading.length) }) };
}

function checkVariable(run, replay, position, picked) {
  const phrases = run.phrases, names = run.names, asked = question(run, position);
  const chosen = asked.answer, k = asked.k, size = (v) => replay.present[v].size;
  const assigned = new Set();
  for (let at = 1; at <= position; at++) if (run.kind(at) === ASSIGN && run.inForce(at, position)) assigned.add(run.get(at, VAR));
  let fewest = -1;
  for (let v = 0; v < run.init.length; v++) if (!assigned.has(v) && (fewest < 0 || size(v) < size(fewest))) fewest = v;
  const n = size(chosen);
  const said = picked === chosen ? fill(phrases.right_variable, { name: names[chosen], k, n })
    : fill(phrases.wrong_variable, { name: names[chosen], k, n, other: names[picked], m: size(picked) });
  if (size(fewest) >= n) return said + phrases.fewest;
  return said + fill(phrases.not_fewest, { other: names[fewest], m: size(fewest) });
}

function checkRemovals(run, position, picked) {  // picked: a Set of "v,x"
  const phrases = run.phrases, asked = question(run, position);
  const expected = new Map(asked.answer.map(([v, x, at]) => [`${v},${x}`, at]));
  const right = Array.from(picked).filter((pair) => expected.has(pair)).length;
  if (right === expected.size && picked.size === expected.size) return fill(phrases.right_removals, { n: expected.size });
  const lines = [fill(phrases.some_removals, { right, total: expected.size })];
  for (const [v, x, at] of asked.answer) {
    if (!picked.has(`${v},${x}`)) lines.push(fill(phrases.missed, { value: run.words[x], name: run.names[v], other: reason(run, at) }));
  }
  const extra = Array.from(picked).filter((pair) => !expected.has(pair)).map((pair) => pair.split(",").map(Number));
  extra.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [v, x] of extra) lines.push(fill(phrases.not_removed, { value: run.words[x], name: run.names[v] }));
  return lines.join(" ");
}

// The panel: a button that asks, the question, the values to pick, check, the answer.
class Predictor {
  constructor(explorer, parent) {
    this.explorer = explorer;
    this.panel = html("div", { class: "cx-predict", role: "group", "aria-label": "predict" }, parent);
    const phrases = explorer.runs[0].phrases;
    this.askButton = html("button", { type: "button", title: phrases.predict }, this.panel, phrases.predict);
    this.askButton.addEventListener("click", () => this.ask());
    this.body = html("div", { class: "cx-predict-body" }, this.panel);
    this.asked = null;
  }
  get active() { return this.asked !== null && this.asked.ask !== "nothing" && !this.answered; }
  reset() {
    this.asked = null;
    this.answered = false;
    this.body.replaceChildren();
  }
  ask() {
    const ex = this.explorer;
    this.reset();
    this.asked = question(ex.run, ex.position);
    this.at = ex.position;
    this.picked = new Set();
    html("div", { class: "cx-question" }, this.body, this.asked.text);
    this.values = html("div", { class: "cx-values" }, this.body);
    if (this.asked.ask === "removals") {
      const check = html("button", { type: "button", class: "cx-check" }, this.body, ex.run.phrases.check);
      check.addEventListener("click", () => this.answer(checkRemovals(ex.run, this.at, this.picked)));
    }
    this.feedback = html("div", { class: "cx-feedback" }, this.body);
    ex.announce(this.asked.text);
  }
  // a click on variable v while a question is open answers it (or opens its values)
  pick(v) {
    const ex = this.explorer;
    if (this.asked.ask === "variable") {
      this.answer(checkVariable(ex.run, ex.replay, this.at, v));
      return;
    }
    this.values.replaceChildren();
    html("span", { class: "cx-caption" }, this.values, `${ex.run.names[v]}: `);
    for (const x of ex.replay.domain(v)) {
      const pair = `${v},${x}`;
      const b = html("button", { type: "button", "aria-pressed": String(this.picked.has(pair)) }, this.values, ex.run.words[x]);
      b.dataset.value = ex.run.values[x];
      b.addEventListener("click", () => {
        if (this.picked.has(pair)) this.picked.delete(pair); else this.picked.add(pair);
        b.setAttribute("aria-pressed", String(this.picked.has(pair)));
      });
    }
  }
  answer(said) {
    const ex = this.explorer, until = this.asked.n || this.asked.k;
    this.answered = true;
    this.feedback.textContent = said;
    ex.announce(said);
    const show = html("button", { type: "button", class: "cx-show" }, this.body, ex.run.phrases.show_me);
    show.addEventListener("click", () => { ex.stop(); ex.go(until); });
  }
}
