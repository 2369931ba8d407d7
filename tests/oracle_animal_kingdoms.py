"""A plain, one-game-at-a-time Animal Kingdoms: the reference the vectorised engine is checked against.

Written straight from the spec (/work/shared/specs/animal_kingdoms.md) and the decision model
(docs/animal_kingdoms_model.md), for clarity rather than speed: the game is one Python
generator that ``yield``s every decision as ``(decider, legal actions)`` and receives the
chosen action back. Random draws use the same keyed streams as the engine, so with the same
seed, game index and choices both must play the same game. Nothing here is imported by the
engine; the decree vocabulary is re-implemented below on purpose.

Used by the cross-check test and by the rule tests (worked examples set fields directly and
drive the sub-generators ``play_age``, ``score_age``, ``council`` ...).
"""
from __future__ import annotations

import numpy as np

from sim.core import rng

AGES = 3


# ---- the decree vocabulary, re-implemented for the oracle (AK-A12) ---------------------------

def predicate(decree, card) -> bool:
    r, s = card.rank, card.species
    cond = decree.condition
    if cond == "RANK_EVEN":
        return r % 2 == 0
    if cond == "RANK_ODD":
        return r % 2 == 1
    if cond == "RANK_AT_LEAST":
        return r >= decree.k
    if cond == "RANK_AT_MOST":
        return r <= decree.k
    if cond == "RANK_IN":
        return r in decree.values
    if cond == "SPECIES_IN":
        return s in decree.values
    raise ValueError(cond)


def relation(decree, card, ref) -> bool:
    c, r = card, ref
    cond = decree.condition
    if cond == "HIGHER":
        return c.rank > r.rank
    if cond == "LOWER":
        return c.rank < r.rank
    if cond == "SAME_SPECIES":
        return c.species == r.species
    if cond == "DIFFERENT_SPECIES":
        return c.species != r.species
    if cond == "SAME_PARITY":
        return c.rank % 2 == r.rank % 2
    if cond == "DIFFERENT_PARITY":
        return c.rank % 2 != r.rank % 2
    if cond == "WITHIN_2":
        return abs(c.rank - r.rank) <= 2
    if cond == "WITHIN":
        return abs(c.rank - r.rank) <= decree.k
    if cond == "SAME_RANK":
        return c.rank == r.rank
    if cond == "DIFFERENT_RANK":
        return c.rank != r.rank
    if cond == "SAME_SPECIES_OR_RANK":
        return c.species == r.species or c.rank == r.rank
    raise ValueError(cond)


