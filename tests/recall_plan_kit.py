"""What the Recall plan tests share: a config and its content, one decision of a strategy, and a
hand-set draft display (tests/test_recall_plans.py, tests/test_recall_plan_rules.py)."""
from __future__ import annotations

import numpy as np

from sim.core import config as cfgmod
from sim.core import rng
from sim.core.rng import StrategyRng
from sim.games.recall import state as st
from sim.games.recall.game import GAME

DISPLAY_TRIBES = ("Dorian", "Ion", "Zendeling", "Hayla", "J'He")
DISPLAY_ITEMS = ("Pouch", "Map", "Horn", "Boots", "Keyring")


def setup(players: int, **extra):
    config = cfgmod.build(GAME.Config, {"players": players, **extra}, "test", "")
    return config, GAME.load_content(config)


def decide(strategy, s, seed: int = 3):
    """The strategy's actions at the state's decisions (the decider's observation, seeded draws)."""
    obs = GAME.observe(s, GAME.decider(s))
    srng = StrategyRng(rng.stream_keys(seed, s.gid, "strategy"), np.zeros(s.batch, dtype=np.int64))
    return strategy.act(obs, s.legal, srng)


def draft_with_display(players: int, **extra):
    """(content, state) at the first draft decision of 3 games, the display set by hand to
    ``DISPLAY_TRIBES`` and ``DISPLAY_ITEMS``."""
    config, content = setup(players, **extra)
    s = GAME.init(config, content, np.arange(3), 5)
    assert (s.m[:, st.G_KIND] == st.K_DRAFT).all()
    tribe = {t.id: i for i, t in enumerate(content.tribes)}
    item = {x.id: i for i, x in enumerate(content.items)}
    s.m[:, st.G_TRIBE_DISP:st.G_TRIBE_DISP + 5] = [tribe[x] for x in DISPLAY_TRIBES]
    s.m[:, st.G_ITEM_DISP:st.G_ITEM_DISP + 5] = [item[x] for x in DISPLAY_ITEMS]
    return content, s


def own_options(s):
    """The legal actions of each row that are the decision's own: not ``end``, no free action
    (``use:``, ``chest:``, ``ring`` from the first ``use:``; docs/recall_model.md's action space)."""
    from sim.games.recall.kernel.common import C_O_USE
    own = s.legal.copy()
    own[:, 0] = False
    own[:, s.t.C[C_O_USE]:] = False
    return own
