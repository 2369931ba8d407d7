"""The flat action space of Animal Kingdoms (docs/animal_kingdoms_model.md, "The action space")."""
from __future__ import annotations

from sim.games.animal_kingdoms.tables import action_layout


def num_actions(content) -> int:
    return action_layout(content.hand_size, len(content.kingdoms), content.modifier_tiles)["A"]


def action_names(content) -> list[str]:
    H, M = content.hand_size, content.modifier_tiles
    ids = [k.id for k in content.kingdoms]
    names = [f"claim:s{i}:{kid}" for i in range(H) for kid in ids]
    names += ["rally:" + ",".join(f"s{i}" for i in range(H) if r >> i & 1) for r in range(1, 2 ** H)]
    names += ["retreat"] + [f"battle:s{i}" for i in range(H)] + [f"mods:{m}" for m in range(M + 1)]
    return names + ["council:yes", "council:no"]


def kind(content, action: int) -> str:
    """claim | rally | retreat | battle | mods | council: the decision an action answers."""
    lay = action_layout(content.hand_size, len(content.kingdoms), content.modifier_tiles)
    if action < lay["A_RALLY"]:
        return "claim"
    if action < lay["A_RETREAT"]:
        return "rally"
    if action == lay["A_RETREAT"]:
        return "retreat"
    if action < lay["A_MODS"]:
        return "battle"
    if action < lay["A_YES"]:
        return "mods"
    return "council"
