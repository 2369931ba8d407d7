"""Measure the default map over random setups (RC-A65, RC-A66): water, start fields, terrain.

    python -m sim.games.recall.board_stats [--games 10000] [--seed 1] [--players 4] [--map-file F] [--tiles-file F]

For each setup of ``setup.deal`` it measures (1) the largest water area at setup (face-up
tiles and the printed river) and once every tile is face up (the face-down tiles turned at
random from the stream ``rc_stats_rotation``: a proxy for the explorers' choices), (2) for each
start field in use, whether an artifact can be reached in one and in two normal moves at
setup, and how many fields a normal move reaches, and (3) the share of each terrain on the
whole map. The numbers are recorded in docs/recall_content.md ("Board measurements").
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from sim.core import rng
from sim.games.recall.board import build_board, distances, enterable, fields, start_field, water_areas
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.content_types import TERRAINS
from sim.games.recall.setup import deal


def largest_area(labels: np.ndarray) -> int:
    hit = labels[labels >= 0]
    return int(np.bincount(hit).max()) if len(hit) else 0


def measure(games: int, seed: int, players: int, map_file: str = "", tiles_file: str = "") -> dict:
    config = Config(players=players, start_player="first_slot", map_file=map_file, area_tiles_file=tiles_file)
    content = load_content(config)
    board = build_board(content.map)
    largest_setup, largest_all = [], []
    seats = range(1, players + 1) if players > 2 else (1, 2)
    reach1 = {k: 0 for k in seats}
    reach2 = {k: 0 for k in seats}
    near = {k: [0, 0] for k in seats}
    for g in range(games):
        setup = deal(config, content, seed, g, board)
        fl = fields(board, content, setup.layout)
        largest_setup.append(largest_area(water_areas(board, content, fl)))
        ok = enterable(content, fl)
        art = np.zeros(board.n_fields, dtype=bool)
        for f, _ in setup.artifacts:
            art[f] = True
        for k in seats:
            dist = distances(board, ok, start_field(fl, k), 2)
            reach1[k] += bool(((dist == 1) & art).any())
            reach2[k] += bool(((dist >= 1) & (dist <= 2) & art).any())
            near[k][0] += int((dist == 1).sum())
            near[k][1] += int(((dist >= 1) & (dist <= 2)).sum())
        keys = rng.stream_keys(seed, [g], "rc_stats_rotation")
        turns = rng.integers(keys, np.arange(board.n_slots), 6)
        rotation = tuple(r if up else int(t) for r, up, t in zip(setup.layout.rotation, setup.layout.face_up, turns))
        full = type(setup.layout)(setup.layout.tile, rotation, (True,) * board.n_slots)
        largest_all.append(largest_area(water_areas(board, content, fields(board, content, full))))
    terrain = fields(board, content, type(setup.layout)(setup.layout.tile, (0,) * board.n_slots,
                                                       (True,) * board.n_slots)).terrain
    share = {TERRAINS[t]: float((terrain == t).mean()) for t in range(len(TERRAINS))}
    return {"games": games, "players": players, "seed": seed, "fields": board.n_fields,
            "largest_water_setup": float(np.mean(largest_setup)),
            "largest_water_all_face_up": float(np.mean(largest_all)),
            "largest_water_all_face_up_min": int(np.min(largest_all)),
            "artifact_in_one_move": {k: reach1[k] / games for k in seats},
            "artifact_in_two_moves": {k: reach2[k] / games for k in seats},
            "fields_in_one_move": {k: near[k][0] / games for k in seats},
            "fields_in_two_moves": {k: near[k][1] / games for k in seats},
            "terrain_share": share}


def report(m: dict) -> str:
    lines = [f"{m['games']} setups, {m['players']} players, seed {m['seed']}, {m['fields']} fields",
             f"mean largest water area at setup:            {m['largest_water_setup']:.2f} fields",
             f"mean largest water area, all tiles face up:  {m['largest_water_all_face_up']:.2f} fields "
             f"(min {m['largest_water_all_face_up_min']})",
             "start field: artifact within 1 move / 2 moves; fields reached in 1 / 2 moves (mean)"]
    for k in m["artifact_in_one_move"]:
        lines.append(f"  st{k}: {m['artifact_in_one_move'][k]:.3f} / {m['artifact_in_two_moves'][k]:.3f};"
                     f"  {m['fields_in_one_move'][k]:.2f} / {m['fields_in_two_moves'][k]:.2f}")
    lines.append("terrain share of the whole map: " + ", ".join(
        f"{name} {v:.3f}" for name, v in m["terrain_share"].items() if v))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.games.recall.board_stats", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=(1, 2, 3, 4))
    parser.add_argument("--map-file", default="", help="a map.toml to measure instead of the default")
    parser.add_argument("--tiles-file", default="", help="an area_tiles.csv to measure instead of the default")
    args = parser.parse_args(argv)
    print(report(measure(args.games, args.seed, args.players, args.map_file, args.tiles_file)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
