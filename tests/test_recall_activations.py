"""The engine's per-seat ability activation counts (``P_ACTS``, ``P_RINGS``) and their results
columns (``rc_uses_*``, ``rc_rings``, ``rc_abilities``; docs/results_schema.md "Recall").

Hand-made positions (tests/test_recall_engine_abilities_3.py, tests/test_recall_engine_rewards.py
set them up the same way) pin what one activation is: a paid ``use:`` (RC-R61), Exoskelet paying
an artifact at ``payment`` (RC-R244), a free activation (RC-R200, no stone paid) and a ring
(RC-R233); recalling resets the escalation (``P_USES``, RC-R43) but not the game's count. Then
whole random games: the engine's counts equal the ``use:<ability>`` and ``ring`` actions chosen
in the action stream, seat by seat; the one activation the stream cannot show is a ``payment``
whose only legal action is ``use:Exoskelet`` (the followers cannot pay), which the engine applies
without asking (kernel/flow.py ``decide``), so Exoskelet's count may only be higher.
"""
from __future__ import annotations

import numpy as np

from sim.core.game import take
from sim.games.recall import engine, kernel
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.game import GAME
from sim.games.recall.kernel import frames
from sim.games.recall.tables import build_tables as content_tables

SEED = 321


def _at_main(players=2):
    config = Config(players=players, tribe_draft="random")
    content = load_content(config)
    t = engine.build_tables(config, content)
    s = engine.init(t, [0], SEED)
    g = s.m[0]
    for f in range(g[st.G_NF]):                  # no artifacts on the map: every field as set below
        g[st.F_ART + f] = -1
    return t, s, g, content_tables(content).effect_id


def _run(s):
    engine._run(s, np.zeros(1, dtype=np.int64), False)


def _names(t, s):
    return [t.action_names[a] for a in np.flatnonzero(s.legal[0])]


def _kind(s):
    return st.KIND_NAMES[s.m[0, st.G_KIND]]


def _step(t, s, name):
    engine.step(s, [t.action_names.index(name)])


def _acts(t, g, name, p=0):
    return int(g[st.seat_col(p, st.P_ACTS + t.ability_names.index(name))])


def test_hayla_use_and_exoskelet_payment_count_one_activation_each_rc_r61_rc_r244():
    """Hayla (paid ``use:`` at ``main``) jumps 2 followers onto an artifact; Exoskelet pays it at
    ``payment``: one activation of each, and nothing else counted."""
    t, s, g, _ = _at_main()
    for name in ("Hayla", "Exoskelet"):
        g[st.seat_col(0, st.P_OWN + t.ability_names.index(name))] = 1
    g[st.seat_col(0, st.P_SKILL)] = 4
    g[st.F_ART + t.field_names.index("L.4")] = 0
    before = s.seat(st.P_ACTS, st.U_MAX)[0].sum()
    _run(s)
    _step(t, s, "use:Hayla")
    assert _acts(t, g, "Hayla") == 1 and _acts(t, g, "Exoskelet") == 0
    _step(t, s, "opt:0")
    _step(t, s, "count:2")
    assert _kind(s) == "payment" and _names(t, s) == ["end", "use:Exoskelet"]
    _step(t, s, "use:Exoskelet")
    assert _acts(t, g, "Hayla") == 1 and _acts(t, g, "Exoskelet") == 1
    assert s.seat(st.P_ACTS, st.U_MAX)[0].sum() == before + 2


def test_free_activation_counts_without_escalating_the_cost_rc_r200_rc_a43():
    """Chest CH9 (FREE) then ``use:Pouch``: one activation counted, no stone paid, the escalation
    counter ``P_USES`` stays 0 (so the next paid use still costs 1, RC-R61)."""
    t, s, g, eid = _at_main()
    g[st.seat_col(0, st.P_OWN + t.ability_names.index("Pouch"))] = 1
    g[st.seat_col(0, st.P_SKILL)] = 0
    frames.push_frame(g, eid[("chest", 8)], st.PH_TURN_END, 0, -1, -1)
    _run(s)
    assert _kind(s) == "free"
    _step(t, s, "use:Pouch")
    assert _acts(t, g, "Pouch") == 1 and g[st.seat_col(0, st.P_USES + t.ability_names.index("Pouch"))] == 0


def test_recall_resets_the_escalation_but_not_the_game_count_rc_r43():
    """Two paid Horn uses (cost 1 then 2, RC-R61), then a recall: ``P_USES`` back to 0, the
    game's count stays 2."""
    t, s, g, _ = _at_main()
    horn = t.ability_names.index("Horn")
    g[st.seat_col(0, st.P_OWN + horn)] = 1
    g[st.seat_col(0, st.P_SKILL)] = 3
    _run(s)
    _step(t, s, "use:Horn")
    _step(t, s, "use:Horn")
    assert g[st.seat_col(0, st.P_USES + horn)] == 2 and _acts(t, g, "Horn") == 2
    _step(t, s, "recall")
    for _ in range(60):                                           # the recall's steps up to its recharge
        if g[st.seat_col(0, st.P_USES + horn)] == 0:
            break
        _step(t, s, "end" if "end" in _names(t, s) else _names(t, s)[0])
    assert g[st.seat_col(0, st.P_RECALLS)] == 1
    assert g[st.seat_col(0, st.P_USES + horn)] == 0 and _acts(t, g, "Horn") == 2


