"""The replay log of Recall (``python -m sim replay``, sim/games/recall/log.py): a draft pick names
the display it was made from (RC-S33; custom draft RC-V2..V5), and pig farms, pigs and rings put on
the map are named with their field (RC-R210..R212, RC-R233)."""
from __future__ import annotations

import numpy as np

from sim.games.recall import engine
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.log import describe


def _at_draft(mode):
    config = Config(players=3, tribe_draft=mode)
    t = engine.build_tables(config, load_content(config))
    s = engine.init(t, [0], 11)
    assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "draft"
    return t, s


def _pick(t, s, name):
    after = st.copy_state(s)
    action = t.action_names.index(name)
    engine.step(after, [action])
    return describe(s, after, action)


def test_a_pairs_draft_pick_names_the_display_it_was_made_from_RC_S33():
    t, s = _at_draft("draft")
    ct, g = t.content, s.m[0]
    pairs = [f"{i} {ct.tribes[g[st.G_TRIBE_DISP + i]].id} + {ct.items[g[st.G_ITEM_DISP + i]].id}" for i in range(4)]
    lines = _pick(t, s, "opt:2")
    assert lines[0].endswith("opt:2 from the display " + ", ".join(pairs))
    assert f"takes the tribe {ct.tribes[g[st.G_TRIBE_DISP + 2]].id}" in "\n".join(lines)
    # the next pick's display no longer shows the pair taken
    after = st.copy_state(s)
    engine.step(after, [t.action_names.index("opt:2")])
    nxt = _pick(t, after, "opt:0")[0]
    assert pairs[0] in nxt and pairs[2] not in nxt and pairs[3] in nxt


def test_a_custom_draft_pick_shows_tribes_and_items_apart_RC_V2():
    t, s = _at_draft("custom")
    ct, g = t.content, s.m[0]
    first = _pick(t, s, "opt:6")[0]
    tribes = ", ".join(f"{i} {ct.tribes[g[st.G_TRIBE_DISP + i]].id}" for i in range(4))
    items = ", ".join(f"{5 + i} {ct.items[g[st.G_ITEM_DISP + i]].id}" for i in range(4))
    assert first.endswith(f"opt:6 from the display tribes {tribes}; items {items}")
    after = st.copy_state(s)
    engine.step(after, [t.action_names.index("opt:6")])
    assert "; items 5 " in _pick(t, after, "opt:0")[0] and "6 -," in _pick(t, after, "opt:0")[0]


def test_pig_farms_pigs_and_rings_on_the_map_are_named_with_their_field_RC_R210_RC_R233():
    t, s = _at_draft("draft")
    after = st.copy_state(s)
    grain, camp = 5, 9
    after.m[0, st.F_FARM + grain] = 1
    after.m[0, st.F_PIGS_ON + grain] = 2
    after.m[0, st.F_RING + camp] = 1
    lines = describe(s, after, int(np.flatnonzero(s.legal[0])[0]))
    assert f"  pig farm placed on {t.field_names[grain]}" in lines
    assert f"  pigs on {t.field_names[grain]} 0->2" in lines
    assert f"  ring placed on {t.field_names[camp]}" in lines
    back = describe(after, s, int(np.flatnonzero(s.legal[0])[0]))
    assert f"  pig farm removed from {t.field_names[grain]}" in back
