"""`python -m csp_puzzles` is the same program as `csp-puzzles`."""

import sys

from .cli import main

sys.exit(main())
