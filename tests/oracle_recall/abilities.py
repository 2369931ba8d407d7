"""Skill stones and abilities (RC-R56..R68): costs, free actions and windows, events, the coded tribes and items."""
from __future__ import annotations

from sim.games.recall.content_types import CAMP, FOREST, GRAIN, MOUNTAIN, VOLCANO, WATER
from tests.oracle_recall.common import SAN, WKS, W, R, AYNIR_PAIRS, norm


class Abilities:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    # ------------------------------------------------------------------ abilities (RC-R56..R68, 3.21, 3.22)

    def owned_abilities(self, p) -> list:
        """Ability ids p may activate: own tribe, unlocked old tribes, items (Multitool parts)."""
        out = []
        for j, (name, kind, idx, rec) in enumerate(self.abil):
            if kind == "tribe":
                if idx == self.tribe[p] or any(self.unlocked[p][t] and self.old_tribe[t] == idx for t in range(3)):
                    out.append(j)
            elif idx in self.items[p]:
                out.append(j)
        return out

    def record(self, j):
        """The Ability record of ability id j (a Multitool part: the common item it stands for)."""
        name, kind, idx, rec = self.abil[j]
        return rec

    def event_of(self, j) -> str:
        name, kind, idx, rec = self.abil[j]
        return "" if kind == "part" else rec.event

    def is_free_action(self, j) -> bool:
        """Not event-bound and not Exoskelet (it acts only at a follower payment, ``payment``)."""
        return not self.event_of(j) and j != self.abil_index.get("exoskelet", -1)

    def cost(self, p, j) -> int:
        """RC-R61..R64: 1 with the hexagon, else one more than the activations since the last recall."""
        name, kind, idx, rec = self.abil[j]
        if kind != "part" and rec.hexagon:
            return 1
        return self.uses[p].get(j, 0) + 1

    def usable_stones(self, p) -> int:
        return sum(self.stones[p]) - self.placed[p]

    def affordable(self, p, j) -> bool:
        return not (self.recharged and p == self.active) and self.cost(p, j) <= self.usable_stones(p)

    def free_actions(self, p) -> list:
        """Legal free actions of the active player at a window (RC-A70)."""
        out = [self.A_USE + j for j in self.owned_abilities(p) if self.is_free_action(j) and self.affordable(p, j)]
        out += [self.A_CHEST + x for x in range(len(self.ct.chest_tiles)) if self.chests[p][x] > 0]
        if self.ring_fields(p):
            out.append(self.A_RING)
        return out

    def ring_fields(self, p) -> list:
        """RC-R233, RC-A31: camps with p's follower and no ring (Noorderling holder, rings left)."""
        if not self.ring_left or not self.has_tribe(p, "Noorderling"):
            return []
        return [f for f in range(self.NF) if self.terr[f] == CAMP and self.fol[p][f] > 0 and not self.ring[f]]

    def free_action(self, p, a):
        """Run one free action (the window asks again afterwards)."""
        if a == self.A_RING:
            f = yield from self._field(p, "ability_field", self.ring_fields(p))
            self.remove_followers(p, f, 1)
            i = self._int("rings", self.rings_placed, len(self.ring_left))
            self.rings_placed += 1
            kind = self.ring_left.pop(i)
            self.ring[f] = True
            yield from self.gain(p, self.ct.rings[kind].reward, field=f, now=True)
        elif a >= self.A_CHEST:
            x = a - self.A_CHEST
            self.chests[p][x] -= 1
            self.chest_discard.append(x)
            yield from self.gain(p, self.ct.chest_tiles[x].reward, now=True)   # RC-R49
        else:
            j = a - self.A_USE
            self.placed[p] += self.cost(p, j)
            self.uses[p][j] = self.uses[p].get(j, 0) + 1
            yield from self.run_ability(p, j)

    def window(self, p, kind, options, end=False, opt=True):
        """A decision with free actions added for the active player: returns the chosen non-free action.

        ``options()`` is called again after every free action (a free action can change them).
        """
        while True:
            free = self.free_actions(p) if p == self.active else []
            base = options()
            legal = ([self.A_OPT + i for i in base] if opt else list(base)) + ([self.A_END] if end else []) + free
            a = yield from self._ask(p, kind, legal)
            if a is None or a not in free:
                return a
            yield from self.free_action(p, a)

    def free_activation(self, p):
        """RC-R200, RC-A43: a non-event ability of p's choice without stones or count."""
        opts = [self.A_USE + j for j in self.owned_abilities(p) if self.is_free_action(j)]
        a = yield from self._ask(p, "free", opts + ([self.A_END] if opts else []))
        if a is not None and a != self.A_END:
            yield from self.run_ability(p, a - self.A_USE)

    def event(self, p, name, **info):
        """An event window (RC-R65, RC-A74): each owned ability bound to ``name`` at most once."""
        used = set()
        while True:
            cand = [j for j in self.owned_abilities(p)
                    if self.event_of(j) == name and j not in used and self.affordable(p, j)]
            if not cand:
                return
            if self.cfg.event_abilities == "auto":
                j = cand[0]
            else:
                a = yield from self._ask(p, "event", [self.A_USE + j for j in cand] + [self.A_END])
                if a == self.A_END:
                    return
                j = a - self.A_USE
            used.add(j)
            self.placed[p] += self.cost(p, j)
            self.uses[p][j] = self.uses[p].get(j, 0) + 1
            yield from self.run_event_ability(p, j, info)

    def run_event_ability(self, p, j, info):
        rec = self.record(j)
        key = norm(rec.id)
        if key == "goliath":                     # RC-R220
            yield from self.gain(p, info["reward"])
        elif key == "jhe":                       # RC-R225: the card's effects once more
            self.turn["pending"] += self.pending_items(self.ct.key_cards[info["card"]].effect, "card")
        elif key == "k01":                       # RC-R226, RC-R227
            if info.get("artifact_reward") is not None:
                yield from self.gain(p, info["artifact_reward"])
            elif not info.get("display"):
                yield from self.gain(p, info["reward"], field=info["field"])
        elif key == "gpr":                       # RC-R246
            yield from self.step_track(p, info["track"], 1)
        elif key == "schokbron":                 # RC-R249
            yield from self.gain(p, info["reward"])
        else:                                    # Booster, Decoder, Vertolker: their data effect
            yield from self.gain(p, rec.effect, now=True)

    def run_ability(self, p, j):
        """Execute a non-event ability once (RC-R68): its data effect, or the coded rule."""
        rec = self.record(j)
        if not rec.coded:
            yield from self.gain(p, rec.effect, now=True)
            return
        key = norm(rec.id)
        yield from getattr(self, "ab_" + key)(p)


    # ------------------------------------------------------------------ coded abilities (3.21, 3.22)

    def own_fields(self, p) -> list:
        return [f for f in range(self.NF) if self.fol[p][f] > 0]

    def is_free(self, f) -> bool:
        """RC-R203: no buildings, followers, artifacts or special tiles (pigs and farms included, RC-A46)."""
        return (self.art[f] < 0 and not self.island[f] and not self.farm[f] and not self.ring[f]
                and self.pigs[f] == 0 and f not in self.raft
                and all(self.fol[q][f] == 0 and self.bld[q][f] < 0 for q in range(self.n)))

    def ab_aynir(self, p):
        """RC-R205, RC-R206, RC-A44: up to 4 exchanges of one unit for another (follower, white, point)."""
        for _ in range(4):
            opts = []
            for i, (give, get) in enumerate(AYNIR_PAIRS):
                has = (self.on_board(p) > 0, self.can_pay(p, (1, 0, 0)), self.score[p] > 0)[give]
                room = get != 0 or self.supply[p] > 0 or give == 0
                if has and room:
                    opts.append(i)
            i = yield from self._opt(p, "ability", opts, end=True)
            if i is None or i < 0:
                return
            give, get = AYNIR_PAIRS[i]
            if give == 0:
                f = yield from self._field(p, "ability_field", self.own_fields(p))
                self.remove_followers(p, f, 1)
            elif give == 1:
                yield from self.pay_and_points(p, (1, 0, 0))
            else:
                self.score[p] -= 1
            if get == 0:
                yield from self.gain_followers(p, 1)
            elif get == 1:
                self.cr[p][W] += 1
            else:
                yield from self.gain_points(p, 1)

    def ab_colteron(self, p):
        """RC-R208, RC-A45: followers (and a Dorian holder's pigs) from one volcano to another face-up volcano, and 1 white crystal."""
        volcanoes = [f for f in range(self.NF) if self.terr[f] == VOLCANO and not self.island[f]]
        srcs = [f for f in volcanoes if self.fol[p][f] > 0] if len(volcanoes) > 1 else []
        f = yield from self._field(p, "ability_field", srcs, end=True)
        if f is not None and f >= 0:
            g = yield from self._field(p, "ability_field", [v for v in volcanoes if v != f])
            c = yield from self._count(p, "ability_count", 1, self.fol[p][f])
            m = yield from self.take_pigs(p, 0, self.pigs_along(p, f))        # RC-R212
            self.fol[p][f] -= c
            self.fol[p][g] += c
            self.pigs[f] -= m
            self.pigs[g] += m
        self.cr[p][W] += 1

    def dorian_present(self, p, f) -> bool:
        """RC-A57: presence on the grain field, or on its area tile."""
        if self.cfg.dorian_presence == "tile" and self.slot_of_field[f] >= 0:
            return self.present_slot(p, self.slot_of_field[f])
        return self.present_field(p, f)

    def ab_dorian(self, p):
        """RC-R210, RC-R211, RC-A36: a pig farm on a grain field where p is present, with its pigs."""
        if self.farms_left == 0:
            return
        fields = [f for f in range(self.NF) if self.terr[f] == GRAIN and not self.island[f]
                  and not self.farm[f] and self.dorian_present(p, f)]
        f = yield from self._field(p, "ability_field", fields)
        if f is None:
            return
        self.farm[f] = True
        self.farms_left -= 1
        k = min(self.pigpic[f], self.pigs_left)
        self.pigs[f] += k
        self.pigs_left -= k

    def ab_enterin(self, p):
        """RC-R216..R219, RC-A50: an island on a free water / grain / forest / mountain field next to p."""
        if self.islands_left == 0:
            return
        fields = [f for f in range(self.NF) if self.terr[f] in (WATER, GRAIN, FOREST, MOUNTAIN)
                  and self.is_free(f) and any(self.present_field(p, g) for g in self.adj[f])]
        f = yield from self._field(p, "ability_field", fields)
        if f is None:
            return
        self.islands_left -= 1
        self.island[f] = True
        self.pigpic[f] = 0
        for g in self.adj[f]:
            kinds = {self.bld[q][g] for q in range(self.n)} - {-1}
            if not kinds:
                continue
            kind = kinds.pop()
            if kind == WKS:
                self.cr[p][W] += 1
            elif kind == SAN:
                self.add_followers(p, f, 1)
            else:
                yield from self.gain_points(p, 1)

    def ab_hayla(self, p):
        """RC-R221..R223, RC-A47: a jump over one field, or scatter one field's followers (pigs go along, RC-R212)."""
        jumps = {}
        for f in self.own_fields(p):
            q, r = self.coord[f]
            for dq, dr in self.dirs:
                y = self.field_at.get((q + dq, r + dr))
                z = self.field_at.get((q + 2 * dq, r + 2 * dr))
                if y is not None and z is not None and self.terr[y] >= 0 \
                        and self.group_can_enter(p, f, z, self.payable_followers(p, f)):
                    jumps.setdefault(f, []).append(z)
        scat = [f for f in self.own_fields(p)
                if any(self.group_can_enter(p, f, g, 1 + self.pigs_along(p, f)) for g in self.adj[f])]
        modes = ([0] if jumps else []) + ([1] if scat else [])
        mode = yield from self._opt(p, "ability", modes)
        if mode is None:
            return
        if mode == 0:
            f = yield from self._field(p, "ability_field", sorted(jumps))
            yield from self.group_move(p, f, jumps[f], kind="jump")
            return
        f = yield from self._field(p, "ability_field", scat)
        for _ in range(self.fol[p][f]):
            pigs = self.pigs_along(p, f)
            dests = [g for g in self.adj[f] if self.group_can_enter(p, f, g, 1 + pigs)]
            g = yield from self._field(p, "ability_field", dests)
            if g is None:
                continue                            # no legal destination: it stays
            m = yield from self.take_pigs(p, self.min_payers(p, self.art_cost(p, g)) - 1, pigs)
            yield from self.move_group(p, f, g, 1, m)

    def ab_vinder(self, p):
        """RC-R235, RC-R236, RC-A49: place or move the raft onto a free water field, +3 followers on it."""
        fields = [f for f in range(self.NF) if self.terr[f] == WATER and not self.island[f] and self.is_free(f)]
        f = yield from self._field(p, "ability_field", fields)
        if f is None:
            return
        self.raft[p] = f
        k = min(3, self.supply[p])
        self.raft_fol[p] += k
        self.supply[p] -= k

    def ab_alambiek(self, p):
        """RC-R241: remove one own follower anywhere, gain 1 red crystal."""
        f = yield from self._field(p, "ability_field", self.own_fields(p))
        if f is not None:
            self.remove_followers(p, f, 1)
            self.cr[p][R] += 1

    def ab_portaal(self, p):
        """RC-R248: a new follower on a field with another player's building, or placed normally."""
        yield from self.gain_followers(p, 1, portal=True)
