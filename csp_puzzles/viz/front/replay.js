// Replaying a run: the domains after any event, as `Trace.domains_at` rebuilds them.
//
// The solver's trail mechanism: an assignment (or a split) opens a level, a backtrack closes
// it and puts back every value removed inside it. A repair (local search) sets a value and
// is never undone. Moving back restarts from the nearest saved state.

const CHECKPOINT = 1000;  // events between saved replay states

class Replay {
  constructor(run) {
    this.run = run;
    this.fresh();
    this.checkpoints = new Map();
  }
  fresh() {
    this.present = this.run.init.map((d) => new Set(d));
    this.trail = [];
    this.marks = [];
    this.position = 0;
  }
  save() {
    return { present: this.present.map((s) => new Set(s)), trail: this.trail.slice(),
             marks: this.marks.slice(), position: this.position };
  }
  load(state) {
    this.present = state.present.map((s) => new Set(s));
    this.trail = state.trail.slice();
    this.marks = state.marks.slice();
    this.position = state.position;
  }
  remove(v, x) {
    if (this.present[v].delete(x)) this.trail.push(v, x);
  }
  apply(at) {  // apply event number `at` (from 1)
    const run = this.run;
    const kind = run.kind(at), v = run.get(at, VAR), x = run.get(at, VALUE);
    if (kind === ASSIGN) {
      this.marks.push(this.trail.length);
      for (const other of Array.from(this.present[v])) if (other !== x) this.remove(v, other);
    } else if (kind === SPLIT) {  // a level whose removals follow as prune events
      this.marks.push(this.trail.length);
    } else if (kind === PRUNE) {
      this.remove(v, x);
    } else if (kind === REPAIR) {
      this.present[v] = new Set([x]);
    } else if (kind === BACKTRACK) {
      const mark = this.marks.length ? this.marks.pop() : 0;
      while (this.trail.length > mark) {
        const y = this.trail.pop(), w = this.trail.pop();
        this.present[w].add(y);
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
  domain(v) {  // the numbers of the values left, in the initial order
    const left = this.present[v];
    return this.run.init[v].filter((x) => left.has(x));
  }
}
