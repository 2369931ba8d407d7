"""Results on disk: one Parquet shard per chunk of games, written atomically through polars.

A shard is written under a temporary name and renamed when complete, so a results folder only
ever holds whole shards, whatever interrupted the run. Each shard records its game range in its
Parquet metadata; coverage is read from there (never from the name), and two shards that hold
the same game are refused wherever shards are read. One run at a time writes into a results
folder (``locked``), and only that run's own process writes shards.
"""
from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import json
import os
import socket
from pathlib import Path

import numpy as np
import polars as pl

from sim.core.errors import InputError, RunError

MANIFEST = "manifest.json"
MANIFEST_VERSION = 2
LOCK = ".lock"
SHARD_GLOB = "shard-*.parquet"
FIRST_KEY, LAST_KEY = "sim.first_game", "sim.last_game"     # Parquet metadata of a shard

# Limits checked before a run starts: int64 game indices and seeds, exact in float64 (JSON, polars
# statistics) and at most 15 digits in shard names; 10^9 games per run is a day's work.
MAX_GAME_INDEX = 10**15 - 1
MAX_GAMES = 10**9
MAX_SEED = 2**63 - 1

# Column types of the common schema (docs/results_schema.md); score_* are Int32.
SCHEMA = {
    "experiment": pl.Utf8, "game_name": pl.Utf8, "variant": pl.Utf8, "config_hash": pl.Utf8,
    "seed": pl.Int64, "game": pl.Int64, "players": pl.Int8, "seat": pl.Int8, "slot": pl.Int8,
    "strategy": pl.Utf8, "faction": pl.Utf8, "is_automa": pl.Boolean, "score": pl.Int32,
    "rank": pl.Int8, "win_share": pl.Float64, "turns": pl.Int32, "rounds": pl.Int16,
    "end_reason": pl.Utf8,
}


def shard_name(first: int, last: int) -> str:
    """``shard-<first>-<last>.parquet``, at least 9 digits each (any game index fits)."""
    return f"shard-{first:09d}-{last:09d}.parquet"


def shard_range(path: Path) -> tuple[int, int]:
    """The game range [first, last] a shard holds, from its metadata (shards written before the
    metadata existed: from its rows)."""
    try:
        meta = pl.read_parquet_metadata(path)
        if FIRST_KEY in meta and LAST_KEY in meta:
            return int(meta[FIRST_KEY]), int(meta[LAST_KEY])
        span = pl.scan_parquet(path).select(pl.col("game").min().alias("a"), pl.col("game").max().alias("b")).collect()
    except Exception as err:  # noqa: BLE001 - polars raises several kinds for a bad file
        raise InputError(path, None, f"not a readable results shard ({err.__class__.__name__}); "
                         "delete it to play its games again") from None
    if span["a"][0] is None:
        raise InputError(path, None, "a results shard without rows; delete it")
    return int(span["a"][0]), int(span["b"][0])


def shard_ranges(paths) -> list[tuple[int, int, Path]]:
    """(first, last, path) of each shard, sorted; refuses two shards that hold the same game."""
    ranges = sorted((*shard_range(Path(p)), Path(p)) for p in paths)
    for (a0, b0, p0), (a1, b1, p1) in zip(ranges, ranges[1:]):
        if a1 <= b0:
            raise InputError(p1.parent, None, f"shards {p0.name} and {p1.name} both hold games "
                             f"{a1}..{min(b0, b1)}: a game would be counted twice; delete one of them")
    return ranges


def variant_shards(variant_dir: Path) -> list[Path]:
    return sorted(variant_dir.glob(SHARD_GLOB)) if variant_dir.is_dir() else []


def covered_games(variant_dir: Path) -> list[tuple[int, int]]:
    """Game ranges [first, last] of the complete shards in a variant folder, sorted."""
    return [(a, b) for a, b, _ in shard_ranges(variant_shards(variant_dir))]


def missing_ranges(covered: list[tuple[int, int]], first: int, stop: int, chunk: int):
    """Chunks [a, b) of at most ``chunk`` games in [first, stop) not covered by any shard
    (a generator: a run of many chunks never holds their list)."""
    cursor = first
    for a, b in covered:
        if cursor >= stop:
            return
        if b < cursor:
            continue
        yield from _chunks(cursor, min(a, stop), chunk)
        cursor = max(cursor, b + 1)
    yield from _chunks(cursor, stop, chunk)


def _chunks(a: int, b: int, chunk: int):
    for start in range(a, b, chunk):
        yield start, min(start + chunk, b)