class Oracle:
    """One game. ``decider()``, ``legal()``, ``step(action)``, ``done()``, ``outcome()``."""

    def __init__(self, config, content, seed: int, game_id: int, start=True):
        self.cfg, self.ct = config, content
        self.cards = content.cards
        self.N, self.K, self.H = len(content.cards), len(content.kingdoms), config.hand_size
        self.M = config.modifier_tiles
        self.solo = config.players == 1
        self.P = 2 if self.solo else config.players
        n = config.players
        gid = np.array([game_id])
        if self.solo:
            self.robot = 1 if config.solo_first_player == "human" else 0
            self.human = 1 - self.robot
            self.slot_of = [0, 0]
            self.slot_of[self.human], self.slot_of[self.robot] = 0, 1
        else:
            self.robot = self.human = None
            start_slot = 0 if config.start_player_age1 == "first_slot" else \
                int(rng.integers(rng.stream_keys(seed, gid, "start"), 0, n)[0])
            self.slot_of = [(start_slot + j) % n for j in range(n)]
        self.deck_key = rng.stream_keys(seed, gid, "deck")
        self.shuffles = 0
        self.decree_order = [int(x) for x in rng.permutations(rng.stream_keys(seed, gid, "decrees"), len(content.decrees))[0]]
        fp_perm = rng.permutations(rng.stream_keys(seed, gid, "first_place"), len(content.first_place))[0]
        t = content.first_place_per_kingdom
        self.fp = [sorted(content.first_place[int(x)] for x in fp_perm[t * i:t * i + t]) for i in range(self.K)]
        self.fp_next = [0] * self.K
        rt_perm = rng.permutations(rng.stream_keys(seed, gid, "first_retreat"), len(content.first_retreat))[0]
        self.rt = [content.first_retreat[int(x)] for x in rt_perm]
        self.rt_owner = [None] * AGES
        # actions
        H, K = self.H, self.K
        self.A_RALLY = H * K
        self.A_RETREAT = H * K + 2 ** H - 1
        self.A_BATTLE = self.A_RETREAT + 1
        self.A_MODS = self.A_BATTLE + H
        self.A_YES = self.A_MODS + self.M + 1
        self.A_NO = self.A_YES + 1
        self.A = self.A_NO + 1
        # board and pieces
        self.columns = [[] for _ in range(K)]
        self.ordm = [[0] * self.P for _ in range(K)]
        self.cap = [None] * K
        self.council = [[0] * self.P for _ in range(K)]
        self.markers = [content.robot_markers if p == self.robot else config.markers_per_player for p in range(self.P)]
        self.supply = list(self.markers)
        self.hands = [[] for _ in range(self.P)]
        self.discard = set()
        self.bonus = []
        self.robot_cards = []                 # the robot's revealed battle cards (solo battle)
        self.mods = [0] * self.P
        self.mod_supply = self.M
        self.pts = {k: [0] * self.P for k in ("first", "second", "third", "rally")}
        self.stats = {k: [0] * self.P for k in ("claims", "rallies", "capitals", "first_retreats",
                                                "battles_won", "battles_lost", "council")}
        self.battles = 0
        self.turns = self.rounds = 0
        self.cap_hit = False
        self.age = 0
        self.age_start = 0
        self.active = [True] * self.P
        self.retreated_age = self.retreated_ever = False
        self.age_turns = 0
        self.last_rel = -1
        self.cap_turn = [None] * self.P       # age turn of a capital claim in the current age
        self.first_cap_game = [None] * self.P  # game turn of the first capital claim in the game
        self.human_last = self.robot_last = None
        self.decrees = [self.decree_order[i] for i in range(K)]
        self.finished = False
        self.pending = None                   # (decider, legal) of the current decision
        self._gen = None
        if start:
            self.deck = self.shuffle(list(range(self.N)))
            for p in range(self.P):
                if p != self.robot:
                    self.refill(p)
            self.deal_bonus()
            self._gen = self.run()
            self.pending = next(self._gen)

    # ---- driving -------------------------------------------------------------------------

    def decider(self) -> int:
        return -1 if self.finished else self.pending[0]

    def legal(self) -> np.ndarray:
        out = np.zeros(self.A, dtype=bool)
        if not self.finished:
            out[self.pending[1]] = True
        return out

    def done(self) -> bool:
        return self.finished

    def step(self, action: int):
        assert action in self.pending[1], (action, self.pending)
        try:
            self.pending = self._gen.send(int(action))
        except StopIteration:
            self.finished, self.pending = True, None

    def run(self):
        for age in range(AGES):
            if age > 0:
                self.new_age()
            yield from self.play_age()
            yield from self.score_age()
            if age < AGES - 1 and age + 1 in self.cfg.council_moves_after_ages:
                yield from self.council_moves()

    # ---- cards ---------------------------------------------------------------------------

    def shuffle(self, cards):
        """Shuffle number ``self.shuffles`` of the deck stream (model doc, purpose "deck")."""
        s = self.shuffles
        self.shuffles += 1
        u = rng.bits(self.deck_key, s * self.N + np.arange(self.N))
        return sorted(cards, key=lambda c: (int(u[c]), c))

    def draw_one(self):
        if not self.deck and self.discard and self.cfg.reshuffle_discard_when_empty:
            self.deck = self.shuffle(sorted(self.discard))
            self.discard = set()
        if not self.deck:
            return None
        return self.deck.pop(0)

    def refill(self, p):
        while len(self.hands[p]) < self.H:
            c = self.draw_one()
            if c is None:
                break
            self.hands[p].append(c)
            self.hands[p].sort()

    def deal_bonus(self):
        if self.solo:
            for _ in range(self.ct.robot_levels[self.cfg.robot_level].bonus_cards):
                c = self.draw_one()
                if c is not None:
                    self.bonus.append(c)

    # ---- board ---------------------------------------------------------------------------

    def size(self, k):
        return self.ct.kingdoms[k].size

    def full(self, k):
        return self.cap[k] is not None

    def council_free(self, k):
        return sum(self.council[k]) < self.ct.kingdoms[k].council_spaces

    def only_capital_free(self, k):
        ordinary_full = sum(self.ordm[k]) >= self.size(k) - 1
        council_full = not (self.cfg.council_claimable and self.council_free(k))
        return ordinary_full and council_full and not self.full(k)

    def count(self, k, p):
        return self.ordm[k][p] + (1 if self.cap[k] == p else 0) + self.council[k][p]

    def place_marker(self, p, k) -> str:
        """AK-R13, AK-R14: ordinary if free, else (claimable) council, else the capital."""
        self.supply[p] -= 1
        if sum(self.ordm[k]) < self.size(k) - 1:
            self.ordm[k][p] += 1
            return "ordinary"
        if self.cfg.council_claimable and self.council_free(k):
            self.council[k][p] += 1
            return "council"
        self.cap[k] = p
        self.cap_turn[p] = self.age_turns
        if self.first_cap_game[p] is None:
            self.first_cap_game[p] = self.turns
        self.stats["capitals"][p] += 1
        return "capital"

    def left(self, k):
        kd = self.ct.kingdoms[k]
        return kd.left if self.cfg.left_is == "counter_clockwise" else kd.right

    def right(self, k):
        kd = self.ct.kingdoms[k]
        return kd.right if self.cfg.left_is == "counter_clockwise" else kd.left

    def decree_ok(self, c, k) -> bool:
        """AK-R19..R27, AK-A12, AK-A13."""
        d = self.ct.decrees[self.decrees[k]]
        card = self.cards[c]
        if d.type == "SIMPLE":
            return predicate(d, card)
        if d.type in ("SELF", "LEFT", "RIGHT"):
            j = {"SELF": k, "LEFT": self.left(k), "RIGHT": self.right(k)}[d.type]
            if not self.columns[j]:
                return True
            return relation(d, card, self.cards[self.columns[j][-1]])
        others = [j for j in range(self.K) if j != k]
        if self.cfg.all_others_missing_policy == "any_missing_frees" and any(not self.columns[j] for j in others):
            return True
        refs = [self.cards[self.columns[j][-1]] for j in others if self.columns[j]]
        if not refs:
            return True
        results = [relation(d, card, r) for r in refs]
        return all(results) if d.quantifier == "all" else any(results)

    # ---- turns ---------------------------------------------------------------------------

    def rally_allowed(self):
        return not (self.retreated_ever if self.cfg.rally_ban_scope == "game" else self.retreated_age)

    def turn_legal(self, p) -> list[int]:
        hand = self.hands[p]
        claims = [i * self.K + k for i, c in enumerate(hand) for k in range(self.K)
                  if not self.full(k) and self.decree_ok(c, k)]
        rallies = []
        if self.rally_allowed() and hand:
            rallies = [self.A_RALLY + r - 1 for r in range(1, 2 ** self.H)
                       if all(i < len(hand) for i in range(self.H) if r >> i & 1)]
        out = claims + rallies
        mode = self.cfg.voluntary_retreat          # AK-A15, AK-R32 (seed wording), AK-A10
        if mode == "always" or (mode == "rally_not_allowed" and not rallies) or not out:
            out.append(self.A_RETREAT)
        return out

    def retreat(self, p, forced: bool):
        """AK-R32..R35: inactive for the age; the first retreater takes a first-retreat tile."""
        self.active[p] = False
        self.retreated_age = self.retreated_ever = True
        if self.rt_owner[self.age] is None and (not forced or self.cfg.forced_retreat_takes_tile):
            self.rt_owner[self.age] = p
            self.stats["first_retreats"][p] += 1

    def next_active(self, cur):
        for d in range(1, self.P + 1):
            s = (cur + d) % self.P
            if self.active[s]:
                return s
        return None

    def play_age(self, cur=None):
        cur = self.age_start if cur is None else cur
        first = True
        while True:
            if self.age_turns >= self.cfg.max_turns_per_age:          # AK-A44
                self.cap_hit = True
                s = cur
                while s is not None:
                    self.retreat(s, forced=True)
                    s = self.next_active(s)
                return
            if self.supply[cur] <= 0:                               # AK-R17
                self.retreat(cur, forced=True)
            else:
                self.turns += 1
                self.age_turns += 1
                rel = (cur - self.age_start) % self.P
                if first or rel <= self.last_rel:
                    self.rounds += 1
                first = False
                self.last_rel = rel
                if cur == self.robot:
                    self.robot_turn()
                else:
                    action = yield (cur, self.turn_legal(cur))
                    self.do_turn(cur, action)
            nxt = self.next_active(cur)
            if nxt is None:
                return
            cur = nxt

    def do_turn(self, p, a):
        if a < self.A_RALLY:                                        # claim (AK-R10..R17)
            i, k = divmod(a, self.K)
            c = self.hands[p].pop(i)
            self.columns[k].append(c)
            where = self.place_marker(p, k)
            self.stats["claims"][p] += 1
            if self.solo and p == self.human:
                self.human_last = k
            leave = where == "capital" or self.supply[p] == 0
            if not leave or self.cfg.refill_before_forced_retreat:
                self.refill(p)
            if leave:
                self.retreat(p, forced=True)
        elif a < self.A_RETREAT:                                    # rally (AK-R29, AK-R30)
            r = a - self.A_RALLY + 1
            slots = [i for i in range(self.H) if r >> i & 1]
            cards = [self.hands[p][i] for i in slots]
            for c in cards:
                self.hands[p].remove(c)
                self.discard.add(c)
            self.pts["rally"][p] += self.cfg.rally_points
            self.stats["rallies"][p] += 1
            self.refill(p)
        else:                                                       # retreat (AK-R32)
            self.retreat(p, forced=False)

    # ---- the robot (AK-V6..V14, AK-A37..A39) ----------------------------------------------

    def robot_turn(self):
        if all(self.full(k) for k in range(self.K)):
            self.retreat(self.robot, forced=True)
            return
        self.robot_play(extra=False)

    def robot_kingdom(self, c) -> int:
        rank = self.cards[c].rank
        sized = [k for k in range(self.K) if self.size(k) == rank]
        if sized:
            target = sized[0]
        else:
            last = self.human_last if self.cfg.robot_low_rank_target == "human_last_claim" else self.robot_last
            target = last if last is not None else self.ct.robot_low_rank_default
        step = 1 if self.cfg.robot_skip_direction == "clockwise" else -1
        order = [(target + step * i) % self.K for i in range(self.K)]
        free = [k for k in order if not self.full(k)]
        for k in free:
            lead = self.count(k, self.robot) - self.count(k, self.human)
            if lead >= 2 or self.only_capital_free(k):
                continue
            return k
        return free[0]

    def robot_play(self, extra: bool):
        c = self.draw_one()
        if c is None:
            self.retreat(self.robot, forced=True)
            return
        self.robot_place(c, extra)

    def robot_place(self, c, extra: bool):
        """Card c under the robot's kingdom with a marker (AK-V8..V13), then its bonus (AK-V14)."""
        r = self.robot
        k = self.robot_kingdom(c)
        self.columns[k].append(c)
        self.robot_last = k
        self.stats["claims"][r] += 1
        if self.place_marker(r, k) == "capital" or self.supply[r] == 0:
            self.retreat(r, forced=True)
            return
        card = self.cards[c]
        matching = [i for i, b in enumerate(self.bonus)
                    if b is not None and (self.cards[b].species == card.species or self.cards[b].rank == card.rank)]
        if not matching or (extra and not self.cfg.robot_bonus_chain):
            return
        effect = self.cfg.robot_bonus_effect
        if effect == "extra_play":
            if not all(self.full(j) for j in range(self.K)):
                self.robot_play(extra=True)
        elif effect == "play_bonus_card":
            if not all(self.full(j) for j in range(self.K)):
                i = matching[0]
                b = self.bonus[i]
                self.bonus[i] = self.draw_one()
                self.robot_place(b, extra=True)
        elif not self.full(k):
            if self.place_marker(r, k) == "capital" or self.supply[r] == 0:
                self.retreat(r, forced=True)

    # ---- age scoring (AK-E1..E21, AK-A22..A31, AK-V1..V4, AK-A36, AK-A40) ----------------

    def turn_order(self):
        return [(self.age_start + i) % self.P for i in range(self.P)]

    def score_age(self):
        for k in self.ct.scoring_order:
            counts = [self.count(k, p) for p in range(self.P)]
            present = [p for p in range(self.P) if counts[p] >= 1]
            if not present:
                if self.cfg.remove_unclaimed_tile:
                    self.fp_next[k] += 1
                continue
            levels = sorted({counts[p] for p in present}, reverse=True)
            groups = [[p for p in present if counts[p] == v] for v in levels]
            g1 = groups[0]
            if len(g1) == 1:
                entries = groups
            elif self.cfg.peace:
                holder = [p for p in g1 if self.cap[k] == p]
                if holder:
                    others = [p for p in g1 if p != holder[0]]
                    entries = [holder] + ([others] if self.cfg.peace_tied_others == "second" else []) + groups[1:]
                else:
                    entries = groups
            elif self.solo:
                firsts, losers = yield from self.solo_battle()
                entries = [firsts, losers] + groups[1:]
            else:
                firsts, losers = yield from self.battle(g1)
                entries = [firsts] + ([losers] if losers else []) + groups[1:]
            self.award(k, entries)
            self.fp_next[k] += 1

    def award(self, k, entries):
        tile = self.fp[k][self.fp_next[k]] if self.fp_next[k] < len(self.fp[k]) else 0
        before = 0
        for e, entry in enumerate(entries):
            place = e + 1 if self.cfg.placement_mode == "dense" else before + 1
            for p in entry:
                if place == 1:
                    self.pts["first"][p] += tile
                elif place == 2:
                    self.pts["second"][p] += self.cfg.second_place_points
                elif place == 3:
                    self.pts["third"][p] += self.cfg.third_place_points
            before += len(entry)

    def is_one_eight(self, rank, value):
        if self.cfg.one_beats_eight_uses == "printed_rank":
            return rank == 1, rank == 8
        return value == 1, value == 8

    def battle(self, g1):
        """AK-E11..E21, AK-A24..A31: returns (first place, losers)."""
        self.battles += 1
        order = [p for p in self.turn_order() if p in g1]
        part, losers = list(order), []
        while True:
            if all(not self.hands[p] for p in part):                 # AK-A28, AK-E16
                firsts = part
                break
            losers += [p for p in part if not self.hands[p]]
            part = [p for p in part if self.hands[p]]
            if len(part) == 1:
                firsts = part
                break
            chosen = {}
            for p in part:
                slot = (yield (p, [self.A_BATTLE + i for i in range(len(self.hands[p]))])) - self.A_BATTLE
                chosen[p] = self.hands[p][slot]
            for p in part:
                self.hands[p].remove(chosen[p])
            used = {p: 0 for p in part}
            for p in part:
                if self.mods[p] > 0:
                    used[p] = (yield (p, [self.A_MODS + m for m in range(self.mods[p] + 1)])) - self.A_MODS
            for p in part:
                self.mods[p] -= used[p]
                self.mod_supply += used[p]
            rank = {p: self.cards[chosen[p]].rank for p in part}
            value = {p: rank[p] + self.cfg.modifier_value * used[p] for p in part}
            one = {p: self.is_one_eight(rank[p], value[p])[0] for p in part}
            eight = {p: self.is_one_eight(rank[p], value[p])[1] for p in part}
            remaining = list(part)
            if self.cfg.multiway_battle == "eliminate_eights":
                if any(one.values()):
                    remaining = [p for p in part if not eight[p]]
            elif any(eight.values()):
                for p in part:
                    if one[p]:
                        value[p] = 9 + self.cfg.modifier_value * used[p]
            best = max(value[p] for p in remaining)
            winners = [p for p in remaining if value[p] == best]
            losers += [p for p in part if p not in winners]
            self.discard.update(chosen.values())
            part = winners
            if len(part) == 1:
                firsts = part
                break
        for p in order:
            if p in losers and self.mod_supply > 0:
                self.mods[p] += 1
                self.mod_supply -= 1
        for p in order:
            self.refill(p)
        for p in firsts:
            self.stats["battles_won"][p] += 1
        for p in losers:
            self.stats["battles_lost"][p] += 1
        return firsts, losers

    def solo_battle(self):
        """AK-V15..V19, AK-A40: the human against the robot's revealed cards."""
        self.battles += 1
        h, r = self.human, self.robot
        robot_wins = True
        if self.hands[h]:
            slot = (yield (h, [self.A_BATTLE + i for i in range(len(self.hands[h]))])) - self.A_BATTLE
            hc = self.hands[h].pop(slot)
            self.robot_cards = []
            for _ in range(self.ct.robot_levels[self.cfg.robot_level].battle_cards):
                c = self.draw_one()
                if c is not None:
                    self.robot_cards.append(c)
            used = 0
            if self.mods[h] > 0:
                used = (yield (h, [self.A_MODS + m for m in range(self.mods[h] + 1)])) - self.A_MODS
            self.mods[h] -= used
            self.mod_supply += used
            h_rank = self.cards[hc].rank
            h_value = h_rank + self.cfg.modifier_value * used
            h_one, h_eight = self.is_one_eight(h_rank, h_value)

            def beats(c):
                rr = self.cards[c].rank
                if rr == 1 and h_eight:
                    return True
                if h_one and rr == 8:
                    return False
                return rr > h_value or (self.cfg.robot_equal_rank == "robot_wins" and rr == h_value)

            robot_wins = any(beats(c) for c in self.robot_cards)
            self.discard.add(hc)
            self.discard.update(self.robot_cards)
            self.robot_cards = []
        winner, loser = (r, h) if robot_wins else (h, r)
        if self.mod_supply > 0 and (loser == h or self.cfg.robot_receives_modifiers):
            self.mods[loser] += 1
            self.mod_supply -= 1
        self.refill(h)
        self.stats["battles_won"][winner] += 1
        self.stats["battles_lost"][loser] += 1
        return [winner], [loser]

    # ---- councils and new ages -----------------------------------------------------------

    def council_moves(self):
        """AK-R37..R43, AK-A32."""
        for k in self.ct.scoring_order:
            owner = self.cap[k]
            if owner is None or not self.council_free(k):
                continue
            if owner == self.robot:
                move = self.cfg.robot_council_move
            else:
                move = (yield (owner, [self.A_YES, self.A_NO])) == self.A_YES
            if move:
                self.council[k][owner] += 1
                self.cap[k] = None
                self.stats["council"][owner] += 1

    def track(self, p):
        return self.cfg.start_score + sum(self.pts[c][p] for c in ("first", "second", "third", "rally"))

    def new_age_start(self) -> int:
        """AK-R50, AK-R51, AK-A34."""
        tracks = [self.track(p) for p in range(self.P)]
        low = min(tracks)
        tied = [p for p in range(self.P) if tracks[p] == low]
        when = self.cap_turn if self.cfg.start_tie_capital_scope == "age_just_ended" else self.first_cap_game
        claimers = [p for p in tied if when[p] is not None]
        if claimers:
            return min(claimers, key=lambda p: when[p])
        for i in range(self.P):
            s = (self.age_start + i) % self.P
            if s in tied:
                return s
        raise AssertionError

    def new_age(self):
        """AK-R44..R52, AK-A31, AK-A33."""
        start = self.new_age_start()
        self.age += 1
        for k in range(self.K):
            self.ordm[k] = [0] * self.P
            self.cap[k] = None
        for p in range(self.P):
            self.supply[p] = self.markers[p] - sum(self.council[k][p] for k in range(self.K))
        cards = (list(self.deck) + [c for col in self.columns for c in col] + sorted(self.discard)
                 + [b for b in self.bonus if b is not None])
        self.deck = self.shuffle(sorted(cards))
        self.columns = [[] for _ in range(self.K)]
        self.discard, self.bonus = set(), []
        self.age_start = start
        for p in self.turn_order():
            if p != self.robot:
                self.refill(p)
        self.decrees = [self.decree_order[self.age * self.K + i] for i in range(self.K)]
        self.deal_bonus()
        self.active = [True] * self.P
        self.retreated_age = False
        self.age_turns = 0
        self.last_rel = -1
        self.cap_turn = [None] * self.P
        self.human_last = self.robot_last = None

    # ---- end of the game (AK-E23..E28, AK-A35) --------------------------------------------

    def outcome(self) -> dict:
        cfg = self.cfg
        comp = {"score_start": [cfg.start_score] * self.P,
                "score_first": list(self.pts["first"]), "score_second": list(self.pts["second"]),
                "score_third": list(self.pts["third"]), "score_rally": list(self.pts["rally"]),
                "score_retreat": [sum(self.rt[a] + cfg.first_retreat_shift for a in range(AGES) if self.rt_owner[a] == p)
                                  for p in range(self.P)],
                "score_modifiers": [self.mods[p] * cfg.modifier_endgame_points for p in range(self.P)]}
        score = [sum(comp[c][p] for c in comp) for p in range(self.P)]
        if cfg.final_tiebreak == "largest_capital_age3":
            tie = [max([self.size(k) for k in range(self.K) if self.cap[k] == p], default=0) for p in range(self.P)]
        else:
            tie = [0] * self.P
        key = [(score[p], tie[p]) for p in range(self.P)]
        rank = [1 + sum(key[q] > key[p] for q in range(self.P)) for p in range(self.P)]
        winners = rank.count(1)
        out = dict(comp)
        out.update({"score": score, "rank": rank, "win_share": [1 / winners if r == 1 else 0.0 for r in rank],
                    "slot": list(self.slot_of), "is_automa": [p == self.robot for p in range(self.P)],
                    "faction": ["robot" if p == self.robot else "none" for p in range(self.P)]})
        for k, v in self.stats.items():
            out[f"ak_{k}"] = list(v)
        out["per_game"] = {"turns": self.turns, "rounds": self.rounds, "ak_battles": self.battles,
                           "end_reason": "turn_cap" if self.cap_hit else "three_ages"}
        return out
