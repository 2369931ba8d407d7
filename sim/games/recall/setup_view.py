"""A readable print of one seeded Recall setup: the board, water areas, start fields and offers."""
from __future__ import annotations

import numpy as np

from sim.games.recall.board import build_board, fields, render, start_field, water_areas
from sim.games.recall.content_types import ARTIFACT_COLOURS, LETTERS, PATHS, SIDES, TRACKS, Content
from sim.games.recall.effects import format_effect
from sim.games.recall.setup import deal, old_tribes, random_tribes


def describe_setup(config, content: Content, seed: int, game_index: int) -> str:
    """The setup of game ``game_index`` of ``seed`` as text (RC-S1..S38, spec section 7)."""
    board = build_board(content.map)
    s = deal(config, content, seed, game_index, board)
    fl = fields(board, content, s.layout)
    n = config.players
    out = [f"Recall setup: seed {seed}, game {game_index}, {n} player(s); the start player (seat 1) is "
           f"experiment slot {s.start_slot + 1}, seats follow clockwise"]
    out.append("")
    out.append("Area slots (tile, rotation; face-down tiles are hidden, RC-S17):")
    for k, sid in enumerate(board.slot_ids):
        tile = content.area_tiles[s.layout.tile[k]].id
        state = f"{tile} rotation {s.layout.rotation[k]}" if s.layout.face_up[k] else f"face down ({tile})"
        out.append(f"  {sid:>3}: {state}")
    marks = {}
    for f, colour in s.artifacts:
        marks[f] = "A:" + ARTIFACT_COLOURS[colour][:2]
    for f, stones in s.sites:
        marks[f] = "x" + "".join(TRACKS[c][0] for c in stones)
    out.append("")
    out.append("Map (field codes as in area_tiles.csv; ?? face down; A:<colour> an artifact, "
               "x<stones> an excavation site's stones w/g/b):")
    out.extend("  " + line for line in render(board, content, fl, marks))
    labels = water_areas(board, content, fl)
    sizes = np.bincount(labels[labels >= 0]) if (labels >= 0).any() else np.zeros(0, dtype=int)
    out.append("")
    out.append(f"Water areas (face-up water and the river, RC-A7, RC-A65): {len(sizes)} areas, sizes "
               f"{sorted(sizes.tolist(), reverse=True)}")
    for seat, number in enumerate(s.start_fields):
        f = start_field(fl, number)
        out.append(f"Seat {seat + 1}: start field st{number} = field {f} ({board.name(f)})")
    out.append("")
    out.append("Path cards, top to bottom, with the dark bonus token beside each (RC-S3, RC-S4):")
    for pos, (card, side, token) in enumerate(zip(s.path_cards, s.path_sides, s.dark_tokens)):
        t = content.dark_tokens[token]
        out.append(f"  {pos + 1} (sector {pos // 2 + 1}): {PATHS[content.path_cards[card].path]} "
                   f"({SIDES[side]}); token {t.id} {format_effect(t.reward)}")
    per = len(content.knowledge.bonus_positions)
    out.append("Light bonus tokens (RC-S2): " + "; ".join(
        f"{TRACKS[i // per]} {content.knowledge.bonus_positions[i % per]}: {content.light_tokens[t].id} "
        f"{format_effect(content.light_tokens[t].reward)}" for i, t in enumerate(s.light_tokens)))
    out.append("Upgrade stacks at the score-track symbols (RC-S9): " + ", ".join(
        f"{pos}: {LETTERS[x]}" for pos, x in zip(content.upgrade_symbols, s.upgrade_letters)))
    out.append("Monument tiles face up (RC-S7): " + ", ".join(content.monument_tiles[m].id for m in s.monument_tiles))
    kd = content.setup.key_display
    out.append("Key offer (RC-S10..S12): yellow stacks " + ", ".join(content.key_cards[i].id for i in content.key_kinds(1))
               + "; green " + ", ".join(content.key_cards[i].id for i in s.green_deck[:kd])
               + "; grey " + ", ".join(content.key_cards[i].id for i in s.grey_deck[:kd]))
    out.append("Artifact display (RC-S13): one of each colour; bag (RC-S14): artifacts "
               + ", ".join(f"{ARTIFACT_COLOURS[c]} {x}" for c, x in enumerate(s.bag_artifacts))
               + "; stones " + ", ".join(f"{TRACKS[c]} {x}" for c, x in enumerate(s.bag_stones)))
    out.append("Goal cards (secret, RC-S27): " + "; ".join(
        f"seat {p + 1}: " + ", ".join(content.goal_cards[g].id for g in cards) for p, cards in enumerate(s.goal_cards)))
    out.append("Tribe draft display (RC-S32): " + ", ".join(
        f"{content.tribes[t].id} + {content.items[i].id}" for t, i in zip(s.tribe_display, s.item_display)))
    tribes, items = random_tribes(s, n)
    old, stacks = old_tribes(content, seed, game_index, tribes, items)
    out.append("Old tribes if the last display pair stays unchosen (RC-S36, RC-S37): " + "; ".join(
        f"{TRACKS[k]}: {content.tribes[old[k]].id} [" + ", ".join(content.items[i].id for i in stacks[k]) + "]"
        for k in range(len(TRACKS))))
    return "\n".join(out)


def main(argv=None) -> int:
    """``python -m sim.games.recall.setup_view [--seed S] [--game G] [--players N] [--path-sides X]``."""
    import argparse

    from sim.games.recall.config import Config
    from sim.games.recall.content import load_content
    parser = argparse.ArgumentParser(prog="python -m sim.games.recall.setup_view", description="Print one seeded Recall setup.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", type=int, default=0)
    parser.add_argument("--players", type=int, default=4, choices=(1, 2, 3, 4))
    parser.add_argument("--path-sides", default="all_a")
    args = parser.parse_args(argv)
    config = Config(players=args.players, path_sides=args.path_sides)
    print(describe_setup(config, load_content(config), args.seed, args.game))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
