"""Win rates by any column or pair of columns, tests of fairness, seat advantage, Ludii's Balance.

Why win *share*: a game's win is split equally among the k seats that share first place, so
every game hands out exactly one win and a group's win rate is the mean of its rows'
``win_share``. The fair share of a row is 1/players; a group's fair share is the mean over its
rows, which handles experiments that mix player counts. Everything is one lazy polars
aggregation over all shards; only the small per-group table is materialised.

The test of equal win rates needs care: the seats of one game are not independent (their win
shares sum to 1), so the naive groups x {win, loss} chi-square overstates the evidence (by a
factor 2 for a two-faction game). We use a Wald test with game-clustered (sandwich)
covariance: it is exact in structure for any design (mirror matches, mixed player counts,
ties) and equals statsmodels' cluster-robust OLS Wald test; see docs/analyses.md.
"""
from __future__ import annotations

import itertools

import numpy as np
import polars as pl
from scipy import stats

from analyses.intervals import holm, wilson

MAX_TEST_GROUPS = 40   # the clustered test builds k*(k+1)/2 sums; beyond this it is skipped
PERMUTATION_GAMES = 1000   # below this many games the equal-rates test is a permutation test
PERMUTATIONS = 999


def _as_list(by) -> list[str]:
    return [by] if isinstance(by, str) else list(by)


def group_sums(lf: pl.LazyFrame, by) -> pl.LazyFrame:
    """Lazy per-group sufficient statistics of win shares (rows, wins, fair share, variance)."""
    by = _as_list(by)
    fair = 1.0 / pl.col("players").cast(pl.Float64)
    return (lf.group_by(by).agg(
        rows=pl.len(),
        games=pl.col("game").n_unique(),
        wins=pl.col("win_share").sum(),
        fair_sum=fair.sum(),
        fair_var=(fair * (1 - fair)).sum(),
        shared=((pl.col("win_share") > 0) & (pl.col("win_share") < 1)).sum(),
    ).sort(by))


def finish_rates(sums: pl.DataFrame, by, level: float = 0.95) -> pl.DataFrame:
    """Add rates, Wilson intervals, fair share, score test vs fair share and Holm to sums."""
    n = sums["rows"].to_numpy().astype(float)
    wins = sums["wins"].to_numpy()
    fair = sums["fair_sum"].to_numpy() / n
    lo, hi = wilson(wins, n, level)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (wins - sums["fair_sum"].to_numpy()) / np.sqrt(sums["fair_var"].to_numpy())
    p = 2 * stats.norm.sf(np.abs(z))
    p_holm = holm(p)
    return sums.select(_as_list(by) + ["rows", "games", "wins", "shared"]).with_columns(
        win_rate=pl.Series(wins / n), game_rate=pl.Series(wins / sums["games"].to_numpy()), lo=pl.Series(lo), hi=pl.Series(hi), fair=pl.Series(fair),
        excess=pl.Series(wins / n - fair), z=pl.Series(z), p=pl.Series(p), p_holm=pl.Series(p_holm),
        significant=pl.Series(p_holm < 1 - level),
    )


def win_rates(lf: pl.LazyFrame, by, level: float = 0.95) -> pl.DataFrame:
    """Win rate (ties split) per value of ``by`` (a column or a list of columns).

    Columns: the ``by`` columns, rows, games (games the group is in), wins, shared (rows with a
    shared win), win_rate (per seat: wins / rows), game_rate ("wins the game": wins / games, the
    share of its games that some seat of the group wins; equal to win_rate unless the group fills
    several seats of a game), lo, hi (Wilson, of win_rate), fair (mean 1/players), excess (win_rate - fair), z and p (score test of
    win_rate = fair, the test whose acceptance region is the Wilson interval), p_holm (Holm over
    the groups of this table) and significant (p_holm < 1 - level).
    """
    return finish_rates(group_sums(lf, by).collect(), by, level)


