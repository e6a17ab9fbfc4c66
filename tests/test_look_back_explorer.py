"""A learning search's trace, as the explorer receives it: each learnt nogood in words, and
the variables of its literals outlined (whichever kind, `=` or `≠`)."""

from __future__ import annotations

from csp_puzzles import count
from csp_puzzles.core.trace import LEARN
from csp_puzzles.examples import queens
from csp_puzzles.viz.packing import pack_run


def test_a_learnt_nogood_reaches_the_explorer_in_words_with_its_variables():
    trace = count(queens(6), inference="none", var_order="input", look_back="learn",
                  trace=True).trace
    run = pack_run(trace)
    learnt = [e for e in trace if e.kind == LEARN]
    assert any(sign == "≠" for e in learnt for _, sign, _ in e.value)  # both kinds occur
    for event in learnt:
        words = " and ".join(f"{var} {sign} {value}" for var, sign, value in event.value)
        assert words in run["causes"]
        outlined = {run["keys"][i] for i in run["scopes"][words]}
        assert outlined == {str(var) for var, _, _ in event.value}
