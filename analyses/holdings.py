"""Content held at the end: does holding a card at the end go with winning, and by how much?

Why: a designer who edits a card wants to see its effect in the next report. In a card game the
whole deck is in play in every game, so "games with vs without the card" (analyses.features)
says nothing; what differs between seats is which cards they end up holding. A game declares a
per-seat text column listing them (``GAME.report_held = (("card", "rr_hand"),)``: Red Rising's
``rr_hand`` = the card ids in hand at the end, ';'-joined).

For each value c (per player count; automa seats left out, they follow other rules), the *lift*
is the mean win share of the seats holding c minus that of the other seats, in percentage
points (ties split), with the same for the final score. The seats of one game are not
independent, so the variance is the cluster-robust one with games as clusters (delta method for
the two ratio estimators): with H = holders' seats, O = the others, r_H = W_H / N_H and per game
u_g = (w_Hg − r_H n_Hg)/N_H, v_g = (w_Og − r_O n_Og)/N_O, var(lift) = Σ_g (u_g − v_g)²; games
in which nobody holds c contribute only v_g, summed from per-count totals. Wald interval and
test, Holm over the values of each player count.

This is an association, not the card's effect on the game: strategies keep the cards that pay,
and a seat that is winning may hold more cards. It tells which cards the winners hold, and how
that changes when a card is edited (compare two reports).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl
from scipy import stats

from analyses.features import natural_key
from analyses.intervals import holm


@dataclass(frozen=True)
class Held:
    """A game's declaration: per-seat ``column`` lists the values a seat holds at the end."""

    name: str
    column: str
    sep: str = ";"
    uses_prefix: str | None = None   # per-seat ``<prefix><value>``: how often the seat used the value (activations)


@dataclass
class HeldAnalysis:
    held: Held
    level: float
    table: pl.DataFrame          # value, players, holders, share_held, win_h, win_o, lift, lo, hi, p, p_holm,
    #                              significant, score_h, score_o, score_lift, score_lo, score_hi
    notes: list = field(default_factory=list)
    uses: pl.DataFrame | None = None   # value, players, holders, uses_mean, uses_lo, uses_hi, users, uses_other


def declared_held(game_name: str) -> list:
    """The held-content declarations of a game (``GAME.report_held``); [] if none or unknown."""
    try:
        from sim.core.game import get_game
        game = get_game(game_name)
    except (KeyError, ImportError, AttributeError):
        return []
    return [h if isinstance(h, Held) else Held(*h) for h in (getattr(game, "report_held", None) or ())]


def _lift(per: pl.DataFrame, tot: pl.DataFrame, y: str, z: float) -> pl.DataFrame:
    """Lift of holders over the others in column sums ``{y}_h`` (per game and value) and the
    per-count totals; clustered delta-method variance (module doc)."""
    col = pl.col
    base = per.group_by("players", "value").agg(N_h=col("n_h").sum(), Y_h=col(f"{y}_h").sum(), games_h=pl.len())
    base = base.join(tot, on="players")
    base = base.with_columns(N_o=col("N") - col("N_h"), Y_o=col(f"{y}_s") - col("Y_h")).with_columns(
        r_h=col("Y_h") / col("N_h"), r_o=col("Y_o") / col("N_o"))
    held = per.join(base.select("players", "value", "r_h", "r_o", "N_h", "N_o"), on=["players", "value"]).with_columns(
        d=(col(f"{y}_h") - col("r_h") * col("n_h")) / col("N_h")
        - ((col(f"{y}_g") - col(f"{y}_h")) - col("r_o") * (col("P") - col("n_h"))) / col("N_o"),
        e=(col(f"{y}_g") - col("r_o") * col("P")) / col("N_o"))
    held = held.group_by("players", "value").agg(dd=(col("d") ** 2).sum(), ee=(col("e") ** 2).sum())
    out = base.join(held, on=["players", "value"]).with_columns(   # Σ over all games of e², minus the held games'
        all_e=(col(f"{y}_ss") - 2 * col("r_o") * col(f"{y}_sp") + col("r_o") ** 2 * col("PP")) / col("N_o") ** 2)
    out = out.with_columns(se=(col("dd") + (col("all_e") - col("ee")).clip(lower_bound=0)).sqrt(),
                           lift=col("r_h") - col("r_o"))
    return out.with_columns(lo=col("lift") - z * col("se"), hi=col("lift") + z * col("se"))