def _group_key(by: list[str]) -> pl.Expr:
    if len(by) == 1:
        return pl.col(by[0]).cast(pl.String)
    return pl.concat_str([pl.col(c).cast(pl.String) for c in by], separator=" | ")


def equal_rates_test(lf: pl.LazyFrame, by, rates: pl.DataFrame | None = None) -> dict | None:
    """Chi-square test that every group's win rate exceeds its fair share by the same amount.

    With one player count this is the test of equal win rates. H0: e_1 = ... = e_k where e_g is
    the expected (win share - 1/players) of group g. Statistic: Wald chi-square of the k-1
    contrasts e_g - e_k with the cluster-robust covariance (games as clusters, residuals
    centred at the group means, no small-sample factor), df = rank of the contrast covariance.
    Returns None when there are fewer than 2 groups or more than MAX_TEST_GROUPS.

    The Wald test is liberal in small runs (12% rejections at 60 games with six factions in
    three-player games, 8% at 150; nominal 5%), so below ``PERMUTATION_GAMES`` games the p-value
    comes from a permutation test instead (``_permutation_p``); the statistic is still reported.
    """
    by = _as_list(by)
    if rates is None:
        rates = win_rates(lf, by)
    k = rates.height
    if k < 2 or k > MAX_TEST_GROUPS:
        return None
    keys = rates.select(_group_key(by).alias("_g"))["_g"].to_list()
    excess = rates["excess"].to_numpy()
    n = rates["rows"].to_numpy().astype(float)
    table = pl.LazyFrame({"_g": keys, "_gid": list(range(k)), "_e": excess.tolist()},
                         schema={"_g": pl.String, "_gid": pl.Int32, "_e": pl.Float64})
    resid = (lf.with_columns(_g=_group_key(by))
             .join(table, on="_g", how="inner")
             .with_columns(_r=pl.col("win_share") - 1.0 / pl.col("players").cast(pl.Float64) - pl.col("_e")))
    game_key = ["variant", "game"]
    per_game = resid.group_by(game_key).agg(
        [pl.when(pl.col("_gid") == g).then(pl.col("_r")).otherwise(0.0).sum().alias(f"r{g}")
         for g in range(k)])
    pairs = [(g, h) for g in range(k) for h in range(g, k)]
    meat_row = per_game.select([(pl.col(f"r{g}") * pl.col(f"r{h}")).sum().alias(f"m{g}_{h}")
                                for g, h in pairs]).collect()
    meat = np.zeros((k, k))
    for g, h in pairs:
        meat[g, h] = meat[h, g] = meat_row[f"m{g}_{h}"][0]
    cov = meat / np.outer(n, n)
    R = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    diff = R @ excess
    V = R @ cov @ R.T
    rank = int(np.linalg.matrix_rank(V, tol=1e-12 * max(np.abs(V).max(), 1e-300)))
    stat = float(diff @ np.linalg.pinv(V, rcond=1e-12) @ diff) if rank else 0.0
    df = max(rank, 1)
    games = int(lf.select(pl.struct(game_key).n_unique()).collect().item())
    if games < PERMUTATION_GAMES:
        rows = resid.select(game_key + ["_gid", (pl.col("_r") + pl.col("_e")).alias("_x")]).collect()
        p = _permutation_p(rows, k)
        return {"statistic": stat, "df": df, "p": p, "groups": k,
                "method": f"permutation test ({PERMUTATIONS} shuffles of the groups among the seats of each game; "
                          f"under {PERMUTATION_GAMES} games the clustered Wald test is liberal)"}
    return {"statistic": stat, "df": df, "p": float(stats.chi2.sf(stat, df)), "groups": k,
            "method": "Wald chi-square of equal (win rate - fair share), games as clusters"}


