"""Recall oracle: the rules part 1 left simplified, each on a hand-made position worked out from the spec.

Helpers and the position conventions are those of ``tests/test_recall_oracle_rules.py``.
"""
from __future__ import annotations

from sim.games.recall.content_types import CAMP, GRAIN
from sim.games.recall.effects import parse_effect
from tests.test_recall_oracle_rules import CT, field, fld, oracle, plain_slot, until


# ---------------------------------------------------------------- reward order (RC-A64)

def test_rc_a64_reward_order_is_the_receivers_choice_where_it_matters():
    """RC-A64, RC-R80, RC-A73: "F:2 + F:1" with 2 followers left: the order decides where they go."""
    results = []
    for first in (0, 1):
        o = oracle()
        plain_slot(o, 2, GRAIN)
        a, b = 14, 15
        o.fol[0][a] = o.fol[0][b] = 1
        o.supply[0] = 2
        o.start_field[0] = a
        asked, _ = o.drive(o.gain(0, parse_effect("F:2 + F:1")),
                           [o.A_PICK + first, fld(o, a if first == 0 else b)] + ([] if first == 0 else [fld(o, a)]))
        assert asked[0][1] == "order" and asked[0][2] == (o.A_PICK, o.A_PICK + 1)
        results.append((o.fol[0][a], o.fol[0][b]))
    assert results == [(3, 1), (2, 2)]                         # F:2 first: all on a; F:1 first: 1 on b, the last 1 on a


def test_rc_a64_order_free_items_resolve_first_without_a_decision():
    """RC-A64: crystals and points resolve before the knowledge step, in item order, unasked."""
    o = oracle()
    gen = o.gain(0, parse_effect("K:any:1 + W:1 + VP:1"))
    d = until(o, gen)
    assert d[1] == "track"                                     # no "order": one item is not order-free
    assert o.cr[0][0] == 3 + 1 and o.score[0] == 1


def test_rc_a64_equal_items_need_no_order_decision():
    """RC-A64: two equal items ("F:1 + F:1") are not ordered; a camp with K + F (c5) is."""
    o = oracle()
    plain_slot(o, 2, GRAIN)
    o.fol[0][14] = o.fol[0][15] = 1
    asked, _ = o.drive(o.gain(0, parse_effect("F:1 + F:1")), [fld(o, 14), fld(o, 15)])
    assert [d[1] for d in asked] == ["place", "place"]
    c5 = [c.id for c in CT.camps].index("c5")
    d = until(o, o.gain(0, CT.camps[c5].reward))
    assert d[1] == "order" and d[2] == (o.A_PICK, o.A_PICK + 1)
