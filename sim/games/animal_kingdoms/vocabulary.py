"""The decree vocabulary (AK-A12): the conditions a decree card may state, in one table.

A designer writes decrees in ``decrees.csv`` from these terms; a new term is one entry here
(its parameters and a numpy function), and the loader, the tables the engine uses and the
documentation list follow from it. Conditions compare *printed* ranks and species; "higher"
is strict (AK-A12).

Functions are vectorised: ranks are int arrays, species are arrays of species names, and the
result broadcasts like numpy operators, so the engine tabulates a whole 64 x 64 relation with
one call.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Term:
    params: tuple[str, ...]        # "k" (an integer) and/or "set" (ranks or species)
    set_kind: str                  # "rank" | "species" | "" : what the set lists
    fn: Callable
    doc: str


# Predicates on the played card c (SIMPLE decrees): fn(rank, species, decree) -> bool array.
PREDICATES = {
    "RANK_EVEN": Term((), "", lambda r, s, d: r % 2 == 0, "rank is even"),
    "RANK_ODD": Term((), "", lambda r, s, d: r % 2 == 1, "rank is odd"),
    "RANK_AT_LEAST": Term(("k",), "", lambda r, s, d: r >= d.k, "rank >= k"),
    "RANK_AT_MOST": Term(("k",), "", lambda r, s, d: r <= d.k, "rank <= k"),
    "RANK_IN": Term(("set",), "rank", lambda r, s, d: np.isin(r, np.array(d.values, dtype=np.int64)),
                    "rank is one of the set"),
    "SPECIES_IN": Term(("set",), "species", lambda r, s, d: np.isin(s, np.array(d.values, dtype=object)),
                       "species is one of the set"),
}

# Relations between the played card c and a reference card r:
# fn(c_rank, c_species, r_rank, r_species, decree) -> bool array.
RELATIONS = {
    "HIGHER": Term((), "", lambda cr, cs, rr, rs, d: cr > rr, "c.rank > r.rank"),
    "LOWER": Term((), "", lambda cr, cs, rr, rs, d: cr < rr, "c.rank < r.rank"),
    "SAME_SPECIES": Term((), "", lambda cr, cs, rr, rs, d: cs == rs, "same species"),
    "DIFFERENT_SPECIES": Term((), "", lambda cr, cs, rr, rs, d: cs != rs, "different species"),
    "SAME_PARITY": Term((), "", lambda cr, cs, rr, rs, d: cr % 2 == rr % 2, "ranks both odd or both even"),
    "DIFFERENT_PARITY": Term((), "", lambda cr, cs, rr, rs, d: cr % 2 != rr % 2, "one rank odd, the other even"),
    "WITHIN_2": Term((), "", lambda cr, cs, rr, rs, d: np.abs(cr - rr) <= 2, "|c.rank - r.rank| <= 2"),
    "WITHIN": Term(("k",), "", lambda cr, cs, rr, rs, d: np.abs(cr - rr) <= d.k, "|c.rank - r.rank| <= k"),
    "SAME_RANK": Term((), "", lambda cr, cs, rr, rs, d: cr == rr, "equal ranks"),
    "DIFFERENT_RANK": Term((), "", lambda cr, cs, rr, rs, d: cr != rr, "different ranks"),
    "SAME_SPECIES_OR_RANK": Term((), "", lambda cr, cs, rr, rs, d: (cs == rs) | (cr == rr),
                                 "same species or same rank"),
}


def predicate_mask(decree, ranks: np.ndarray, species: np.ndarray) -> np.ndarray:
    """bool[N]: which cards satisfy a SIMPLE decree."""
    return np.broadcast_to(PREDICATES[decree.condition].fn(ranks, species, decree), ranks.shape).copy()


def relation_matrix(decree, ranks: np.ndarray, species: np.ndarray) -> np.ndarray:
    """bool[N, N]: [c, r] = played card c stands in the decree's relation to reference card r."""
    term = RELATIONS[decree.condition]
    out = term.fn(ranks[:, None], species[:, None], ranks[None, :], species[None, :], decree)
    return np.broadcast_to(out, (len(ranks), len(ranks))).copy()
