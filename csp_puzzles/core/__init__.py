"""The generic CSP core: problems, constraints, search, heuristics and traces.

It knows nothing of puzzles or widgets; everything else in csp-puzzles is built on it.
"""

from .all_equal import AllEqual
from .cardinality import Count
from .constraints import AllDifferent, Constraint, Predicate, Sum, Table
from .csp import CSP
from .heuristics import (
    VALUE_ORDERS,
    VARIABLE_ORDERS,
    dom_wdeg,
    input_order,
    input_values,
    lcv,
    mrv,
    mrv_degree,
)
from .hints import Hint, Words
from .inference import (
    INFERENCES,
    forward_checking,
    maintain_arc_consistency,
    no_inference,
    propagate,
)
from .linear import Linear
from .membership import InSet, NotInSet
from .options import Options
from .reasons import Literal, Reason
from .restarts import solve_with_restarts
from .search import CountResult, Result, Search, count, count_solutions, iter_solutions, solve
from .session import AFTER_MOVE, Broken, Change, Decision, Session, WipeOut
from .state import Contradiction, SearchState
from .stats import Stats
from .suggest import Suggestion
from .trace import Event, Trace

__all__ = [
    "CSP", "Constraint", "AllDifferent", "Sum", "Table", "Predicate",
    "Linear", "InSet", "NotInSet", "AllEqual", "Count",
    "solve", "count", "count_solutions", "iter_solutions", "Search", "Result", "CountResult",
    "SearchState", "Contradiction", "Stats", "Trace", "Event",
    "INFERENCES", "VARIABLE_ORDERS", "VALUE_ORDERS", "no_inference", "forward_checking",
    "maintain_arc_consistency", "propagate", "input_order", "mrv", "mrv_degree",
    "input_values", "lcv", "dom_wdeg", "solve_with_restarts", "Literal", "Reason",
    "Session", "Hint", "Words", "Suggestion", "Decision", "Options",
    "AFTER_MOVE", "Change", "Broken", "WipeOut",
]