def analyse_held(lf: pl.LazyFrame, held: Held, level: float = 0.95) -> HeldAnalysis:
    """The lift table of one held-content column over one variant's rows (see module doc)."""
    col = pl.col
    z = float(stats.norm.ppf(0.5 + level / 2))
    rows = lf.filter(~col("is_automa")).select(
        "game", pl.col("players").cast(pl.Int64), ws=col("win_share").cast(pl.Float64),
        sc=col("score").cast(pl.Float64), held=col(held.column).str.split(held.sep))
    games = rows.group_by("game").agg(col("players").first(), P=pl.len().cast(pl.Float64), ws_g=col("ws").sum(),
                                      sc_g=col("sc").sum())
    tot = games.group_by("players").agg(
        N=col("P").sum(), ws_s=col("ws_g").sum(), sc_s=col("sc_g").sum(), PP=(col("P") ** 2).sum(),
        ws_ss=(col("ws_g") ** 2).sum(), ws_sp=(col("ws_g") * col("P")).sum(),
        sc_ss=(col("sc_g") ** 2).sum(), sc_sp=(col("sc_g") * col("P")).sum(), games=pl.len())
    per = rows.explode("held", empty_as_null=True).filter(col("held").is_not_null() & (col("held") != ""))
    per = per.group_by("game", col("held").alias("value")).agg(
        col("players").first(), n_h=pl.len().cast(pl.Float64), ws_h=col("ws").sum(), sc_h=col("sc").sum())
    per = per.join(games.select("game", "P", "ws_g", "sc_g"), on="game")
    per, tot = pl.collect_all([per, tot])
    win = _lift(per, tot, "ws", z)
    score = _lift(per, tot, "sc", z).select("players", "value", score_h=col("r_h"), score_o=col("r_o"),
                                             score_lift=col("lift"), score_lo=col("lo"), score_hi=col("hi"))
    t = win.select("players", "value", holders=col("N_h").cast(pl.Int64), share_held=col("N_h") / col("N"),
                   win_h=col("r_h"), win_o=col("r_o"), lift=col("lift"), lo=col("lo"), hi=col("hi"), se=col("se"))
    t = t.with_columns(p=pl.Series(2 * stats.norm.sf(np.abs(t["lift"].to_numpy()) / t["se"].to_numpy()))
                       .fill_nan(1.0)).drop("se")
    t = t.join(score, on=["players", "value"])
    parts = []
    for (_,), part in t.group_by(["players"], maintain_order=True):
        part = part.sort(pl.col("value").map_elements(lambda v: str(natural_key(v)), return_dtype=pl.String))
        p_holm = holm(part["p"].to_numpy())
        parts.append(part.with_columns(pl.Series("p_holm", p_holm), pl.Series("significant", p_holm < 1 - level)))
    table = pl.concat(parts).sort("players", maintain_order=True) if parts else t
    notes = ["automa seats left out", "an association (which cards the winners hold), not the effect of a card "
             "being in the deck"]
    return HeldAnalysis(held, level, table, notes)


def analyse_uses(lf: pl.LazyFrame, held: Held, level: float = 0.95) -> pl.DataFrame | None:
    """Per value and player count: the seats holding it at the end, their mean activations per
    game (normal interval over the holders' seat-games), the share of them with at least one, and
    the mean of the seats not holding it (an activation before the value was lost, or none).
    None when the game declares no ``uses_prefix``. Why: an ability a bot never uses makes its
    tribe or item look weak; this shows which are used."""
    if not held.uses_prefix:
        return None
    col = pl.col
    z = float(stats.norm.ppf(0.5 + level / 2))
    names = [c for c in lf.collect_schema().names() if c.startswith(held.uses_prefix)]
    rows = lf.filter(~col("is_automa")).select(pl.col("players").cast(pl.Int64),
                                               held=col(held.column).str.split(held.sep), *names).collect()
    parts = []
    for name in names:
        value = name[len(held.uses_prefix):]
        has = rows["held"].list.contains(value)
        part = rows.select("players", u=col(name).cast(pl.Float64), h=has).group_by("players").agg(
            holders=col("h").sum(), uses_sum=col("u").filter(col("h")).sum(),
            uses_sd=col("u").filter(col("h")).std(), users=(col("u").filter(col("h")) > 0).sum(),
            uses_other=col("u").filter(~col("h")).mean())
        parts.append(part.with_columns(value=pl.lit(value)))
    if not parts:
        return None
    t = pl.concat(parts).filter(col("holders") > 0).with_columns(
        uses_mean=col("uses_sum") / col("holders"), users=col("users") / col("holders"))
    half = z * col("uses_sd").fill_null(0.0) / col("holders").cast(pl.Float64).sqrt()
    t = t.with_columns(uses_lo=col("uses_mean") - half, uses_hi=col("uses_mean") + half)
    return t.select("value", "players", col("holders").cast(pl.Int64), "uses_mean", "uses_lo", "uses_hi", "users",
                    col("uses_other").fill_null(0.0)).sort("players", "value")


def analyse_declared(results, variant: str, level: float = 0.95) -> tuple[list, list]:
    """Analyses of every held-content column the results' game declares; a missing column (older
    results) becomes a note."""
    out, notes = [], []
    lf = results.scan(variant)
    schema = lf.collect_schema()
    for h in declared_held(results.game_name):
        if h.column not in schema:
            notes.append(f"{h.name}s held at the end not analysed: no column {h.column!r} in the results "
                         "(played before the engine wrote it)")
            continue
        ha = analyse_held(lf, h, level)
        ha.uses = analyse_uses(lf, h, level)
        out.append(ha)
    return out, notes
