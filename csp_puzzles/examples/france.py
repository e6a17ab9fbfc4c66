"""The regions of mainland France before 2016, as AIMA's `csp.py` lists them (`france`).

Four-colouring this map has 1,124,352 solutions: counting them all is a benchmark of the
search's cost per node, since there are few failures and many leaves.
"""

from __future__ import annotations

#: each region with the neighbours AIMA lists for it (the other direction is implied)
FRANCE_SPEC = """AL: LO FC; AQ: MP LI PC; AU: LI CE BO RA LR MP; BO: CE IF CA FC RA AU;
BR: NB PL; CA: IF PI LO FC BO; CE: PL NB NH IF BO AU LI PC; FC: BO CA LO AL RA;
IF: NH PI CA BO CE; LI: PC CE AU MP AQ; LO: CA AL FC; LR: MP AU RA PA; MP: AQ LI AU LR;
NB: NH CE PL BR; NH: PI IF CE NB; NO: PI; PA: LR RA; PC: PL CE LI AQ; PI: NH NO CA IF;
PL: BR NB CE PC; RA: AU BO FC PA LR"""


def parse_neighbours(spec: str) -> dict[str, list[str]]:
    """`"X: Y Z; Y: Z"` -> every region with its neighbours, both directions, no repeats."""
    neighbours: dict[str, list[str]] = {}
    for entry in spec.split(";"):
        region, _, others = entry.partition(":")
        region = region.strip()
        neighbours.setdefault(region, [])
        for other in others.split():
            for a, b in ((region, other), (other, region)):
                if b not in neighbours.setdefault(a, []):
                    neighbours[a].append(b)
    return neighbours


FRANCE: dict[str, list[str]] = parse_neighbours(FRANCE_SPEC)
