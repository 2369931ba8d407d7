"""Compare two variants (or experiments): which factions or seats does the change move, and how sure?

Why paired by default: two variants played with the same seed and game indices share every
random draw (deal, dice, strategy choices), so the outcome of game g under A and under B differ
only through the rule change. Comparing game g with game g (common random numbers) removes the
game-to-game noise that both share, and the same interval width needs fewer games (how many
fewer, measured on a real variant, is in docs/analyses.md). When pairing is impossible
(different seeds or game indices) the comparison falls back to tests for independent samples
and says so.

Tests, per value of ``by`` (faction, seat, strategy, ...), B minus A:

* win rate, paired: McNemar's exact test on the discordant games with Newcombe's square-and-add
  interval; when some wins are shared (fractional shares) a paired t-test on the share
  difference instead.
* win rate, unpaired: two-proportion z-test with Newcombe's hybrid score interval.
* score, paired: paired t-test (default) or Wilcoxon signed-rank, t interval, effect size d_z.
* score, unpaired: Welch's t-test (default) or Mann-Whitney U, Welch interval, Cohen's d.
* every score test counts a game once: a group's mean score per game (paired: its difference),
  never its rows, since the seats of one game share that game's luck.

Verdicts (one family per comparison): each group's win-rate change B - A gets one of three
words about the smallest change that matters, δ (``--min-edge`` or the A experiment's
``[analysis] min_edge``): **changed by more than δ** (its simultaneous interval lies beyond ±δ),
**no change of δ or more** (inside ±δ, an equivalence test), or **undecided** (with the games
that would decide it). The intervals are Bonferroni-simultaneous over the groups compared, as
on a report's verdict page (``analyses.verdicts``), so the chance that any word of the
comparison is wrong is at most 1 - level. Scores (points, no δ) keep Holm's correction within
their own table, outside the family. Per-game quantities (turns, rounds, mean score, score spread, margin of victory, shared-win rate)
are compared too, outside the families.
"""
from __future__ import annotations

import math

from dataclasses import dataclass, field

import numpy as np
import polars as pl
from scipy import stats

from analyses.intervals import (holm, newcombe_paired, newcombe_unpaired, t_interval, two_proportion_z,
                                welch_interval)
from analyses import fmt, scores as scores_mod, verdicts
from analyses.load import Results
from sim.core.errors import InputError


@dataclass
class Side:
    """One side of a comparison: a variant of a results set."""

    results: Results
    variant: str
    limit: int | None = None          # only games < limit (the games a sequential test used)

    @property
    def lf(self) -> pl.LazyFrame:
        return self.results.scan(self.variant, self.limit)

    @property
    def info(self):
        info = self.results.variants[self.variant]
        if self.limit is None or self.limit > info.last_game:
            return info
        from dataclasses import replace
        return replace(info, games=max(self.limit - info.first_game, 0), last_game=self.limit - 1)

    @property
    def label(self) -> str:
        return f"{self.results.experiment}:{self.variant}"


@dataclass
class Comparison:
    a: Side
    b: Side
    by: str
    paired: bool
    pairing: str                      # why paired or not, in words
    games_a: int
    games_b: int
    pairs: int                        # games compared game-by-game (0 when unpaired)
    wins: pl.DataFrame
    scores: pl.DataFrame
    length: pl.DataFrame
    level: float
    methods: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    family: verdicts.VerdictPage | None = None      # the win-rate verdicts, one line per group


CHANGED, NO_CHANGE = "changed", "no change"
WORDS = {verdicts.OUT: CHANGED, verdicts.BALANCED: NO_CHANGE, verdicts.UNDECIDED: verdicts.UNDECIDED}


