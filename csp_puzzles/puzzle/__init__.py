"""What every puzzle is made of: the `Puzzle` protocol, the registry of kinds, grid text
formats, the picture as plain data, regions, sizes and caps, and the puzzle session."""

from .protocol import LIMIT, SOLVED, UNSATISFIABLE, Puzzle, PuzzleResult

__all__ = ["Puzzle", "PuzzleResult", "SOLVED", "UNSATISFIABLE", "LIMIT"]
