"""The code stepper's recording, held to an independent `sys.settrace` recorder, and the
textbook search's stepped run held to the engine's trace of the same run."""

from __future__ import annotations

import ast
import inspect
import linecache
import re
import sys
from typing import Any

import pytest

from csp_puzzles import CSP, Predicate, solve
from csp_puzzles.core import learning, structure, textbook
from csp_puzzles.core.learning import LearningSearch
from csp_puzzles.core.local import min_conflicts
from csp_puzzles.core.trace import show
from csp_puzzles.examples import map_colouring, queens
from csp_puzzles.viz import recorder

pytest.importorskip("anywidget")
from csp_puzzles.viz import CodeStepper, map_view, queens_view  # noqa: E402

DEFAULT = list(recorder.DEFAULT_WATCH)


class Oracle:
    """Records what the interpreter runs, by the rules recorder.py's docstring states: the
    frames of the function's module called from a recorded frame (or the first call of the
    function), comprehensions and lambdas left out; a line event unless it repeats the step
    just before; a return event; the watched names present, as reprs, at each."""

    def __init__(self, function: Any, watch: list[str]):
        self.code, self.module = function.__code__, function.__globals__
        self.watch = watch
        self.stack: list[Any] = []  # the recorded frames running, outermost first
        self.raising: dict[int, BaseException] = {}
        self.steps: list[tuple] = []
        self.last: tuple | None = None
        self.started = self.over = False

    def run(self, call: Any) -> Any:
        sys.settrace(self.on_call)
        try:
            return call()
        finally:
            sys.settrace(None)

    def on_call(self, frame, event, arg):
        if self.over or frame.f_globals is not self.module or frame.f_code.co_name[0] == "<":
            return None
        if not (self.stack and frame.f_back is self.stack[-1]):
            if self.started or frame.f_code is not self.code:
                return None
            self.started = True
        self.stack.append(frame)
        return self.on_line

    def on_line(self, frame, event, arg):
        if self.over or not self.stack or frame is not self.stack[-1]:
            return None
        if event == "exception":
            self.raising[id(frame)] = arg[1]
        elif event == "line":
            self.raising.pop(id(frame), None)
            if self.last != (id(frame), frame.f_lineno):
                self.note(frame, "line", None)
            self.last = (id(frame), frame.f_lineno)
        elif event == "return":
            error = self.raising.pop(id(frame), None)
            if error is None:
                self.note(frame, "return", repr(arg))
            else:
                self.note(frame, "raise", f"raises {error!r}")
            self.last = None
            self.stack.pop()
            self.over = not self.stack
        return self.on_line

    def note(self, frame, kind: str, value: str | None) -> None:
        values = {}
        for name in self.watch:
            parts = name.split(".")
            if parts[0] not in frame.f_locals:
                continue
            found = frame.f_locals[parts[0]]
            for part in parts[1:]:
                found = getattr(found, part, recorder._MISSING)
            if found is not recorder._MISSING:
                values[name] = cut(repr(found))
        self.steps.append((kind, frame.f_lineno, frame.f_code.co_name, len(self.stack),
                           values, None if value is None else cut(value)))


def cut(text: str) -> str:
    """A repr as the recording keeps it: at most MAX_REPR characters, the last one "…"."""
    most = recorder.MAX_REPR
    return text if len(text) <= most else text[:most - 1] + "…"


def same_run(steps: list[tuple]) -> list[tuple]:
    """Steps with the addresses and the times in reprs left out ("<function ... at 0x7f...>",
    "seconds=0.002"): a second run of the same code makes the same objects at other
    addresses, in another time."""
    def plain(text):
        if text is None:
            return None
        text = re.sub(r" at 0x[0-9a-f]+", " at 0x…", text)
        return re.sub(r"(seconds=|start = |deadline = )[0-9.e+-]+", r"\1…", text)
    return [(kind, line, name, depth, {k: plain(v) for k, v in values.items()}, plain(value))
            for kind, line, name, depth, values, value in steps]


def recorded(stepper: CodeStepper) -> list[tuple]:
    return same_run([(s.kind, s.line, s.function.split(".")[-1], s.depth, s.locals, s.value)
                     for s in stepper.steps])


