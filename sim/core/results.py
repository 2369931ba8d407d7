"""Results on disk: one Parquet shard per chunk of games, written atomically through polars.

A shard is written under a temporary name and renamed when complete, so a results folder only
ever holds whole shards, whatever interrupted the run. Shard names carry their game range;
the runner reads them back to know which games are already done.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import polars as pl

from sim.core.errors import InputError

SHARD_RE = re.compile(r"^shard-(\d{9})-(\d{9})\.parquet$")
MANIFEST = "manifest.json"
MANIFEST_VERSION = 1

# Column types of the common schema (docs/results_schema.md); score_* are Int32.
SCHEMA = {
    "experiment": pl.Utf8, "game_name": pl.Utf8, "variant": pl.Utf8, "config_hash": pl.Utf8,
    "seed": pl.Int64, "game": pl.Int64, "players": pl.Int8, "seat": pl.Int8, "slot": pl.Int8,
    "strategy": pl.Utf8, "faction": pl.Utf8, "is_automa": pl.Boolean, "score": pl.Int32,
    "rank": pl.Int8, "win_share": pl.Float64, "turns": pl.Int32, "rounds": pl.Int16,
    "end_reason": pl.Utf8,
}


def shard_name(first: int, last: int) -> str:
    return f"shard-{first:09d}-{last:09d}.parquet"


def covered_games(variant_dir: Path) -> list[tuple[int, int]]:
    """Game ranges [first, last] of the complete shards in a variant folder, sorted."""
    if not variant_dir.is_dir():
        return []
    ranges = []
    for entry in variant_dir.iterdir():
        m = SHARD_RE.match(entry.name)
        if m:
            ranges.append((int(m.group(1)), int(m.group(2))))
    return sorted(ranges)


def missing_ranges(covered: list[tuple[int, int]], first: int, stop: int, chunk: int) -> list[tuple[int, int]]:
    """Chunks [a, b) of at most ``chunk`` games in [first, stop) not covered by any shard."""
    todo, cursor = [], first
    gaps = []
    for a, b in covered:
        if b < cursor:
            continue
        if a > cursor:
            gaps.append((cursor, min(a, stop)))
        cursor = max(cursor, b + 1)
        if cursor >= stop:
            break
    if cursor < stop:
        gaps.append((cursor, stop))
    for a, b in gaps:
        for start in range(a, b, chunk):
            if start < b:
                todo.append((start, min(start + chunk, b)))
    return todo


def remove_partial_files(variant_dir: Path) -> int:
    """Delete temporary files of shards whose writing was interrupted; returns how many."""
    if not variant_dir.is_dir():
        return 0
    stale = [p for p in variant_dir.iterdir() if ".tmp-" in p.name]
    for p in stale:
        p.unlink(missing_ok=True)
    return len(stale)


def long_table(outcome: dict, meta: dict, game_ids: np.ndarray, slot_strategy: list[str]) -> pl.DataFrame:
    """Turn a game's ``outcome`` ({per_seat: [B, P] arrays, per_game: [B] arrays}) into long rows."""
    per_seat, per_game = outcome["per_seat"], outcome["per_game"]
    b, p = per_seat["score"].shape
    seat = np.tile(np.arange(p, dtype=np.int8), b)
    slot = np.asarray(per_seat["slot"]).reshape(-1).astype(np.int8)
    is_automa = np.asarray(per_seat["is_automa"]).reshape(-1).astype(bool)
    strategy_names = np.array(list(slot_strategy) + ["automa"], dtype=object)
    strategy = np.where(is_automa, "automa", strategy_names[np.minimum(slot, len(slot_strategy))])
    columns = {
        "experiment": pl.Series([meta["experiment"]] * (b * p), dtype=pl.Utf8),
        "game_name": pl.Series([meta["game_name"]] * (b * p), dtype=pl.Utf8),
        "variant": pl.Series([meta["variant"]] * (b * p), dtype=pl.Utf8),
        "config_hash": pl.Series([meta["config_hash"]] * (b * p), dtype=pl.Utf8),
        "seed": np.full(b * p, meta["seed"], dtype=np.int64),
        "game": np.repeat(np.asarray(game_ids, dtype=np.int64), p),
        "players": np.full(b * p, p, dtype=np.int8),
        "seat": seat,
        "slot": slot,
        "strategy": pl.Series(strategy.astype(str), dtype=pl.Utf8),
        "faction": pl.Series(np.asarray(per_seat["faction"]).reshape(-1).astype(str), dtype=pl.Utf8),
        "is_automa": is_automa,
        "score": np.asarray(per_seat["score"]).reshape(-1).astype(np.int32),
        "rank": np.asarray(per_seat["rank"]).reshape(-1).astype(np.int8),
        "win_share": np.asarray(per_seat["win_share"]).reshape(-1).astype(np.float64),
        "turns": np.repeat(np.asarray(per_game["turns"]), p).astype(np.int32),
        "rounds": np.repeat(np.asarray(per_game["rounds"]), p).astype(np.int16),
        "end_reason": pl.Series(np.repeat(np.asarray(per_game["end_reason"]).astype(str), p), dtype=pl.Utf8),
    }
    for key in sorted(per_seat):
        if key.startswith("score_"):
            columns[key] = np.asarray(per_seat[key]).reshape(-1).astype(np.int32)
    skip = set(columns) | {"slot", "faction", "is_automa", "rank", "win_share", "score"}
    for key in sorted(per_seat):
        if key not in skip and not key.startswith("score_"):
            columns[key] = np.asarray(per_seat[key]).reshape(-1)
    for key in sorted(per_game):
        if key not in ("turns", "rounds", "end_reason"):
            columns[key] = np.repeat(np.asarray(per_game[key]), p)
    return pl.DataFrame(columns)