def _between(lab: np.ndarray, x: np.ndarray, n: np.ndarray, k: int) -> np.ndarray:
    """sum_g S_g^2 / n_g for each row of labels ``lab`` [B, N] (S_g = summed excess of group g)."""
    B = lab.shape[0]
    sums = np.bincount((lab + k * np.arange(B)[:, None]).ravel(), weights=np.tile(x, B), minlength=B * k)
    return (sums.reshape(B, k) ** 2 / np.maximum(n, 1)).sum(axis=1)


def _permutation_p(rows: pl.DataFrame, k: int, seed: int = 0) -> float:
    """Permutation p-value of equal excess across groups: the group labels are shuffled among
    the seats of each game (which keeps every game's design: its seats, player count and how
    many seats each group fills) and the statistic sum_g S_g^2 / n_g (S_g = the group's summed
    excess) is compared with its permutation distribution; p = (1 + #{T* >= T}) / (1 + B).
    A fixed seed: the same results always give the same p."""
    game = rows.select(pl.struct("variant", "game").rank("dense")).to_series().to_numpy()
    order = np.argsort(game, kind="stable")
    game, label, x = game[order], rows["_gid"].to_numpy()[order], rows["_x"].to_numpy()[order]
    n = np.bincount(label, minlength=k).astype(float)
    size = np.bincount(game)[game]                    # rows of each row's game
    rng = np.random.default_rng(seed)
    t_obs = _between(label[None, :], x, n, k)[0]
    labs, xs = [], []
    for c in np.unique(size):                         # games with c rows: shuffle each game's c labels
        sel = size == c
        block = label[sel].reshape(-1, c)
        if c <= 6:                                    # draw among all c! orders: no sort needed
            orders = np.array(list(itertools.permutations(range(c))), dtype=np.int8)
            shuffle = orders[rng.integers(0, len(orders), (PERMUTATIONS, block.shape[0]))]
        else:
            shuffle = np.argsort(rng.random((PERMUTATIONS,) + block.shape), axis=2)
        labs.append(np.take_along_axis(block[None], shuffle, axis=2).reshape(PERMUTATIONS, -1))
        xs.append(x[sel])
    t = _between(np.hstack(labs), np.concatenate(xs), n, k)
    return float((1 + np.sum(t >= t_obs - 1e-12 * abs(t_obs))) / (1 + PERMUTATIONS))


def shared_wins(lf: pl.LazyFrame, level: float = 0.95) -> dict:
    """Share of games whose win is shared (Ludii's drawishness for games without draws).

    A shared game hands out fractional shares that sum to 1, an unshared one none, so the number
    of shared games is the sum of the fractional shares: no per-game grouping needed.
    """
    row = lf.select(
        games=(pl.col("seat") == 0).sum(),
        shared=pl.col("win_share").filter((pl.col("win_share") > 0) & (pl.col("win_share") < 1)).sum(),
    ).collect()
    games, shared = int(row["games"][0]), float(row["shared"][0] or 0.0)
    shared = round(shared)
    lo, hi = wilson(shared, games, level)
    return {"games": games, "shared": shared, "share": shared / games if games else float("nan"),
            "lo": float(lo), "hi": float(hi)}


BOOT_BLOCKS, BOOT_DRAWS = 2000, 1000


def rank_utility(players: pl.Expr | None = None) -> pl.Expr:
    """Ludii's rank utility mapped to [0, 1]: 1 - (rank - 1)/(players - 1), tied seats taking the
    mean of the ranks they share (Ludii's RankUtils); 1 for a sole winner, 0 for a sole last."""
    tied = pl.len().over(["variant", "game", "rank"]).cast(pl.Float64)   # seats sharing the rank
    mean_rank = pl.col("rank").cast(pl.Float64) + (tied - 1) / 2
    n = pl.col("players").cast(pl.Float64) if players is None else players
    return 1 - (mean_rank - 1) / (n - 1)


