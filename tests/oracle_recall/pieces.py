"""Small rules used everywhere: tribes held, paying crystals, followers, entering fields, points, upgrades, tracks."""
from __future__ import annotations

from sim.games.recall.content_types import VOLCANO, WATER
from tests.oracle_recall.common import W, OWN, norm


class Pieces:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    # ------------------------------------------------------------------ small helpers

    def has_tribe(self, p, name) -> bool:
        """Own tribe or an unlocked old tribe (RC-R169)."""
        key = norm(name)
        if self.tribe[p] >= 0 and norm(self.ct.tribes[self.tribe[p]].id) == key:
            return True
        return any(self.unlocked[p][t] and norm(self.ct.tribes[self.old_tribe[t]].id) == key for t in range(3))

    def ratio(self, p) -> int:
        """Crystals needed for one of the next kind (3; Aynir 2, RC-R207)."""
        return 2 if self.has_tribe(p, "Aynir") else 3

    def plan_payment(self, p, cost):
        """RC-A69's fixed paying rule: the holdings after paying ``cost`` (w, r, p), or None."""
        w, r, pp = self.cr[p]
        k = self.ratio(p)
        need_w, need_r, need_p = cost
        paid_p = min(pp, need_p)
        pp -= paid_p
        for _ in range(need_p - paid_p):          # each missing purple from k reds
            while r < k:
                if w < k:
                    return None
                w -= k
                r += 1
            r -= k
        take = min(r, need_r)
        r -= take
        for _ in range(need_r - take):            # each missing red: down from purple, else up from whites
            if pp > 0:
                pp -= 1
                w += 1
            elif w >= k:
                w -= k
            else:
                return None
        take = min(w, need_w)
        w -= take
        for _ in range(need_w - take):            # each missing white: down from red (2 W), else purple
            if r > 0:
                r -= 1
                w += 1
            elif pp > 0:
                pp -= 1
                r += 1
            else:
                return None
        return [w, r, pp], need_p                 # every purple paid counts, also one made from reds (RC-R230)

    def can_pay(self, p, cost) -> bool:
        return self.plan_payment(p, cost) is not None

    def pay(self, p, cost):
        """Pay a crystal cost (must be payable); Lexander's purple bonus (RC-R230, RC-A48)."""
        after, purple_paid = self.plan_payment(p, cost)
        self.cr[p] = after
        if purple_paid and self.has_tribe(p, "Lexander"):
            self.cr[p][W] += purple_paid
            return purple_paid
        return 0

    def single(self, colour):
        c = [0, 0, 0]
        c[colour] = 1
        return tuple(c)

    def on_board(self, p) -> int:
        return sum(self.fol[p])

    def add_followers(self, p, f, k) -> int:
        """Place up to k new followers from p's supply on field f (RC-R80); returns how many."""
        k = min(k, self.supply[p])
        self.fol[p][f] += k
        self.supply[p] -= k
        return k

    def remove_followers(self, p, f, k):
        """k of p's followers leave field f for the supply (RC-R77); Vinder's raft reacts (RC-R238, RC-A49)."""
        if k <= 0:
            return
        assert self.fol[p][f] >= k
        self.fol[p][f] -= k
        self.supply[p] += k
        self.raft_reacts(f)

    def raft_reacts(self, f):
        """RC-R238, RC-A49: followers were removed from f (also from a group on the water): each raft next to f puts 1 there."""
        for v in range(self.n):
            r = self.raft[v]
            if r >= 0 and self.raft_fol[v] > 0 and f in self.adj[r] and self.has_tribe(v, "Vinder"):
                self.raft_fol[v] -= 1
                self.fol[v][f] += 1
                if self.raft_fol[v] == 0:
                    self.raft[v] = -1            # RC-R239

    def present_field(self, p, f) -> bool:
        return self.fol[p][f] > 0 or self.bld[p][f] >= 0

    def present_slot(self, p, k) -> bool:
        """RC-R82: presence on an area tile (board monument and river fields are no tile)."""
        return any(self.present_field(p, f) for f in range(7 * k, 7 * k + 7))

    def is_water(self, f) -> bool:
        return self.terr[f] == WATER or self.island[f]

    def enterable(self, p, f) -> bool:
        """RC-A62: may p's followers enter f with a normal move?"""
        t = self.terr[f]
        if t < 0:
            return False
        if self.art[f] >= 0 and self.arts[p][self.art[f]] >= self.ct.board.artifact_rows.columns:
            return False                          # RC-A17 full_row: blocked
        if self.island[f]:
            return True
        if t == VOLCANO:
            return self.has_tribe(p, "Colteron")  # RC-R209, RC-A45
        return self.ct.map.terrains[t].move

    def art_cost(self, p, f) -> int:
        """Followers to pay on entering f (RC-R101); Exoskelet may pay it instead (``payment``)."""
        c = self.art[f]
        if c < 0:
            return 0
        return self.ct.board.artifact_rows.follower_cost[self.arts[p][c]]

    def exo_usable(self, p) -> bool:
        """RC-R244: p owns Exoskelet and its stones can be paid now (model doc, "payment")."""
        j = self.abil_index.get("exoskelet", -1)
        return j >= 0 and j in self.owned_abilities(p) and self.affordable(p, j)

    def min_payers(self, p, cost) -> int:
        """The fewest followers + pigs a group must bring to a follower cost (0 if Exoskelet can pay it)."""
        return 0 if cost and self.exo_usable(p) else cost

    def payment(self, p, cost, have):
        """RC-R244: a follower cost of a development action or an artifact: Exoskelet or followers.

        ``have``: the followers (+ pigs) that can pay. Returns True when Exoskelet paid it
        (its stones placed, its count raised), False when the followers must pay.
        """
        if cost <= 0:
            return False
        j = self.abil_index.get("exoskelet", -1)
        legal = ([self.A_USE + j] if self.exo_usable(p) else []) + ([self.A_END] if have >= cost else [])
        a = yield from self._ask(p, "payment", legal)
        if a == self.A_END:
            return False
        self.placed[p] += self.cost(p, j)
        self.uses[p][j] = self.uses[p].get(j, 0) + 1
        return True

    def dorian(self, p) -> bool:
        return self.has_tribe(p, "Dorian")

    def pay_followers(self, p, f, k, pigs_ok=True):
        """Pay k followers from field f, pigs first for a Dorian holder (RC-R213, RC-A72)."""
        if pigs_ok and self.dorian(p):
            use = min(self.pigs[f], k)
            self.pigs[f] -= use
            self.pigs_left += use
            k -= use
        self.remove_followers(p, f, k)

    def payable_followers(self, p, f) -> int:
        return self.fol[p][f] + (self.pigs[f] if self.dorian(p) else 0)

    def gain_points(self, p, k):
        """Green points (RC-R175); each upgrade symbol reached the first time gives a tile (RC-R177, RC-A13)."""
        old = self.score[p]
        self.score[p] = max(0, old + k)
        if k <= 0 or self.space >= self.ct.time_board.spaces:
            return
        for i, s in enumerate(self.ct.upgrade_symbols):
            if old < s <= self.score[p] and i not in self.sym_got[p]:
                self.sym_got[p].add(i)
                yield from self.take_upgrade(p, i)

    def take_upgrade(self, p, i):
        """RC-R178, RC-V9: choose side (and, in the variant, letter) and improve that field."""
        if self.cfg.free_upgrade_choice:
            opts = [2 * l + s for l in range(6) if self.upg_set[p][l] for s in (0, 1)]
            x = yield from self._opt(p, "upgrade", opts)
            if x is None:
                return
            letter, side = divmod(x, 2)
            self.upg_set[p][letter] = False
        else:
            letter = self.symbol_letter[i]
            if self.upg_left[letter] == 0:
                return
            self.upg_left[letter] -= 1
            side = yield from self._opt(p, "upgrade", [0, 1])
        self.upg[p][letter] = side
        self.on_upgrade(p, letter)

    def field_effect(self, p, letter):
        """The current version of action field ``letter`` (printed, or its upgrade tile's side)."""
        side = self.upg[p][letter]
        return self.ct.base_fields[letter] if side < 0 else self.ct.upgrades[letter].sides[side]

    def step_track(self, p, t, k):
        """k knowledge steps on track t, one at a time, thresholds in order (RC-R161..R173, RC-A12)."""
        kn = self.ct.knowledge
        for done in range(k):
            if self.trk[p][t] >= kn.last:
                self.stats["rc_steps_lost"][p] += k - done
                return
            self.trk[p][t] += 1
            pos = self.trk[p][t]
            if pos == kn.third:
                if not self.third_first[t]:
                    self.third_first[t] = True
                    self.revealed[t] = True
                    yield from self.gain_points(p, 1)
                left = self.item_stack[t]
                x = yield from self._opt(p, "item", range(len(left)))
                if x is not None:
                    self.items[p].append(left.pop(x))
            if pos in kn.bonus_positions:
                token = self.ct.light_tokens[self.light[2 * t + kn.bonus_positions.index(pos)]]
                yield from self.gain(p, token.reward)
                yield from self.event(p, "bonus_token", reward=token.reward)
            if pos == kn.fifth:
                self.stones[p][OWN] += 1
                self.unlocked[p][t] = True
