"""Engines other than the core's search that more than one puzzle uses: integer programs
(HiGHS) and the lazy cut loop that adds connectivity to them and to SAT."""