def ludii_balance(lf: pl.LazyFrame, level: float = 0.95, seed: int = 0) -> pl.DataFrame:
    """Ludii's Balance per player count: 1 - the largest difference between two seats' mean
    rank utility (``rank_utility``; with two players that is the win rate, draws half).

    With a bootstrap interval over games (percentile; games resampled in up to BOOT_BLOCKS
    blocks of consecutive game indices, games being independent) and ``fair_floor``, the median
    Balance a perfectly fair game of this size shows (the same bootstrap with every seat's
    utilities centred on the common mean): sampling noise alone keeps Balance below 1. Summed
    per (block, seat) in one lazy pass; only those sums are materialised.
    """
    games = (lf.filter((pl.col("players") > 1) & (pl.col("seat") == 0)).group_by("players")
             .agg(g0=pl.col("game").min(), g1=pl.col("game").max(), G=pl.len()).collect())
    span = {int(r["players"]): r for r in games.iter_rows(named=True)}
    nb_of = {p: min(BOOT_BLOCKS, int(r["G"])) for p, r in span.items()}
    block = ((pl.col("game") - pl.col("_g0")) * pl.col("_nb") // (pl.col("_g1") - pl.col("_g0") + 1))
    table = pl.LazyFrame({"players": list(span), "_g0": [span[p]["g0"] for p in span],
                          "_g1": [span[p]["g1"] for p in span], "_nb": [nb_of[p] for p in span]},
                         schema={"players": lf.collect_schema()["players"], "_g0": pl.Int64, "_g1": pl.Int64,
                                 "_nb": pl.Int64})
    sums_all = (lf.filter(pl.col("players") > 1).with_columns(_u=rank_utility())
                .join(table, on="players")
                .with_columns(_b=block)
                .group_by(["players", "_b", "seat"]).agg(u=pl.col("_u").sum(), c=pl.len()).collect())
    out = []
    rng = np.random.default_rng(seed)
    for (players,), part in sums_all.group_by(["players"], maintain_order=True):
        nb = nb_of[int(players)]
        k = int(part["seat"].max()) + 1
        idx = part["_b"].to_numpy().astype(np.int64) * k + part["seat"].to_numpy().astype(np.int64)
        sums = np.bincount(idx, weights=part["u"].to_numpy(), minlength=nb * k).reshape(nb, k)
        cnt = np.bincount(idx, weights=part["c"].to_numpy().astype(float), minlength=nb * k).reshape(nb, k)

        def balance(s, c):
            with np.errstate(invalid="ignore", divide="ignore"):
                m = s / c
            return 1 - (np.nanmax(m, axis=-1) - np.nanmin(m, axis=-1))

        est = float(balance(sums.sum(0), cnt.sum(0)))
        w = rng.multinomial(nb, np.full(nb, 1 / nb), size=BOOT_DRAWS).astype(float)       # [B, blocks]
        boot = balance(w @ sums, w @ cnt)
        centred = sums - cnt * (sums.sum(0) / cnt.sum(0))[None, :]                          # every seat fair
        floor = balance(w @ centred + (w @ cnt) * (sums.sum() / cnt.sum()), w @ cnt)
        a = (1 - level) / 2
        out.append({"players": int(players), "seats": k, "balance": est, "lo": float(np.quantile(boot, a)),
                    "hi": float(np.quantile(boot, 1 - a)), "fair_floor": float(np.median(floor))})
    return pl.DataFrame(out)


def seat_advantage(lf: pl.LazyFrame, level: float = 0.95) -> pl.DataFrame:
    """Win rate by player count and seat (turn order), with the excess over 1/players.

    The first row of each player count (seat 0) is the first-player advantage; ``adv_lo`` and
    ``adv_hi`` bound the excess (Wilson interval minus the fair share).
    """
    rates = win_rates(lf, ["players", "seat"], level)
    return rates.with_columns(adv_lo=pl.col("lo") - pl.col("fair"), adv_hi=pl.col("hi") - pl.col("fair"))
