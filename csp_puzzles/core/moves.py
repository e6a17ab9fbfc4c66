"""What a session's board is made of: the moves in force, in order, and the open trials.

A `Session` (session.py) keeps its board as a list of moves: decisions (`Decide`, the
engine's own search `EngineSearch` included), the player's own crossings-out (`Strike`), and
deductions (`Revise`, `Propagate`, `Deduce`). Every state of the session is what making its
moves in order gives, so any action is a new list of moves: an ordinary action adds moves
at the end; changing or clearing an old decision, putting back a value crossed out by hand,
rejecting a trial, `undo` and `redo` go back to the first move that differs (as the search
backtracks) and make the rest again. A move is compared by identity: the same object at
the same place is the same move.

When an old move changes, the moves after it are made again as moves, not as deductions:
decisions and crossings-out stay, the deductions drawn after it go (they were drawn from a
board that is no more: ask again), and the engine's search stays as the decisions it left.

A `Change` is what an action did, as the page and the student read it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .trace import plural

#: what runs after each decision the player makes (`Session.after_move`)
NOTHING, FORWARD_CHECKING, PROPAGATION = "nothing", "forward checking", "propagation"
AFTER_MOVE = (NOTHING, FORWARD_CHECKING, PROPAGATION)

Removals = dict[Hashable, tuple[Any, ...]]


@dataclass(frozen=True, eq=False)
class Decide:
    """A decision: `var = choice`, or `var` kept in `choice` (a `Split`), then what `after`
    (one of `AFTER_MOVE`) says runs."""

    var: Hashable
    choice: Any
    after: str


@dataclass(frozen=True, eq=False)
class Strike:
    """The player crosses `value` out of `var` by hand (a pencil mark)."""

    var: Hashable
    value: Any


@dataclass(frozen=True, eq=False)
class Revise:
    """AC-3's REVISE of the arc (`constraint`, `var`)."""

    constraint: Any
    var: Hashable


@dataclass(frozen=True, eq=False)
class Propagate:
    """The session's inference to a fixpoint."""


@dataclass(frozen=True, eq=False)
class Deduce:
    """A hint applied: its removals."""

    hint: Any


@dataclass(frozen=True, eq=False)
class EngineSearch:
    """The engine's search from the decisions before it: its propagation at the start, then
    the decisions it left in force (`decisions`, (var, choice) pairs) when it `solved`, or
    none when it proved there is no solution below."""

    decisions: tuple[tuple[Hashable, Any], ...]
    solved: bool


Move = Decide | Strike | Revise | Propagate | Deduce | EngineSearch


@dataclass(frozen=True)
class Trial:
    """An open trial: the supposition that opened it, and the board before it (what
    rejecting it goes back to)."""

    move: Decide
    before: Board


@dataclass(frozen=True)
class Board:
    """The moves in force, oldest first, and the open trials, outermost first."""

    moves: tuple[Move, ...] = ()
    trials: tuple[Trial, ...] = ()

    def plus(self, *moves: Move) -> Board:
        return Board(self.moves + moves, self.trials)

    def deciding(self, var: Hashable) -> list[int]:
        """Where the moves that decide `var` stand (its splits and its assignment; an
        engine's search that decided it)."""
        return [i for i, move in enumerate(self.moves)
                if (isinstance(move, Decide) and move.var == var)
                or (isinstance(move, EngineSearch)
                    and any(v == var for v, _ in move.decisions))]

    def struck(self, var: Hashable, value: Any) -> int | None:
        """Where the player crossed `value` out of `var` by hand (the last time), or None."""
        for i in range(len(self.moves) - 1, -1, -1):
            move = self.moves[i]
            if isinstance(move, Strike) and move.var == var and move.value == value:
                return i
        return None

    def pencil(self) -> dict[Hashable, list[Any]]:
        """The values crossed out by hand, by variable, in the order they were."""
        found: dict[Hashable, list[Any]] = {}
        for move in self.moves:
            if isinstance(move, Strike):
                found.setdefault(move.var, []).append(move.value)
        return found


def made_again(moves: Iterable[Move]) -> tuple[list[Move], int]:
    """The moves to make again after an old move changed: decisions and crossings-out (an
    engine's search as the decisions it left), and how many deductions go."""
    kept: list[Move] = []
    dropped = 0
    for move in moves:
        if isinstance(move, (Decide, Strike)):
            kept.append(move)
        elif isinstance(move, EngineSearch):
            kept += [Decide(var, choice, PROPAGATION) for var, choice in move.decisions]
        else:
            dropped += 1
    return kept, dropped


@dataclass(frozen=True)
class WipeOut:
    """Why the session is in a wipe-out: the variable emptied (None: a constraint that
    cannot hold), the cause, the deepest decision then (None: no decision led there) and
    the sentence the page shows."""

    var: Hashable
    cause: str | None
    decision: Any
    sentence: str


class Change(dict):
    """What an action did: a dict {var: values} of the values it removed (for `undo`,
    `clear`, `restore` and `reject`: the values it put back), with both in `removed` and
    `restored` (the domains before and after, compared), the action in `words` and what
    happened in `sentence`."""

    def __init__(self, removed: Removals, restored: Removals, words: str, sentence: str,
                 put_back: bool = False):
        super().__init__(restored if put_back else removed)
        self.removed, self.restored = removed, restored
        self.words, self.sentence = words, sentence


def differences(before: Mapping[Hashable, Sequence[Any]],
                after: Mapping[Hashable, Sequence[Any]]) -> tuple[Removals, Removals]:
    """The values each domain lost and gained from `before` to `after`, in domain order."""
    removed: Removals = {}
    restored: Removals = {}
    for var, old in before.items():
        new = after[var]
        if old != new:
            lost = tuple(x for x in old if x not in new)
            gained = tuple(x for x in new if x not in old)
            if lost:
                removed[var] = lost
            if gained:
                restored[var] = gained
    return removed, restored


def counted(removed: Removals, restored: Removals, put_back: bool = False) -> str:
    """"3 values removed", "0 values removed, 2 put back"; `put_back`: that count first
    ("1 value put back")."""
    gone = sum(map(len, removed.values()))
    back = sum(map(len, restored.values()))
    (first, said), (second, other) = ([(back, "put back"), (gone, "removed")] if put_back
                                      else [(gone, "removed"), (back, "put back")])
    words = f"{plural(first, 'value')} {said}"
    return f"{words}, {second} {other}" if second else words
