"""Classic problems built on the core, for the notebooks, the tests and the benchmarks."""

from .australia import AUSTRALIA, map_colouring
from .france import FRANCE
from .queens import queens
from .queens_lines import QueensLines, queens_by_lines
from .send_more_money import send_more_money
from .sudoku import HARD_SUDOKU, sudoku

__all__ = ["queens", "queens_by_lines", "QueensLines", "map_colouring", "AUSTRALIA", "FRANCE",
           "send_more_money", "sudoku", "HARD_SUDOKU"]