def decide_changes(wins: pl.DataFrame, by: str, level: float, delta: float, games: int):
    """The comparison's verdicts: each group's win-rate change, one family (``analyses.verdicts``).

    The standard error is recovered from the width of the group's own interval (its test's,
    at ``level``); a zero width (identical sides) is a sure zero change. Returns the wins table
    with ``word`` (``WORDS``), ``v_lo``/``v_hi`` (simultaneous interval), ``p_claim``,
    ``games_to_decide`` and ``significant`` = changed, and the family."""
    zl = stats.norm.ppf(0.5 + level / 2)
    lines = [verdicts.Line("win rate B - A", str(r[by]), r["diff"], (r["hi"] - r["lo"]) / (2 * zl), int(r["n"]))
             for r in wins.iter_rows(named=True)]
    ok = [ln for ln in lines if math.isfinite(ln.se) and math.isfinite(ln.estimate)]
    family = verdicts.decide_page(ok, games, delta, 1 - level)
    got = {ln.group: ln for ln in family.lines}
    cols = {"word": [], "v_lo": [], "v_hi": [], "p_claim": [], "games_to_decide": []}
    for ln in lines:
        d = got.get(ln.group)
        cols["word"].append(WORDS[d.word] if d else fmt.NA)
        cols["v_lo"].append(d.lo if d else float("nan"))
        cols["v_hi"].append(d.hi if d else float("nan"))
        cols["p_claim"].append(d.p if d else float("nan"))
        cols["games_to_decide"].append(d.games_to_decide if d else None)
    out = wins.with_columns(*(pl.Series(k, v, dtype=pl.Int64 if k == "games_to_decide" else None)
                              for k, v in cols.items()))
    return out.with_columns(significant=pl.col("word") == CHANGED), family


def check_comparable(a: Side, b: Side) -> tuple[bool, str, tuple[int, int]]:
    """Refuse incomparable sides; decide whether they can be paired (and over which games)."""
    ia, ib = a.info, b.info
    if a.results.game_name != b.results.game_name:
        raise InputError(f"{a.label} vs {b.label}", "game_name",
                         f"different games: {a.results.game_name} vs {b.results.game_name}")
    if set(ia.players) != set(ib.players):
        raise InputError(f"{a.label} vs {b.label}", "players",
                         f"different player counts: {'/'.join(map(str, ia.players))} vs "
                         f"{'/'.join(map(str, ib.players))}")
    lo, hi = max(ia.first_game, ib.first_game), min(ia.last_game, ib.last_game)
    if ia.seed != ib.seed:
        return False, f"different seeds ({ia.seed} vs {ib.seed}): games are independent", (0, -1)
    if lo > hi:
        return False, "no game indices in common: games are independent", (0, -1)
    return True, (f"same seed {ia.seed} and game indices {lo}..{hi}: game g of A is paired with game g of B "
                  "(common random numbers)"), (lo, hi)


def _per_game_group(lf: pl.LazyFrame, by: str, lo: int, hi: int) -> pl.LazyFrame:
    return (lf.filter(pl.col("game").is_between(lo, hi))
            .group_by(["game", by]).agg(w=pl.col("win_share").sum(), k=pl.len().cast(pl.Float64),
                                        s=pl.col("score").cast(pl.Float64).mean(),
                                        players=pl.col("players").first()))


def paired_frame(a: Side, b: Side, by: str, lo: int, hi: int) -> pl.LazyFrame:
    """(game, group) rows present in both sides: w (the group's win share in the game), k (its
    seats), s (its mean score) for A and w_b, k_b, s_b for B."""
    j = _per_game_group(a.lf, by, lo, hi).join(_per_game_group(b.lf, by, lo, hi), on=["game", by], suffix="_b")
    return j


def _paired_stats(j: pl.LazyFrame, by: str) -> pl.DataFrame:
    dw = pl.col("w_b") - pl.col("w")
    ds = pl.col("s_b") - pl.col("s")
    one, zero = 1.0, 0.0
    return j.group_by(by).agg(
        n=pl.len(),
        both=((pl.col("w") == one) & (pl.col("w_b") == one)).sum(),
        only_a=((pl.col("w") == one) & (pl.col("w_b") == zero)).sum(),
        only_b=((pl.col("w") == zero) & (pl.col("w_b") == one)).sum(),
        neither=((pl.col("w") == zero) & (pl.col("w_b") == zero)).sum(),
        seats_a=pl.col("k").sum(), seats_b=pl.col("k_b").sum(), multi=(pl.max_horizontal("k", "k_b") > 1).any(),
        game_a=pl.col("w").mean(), game_b=pl.col("w_b").mean(), dw_sd=dw.std(),
        sa=pl.col("s").mean(), sb=pl.col("s_b").mean(), ds_mean=ds.mean(), ds_sd=ds.std(),
        bad_players=(pl.col("players") != pl.col("players_b")).sum(),
    ).sort(by).collect()


