// What the explorer says about the state: "why?", the summary table and the line under the
// tree. viz/shown.py computes the same lines in Python from the same packed run; the tests
// hold both to the trace and to each other.

const WHY_UNDONE_SHOWN = 8;

// The words of the values left to variable `v`.
function valueWords(run, replay, v) {
  return replay.domain(v).map((x) => run.words[x]);
}

// Who removed a value at event `at`: a cause, or a choice.
function reason(run, at) {
  const kind = run.kind(at), v = run.get(at, VAR), x = run.get(at, VALUE), c = run.get(at, CAUSE);
  if (kind !== ASSIGN) return c >= 0 ? run.causes[c] : "propagation";
  const slots = { var: run.names[v], value: run.words[x] };
  if (c >= 0) return fill(run.phrases.by_tentative, Object.assign({ name: run.causes[c] }, slots));
  return fill(run.phrases.by_choice, slots);
}

// For each value of `v` gone at `position`, the event that removed it: the first event still
// in force that removed it (a choice removes every other value).
function removers(run, replay, position, v, touching) {
  const left = replay.present[v];
  const gone = new Set(run.init[v].filter((x) => !left.has(x)));
  const found = new Map();
  for (const at of touching) {
    if (!gone.size) break;
    if (!run.inForce(at, position)) continue;
    const kind = run.kind(at), x = run.get(at, VALUE);
    if (kind === PRUNE && gone.has(x)) {
      found.set(x, at);
      gone.delete(x);
    } else if (kind === ASSIGN) {
      for (const other of Array.from(gone)) if (other !== x) { found.set(other, at); gone.delete(other); }
    }
  }
  return found;
}

// The current choice of `v` and the removals in force: lines of {text, at}.
function inForceLines(run, replay, position, v, touching) {
  const phrases = run.phrases, found = removers(run, replay, position, v, touching);
  const lines = [];
  let chosen = 0;
  for (const at of touching) if (run.kind(at) === ASSIGN && run.inForce(at, position)) chosen = at;
  if (chosen) {
    const c = run.get(chosen, CAUSE), value = run.words[run.get(chosen, VALUE)];
    const removed = Array.from(found.values()).includes(chosen);
    const said = c >= 0 ? fill(phrases.tried, { k: chosen, name: run.causes[c], value })
      : fill(removed ? phrases.chosen : phrases.chosen_last, { k: chosen, value });
    lines.push({ text: said, at: chosen });
  }
  const removals = Array.from(found.entries()).map(([x, at]) => [at, x]);
  removals.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (!removals.length) lines.push({ text: phrases.nothing_removed, at: null });
  const atOnce = new Set(run.at_once || []);  // a playground's: what a person must suppose
  for (const [at, x] of removals) {
    const said = fill(phrases.removed, { value: run.words[x], k: at, name: reason(run, at) });
    lines.push({ text: said + (atOnce.has(at) ? phrases.at_once : ""), at });
  }
  return lines;
}

function undoneLine(run, at) {
  const phrases = run.phrases, kind = run.kind(at), c = run.get(at, CAUSE);
  const slots = { k: at, n: run.get(at, CLOSED), value: run.words[run.get(at, VALUE)] };
  if (kind === PRUNE) return fill(phrases.undone_removal, Object.assign({ name: reason(run, at) }, slots));
  if (c >= 0) return fill(phrases.undone_try, Object.assign({ name: run.causes[c] }, slots));
  return fill(phrases.undone_choice, slots);
}

// A local search's history of a variable: the value it holds, the ones before.
function givenLines(run, touching) {
  const given = touching.filter((at) => run.kind(at) === REPAIR);
  if (!given.length) return [];
  const said = (at) => {
    const c = run.get(at, CAUSE);
    return { text: fill(run.phrases.given, { k: at, value: run.words[run.get(at, VALUE)],
      name: c >= 0 ? run.causes[c] : "a repair" }), at };
  };
  const lines = [said(given[given.length - 1])];
  if (given.length > 1) {
    lines.push({ text: fill(run.phrases.earlier_title, { n: given.length - 1 }), at: null, title: true });
    for (const at of given.slice(0, -1).slice(-WHY_UNDONE_SHOWN)) lines.push(said(at));
  }
  return lines;
}

