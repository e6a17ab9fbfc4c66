"""Hashi's propagators promise `proven_when_fixed`: each fails as soon as its whole scope is
fixed to values that break its relation, so a search's final check may skip them. Tested
here on every constraint of small puzzles, at every rule level, with and without loops."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles import hashi
from csp_puzzles.core import Contradiction, SearchState
from csp_puzzles.hashi.rules import FULL, LEVELS

DATA = Path(__file__).parents[1] / "data" / "hashi"
PUZZLES = [hashi.parse((DATA / name).read_text()) for name in ("easy-7x7.txt", "hard-7x7.txt")]
NO_LOOPS = [hashi.Hashi(p.height, p.width, {i.pos: i.value for i in p.islands}, p.maxb,
                        loops=False) for p in PUZZLES]
MODELS = [(p, level) for p in PUZZLES + NO_LOOPS for level in (FULL, *LEVELS)]


def test_every_hashi_constraint_makes_the_promise():
    for puzzle, level in MODELS:
        for constraint in puzzle.to_csp(level=level).constraints:
            assert constraint.proven_when_fixed, constraint.name


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(range(len(MODELS))), st.data())
def test_a_fixed_scope_that_breaks_a_relation_fails(which, data):
    puzzle, level = MODELS[which]
    csp = puzzle.to_csp(level=level)
    for constraint in csp.constraints:
        values = {var: data.draw(st.sampled_from(csp.domains[var])) for var in constraint.scope}
        if constraint.is_satisfied(values):
            continue
        state = SearchState(csp)
        for var, value in values.items():
            state.keep_only(var, (value,), "test")
        with pytest.raises(Contradiction):
            constraint.propagate(state)
