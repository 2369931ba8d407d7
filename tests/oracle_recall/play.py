"""The game: setup decisions, rounds, turns, key cards, recall, special rounds, the crystal cap."""
from __future__ import annotations

from sim.games.recall.content_types import NONE, START, Atom
from tests.oracle_recall.common import ACTION_ATOMS, N_PICK, SAN, WKS, MON, W, R, P, TurnGuard


class Play:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    # ------------------------------------------------------------------ the game

    def _play(self):
        yield from self.setup_decisions()
        tb = self.ct.time_board
        for space in range(1, tb.spaces):                   # RC-R1, RC-R4..R7, RC-A8
            self.space = space
            kind = tb.kind(space)
            for p in range(self.n):                         # RC-R3
                yield from self.guarded(p, kind)
            self.rounds_played += 1
        self.space = tb.spaces                              # RC-E1, RC-E2
        self.final_scoring()

    def guarded(self, p, kind):
        """One turn of p with the RC-A68 guard; then the crystal cap (RC-R10, RC-R73)."""
        self.active, self.turn_decisions, self.recharged = p, 0, False
        try:
            if kind == "normal":
                yield from self.normal_turn(p)
            elif kind == "path":
                yield from self.path_turn(p, self.ct.time_board.path_spaces.index(self.space))
            else:
                yield from self.goal_turn(p)
            yield from self.turn_end(p)
        except TurnGuard:
            self.guard_hits += 1
            self.supply[p] += self.transit[p]          # a water movement cut short: its group goes to the supply
            self.pigs_left += self.transit_pigs[p]
            self.transit[p] = self.transit_pigs[p] = 0
        self.turn, self.recharged, self.active = None, False, -1
        self.turns += 1
        self.crystal_cap(p)

    def turn_end(self, p):
        a = yield from self.window(p, "turn_end", list, end=True)
        assert a in (None, self.A_END)

    def crystal_cap(self, p):
        """RC-R73, RC-A38, RC-A69: convert up where that keeps crystals, then discard the excess."""
        cap, k, c = self.ct.setup.crystal_cap, self.ratio(p), self.cr[p]
        while c[W] > cap and c[W] >= k:
            c[W] -= k
            c[R] += 1
        while c[R] > cap and c[R] >= k:
            c[R] -= k
            c[P] += 1
        for x in range(3):
            if c[x] > cap:
                self.stats["rc_crystals_lost"][p] += c[x] - cap
                c[x] = cap

    def setup_decisions(self):
        """Solo start field (RC-V11), the tribe draft (RC-S33, RC-V1..V5), old tribes (RC-S36..S38)."""
        n, ct = self.n, self.ct
        if n == 1:
            x = yield from self._opt(0, "start_field", [0, 1])
            self.start_field[0] = self.find_start(ct.map.start_fields[x])
        else:
            nums = list(ct.map.start_fields[:n])
            if self.cfg.start_fields == "random":
                pool = [s for s in ct.map.start_fields if self.find_start(s) >= 0]
                perm = self._perm("start_fields", len(pool))
                nums = [pool[perm[j]] for j in range(n)]
            for j in range(n):
                self.start_field[j] = self.find_start(nums[j])
        for j in range(n):                                  # RC-S29
            self.add_followers(j, self.start_field[j], ct.setup.start_followers)
        m = n + 1
        tribes, items = self.tperm[:m], self.iperm[:m]
        t_left, i_left = list(range(m)), list(range(m))
        mode = self.cfg.tribe_draft
        order = list(range(n - 1, -1, -1))                  # right of the start player first, counter-clockwise
        if mode == "random":
            for j in range(n):
                self.tribe[j], self.items[j] = tribes[j], [items[j]]
                t_left.remove(j)
                i_left.remove(j)
        elif mode == "draft":
            for j in order:
                x = yield from self._opt(j, "draft", t_left)
                self.tribe[j], self.items[j] = tribes[x], [items[x]]
                t_left.remove(x)
                i_left.remove(x)
        else:                                               # custom tribe: one element, then the other kind
            took_tribe = [False] * n
            for j in order:
                x = yield from self._opt(j, "draft", t_left + [5 + i for i in i_left])
                if x < 5:
                    self.tribe[j], took_tribe[j] = tribes[x], True
                    t_left.remove(x)
                else:
                    self.items[j] = [items[x - 5]]
                    i_left.remove(x - 5)
            for j in range(n):
                if took_tribe[j]:
                    x = yield from self._opt(j, "draft", [5 + i for i in i_left])
                    self.items[j] = [items[x - 5]]
                    i_left.remove(x - 5)
                else:
                    x = yield from self._opt(j, "draft", t_left)
                    self.tribe[j] = tribes[x]
                    t_left.remove(x)
        chosen_t = set(self.tribe)
        chosen_i = {i for its in self.items for i in its}
        rest_t = [t for t in range(len(ct.tribes)) if t not in chosen_t]
        rest_i = [i for i in range(len(ct.items)) if i not in chosen_i]
        tp = self._perm("old_tribes", len(rest_t))
        ip = self._perm("old_items", len(rest_i))
        per = ct.setup.items_per_stack
        self.old_tribe = [rest_t[tp[t]] for t in range(3)]
        self.item_stack = [[rest_i[ip[per * t + i]] for i in range(per)] for t in range(3)]

    def find_start(self, number) -> int:
        for f in range(self.NF):
            if self.terr[f] == START and self.startno[f] == number:
                return f
        return -1

    def normal_turn(self, p):
        """RC-R8: play a key card (RC-R13..R19) or recall (RC-R36..R47)."""
        a = yield from self.window(p, "main", lambda: [self.A_RECALL] + self.plays_legal(p), opt=False)
        if a == self.A_RECALL:
            yield from self.recall(p)
        else:
            k, s = divmod(a - self.A_PLAY, 6)
            yield from self.play_card(p, k, s)

    def plays_legal(self, p) -> list:
        """RC-R13, RC-R21, RC-R34: an available card into a free slot."""
        return [self.play_action(k, s) for k in range(self.K) if self.avail[p][k] > 0
                for s in range(6) if self.slots[p][s] < 0 and (s < 5 or self.field_f_ok(p))]

    def field_f_ok(self, p) -> bool:
        """RC-R34, RC-A40: slot F needs an earlier action field."""
        return bool(self.copyable(p))

    def play_card(self, p, k, s):
        self.avail[p][k] -= 1
        self.slots[p][s] = k
        self.ever[p][s] = True
        self.plays[p][s] += 1
        card = self.ct.key_cards[k]
        pending = self.pending_items(card.effect, "card") + self.pending_items(self.field_effect(p, s), s)
        self.turn = {"p": p, "pending": pending, "letter": s, "touched": set(), "card": k}
        if card.effect:
            yield from self.event(p, "key_card", card=k)   # J'He (RC-R225)
        while self.turn["pending"]:
            pend = self.turn["pending"]
            assert len(pend) <= N_PICK, "more pending effects than the pick head holds"
            a = yield from self.window(p, "effect", lambda: [self.A_PICK + i for i in range(len(pend))], end=True, opt=False)
            if a is None or a == self.A_END:
                break
            item, src = pend.pop(a - self.A_PICK)
            if src != "card":
                self.turn["touched"].add(src)
            atom = yield from self.choose(p, item)
            if atom is None:
                continue
            if atom.op == "DEV" and atom.n > 1:          # a chosen DEV:n: n separate effects
                pend += [((Atom("DEV"),), src)] * (atom.n - 1)
                atom = Atom("DEV")
            if atom.op in ACTION_ATOMS:
                yield from self.run_action(p, atom, src=src)
            else:
                yield from self.do_atom(p, atom)

    def pending_items(self, effect, src) -> list:
        """Pending effects of a card or field: its items, ``DEV:n`` as n separate items (RC-A2)."""
        out = []
        for item in effect:
            if len(item) == 1 and item[0].op == "DEV":
                out += [((Atom("DEV"),), src)] * item[0].n
            else:
                out.append((item, src))
        return out

    def on_upgrade(self, p, letter):
        """RC-R179, RC-R180, RC-A15: a field activated this turn, none of its effects used: new version now."""
        t = self.turn
        if t is None or t["p"] != p or letter in t["touched"]:
            return
        if not any(src == letter for _, src in t["pending"]):
            return
        t["pending"][:] = [(i, s) for i, s in t["pending"] if s != letter] + \
            self.pending_items(self.field_effect(p, letter), letter)

    def recall(self, p):
        """RC-R36..R47: cards back, one production per card, a free-action window, recharge."""
        self.stats["rc_recalls"][p] += 1
        c = 0
        for s in range(6):
            if self.slots[p][s] >= 0:
                self.take_back(p, s)
                c += 1
        used = set()
        for _ in range(c):
            x = yield from self.window(p, "produce", lambda: [i for i in self.visible_production(p) if i not in used], end=True)
            if x is None or x == self.A_END:
                break
            i = x - self.A_OPT
            used.add(i)
            reward = self.ct.board.production[i].yield_
            yield from self.gain(p, reward)
            yield from self.event(p, "production", reward=reward)
        yield from self.window(p, "recharge", list, end=True)      # RC-A70: free actions before the recharge
        self.placed[p] = 0                                  # RC-R43, RC-R46, RC-R63
        self.uses[p] = {}
        self.recharged = True

    def visible_production(self, p) -> list:
        """RC-R39, RC-R40, RC-A16: fields visible at start and those uncovered by removed buildings."""
        out = []
        for i, pf in enumerate(self.ct.board.production):
            if pf.building == NONE:
                out.append(i)
            elif pf.building == SAN and self.sanct[p][pf.position - 1]:
                out.append(i)
            elif pf.building == WKS and self.ws[p][pf.column] >= pf.position:
                out.append(i)
            elif pf.building == MON and self.mons[p] >= pf.position:
                out.append(i)
        return out

    def path_turn(self, p, sector):
        """RC-R184..R188: choose one of the sector's two cards; the dark token beside it."""
        x = yield from self.window(p, "path", lambda: [0, 1])
        i = 2 * sector + (x - self.A_OPT)
        self.paths[p][sector] = i
        token = self.ct.dark_tokens[self.dark[i]]
        yield from self.gain(p, token.reward)
        yield from self.event(p, "bonus_token", reward=token.reward)

    def goal_turn(self, p):
        """RC-R189, RC-R190, RC-A54: discard a goal card and gain its bottom reward."""
        if self.n == 1 and self.cfg.solo_goals == "keep_three":
            return
        x = yield from self.window(p, "goal", lambda: range(len(self.goals[p])))
        card = self.goals[p].pop(x - self.A_OPT)
        yield from self.gain(p, self.ct.goal_cards[card].reward)