// "why?" for variable `v` at `position`: the first line is its state, then {text, at} lines.
function whyLines(run, replay, position, v) {
  const all = run.touches(v);
  const touching = all.slice(0, upperBound(all, position));
  const lines = [{ text: stateWords(run.phrases, run.names[v], valueWords(run, replay, v)), at: null, head: true }];
  if (run.mode === "local") return lines.concat(givenLines(run, touching));
  lines.push(...inForceLines(run, replay, position, v, touching));
  const undone = touching.filter((at) => (run.kind(at) === ASSIGN || run.kind(at) === PRUNE) &&
    run.get(at, CLOSED) > 0 && run.get(at, CLOSED) <= position);
  if (undone.length) {
    const title = Object.keys(run.undos).length ? run.phrases.undone_title_any : run.phrases.undone_title;
    lines.push({ text: fill(title, { n: undone.length }), at: null, title: true });
    for (const at of undone.slice(-WHY_UNDONE_SHOWN)) lines.push({ text: undoneLine(run, at), at });
  }
  return lines;
}

// The summary table: each row of events counted up to `position`, then the state.
function summaryRows(run, replay, position) {
  const counts = run.counts();
  const rows = run.rows.map((label, r) => [label, String(counts[r][position])]);
  let fixed = 0, left = 0;
  for (const s of replay.present) { fixed += s.size === 1 ? 1 : 0; left += s.size; }
  rows.push([run.state_rows.fixed, `${fixed} of ${replay.present.length}`], [run.state_rows.left, String(left)]);
  if (run.mode === "local") {
    for (let at = position; at > 0; at--) {
      if (run.kind(at) === REPAIR) { rows.push([run.state_rows.conflicts, String(run.get(at, DEPTH))]); break; }
    }
  }
  return rows;
}

// A choice (a node of the tree) in words: "SA = blue", "x in {1, 2}", "probe: ...".
function stepWords(run, at) {
  const v = run.get(at, VAR), x = run.get(at, VALUE), c = run.get(at, CAUSE);
  const slots = { var: run.names[v], value: run.words[x] };
  if (run.kind(at) === SPLIT) return fill(run.phrases.step_split, slots);
  if (c >= 0) return fill(run.phrases.step_tentative, Object.assign({ name: run.causes[c] }, slots));
  return fill(run.phrases.step_choice, slots);
}

// The line under the search tree; `steps` are the events of the open choices, in order.
function pathLine(run, replay, position, steps) {
  const phrases = run.phrases;
  if (run.mode === "local") return phrases.local;
  if (run.mode === "propagation") {
    for (let at = 1; at <= position; at++) {
      if (run.kind(at) === WIPEOUT) return fill(phrases.no_choices_wipeout, { k: at });
    }
    const empty = replay.present.findIndex((s) => s.size === 0);
    if (empty >= 0) return fill(phrases.no_choices_empty, { name: run.names[empty] });
    const open = replay.present.filter((s) => s.size > 1).length;
    return open ? fill(phrases.no_choices_open, { n: open }) : phrases.no_choices_decided;
  }
  if (!steps.length) return phrases.path_none_yet;
  return fill(phrases.path, { values: steps.map((at) => stepWords(run, at)).join(" › ") });
}

// AC-3's queue as the last revision up to `position` found it ("" when none).
const QUEUE_SHOWN = 12;
function queueLine(run, position) {
  let last = 0;
  for (let at = position; at > 0; at--) if (run.kind(at) === REVISE) { last = at; break; }
  if (!last) return "";
  const phrases = run.phrases;
  const slots = { k: last, name: run.names[run.get(last, VAR)], other: run.causes[run.get(last, CAUSE)] };
  const waiting = run.queues[String(last)] || [];
  const arcs = [];
  for (let i = 0; i < waiting.length; i += 2) arcs.push(fill(phrases.arc, { name: run.names[waiting[i + 1]], other: run.causes[waiting[i]] }));
  if (!arcs.length) return fill(phrases.queue_empty, slots);
  let said = arcs.slice(0, QUEUE_SHOWN).join(", ");
  if (arcs.length > QUEUE_SHOWN) said += fill(phrases.queue_more, { n: arcs.length - QUEUE_SHOWN });
  return fill(phrases.queue, Object.assign({ values: said }, slots));
}