def _unpaired_stats(lf: pl.LazyFrame, by: str) -> pl.DataFrame:
    """Per group: rows n, games, win shares w, score mean s and sd s_sd (rows), and s_var, the
    game-clustered variance of the mean score (``scores.clustered_mean``)."""
    score = pl.col("score").cast(pl.Float64)
    rows = lf.group_by(by).agg(w=pl.col("win_share").sum(), s_sd=score.std()).collect()
    cm = scores_mod.clustered_mean(lf, by).rename({"mean": "s", "var": "s_var"})
    return cm.join(rows, on=by).select(by, "n", "games", "w", "s", "s_sd", "s_var").sort(by)


def game_scores(lf: pl.LazyFrame, by: str) -> dict:
    """Per group: its mean score in each game it plays, one value per game (games in order)."""
    per = (lf.group_by([by, "variant", "game"]).agg(s=pl.col("score").cast(pl.Float64).mean())
           .sort([by, "variant", "game"]).collect())
    return {k[0]: part["s"].to_numpy() for k, part in per.group_by([by], maintain_order=True)}


def unpaired_rank_p(lf_a: pl.LazyFrame, lf_b: pl.LazyFrame, by: str, groups: list) -> list:
    """Mann-Whitney U p-values per group, B against A, on the group's per-game mean scores.

    Why games, not rows: the seats a group fills in one game share that game's luck (length,
    tempo), so rows are not independent draws and a rank test on rows raises false alarms
    (6.6% at a nominal 5% in the A/A test of tests/test_analyses_compare.py, 3.7% on games)."""
    va, vb = game_scores(lf_a, by), game_scores(lf_b, by)
    return [float(stats.mannwhitneyu(vb[g], va[g]).pvalue) for g in groups]


def paired_rank_p(j: pl.LazyFrame, by: str, groups: list) -> list:
    """Wilcoxon signed-rank p-values per group on the per-game differences of the group's mean
    score (``paired_frame``: one row per game and group), so seats of one game count once."""
    d = j.select(by, (pl.col("s_b") - pl.col("s")).alias("d")).collect()
    out = []
    for g in groups:
        x = d.filter(pl.col(by) == g)["d"].to_numpy()
        out.append(float(stats.wilcoxon(x, zero_method="wilcox").pvalue) if np.any(x != 0) else 1.0)
    return out


def _finish(df: pl.DataFrame, level: float, p_col: str = "p") -> pl.DataFrame:
    p_holm = holm(df[p_col].to_numpy())
    return df.with_columns(p_holm=pl.Series(p_holm), significant=pl.Series(p_holm < 1 - level))


