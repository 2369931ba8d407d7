"""Final scoring (spec section 4) and the score sheet."""
from __future__ import annotations

import numpy as np

from sim.games.recall.content_types import BOARD_MONUMENT, CAMP, GOAL_KINDS, LETTERS, PATHS
from tests.oracle_recall.common import MON, PARTS, SAN

BUILDING_GOALS = ("sanctuaries", "monuments", "camps", "area_tiles")


class Scoring:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    # ------------------------------------------------------------------ final scoring (section 4)

    def cards_owned(self, p) -> list:
        out = [k for k in range(self.K) for _ in range(self.avail[p][k])]
        return out + [k for k in self.slots[p] if k >= 0]

    def camps_next_to(self, p) -> set:
        return {g for f in range(self.NF) if self.bld[p][f] >= 0 for g in self.adj[f] if self.terr[g] == CAMP}

    def built_slots(self, p) -> set:
        return {self.slot_of_field[f] for f in range(self.NF) if self.bld[p][f] >= 0 and self.slot_of_field[f] >= 0}

    def goal_resource(self, p, kind):
        """The counts a goal kind looks at: a vector (split for RC-V15) and its group name."""
        name = GOAL_KINDS[kind]
        if name in ("artifacts_one_colour", "artifact_colours"):
            return "artifacts", list(self.arts[p])
        if name in ("stone_colours", "stones"):
            return "stones", list(self.stones[p][:3])
        value = {"upgrade_tiles": sum(1 for x in self.upg[p] if x >= 0),
                 "sanctuaries": sum(self.sanct[p]), "monuments": self.mons[p],
                 "key_cards": len(self.cards_owned(p)), "old_tribes": sum(self.unlocked[p]),
                 "camps": len(self.camps_next_to(p)), "area_tiles": len(self.built_slots(p))}[name]
        return name, [value]

    def goal_met_with(self, card, vec) -> bool:
        """RC-E30..E42 on a resource vector."""
        g = self.ct.goal_cards[card]
        name = GOAL_KINDS[g.kind]
        if name == "artifacts_one_colour":
            return max(vec) >= g.n
        if name in ("artifact_colours", "stone_colours"):
            return sum(1 for x in vec if x > 0) >= g.n
        if name == "stones":                                  # RC-A58
            return (sum(vec) if self.cfg.goal_stones == "total" else max(vec)) >= g.n
        return vec[0] >= g.n

    def goal_met(self, p, card) -> bool:
        return self.goal_met_with(card, self.goal_resource(p, self.ct.goal_cards[card].kind)[1])

    def two_goals_met(self, p, c1, c2) -> bool:
        """RC-V15, RC-A54: both cards met with disjoint components.

        A component is a piece the player owns: an artifact, a stone, an upgrade tile, a key
        card, an unlock tile, a building. Two building goals (sanctuaries, monuments, camps, area
        tiles) split the buildings (a camp or an area tile is counted through the buildings next
        to or on it); other goals on the same group split its counts; different groups never meet.
        """
        n1, n2 = (GOAL_KINDS[self.ct.goal_cards[c].kind] for c in (c1, c2))
        if n1 in BUILDING_GOALS and n2 in BUILDING_GOALS:
            blds = self.buildings(p)
            return any(self.building_goal_met(c1, [b for j, b in enumerate(blds) if mask >> j & 1])
                       and self.building_goal_met(c2, [b for j, b in enumerate(blds) if not mask >> j & 1])
                       for mask in range(1 << len(blds)))
        g1, v1 = self.goal_resource(p, self.ct.goal_cards[c1].kind)
        g2, v2 = self.goal_resource(p, self.ct.goal_cards[c2].kind)
        if g1 != g2:
            return self.goal_met_with(c1, v1) and self.goal_met_with(c2, v2)
        for split in np.ndindex(*[x + 1 for x in v1]):
            rest = [a - b for a, b in zip(v1, split)]
            if self.goal_met_with(c1, list(split)) and self.goal_met_with(c2, rest):
                return True
        return False

    def buildings(self, p) -> list:
        """p's buildings as (kind, area slot or -1, camp fields next to it)."""
        return [(self.bld[p][f], self.slot_of_field[f], {g for g in self.adj[f] if self.terr[g] == CAMP})
                for f in range(self.NF) if self.bld[p][f] >= 0]

    def building_goal_met(self, card, blds) -> bool:
        """RC-E37, RC-E38, RC-E41, RC-E42 counted on a part of the buildings."""
        g = self.ct.goal_cards[card]
        name = GOAL_KINDS[g.kind]
        if name == "sanctuaries":
            value = sum(1 for b in blds if b[0] == SAN)
        elif name == "monuments":
            value = sum(1 for b in blds if b[0] == MON)
        elif name == "camps":
            value = len(set().union(*[b[2] for b in blds]))
        else:
            value = len({b[1] for b in blds if b[1] >= 0})
        return value >= g.n

    def final_scoring(self):
        """RC-E3..E49 in the RC-A53 order; fills ``parts`` (they sum to ``total``)."""
        ct, n = self.ct, self.n
        self.parts = {k: [0] * n for k in PARTS}
        self.goal_ok = [False] * n
        for p in range(n):
            mine = {self.path_at[i] for i in self.paths[p] if i >= 0}
            side_of = {self.path_at[i]: self.side_at[i] for i in range(len(self.path_at))}
            for c, card in enumerate(ct.path_cards):
                base, bonus = self.path_score(p, PATHS[card.path], card, side_of[c])
                self.parts["score_" + PATHS[card.path]][p] += base + (bonus if c in mine else 0)
            value = sum(v * c for v, c in zip(ct.setup.crystal_value, self.cr[p]))
            self.parts["score_leftover"][p] = (value + self.on_board(p)) // ct.setup.leftover_divisor
            if self.dorian(p):                                # RC-R214, RC-R215, RC-E44
                self.parts["score_pigs"][p] = ct.setup.pig_farm_points * sum(1 for f in range(self.NF) if self.farm[f] and self.dorian_present(p, f))
            self.parts["score_purple"][p] = self.purple[p]
            if n == 1:                                        # RC-V13, RC-V14, RC-A54
                g = self.goals[0]
                ok = any(self.two_goals_met(0, g[i], g[j]) for i in range(len(g)) for j in range(i + 1, len(g)))
                self.goal_ok[0] = ok
                self.parts["score_goal"][0] = ct.setup.goal_points_solo if ok else 0
            else:
                ok = len(self.goals[p]) == 1 and self.goal_met(p, self.goals[p][0])
                self.goal_ok[p] = ok
                self.parts["score_goal"][p] = ct.setup.goal_points if ok else 0
            self.parts["score_track"][p] = self.score[p]
        self.total = [sum(self.parts[k][p] for k in PARTS) for p in range(n)]

    def path_score(self, p, path, card, side):
        """(base, specialisation bonus of ``side``) of one path card for p (RC-E6..E25)."""
        kn, ct = self.ct.knowledge, self.ct
        if path == "knowledge":
            vals = sorted((kn.points[x] for x in self.trk[p]), reverse=True)
            bonus = card.a * vals[1] if side == 0 else card.b * sum(1 for x in self.trk[p] if x >= kn.seventh)
            return card.base * sum(vals), bonus
        if path == "ancestors":
            s = self.stones[p][:3]
            return card.base * sum(s), (card.a * sum(s) if side == 0 else card.b * min(s))
        if path == "saints":
            k = sum(self.sanct[p])
            return card.base * k, (card.a * k if side == 0 else card.b * (k // 2))
        if path == "efficiency":
            cards = self.cards_owned(p)
            pts = sum(ct.key_cards[k].points for k in cards)
            if side == 0:
                bonus = card.a * sum(1 for k in cards if ct.key_cards[k].colour > 0)
            else:
                bonus = card.b * sum(1 for k in cards if ct.key_cards[k].colour == 3)
            return card.base * pts, bonus
        if path == "ambition":
            under = ct.board.artifact_rows.points_under
            per = [under[x - 1] if x > 0 else 0 for x in self.arts[p]]
            return card.base * sum(per), (card.a * min(self.arts[p]) if side == 0 else card.b * max(per))
        # power: board monument fields score their track's value, tile monuments their tile (RC-E22, RC-E23)
        tiles, board = 0, 0
        for f in range(self.NF):
            if self.bld[p][f] == MON:
                if self.terr[f] == BOARD_MONUMENT:
                    t = ct.map.board_monuments[f - self.bm_first].track
                    board += kn.points[self.trk[p][t]]
                elif f in self.mon_tile:                       # no tile was left: no points
                    tiles += ct.monument_tiles[self.mon_tile[f]].points
        return card.base * (tiles + board), (card.a * self.mons[p] if side == 0 else card.b * tiles)

    # ------------------------------------------------------------------ results

    def scores(self) -> list:
        return list(self.total)

    def sheet(self) -> dict:
        n = self.n
        out = {"score": list(self.total)}
        for k in PARTS:
            out[k] = list(self.parts[k])
        keys = [(self.total[p], *self.trk[p]) for p in range(n)]   # RC-E45..E49
        top = max(keys)
        winners = [p for p in range(n) if keys[p] == top]
        out["rank"] = [1 + sum(1 for q in range(n) if keys[q] > keys[p]) for p in range(n)]
        if n == 1:
            out["win_share"] = [1.0 if self.goal_ok[0] else 0.0]
        else:
            out["win_share"] = [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
        out["slot"] = list(self.slot_of)
        out["tribe"] = [self.ct.tribes[self.tribe[p]].id for p in range(n)]
        out["faction"] = list(out["tribe"])
        out["is_automa"] = [False] * n
        out["item"] = [self.ct.items[self.items[p][0]].id if self.items[p] else "" for p in range(n)]
        for k, v in self.stats.items():
            out[k] = list(v)
        for l in range(6):
            out[f"rc_plays_{LETTERS[l]}"] = [self.plays[p][l] for p in range(n)]
        out["rc_unlocked"] = [sum(self.unlocked[p]) for p in range(n)]
        out["rc_goal_met"] = list(self.goal_ok)
        out["rounds"] = self.rounds_played
        out["turns"] = self.turns
        out["rc_guard_hits"] = self.guard_hits
        out["end_reason"] = "hourglass"                    # RC-R7, RC-E1: the only end
        out["start_slot"] = self.start_slot
        return out