def write_shard(df: pl.DataFrame, variant_dir: Path, first: int, last: int) -> Path:
    """Write a complete shard atomically (temporary name, fsync, rename)."""
    variant_dir.mkdir(parents=True, exist_ok=True)
    final = variant_dir / shard_name(first, last)
    tmp = variant_dir / f"{final.name}.tmp-{os.getpid()}"
    df.write_parquet(tmp)
    with open(tmp, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(tmp, final)
    return final


def read_manifest(results_dir: Path) -> dict | None:
    path = results_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError:
        raise InputError(path, None, "corrupt manifest (not JSON); delete the folder or choose another --out")


def check_or_write_manifest(results_dir: Path, manifest: dict) -> None:
    """Refuse to mix results of another experiment into a folder; else record this one.

    Results are compatible when the game, the seed and the config hash of every variant that
    both runs know are equal. New variants and more games may be added to a folder.
    """
    old = read_manifest(results_dir)
    if old is not None:
        problems = []
        if old.get("game_name") != manifest["game_name"]:
            problems.append(f"game {old.get('game_name')!r} vs {manifest['game_name']!r}")
        if old.get("seed") != manifest["seed"]:
            problems.append(f"seed {old.get('seed')} vs {manifest['seed']}")
        for name, info in manifest["variants"].items():
            prev = old.get("variants", {}).get(name)
            if prev and prev["config_hash"] != info["config_hash"]:
                problems.append(f"variant {name!r} config hash {prev['config_hash']} vs {info['config_hash']}")
        if problems:
            raise InputError(results_dir, None, "holds results of a different experiment ("
                             + "; ".join(problems) + "); choose another --out or delete the folder")
        merged = dict(old)
        merged["variants"] = {**old.get("variants", {}), **manifest["variants"]}
        manifest = {**manifest, "variants": merged["variants"]}
    results_dir.mkdir(parents=True, exist_ok=True)
    tmp = results_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str))
    os.replace(tmp, results_dir / MANIFEST)


def scan(results_dir: Path, variant: str | None = None) -> pl.LazyFrame:
    """A lazy scan of all shards of an experiment (or one variant)."""
    pattern = f"{variant}/shard-*.parquet" if variant else "*/shard-*.parquet"
    return pl.scan_parquet(str(results_dir / pattern))