def missing_count(covered: list[tuple[int, int]], first: int, stop: int, chunk: int) -> tuple[int, int]:
    """(chunks, games) that ``missing_ranges`` yields, counted without listing them."""
    chunks = games = 0
    cursor = first
    for a, b in [*covered, (stop, stop)]:
        if cursor >= stop:
            break
        if b < cursor:
            continue
        gap = max(0, min(a, stop) - cursor)
        chunks, games = chunks + -(-gap // chunk), games + gap
        cursor = max(cursor, b + 1)
    return chunks, games


def remove_partial_files(variant_dir: Path) -> int:
    """Delete temporary files of shards whose writing was interrupted; returns how many."""
    if not variant_dir.is_dir():
        return 0
    stale = [p for p in variant_dir.iterdir() if ".tmp-" in p.name]
    for p in stale:
        p.unlink(missing_ok=True)
    return len(stale)


@contextlib.contextmanager
def locked(results_dir: Path):
    """Hold the results folder's exclusive lock for a run; a second run is refused at once.

    ``flock`` on ``<folder>/.lock``: the system releases it when the process ends in any way
    (even SIGKILL), so a lock is never stale. It creates the folder (the first thing a run writes).
    """
    try:
        results_dir.mkdir(parents=True, exist_ok=True)
        handle = open(results_dir / LOCK, "a+", encoding="utf-8")
    except OSError as err:
        raise InputError(results_dir, None, f"cannot write the results folder here: {_reason(err)}; "
                         "choose another --out") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise InputError(results_dir, None, f"another run is writing into this folder ({holder}); "
                             "wait until it ends or choose another --out") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()} on {socket.gethostname()} since "
                     f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M:%S} UTC\n")
        handle.flush()
        yield
    finally:
        handle.close()          # releases the lock


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


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
    """Write a complete shard atomically (temporary name, fsync, rename), its game range in its
    metadata. A failed write (disk full, folder gone) leaves no file and is one RunError line."""
    final = variant_dir / shard_name(first, last)
    tmp = variant_dir / f"{final.name}.tmp-{os.getpid()}"
    try:
        variant_dir.mkdir(parents=True, exist_ok=True)
        df.write_parquet(tmp, metadata={FIRST_KEY: str(first), LAST_KEY: str(last)})
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, final)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        hint = " (the disk is full)" if err.errno == errno.ENOSPC else ""
        raise RunError(final, None, f"cannot write the shard: {_reason(err)}{hint}; the finished shards "
                       "are kept: free space or fix the folder, then run the same command again") from None
    return final


def read_manifest(results_dir: Path) -> dict | None:
    path = results_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InputError(path, None, "corrupt manifest (not JSON); delete the folder or choose another --out") from None


PART_NAMES = {"config": "the rule config or its content files", "content": "the loaded content",
              "seats": "the seats' strategies, their parameters or their code",
              "engine": "the game's engine code or default data"}


def _variant_problem(name: str, prev: dict, info: dict) -> str | None:
    if prev["config_hash"] == info["config_hash"]:
        return None
    old_parts, new_parts = prev.get("parts", {}), info.get("parts", {})
    changed = [PART_NAMES[k] for k in PART_NAMES if k in old_parts and old_parts[k] != new_parts.get(k)]
    why = ", ".join(changed) if changed else "results written by an older version"
    return f"variant {name!r} config hash {prev['config_hash']} vs {info['config_hash']} (changed: {why})"


def check_manifest(results_dir: Path, manifest: dict) -> dict:
    """Refuse to mix results of another experiment or engine into a folder; returns the manifest
    to record (the old one's variants and runs kept).

    Results are compatible when the game, the seed and the config hash of every variant that
    both runs know are equal. New variants and more games may be added to a folder.
    """
    old = read_manifest(results_dir)
    if old is None:
        return manifest
    problems = []
    if old.get("game_name") != manifest["game_name"]:
        problems.append(f"game {old.get('game_name')!r} vs {manifest['game_name']!r}")
    if old.get("seed") != manifest["seed"]:
        problems.append(f"seed {old.get('seed')} vs {manifest['seed']}")
    for name, info in manifest["variants"].items():
        prev = old.get("variants", {}).get(name)
        problem = prev and _variant_problem(name, prev, info)
        if problem:
            problems.append(problem)
    if problems:
        raise InputError(results_dir, None, "holds results of a different experiment or engine ("
                         + "; ".join(problems) + "); its rows cannot be mixed with these: choose another "
                         "--out or delete the folder to start afresh")
    return {**manifest, "variants": {**old.get("variants", {}), **manifest["variants"]},
            "runs": [*old.get("runs", []), *manifest["runs"]]}


def write_manifest(results_dir: Path, manifest: dict) -> None:
    tmp = results_dir / (MANIFEST + ".tmp")
    try:
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str))
        os.replace(tmp, results_dir / MANIFEST)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise RunError(results_dir / MANIFEST, None, f"cannot write the manifest: {_reason(err)}") from None


def scan(results_dir: Path, variant: str | None = None) -> pl.LazyFrame:
    """A lazy scan of all shards of an experiment (or one variant), refusing a game held twice."""
    results_dir = Path(results_dir)
    dirs = [results_dir / variant] if variant else sorted(p for p in results_dir.iterdir() if p.is_dir())
    groups = [[p for _, _, p in shard_ranges(variant_shards(d))] for d in dirs]
    if not any(groups):
        raise FileNotFoundError(f"{results_dir}: no shards")
    return scan_variants(groups)


def scan_variants(groups) -> pl.LazyFrame:
    """One lazy frame of several variants' shards (``groups``: one list of shard paths a variant).

    Variants may differ in their game-specific columns (Recall's per-game ``rc_tribe_<k>`` has a
    column per seat, so variants of 2 and 3 players differ): each variant's shards are scanned
    alone and the scans joined by column name, a column a variant lacks null in its rows
    (polars' ``diagonal_relaxed``, which also widens a column's type where variants differ).
    """
    scans = [pl.scan_parquet([str(p) for p in files], hive_partitioning=False) for files in groups if files]
    if not scans:
        raise FileNotFoundError("no shards")
    return scans[0] if len(scans) == 1 else pl.concat(scans, how="diagonal_relaxed")