def tree_csp() -> CSP:
    """Australia without South Australia: a tree (and Tasmania alone)."""
    csp = CSP("a tree")
    for region in ("WA", "NT", "Q", "NSW", "V", "T"):
        csp.add_variable(region, ["red", "green", "blue"])
    for a, b in (("WA", "NT"), ("NT", "Q"), ("Q", "NSW"), ("NSW", "V")):
        csp.add_constraint(Predicate(lambda x, y: x != y, (a, b), name=f"{a} != {b}"))
    return csp


def textbook_ac3_arguments():
    network = textbook.Network(map_colouring())
    network.domains["WA"] = ["red"]
    queue = [arc for arcs in network.arcs.values() for arc in arcs]
    return (network, network.domains, queue)


CASES = {
    "figure 6.5, forward checking": (textbook.backtracking_search,
                                     (map_colouring(), "input", "input", "fc"), {},
                                     ["trial"]),
    "figure 6.5, MAC and MRV": (textbook.backtracking_search,
                                (queens(5), "mrv", "lcv", "mac"), {}, []),
    "AC-3": (textbook.ac3, textbook_ac3_arguments(), {}, []),
    "min-conflicts": (min_conflicts, (queens(8),), {"seed": 2}, ["self.total"]),
    "the tree solver": (structure.tree_solve, (tree_csp(),), {}, ["self.cutset"]),
    "the cycle cutset": (structure.cutset_solve, (map_colouring(),), {}, []),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_step_is_the_line_the_interpreter_ran(case):
    function, args, kwargs, watch = CASES[case]
    stepper = CodeStepper(function, *args, watch=watch, **kwargs)
    oracle = Oracle(function, DEFAULT + watch)
    # the same call again, from the same arguments (the functions copy what they change)
    fresh = CASES[case] if case != "AC-3" else (None, textbook_ac3_arguments())
    answer = oracle.run(lambda: function(*fresh[1], **kwargs))
    assert len(stepper.steps) > 20 and not stepper.truncated
    assert recorded(stepper) == same_run(oracle.steps)
    assert same_run([("", 0, "", 0, {}, repr(stepper.result))]) == \
        same_run([("", 0, "", 0, {}, repr(answer))])


def student_functions() -> dict[str, Any]:
    """Two functions typed in two notebook cells: IPython compiles each cell under a name of
    its own and puts its lines in linecache, which is where their source comes from."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    cells = ["def conflicts(csp, assignment, var, value):\n"
             "    trial = dict(assignment)\n"
             "    trial[var] = value\n"
             "    return sum(1 for c in csp.constraints_of[var] if not c.is_satisfied(trial))\n",
             "def worst(csp, assignment):\n"
             "    counts = {}\n"
             "    for var in csp.variables:\n"
             "        counts[var] = conflicts(csp, assignment, var, assignment[var])\n"
             "    return max(counts, key=counts.get)\n"]
    for number, source in enumerate(cells):
        name = f"<ipython-input-{number}-0123456789ab>"
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        exec(compile(source, name, "exec"), namespace)
    return namespace


def test_a_students_functions_from_notebook_cells():
    cells = student_functions()
    colours = {"WA": "red", "NT": "red", "SA": "red", "Q": "green", "NSW": "red",
               "V": "green", "T": "red"}
    stepper = CodeStepper(cells["worst"], map_colouring(), colours, view=map_view())
    oracle = Oracle(cells["worst"], DEFAULT)
    assert oracle.run(lambda: cells["worst"](map_colouring(), colours)) == stepper.result == "SA"
    assert recorded(stepper) == same_run(oracle.steps)
    assert {s.function for s in stepper.steps} == {"worst", "conflicts"}
    # the source is the cells', each labelled as a cell of the notebook
    files = stepper.data["files"]
    assert [f["label"] for f in files] == ["a cell of this notebook"] * 2
    assert files[1]["blocks"][0][1][0] == "def conflicts(csp, assignment, var, value):"
    # the picture follows `trial`, an assignment, inside conflicts: one colour each
    inside = next(i for i, s in enumerate(stepper.steps)
                  if s.function == "conflicts" and s.line == 4)
    stepper.go(inside)
    assert stepper.domains == {var: (colour,) for var, colour in colours.items()}


def test_a_function_stepped_where_a_search_calls_it():
    search = LearningSearch(queens(6), inference="fc", var_order="input")
    search.graphs = []
    stepper = CodeStepper.inside(lambda: next(search.solutions()), learning.first_uip,
                                 problem=queens(6), view=queens_view(6), watch=["here"])
    again = LearningSearch(queens(6), inference="fc", var_order="input")
    again.graphs = []
    oracle = Oracle(learning.first_uip, DEFAULT + ["here"])
    oracle.run(lambda: next(again.solutions()))
    assert recorded(stepper) == same_run(oracle.steps)
    assert stepper.steps[0].function == "first_uip" and stepper.steps[-1].kind == "return"
    # the call stepped is the search's first analysis: its UIP is the first nogood's
    uip, _ = stepper.result
    assert uip.literal == search.graphs[0].nogood.literals[0]
    # the picture shows the search's domains at the conflict: a column with no row left
    assert stepper.domains is not None and min(map(len, stepper.domains.values())) == 0


# -- the textbook search, stepped, against the engine's trace of the same run -------------------
def line_of(function: Any, text: str) -> int:
    """The number of the line of `function`'s source that reads `text`."""
    lines, first = inspect.getsourcelines(function)
    return first + next(i for i, line in enumerate(lines) if line.strip() == text)


def stepped_events(stepper: CodeStepper) -> list[tuple[str, Any, Any]]:
    """The assignments and removals of a stepped run of the textbook search: a value tried
    where the line `stats.nodes += 1` runs, and the values gone from `domains` while a
    line of forward_checking or revise runs (read from the watched reprs)."""
    counting = line_of(textbook.backtracking_search, "stats.nodes += 1")
    events = []
    steps = stepper.steps
    for now, after in zip(steps, steps[1:]):
        if now.function == "backtrack" and now.line == counting:
            events.append(("assign", ast.literal_eval(now.locals["var"]),
                           ast.literal_eval(now.locals["value"])))
        if now.function in ("forward_checking", "revise") and after.frame == now.frame:
            before = ast.literal_eval(now.locals["domains"])
            left = ast.literal_eval(after.locals["domains"])
            events += [("prune", var, x) for var in before for x in before[var]
                       if x not in left[var]]
        if now.function == "mac" and now.kind == "return" and now.value == "None":
            events.append(("wipeout", None, None))
    return events


def engine_events(csp: CSP, inference: str, var_order: str) -> list[tuple[str, Any, Any]]:
    trace = solve(csp, inference=inference, var_order=var_order, trace=True).trace
    return [(e.kind, e.var if e.kind != "wipeout" else None, e.value) for e in trace
            if e.kind in ("assign", "prune") or (e.kind == "wipeout" and inference == "mac")]


@pytest.mark.parametrize(("problem", "inference", "var_order"),
                         [("australia", "fc", "input"), ("6-queens", "fc", "input"),
                          ("6-queens", "fc", "mrv"), ("australia", "mac", "input"),
                          ("6-queens", "mac", "input")])
def test_the_textbook_search_stepped_matches_the_engines_trace(problem, inference, var_order):
    make = {"australia": map_colouring, "6-queens": lambda: queens(6)}[problem]
    stepper = CodeStepper(textbook.backtracking_search, make(), var_order, "input", inference)
    stepped = stepped_events(stepper)
    engine = engine_events(make(), inference, var_order)
    assert sum(1 for e in stepped if e[0] == "prune") > 5
    if inference == "fc":  # one for one, in order
        assert stepped == engine
    else:  # AC-3's queue is a stack in the book, a queue in the engine: the same nodes, and
        # at each the same values go, in another order (where AC-3 wipes a domain out, what
        # went before depends on the order)
        assert by_node(stepped) == by_node(engine)


def by_node(events: list[tuple[str, Any, Any]]) -> list[tuple[tuple, bool, frozenset]]:
    """Each assignment (the root's first), whether it failed, and the set of removals that
    follow it (left out where it failed)."""
    nodes: list[list] = [[(), False, set()]]
    for event in events:
        if event[0] == "assign":
            nodes.append([event, False, set()])
        elif event[0] == "wipeout":
            nodes[-1][1] = True
        else:
            nodes[-1][2].add(event)
    return [(node, failed, frozenset() if failed else frozenset(removed))
            for node, failed, removed in nodes]


# -- caps, failures, the page's data -------------------------------------------------------------
def test_the_cap_stops_recording_and_the_function_runs_on():
    stepper = CodeStepper(textbook.backtracking_search, queens(6), "input", "input", "fc",
                          max_lines=60)
    assert stepper.truncated and len(stepper.steps) == 60
    assert stepper.result == textbook.backtracking_search(queens(6), "input", "input", "fc")
    assert stepper.data["note"] == ("60 steps recorded; the recording stopped at 60 steps (the "
                                    "cap, max_lines); the function ran on to its end")


def test_an_exception_is_kept_and_its_steps_show_where():
    namespace: dict[str, Any] = {}
    source = ("def broken(domains, x):\n"
              "    values = domains[x]\n"
              "    return values[5]\n")
    linecache.cache["<ipython-input-9-abcdef012345>"] = (len(source), None,
                                                          source.splitlines(True),
                                                          "<ipython-input-9-abcdef012345>")
    exec(compile(source, "<ipython-input-9-abcdef012345>", "exec"), namespace)
    stepper = CodeStepper(namespace["broken"], {"x": [1, 2]}, "x")
    assert isinstance(stepper.exception, IndexError) and stepper.result is None
    last = stepper.steps[-1]
    assert (last.kind, last.line) == ("raise", 3)
    assert last.value == "raises IndexError('list index out of range')"
    assert stepper.data["note"] == ("3 steps recorded; the function raised "
                                    "IndexError('list index out of range')")


def every_line_is_in_the_listing(stepper: CodeStepper) -> None:
    """Each step's line is in a block of its file's listing, and reads as the file does."""
    codes, files = stepper.data["codes"], stepper.data["files"]
    for step in stepper.steps:
        file = next(i for i, c in enumerate(stepper.recording.codes)
                    if c.name == step.function and c.file == step.file)
        listing = files[codes[file][1]]
        block = next(lines for first, lines in listing["blocks"]
                     if first <= step.line < first + len(lines))
        first = next(f for f, lines in listing["blocks"] if lines is block)
        assert block[step.line - first] == linecache.getline(step.file, step.line).rstrip()


def test_without_a_source_the_lines_are_numbered_and_the_page_says_why():
    namespace: dict[str, Any] = {}
    exec(compile("def double(x):\n    y = 2 * x\n    return y\n", "cell 7", "exec"), namespace)
    stepper = CodeStepper(namespace["double"], 21)
    assert stepper.result == 42 and [s.line for s in stepper.steps] == [2, 3, 3]
    assert stepper.data["files"][0]["blocks"] == [[1, ["(no source)"] * 3]]
    assert stepper.data["note"] == ("3 steps recorded; the source of double is not available "
                                    "(cell 7: code typed at a prompt or run from a string); its "
                                    "lines are numbered, not shown")


def test_a_generator_function_is_refused_with_the_reason():
    def counting(n):
        yield from range(n)

    with pytest.raises(ValueError, match="a generator function runs only when iterated"):
        CodeStepper(counting, 3)


def test_the_listing_holds_every_line_that_ran():
    for function, args, kwargs, watch in CASES.values():
        every_line_is_in_the_listing(CodeStepper(function, *args, watch=watch, **kwargs))


def test_sentences_say_the_steps():
    stepper = CodeStepper(textbook.backtracking_search, map_colouring(), "input", "input", "fc")
    total = len(stepper.steps)
    for i in (0, 17, 30, 100, total - 1):
        stepper.go(i)
        step = stepper.step
        # the page names a method with its class, a nested function by its own name
        name = stepper.recording.codes[stepper.recording.get(i, recorder.CODE)].label
        assert name.split(".")[-1] == step.function and "<" not in name
        if step.kind == "line":
            said = f"line {step.line} of {name}, depth {step.depth}"
        elif step.kind == "return":
            said = f"{name} returns {step.value}, depth {step.depth}"
        else:
            said = f"{name} {step.value}, depth {step.depth}"  # "raises ..."
        assert stepper.sentence() == f"step {i + 1} of {total}: {said}"


def ac3_stepper() -> CodeStepper:
    return CodeStepper(textbook.ac3, *textbook_ac3_arguments(), view=map_view())


def test_jumps_land_where_they_say():
    stepper = ac3_stepper()
    steps = stepper.steps
    assert stepper.jump("call") and stepper.step.function == "revise"
    assert steps[stepper.position - 1].function == "ac3"  # the line that called it
    here = stepper.position
    assert stepper.jump("return") and stepper.step.kind == "return"
    assert all(s.kind == "line" for s in steps[here:stepper.position])
    stepper.go(0)
    assert stepper.jump("shrink")
    i = stepper.position
    before, after = stepper.shown.state(i - 1), stepper.shown.state(i)
    assert any(set(b) - set(a) for b, a in zip(before, after))
    assert all(stepper.shown.removed(j - 1, j) == [] for j in range(1, i))
    # over: the next line of ac3 itself, past the whole call of revise
    call = next(j for j, s in enumerate(steps) if s.function == "ac3" and
                "revise(" in linecache.getline(s.file, s.line))
    stepper.go(call)
    assert stepper.jump("over")
    assert stepper.step.function == "ac3" and stepper.step.depth == steps[call].depth
    assert all(s.depth > steps[call].depth for s in steps[call + 1:stepper.position])
    # a breakpoint: the next step at that line
    line = steps[call].line
    stepper.go(0)
    assert stepper.toggle_breakpoint(line)
    assert stepper.jump("breakpoint") and stepper.position == call
    assert stepper.jump("breakpoint") and stepper.step.line == line and stepper.position > call
    stepper.go(len(steps) - 1)
    assert not stepper.jump("return") and stepper.note == "no more returns ahead"
    assert stepper.jump("call", function="revise") is False  # none after the end


def test_predict_then_check_at_a_line():
    stepper = ac3_stepper()
    steps = stepper.steps
    # the first call of revise that removes a value: red from NT (WA is red)
    i = next(j for j in stepper.data["shrinks"])
    call = max(j for j in range(i) if steps[j].function == "ac3")
    stepper.go(call)
    assert stepper.question() == ("Which values will go when line "
                                  f"{steps[call].line} runs? Click a variable in the picture, "
                                  "pick its values, then press check.")
    gone = stepper.shown.question(call)["answer"]
    names = stepper.data["keys"]
    pairs = [(names[v], stepper.data["values"][x]) for v, x in gone]
    assert stepper.check_removals(pairs) == f"Right: exactly those go ({len(pairs)} value" + \
        ("s)." if len(pairs) > 1 else ").")
    assert stepper.check_removals([]).startswith(f"0 of {len(pairs)} right. missed: ")
    # inside revise: what will it return? True or False, the values it ever returned
    stepper.jump("call")
    assert stepper.step.function == "revise"
    assert stepper.question() == "What will revise return?"
    answer = stepper.shown.question(stepper.position)
    assert sorted(answer["choices"]) == ["False", "True"]
    back = answer["k"]
    assert steps[back].kind == "return" and steps[back].value == answer["answer"]
    assert stepper.check_return(answer["answer"]) == \
        f"Right: revise returns {answer['answer']} (step {back + 1})."
    other = "False" if answer["answer"] == "True" else "True"
    assert stepper.check_return(other) == (f"Not this time: revise returns {answer['answer']} "
                                           f"(step {back + 1}), not {other}.")


def test_a_puzzle_among_the_arguments_brings_its_own_picture():
    from csp_puzzles import hashi

    puzzle = hashi.parse("7x7m2:b2b4a3c1c1a3a4h4b5a2h3b6b2")

    def first_edges(puzzle):
        domains = {v: list(d) for v, d in puzzle.to_csp().domains.items()}
        for var in list(domains)[:3]:
            domains[var] = domains[var][:1]
        return domains

    stepper = CodeStepper(first_edges, puzzle)
    data = stepper.data
    assert data["picture"] == puzzle.picture()
    assert data["names"][0].startswith("edge ") and data["words"][:3] == [
        "0 bridges", "1 bridge", "2 bridges"]
    # the picture shows each edge's domain as the function left it; three steps shrink one
    assert len(data["shrinks"]) == 3
    last = stepper.shown.state(len(stepper.steps) - 1)
    result = stepper.result
    by_key = {key: v for v, key in enumerate(data["keys"])}
    for var, values in result.items():
        shown = last[by_key[show(var)]]
        assert [data["values"][x] for x in shown] == [show(x) for x in values]