def _seat_rate_diff(j: pl.LazyFrame, st: pl.DataFrame, by: str):
    """Per-seat win rate difference B - A on paired games and its game-clustered standard error.

    rate = sum of win shares / seats (the report's win rate). The estimate is a ratio, so each
    game contributes the linearised residual e_g = (w_b - r_b k_b)/kbar_b - (w_a - r_a k_a)/kbar_a;
    var = sum e_g^2 / (n (n - 1)). With one seat per game this is the paired t-test on w_b - w_a.
    """
    n = st["n"].to_numpy().astype(float)
    ra, rb = st["rate_a"].to_numpy(), st["rate_b"].to_numpy()
    coef = pl.DataFrame({by: st[by], "_ra": ra, "_rb": rb, "_ka": st["seats_a"] / st["n"],
                         "_kb": st["seats_b"] / st["n"]})
    e = ((pl.col("w_b") - pl.col("_rb") * pl.col("k_b")) / pl.col("_kb")
         - (pl.col("w") - pl.col("_ra") * pl.col("k")) / pl.col("_ka"))
    ss = (j.join(coef.lazy(), on=by).group_by(by).agg(ss=(e * e).sum()).collect())
    ss = st.select(by).join(ss, on=by, how="left")["ss"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(ss / (n * (n - 1)))
    return rb - ra, se


def _paired_tables(st: pl.DataFrame, by: str, level: float, score_test: str, j: pl.LazyFrame):
    st = st.with_columns(rate_a=pl.col("game_a") * pl.col("n") / pl.col("seats_a"),
                         rate_b=pl.col("game_b") * pl.col("n") / pl.col("seats_b"))
    groups = st[by].to_list()
    n = st["n"].to_numpy().astype(float)
    both, oa, ob, nei = (st[c].to_numpy().astype(float) for c in ("both", "only_a", "only_b", "neither"))
    binary = ((both + oa + ob + nei) == n) & ~st["multi"].to_numpy()
    diff, se = _seat_rate_diff(j, st, by)
    tq = stats.t.ppf(0.5 + level / 2, np.maximum(n - 1, 1))
    lo_n, hi_n = newcombe_paired(both, ob, oa, nei, level)        # "1" = B, "2" = A: B - A
    p, lo, hi, method = [], [], [], []
    for i in range(len(groups)):
        if binary[i]:
            k, m = int(ob[i]), int(oa[i] + ob[i])
            p.append(stats.binomtest(k, m, 0.5).pvalue if m else 1.0)
            lo.append(lo_n[i]); hi.append(hi_n[i]); method.append("McNemar exact")
        else:
            tt = diff[i] / se[i] if se[i] > 0 else 0.0
            p.append(float(2 * stats.t.sf(abs(tt), n[i] - 1)) if n[i] > 1 else float("nan"))
            lo.append(diff[i] - tq[i] * se[i]); hi.append(diff[i] + tq[i] * se[i])
            method.append("paired t (several seats)" if st["multi"][i] else "paired t (shared wins)")
    wins = pl.DataFrame({by: groups, "n": st["n"], "rate_a": st["rate_a"], "rate_b": st["rate_b"],
                         "diff": diff, "lo": lo, "hi": hi, "p": p, "test": method,
                         "discordant": (oa + ob).astype(np.int64), "several_seats": st["multi"],
                         "game_a": st["game_a"], "game_b": st["game_b"]})
    dmean, dsd = st["ds_mean"].to_numpy(), st["ds_sd"].to_numpy()
    slo, shi = t_interval(dmean, dsd, n, level)
    with np.errstate(invalid="ignore", divide="ignore"):
        tstat = dmean / (dsd / np.sqrt(n))
        dz = dmean / dsd
    if score_test == "wilcoxon":
        sp = paired_rank_p(j, by, groups)
        sname = "Wilcoxon signed-rank (one difference per game)"
    else:
        sp = np.where(np.isfinite(tstat), 2 * stats.t.sf(np.abs(np.nan_to_num(tstat)), np.maximum(n - 1, 1)), 1.0)
        sname = "paired t"
    scores = _finish(pl.DataFrame({by: groups, "n": st["n"], "mean_a": st["sa"], "mean_b": st["sb"],
                                   "diff": dmean, "lo": slo, "hi": shi, "effect": dz, "p": np.asarray(sp, float),
                                   "test": [sname] * len(groups)}), level)
    return wins, scores


def _unpaired_tables(sa: pl.DataFrame, sb: pl.DataFrame, by: str, level: float, score_test: str,
                     a: Side, b: Side):
    j = sa.join(sb, on=by, suffix="_b").sort(by)
    groups = j[by].to_list()
    na, nb = j["n"].to_numpy().astype(float), j["n_b"].to_numpy().astype(float)
    xa, xb = j["w"].to_numpy(), j["w_b"].to_numpy()
    lo, hi = newcombe_unpaired(xb, nb, xa, na, level)
    _z, p = two_proportion_z(xb, nb, xa, na)
    wins = pl.DataFrame({by: groups, "n": j["n"], "n_b": j["n_b"], "rate_a": xa / na, "rate_b": xb / nb,
                         "diff": xb / nb - xa / na, "lo": lo, "hi": hi, "p": p,
                         "test": ["two-proportion z"] * len(groups),
                         "several_seats": (j["n"] > j["games"]) | (j["n_b"] > j["games_b"]),
                         "game_a": xa / j["games"].to_numpy(), "game_b": xb / j["games_b"].to_numpy()})
    ma, mb, sda, sdb = j["s"].to_numpy(), j["s_b"].to_numpy(), j["s_sd"].to_numpy(), j["s_sd_b"].to_numpy()
    # Welch on the game-clustered variances: sd_eff^2 / games = s_var, with games - 1 df per side
    ga, gb = j["games"].to_numpy().astype(float), j["games_b"].to_numpy().astype(float)
    ea, eb = np.sqrt(j["s_var"].to_numpy() * ga), np.sqrt(j["s_var_b"].to_numpy() * gb)
    slo, shi, _df = welch_interval(mb, eb, gb, ma, ea, ga, level)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled_sd = np.sqrt(((na - 1) * sda ** 2 + (nb - 1) * sdb ** 2) / (na + nb - 2))
        d = (mb - ma) / pooled_sd
    if score_test == "wilcoxon":
        sp = unpaired_rank_p(a.lf, b.lf, by, groups)
        sname = "Mann-Whitney U (one mean per game)"
    else:
        sp = [float(stats.ttest_ind_from_stats(mb[i], eb[i], gb[i], ma[i], ea[i], ga[i], equal_var=False).pvalue)
              for i in range(len(groups))]
        sname = "Welch t (games as clusters)" if bool(((j["n"] > j["games"]) | (j["n_b"] > j["games_b"])).any()) \
            else "Welch t"
    scores = _finish(pl.DataFrame({by: groups, "n": j["n"], "n_b": j["n_b"], "mean_a": ma, "mean_b": mb,
                                   "diff": mb - ma, "lo": slo, "hi": shi, "effect": d, "p": np.asarray(sp, float),
                                   "test": [sname] * len(groups)}), level)
    return wins, scores


PER_GAME = ("turns", "rounds", "mean_score", "score_spread", "margin", "shared_win", "tie_broken")


def _per_game(lf: pl.LazyFrame, lo: int | None = None, hi: int | None = None) -> pl.LazyFrame:
    """One row per game: ``scores.game_outcomes`` (the one definition of margin and shared win)."""
    if lo is not None:
        lf = lf.filter(pl.col("game").is_between(lo, hi))
    return scores_mod.game_outcomes(lf).drop("variant")


def _length_table(a: Side, b: Side, paired: bool, lo: int, hi: int, level: float) -> pl.DataFrame:
    """Per-game measures (``PER_GAME``), B - A: paired t on the same games, else Welch."""
    if paired:                       # lo..hi: the paired game range; unpaired sides use all their games
        ga, gb = _per_game(a.lf, lo, hi), _per_game(b.lf, lo, hi)
    else:
        ga, gb = _per_game(a.lf), _per_game(b.lf)
    if paired:
        joined = ga.join(gb, on="game", suffix="_b").collect()
    else:
        da, db = ga.collect(), gb.collect()
    rows = []
    for col in PER_GAME:
        if paired:
            xa, xb = joined[col].to_numpy(), joined[f"{col}_b"].to_numpy()
            n, ma, mb, sd = len(xa), float(xa.mean()), float(xb.mean()), float(np.std(xb - xa, ddof=1))
            l, h = t_interval(mb - ma, sd, n, level)
            t = (mb - ma) / (sd / np.sqrt(n)) if sd else 0.0
            p = float(2 * stats.t.sf(abs(t), n - 1)) if n > 1 and sd else (1.0 if n > 1 else float("nan"))
            test = "paired t"
        else:
            xa, xb = da[col].to_numpy(), db[col].to_numpy()
            n, ma, mb = len(xa), float(xa.mean()), float(xb.mean())
            sa, sb = float(np.std(xa, ddof=1)), float(np.std(xb, ddof=1))
            l, h, _ = welch_interval(mb, sb, len(xb), ma, sa, n, level)
            p = float(stats.ttest_ind_from_stats(mb, sb, len(xb), ma, sa, n, equal_var=False).pvalue) \
                if sa or sb else 1.0
            test = "Welch t"
        rows.append({"measure": col, "n": int(n), "mean_a": ma, "mean_b": mb, "diff": mb - ma,
                     "lo": float(l), "hi": float(h), "p": p, "test": test})
    return pl.DataFrame(rows)


def _pairing_gain(a: Side, b: Side, by: str, lo: int, hi: int, level: float, wins, scores):
    """Add ``gain``: (unpaired interval width / paired width)^2 on the same games, i.e. how many
    times as many games an unpaired design would need for the same interval width."""
    sa = _unpaired_stats(a.lf.filter(pl.col("game").is_between(lo, hi)), by)
    sb = _unpaired_stats(b.lf.filter(pl.col("game").is_between(lo, hi)), by)
    uw, us = _unpaired_tables(sa, sb, by, level, "t", a, b)
    out = []
    for paired, unpaired in ((wins, uw), (scores, us)):
        widths = unpaired.select(by, (pl.col("hi") - pl.col("lo")).alias("unpaired_width"))
        t = paired.join(widths, on=by, how="left")
        out.append(t.with_columns(gain=(pl.col("unpaired_width") / (pl.col("hi") - pl.col("lo"))) ** 2))
    return out[0], out[1]


def compare(a: Side, b: Side, by: str, paired: bool | None = None, score_test: str = "t",
            level: float = 0.95, min_edge: float = verdicts.MIN_EDGE) -> Comparison:
    """Compare B against A per value of ``by``; ``paired=None`` pairs whenever possible;
    ``min_edge``: the smallest win-rate change that matters (δ of the verdicts, a fraction)."""
    can_pair, reason, (lo, hi) = check_comparable(a, b)
    for side in (a, b):
        if by not in side.lf.collect_schema():
            raise InputError(side.label, f"column {by!r}", "no such column in the results")
    if paired and not can_pair:
        raise InputError(f"{a.label} vs {b.label}", "--paired", f"cannot pair: {reason}")
    use_pair = can_pair if paired is None else paired
    if not use_pair and can_pair:
        reason = "pairing possible but not requested (--unpaired): games treated as independent"
    notes = []
    if use_pair:
        j = paired_frame(a, b, by, lo, hi)
        st = _paired_stats(j, by)
        bad = int(st["bad_players"].sum())
        if bad:
            raise InputError(f"{a.label} vs {b.label}", "players",
                             f"different player counts in {bad} paired games: cannot pair these results")
        wins, scores = _paired_tables(st, by, level, score_test, j)
        wins, scores = _pairing_gain(a, b, by, lo, hi, level, wins, scores)
        pairs = int(a.lf.filter((pl.col("seat") == 0) & pl.col("game").is_between(lo, hi))
                    .join(b.lf.filter(pl.col("seat") == 0).select("game"), on="game").select(pl.len())
                    .collect().item())
        methods = [_win_methods(wins),
                   f"score: {'Wilcoxon signed-rank test on per-game differences' if score_test == 'wilcoxon' else 'paired t-test'}, "
                   "t interval of the mean difference, effect size d_z = mean/sd of differences"]
    else:
        sa, sb = _unpaired_stats(a.lf, by), _unpaired_stats(b.lf, by)
        wins, scores = _unpaired_tables(sa, sb, by, level, score_test, a, b)
        pairs = 0
        methods = ["win rate per seat: two-proportion z-test, Newcombe hybrid score interval",
                   f"score: {'Mann-Whitney U test on per-game means' if score_test == 'wilcoxon' else 'Welch t-test'}, "
                   "Welch interval, effect size Cohen's d (pooled sd)"]
        only = set(sa[by].to_list()) ^ set(sb[by].to_list())
        if only:
            notes.append(f"not in both: {', '.join(map(str, sorted(only)))}")
    if by == "seat":                  # designers count seats from 1 ("the 1st player"); rows keep 0
        wins, scores = (t.with_columns(pl.format("seat {}", pl.col(by) + 1).alias(by)) for t in (wins, scores))
    wins, family = decide_changes(wins, by, level, min_edge,
                                  pairs if use_pair else a.info.games + b.info.games)
    k = wins.height
    lv = int(round(level * 100))
    methods.append(f"verdicts: the {k} {by} values compared are one family: simultaneous {lv}% intervals of the "
                   f"win-rate change (Bonferroni, each at {100 - (100 - lv) / max(k, 1):.2f}%), so the chance that "
                   f"any word is wrong is at most {100 - lv}%; score: Holm correction across the {k} values "
                   "(its own table, outside the family); B - A everywhere")
    length = _length_table(a, b, use_pair, lo, hi, level)
    return Comparison(a, b, by, use_pair, reason, a.info.games, b.info.games, pairs, wins, scores, length,
                      level, methods, notes, family)


def _win_methods(wins: pl.DataFrame) -> str:
    """The paired win-rate methods actually used, with the groups each applies to."""
    parts = []
    for test, text in (("McNemar exact", "McNemar exact test with Newcombe square-and-add interval"),
                       ("paired t (shared wins)", "paired t-test on the per-game share difference (some wins "
                                                  "shared), t interval"),
                       ("paired t (several seats)", "paired t-test on the per-game difference of win shares "
                                                    "over seats (the group fills several seats), t interval")):
        used = wins.filter(pl.col("test") == test)
        if used.height == wins.height:
            parts.append(f"{text} (every row)")
        elif used.height:
            parts.append(f"{text} ({used.height} of {wins.height} rows)")
    return "win rate per seat: " + "; ".join(parts)


_fmt_p = fmt.p_value


def _gain(x: float) -> str:
    """A pairing gain as text; infinite when the paired differences are all zero."""
    return f"{x:.1f}x" if math.isfinite(x) else "unboundedly more (paired differences all zero)"


def verdict_lines(c: Comparison) -> list:
    """The comparison's verdict in words: a headline and one line per group, largest change first."""
    d = fmt.number(c.family.delta, 1, 100)
    unit = "paired games" if c.paired else "games in all (A + B)"
    items = []
    for ln in c.family.lines:
        est = f"{fmt.signed(ln.estimate, 1, 100)} pp {fmt.interval(ln.lo, ln.hi, 1, 100)}"
        if ln.word == verdicts.OUT:
            items.append(f"[CHANGED] {ln.group}: changed by more than {d} pp, {est} (comparison-corrected p "
                         f"{fmt.p_value(ln.p)})")
        elif ln.word == verdicts.BALANCED:
            items.append(f"[  SAME ] {ln.group}: no change of {d} pp or more, {est} (comparison-corrected p "
                         f"{fmt.p_value(ln.p)})")
        else:
            more = (f"about {ln.games_to_decide:,} {unit} would decide it" if ln.games_to_decide
                    else f"sits on the ±{d} pp edge: far more games needed")
            items.append(f"[   ?   ] {ln.group}: undecided, {est}; {more}")
    changed = [ln.group for ln in c.family.lines if ln.word == verdicts.OUT]
    undecided = sum(ln.word == verdicts.UNDECIDED for ln in c.family.lines)
    if changed:
        head = f"B changes the win rate of {', '.join(changed)} by more than {d} pp."
    elif not undecided:
        head = f"B changes no {c.by}'s win rate by {d} pp or more (all {len(c.family.lines)} decided)."
    else:
        head = (f"No {c.by}'s win rate shown changed by more than {d} pp; {undecided} of {len(c.family.lines)} "
                "undecided (more games would tell).")
    return [f"VERDICT: {head}"] + items + [
        f"(win rate per seat, B - A; [interval] = simultaneous {int(round(c.level * 100))}% interval over the "
        f"{len(c.family.lines)} {c.by} values, one family; ±{d} pp = the smallest change that matters, --min-edge)"]


def _word_text(word: str, d: str) -> str:
    return {CHANGED: f"changed by > {d} pp", NO_CHANGE: f"no change of {d} pp+"}.get(word, word)


def format_comparison(c: Comparison) -> str:
    """The comparison as plain text: what was compared, how, and the per-group tables."""
    a, b = c.a, c.b
    N, S, I, P = fmt.number, fmt.signed, fmt.interval, fmt.p_value
    lines = [f"A = {a.label} ({c.games_a:,} games, config {a.info.config_hash})",
             f"B = {b.label} ({c.games_b:,} games, config {b.info.config_hash})",
             f"{'paired' if c.paired else 'unpaired'}: {c.pairing}"
             + (f"; {c.pairs:,} paired games" if c.paired else "")]
    lines.append("")
    lines += verdict_lines(c)
    lines.append("")
    lines += [f"method: {m}" for m in c.methods] + [f"note: {n}" for n in c.notes]
    lines.append("")
    lv = int(round(c.level * 100))
    d = fmt.number(c.family.delta, 1, 100)
    lines.append(f"win rate per seat by {c.by} (win shares / seats, percentage points, B - A; {lv}% interval and p "
                 "of each group's own test; the verdict uses the simultaneous interval above)")
    head = (f"{c.by:<20} {'n':>8} {'A %':>7} {'B %':>7} {'B-A pp':>8} {f'{lv}% interval':>18} {'p':>8}  "
            f"{'verdict':<24}")
    lines.append(head)
    for r in c.wins.iter_rows(named=True):
        lines.append(f"{str(r[c.by]):<20} {r['n']:>8,} {N(r['rate_a'], 2, 100):>7} {N(r['rate_b'], 2, 100):>7} "
                     f"{S(r['diff'], 2, 100):>8} {I(r['lo'], r['hi'], 2, 100):>18} "
                     f"{P(r['p']):>8}  {_word_text(r['word'], d):<24}{r['test']}")
    multi = c.wins.filter(pl.col("several_seats"))
    if multi.height:
        lines.append(f"wins the game (share of games some seat of the {c.by} wins; it fills several seats): "
                     + "; ".join(f"{r[c.by]} A {N(r['game_a'], 1, 100)}% B {N(r['game_b'], 1, 100)}%"
                                 for r in multi.iter_rows(named=True)))
    lines.append("")
    lines.append(f"score by {c.by} (points, B - A; effect = {'d_z' if c.paired else 'Cohen d'})")
    lines.append(f"{c.by:<20} {'n':>8} {'A':>8} {'B':>8} {'B-A':>8} {'95% interval':>18} {'effect':>7} "
                 f"{'p':>8} {'p Holm':>8}")
    for r in c.scores.iter_rows(named=True):
        lines.append(f"{str(r[c.by]):<20} {r['n']:>8,} {N(r['mean_a']):>8} {N(r['mean_b']):>8} {S(r['diff']):>8} "
                     f"{I(r['lo'], r['hi']):>18} {S(r['effect'], 3):>7} {P(r['p']):>8} "
                     f"{P(r['p_holm']):>8}")
    if c.paired and "gain" in c.wins.columns:
        gw, gs = c.wins["gain"].drop_nans().median(), c.scores["gain"].drop_nans().median()
        if gw is not None and gs is not None:
            lines.append(f"pairing gain: an unpaired design would need {_gain(gw)} (win rate per seat) and "
                         f"{_gain(gs)} (score) as many games for intervals this narrow (median over groups, "
                         "same games, same quantities)")
    lines.append("")
    lines.append("per game (B - A; outside the verdict family and the score table's Holm; after tie-breaks): "
                 "length, mean score, "
                 "spread = best - worst, margin = winner's score - best non-winner's (0 when shared), "
                 "shared_win = share of games with a shared win, tie_broken = share won on a tie-break")
    for r in c.length.iter_rows(named=True):
        d = 4 if r["measure"] in ("shared_win", "tie_broken") else 2
        lines.append(f"{r['measure']:<20} {r['n']:>8,} {N(r['mean_a'], d):>8} {N(r['mean_b'], d):>8} "
                     f"{S(r['diff'], d):>8} {I(r['lo'], r['hi'], d):>18} {P(r['p']):>8}  ({r['test']})")
    lines.append("p Holm (score): Holm within the score table; points have no ±δ and are outside the verdict family")
    return "\n".join(lines)