def test_a_ring_counts_in_rc_rings_rc_r233():
    """Noorderling's free action ``ring`` on a camp with an own follower: P_RINGS 1."""
    t, s, g, _ = _at_main()
    nd = int(t.C[kernel.C_NOORD])
    g[st.seat_col(0, st.P_OWN + nd)] = 1
    camp = int(np.flatnonzero(g[st.F_CAMP:st.F_CAMP + st.F_MAX] >= 0)[0])
    g[st.seat_col(0, st.P_FOL + camp)] = 1
    g[st.seat_col(0, st.P_SUPPLY)] -= 1
    _run(s)
    _step(t, s, "ring")                                           # its one camp field: placed unasked
    assert g[st.F_RING + camp] == 1
    assert g[st.seat_col(0, st.P_RINGS)] == 1 and s.seat(st.P_ACTS, st.U_MAX)[0].sum() == 0


def _play_random(players: int, games: int, seed: int):
    """Whole games with uniform random choices; per game, seat and ability the ``use:`` actions
    chosen (last column: ``ring``)."""
    config = Config(players=players)
    content = load_content(config)
    s = GAME.init(config, content, np.arange(games), seed)
    t = s.t
    use0 = t.action_names.index(f"use:{t.ability_names[0]}")
    n_ab, ring = len(t.ability_names), t.action_names.index("ring")
    chosen = np.zeros((games, st.MAXP, n_ab + 1), dtype=np.int64)
    rnd = np.random.default_rng(seed)
    while True:
        live = np.flatnonzero(s.m[:, st.G_KIND] >= 0)
        assert not (s.m[:, st.G_KIND] == st.K_STOP).any()
        if not len(live):
            return s, chosen
        actions = np.zeros(games, dtype=np.int64)
        for b in live:
            legal = np.flatnonzero(s.legal[b])
            a = int(legal[rnd.integers(len(legal))])
            actions[b] = a
            p = int(s.m[b, st.G_DEC])
            if use0 <= a < use0 + n_ab:
                chosen[b, p, a - use0] += 1
            elif a == ring:
                chosen[b, p, n_ab] += 1
        sub = engine.step(take(s, live), actions[live])
        for f in ("m", "hidden", "legal"):
            getattr(s, f)[live] = getattr(sub, f)


def test_engine_counts_equal_the_use_and_ring_actions_of_whole_games():
    """3 and 4 players, random play: rc_uses_<id> and rc_rings equal the chosen ``use:`` and
    ``ring`` actions per seat (Exoskelet: at least them, see the module doc); rc_uses_tribe /
    rc_uses_item are the own tribe's / item's counts and rc_uses_gained the rest."""
    seen = 0
    for players, seed in ((3, 5), (4, 6)):
        s, chosen = _play_random(players, 6, seed)
        t = s.t
        out = GAME.outcome(s)["per_seat"]
        acts = s.seat(st.P_ACTS, st.U_MAX)[:, :players, :len(t.ability_names)]
        exo = t.ability_names.index("Exoskelet")
        others = [a for a in range(len(t.ability_names)) if a != exo]
        assert (acts[:, :, others] == chosen[:, :players, others]).all()
        assert (acts[:, :, exo] >= chosen[:, :players, exo]).all()
        assert (out["rc_rings"] == chosen[:, :players, -1]).all()
        names = list(t.ability_names)
        for b in range(s.batch):
            for p in range(players):
                tribe = t.content.tribes[int(s.m[b, st.seat_col(p, st.P_TRIBE)])].id
                item = t.content.items[int(s.m[b, st.seat_col(p, st.P_ITEM)])].id
                item_acts = sum(int(acts[b, p, a]) for a, n in enumerate(names) if n.split(".")[0] == item)
                assert out["rc_uses_tribe"][b, p] == acts[b, p, names.index(tribe)] == out[f"rc_uses_{tribe}"][b, p]
                assert out["rc_uses_item"][b, p] == item_acts == out[f"rc_uses_{item}"][b, p]
                assert out["rc_uses_gained"][b, p] == acts[b, p].sum() - out["rc_uses_tribe"][b, p] - item_acts
                held = out["rc_abilities"][b, p].split(";")
                assert tribe in held and item in held
                seen += int(acts[b, p].sum())
    assert seen >= 20                            # the games did activate abilities
