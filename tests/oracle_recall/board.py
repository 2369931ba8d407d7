"""Action atoms on the map: field grammar, movement, water movement, development actions, exploring."""
from __future__ import annotations

from sim.games.recall.content_types import CAMP, EXCAVATION, FOREST, GRAIN, MONUMENT, MOUNTAIN, NONE, Atom
from tests.oracle_recall.common import SAN, WKS, W, R


class Board:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    # ------------------------------------------------------------------ action atoms

    def run_action(self, p, a: Atom, field=-1, src="gain"):
        op = a.op
        if op == "MOVE":
            yield from self.movement(p, a.n)
        elif op == "WMOVE":
            yield from self.water_movement(p, improved=bool(a.arg))
        elif op == "DEV":
            for _ in range(a.n):
                yield from self.development(p)
        elif op == "EXPLORE":
            yield from self.explore(p)
        elif op == "PAYOPT":                       # RC-R27, RC-R28: at most one crystal for the count
            opts = [i for i, (c, _) in enumerate(a.options) if c == NONE or self.can_pay(p, self.single(c))]
            i = yield from self._opt(p, "pay_move", opts)
            colour, count = a.options[i]
            if colour != NONE:
                yield from self.pay_and_points(p, self.single(colour))
            yield from self.run_action(p, Atom(a.what[0], n=count))
        elif op == "UNITS":                        # RC-A63: m of the n units are moves (one movement)
            opts = range(a.n + 1) if "MOVE" in a.what and "DEV" in a.what else ([a.n] if "MOVE" in a.what else [0])
            m = yield from self._opt(p, "units", opts)
            if m:
                self.turn["pending"].append(((Atom("MOVE", n=m),), src))
            for _ in range(a.n - m):
                self.turn["pending"].append(((Atom("DEV"),), src))
        elif op == "BUY":                          # RC-R24, RC-A23
            opts = [i for i, (c, _) in enumerate(a.options) if self.can_pay(p, c)]
            i = yield from self._opt(p, "buy", opts, end=True)
            if i is not None and i >= 0:
                cost, k = a.options[i]
                yield from self.pay_and_points(p, cost)
                yield from self.gain_followers(p, k)
        elif op == "SELL":                         # RC-R25
            while True:
                f = yield from self._field(p, "sell", [f for f in range(self.NF) if self.fol[p][f] > 0], end=True)
                if f is None or f < 0:
                    return
                k = yield from self._count(p, "sell_count", 1, self.fol[p][f])
                self.remove_followers(p, f, k)
                self.cr[p][a.arg] += k
        elif op == "COPY":                         # RC-R33, RC-R35, RC-A40
            opts = self.copyable(p)
            if not opts or not self.can_pay(p, a.cost):
                return
            letter = yield from self._opt(p, "copy", opts)
            yield from self.pay_and_points(p, a.cost)
            self.turn["pending"] += self.pending_items(self.field_effect(p, letter), src)
        else:
            raise AssertionError(op)

    def copyable(self, p) -> list:
        """RC-A40: letters A..E whose slot holds a card (``copy_field = "ever"``: ever activated)."""
        if self.cfg.copy_field == "ever":
            return [l for l in range(5) if self.ever[p][l]]
        return [l for l in range(5) if self.slots[p][l] >= 0]

    # ---- movement (RC-R83..R92, RC-A18, RC-A62)

    def group_can_enter(self, p, f, g, size) -> bool:
        """RC-A62, RC-R102: g enterable and its artifact payable by a group of ``size`` (or by Exoskelet)."""
        return self.enterable(p, g) and self.min_payers(p, self.art_cost(p, g)) <= size

    def pigs_along(self, p, f) -> int:
        """Pigs on f a Dorian holder may take along (RC-R212)."""
        return self.pigs[f] if self.dorian(p) else 0

    def take_pigs(self, p, lo, hi):
        """``move_pigs``: how many of ``hi`` pigs go with the group (at least ``lo``), RC-R212."""
        if hi <= 0:
            return 0
        return (yield from self._opt(p, "move_pigs", range(max(0, lo), hi + 1)))

    def movement(self, p, n):
        """One movement of up to n moves, executed in one go (RC-R89)."""
        for _ in range(n):
            srcs = [f for f in range(self.NF) if self.fol[p][f] > 0
                    and any(self.group_can_enter(p, f, g, self.payable_followers(p, f)) for g in self.adj[f])]
            f = yield from self._field(p, "move_from", srcs, end=True)
            if f is None or f < 0:
                return
            yield from self.group_move(p, f, [g for g in self.adj[f]
                                              if self.group_can_enter(p, f, g, self.payable_followers(p, f))])

    def group_move(self, p, f, dests, kind="move_to"):
        """``move_to`` among ``dests``, ``move_count``, ``move_pigs``; then the group arrives (a move, a Hayla jump)."""
        g = yield from self._field(p, kind if kind == "move_to" else "ability_field", dests)
        need = self.min_payers(p, self.art_cost(p, g))
        pigs_here = self.pigs_along(p, f)
        c = yield from self._count(p, "move_count" if kind == "move_to" else "ability_count",
                                   max(1, need - pigs_here), self.fol[p][f])
        m = yield from self.take_pigs(p, need - c, pigs_here)
        yield from self.move_group(p, f, g, c, m)

    def move_group(self, p, f, g, c, m=0):
        """Move c followers and m pigs from f to g; an artifact on g is taken, paid pigs first (RC-R99..R104)."""
        self.fol[p][f] -= c
        self.pigs[f] -= m
        self.fol[p][g] += c
        self.pigs[g] += m
        yield from self.arrive(p, g, c + m)

    def arrive(self, p, g, group):
        """The group (``group`` followers + pigs) has entered g: pay and take its artifact (RC-R99..R104, RC-A18)."""
        c = self.art[g]
        if c < 0:
            return
        cost = self.art_cost(p, g)
        exo = yield from self.payment(p, cost, group)
        self.art[g] = -1
        if not exo:
            self.pay_followers(p, g, cost)
        yield from self.receive_artifact(p, c)

    # ---- water movement (RC-R93..R97, RC-A7, RC-A56)

    def water_area(self, w) -> set:
        seen, todo = {w}, [w]
        while todo:
            x = todo.pop()
            for y in self.adj[x]:
                if y not in seen and self.is_water(y):
                    seen.add(y)
                    todo.append(y)
        return seen

    def water_movement(self, p, improved=False):
        """RC-A7, RC-A56: one group (with pigs, RC-R212) over connected water, step by step, then out."""
        srcs = [f for f in range(self.NF) if self.fol[p][f] > 0
                and (self.is_water(f) or any(self.is_water(w) for w in self.adj[f]))]      # RC-A7(b)
        f = yield from self._field(p, "water_from", srcs, end=True)
        if f is None or f < 0:
            return
        size = yield from self._count(p, "water_count", 1, self.fol[p][f])
        pigs = yield from self.take_pigs(p, 0, self.pigs_along(p, f))
        self.fol[p][f] -= size
        self.pigs[f] -= pigs
        self.transit[p], self.transit_pigs[p] = size, pigs
        visited = [f] if self.is_water(f) else []          # a start on the water is the path's first field
        cur = f
        while True:
            steps = [w for w in self.adj[cur] if self.is_water(w) and w != f and w not in visited
                     and (self.art[w] < 0 or self.arts[p][self.art[w]] < self.ct.board.artifact_rows.columns)
                     and self.min_payers(p, self.art_cost(p, w)) <= size + pigs]
            exits = [g for g in self.water_exits(p, f, visited, improved)      # an exit the group can pay (water_exit)
                     if self.min_payers(p, self.art_cost(p, g)) <= size + pigs]
            legal = [self.A_FIELD + w for w in steps] + ([self.A_END] if visited and exits else [])
            a = yield from self._ask(p, "water_step", legal)
            if a is None:
                break                                      # stuck: below, the group cannot leave
            if a == self.A_END:
                break
            w = a - self.A_FIELD
            visited.append(w)
            cur = w
            if self.art[w] >= 0:                          # RC-R97: pay from the group on the water
                c, cost = self.art[w], self.art_cost(p, w)
                exo = yield from self.payment(p, cost, size + pigs)
                self.art[w] = -1
                if not exo and cost:
                    use = min(pigs, cost) if self.dorian(p) else 0      # pigs first (RC-A72)
                    pigs -= use
                    self.pigs_left += use
                    size -= cost - use
                    self.supply[p] += cost - use
                    self.transit[p], self.transit_pigs[p] = size, pigs
                    if cost > use:
                        self.raft_reacts(w)               # RC-R238: removed from a group on w
                yield from self.receive_artifact(p, c)
                if size == 0:                             # pigs do not travel alone: back to the pig supply
                    self.pigs_left += pigs
                    self.transit_pigs[p] = 0
                    return
        while size > 0:
            exits = [g for g in self.water_exits(p, f, visited, improved)
                     if self.min_payers(p, self.art_cost(p, g)) <= size + pigs]
            g = yield from self._field(p, "water_exit", exits)
            if g is None:
                self.water_stuck(p, f, visited, size, pigs)
                return
            need = self.min_payers(p, self.art_cost(p, g))
            k = size
            if improved:
                k = yield from self._count(p, "water_exit_count", max(1, need - pigs), size)
            m = pigs if k == size else (yield from self.take_pigs(p, need - k, pigs))
            self.fol[p][g] += k
            self.pigs[g] += m
            size, pigs = size - k, pigs - m
            self.transit[p], self.transit_pigs[p] = size, pigs
            yield from self.arrive(p, g, k + m)

    def water_stuck(self, p, f, visited, size, pigs):
        """A group that cannot leave the water (config ``water_no_exit``, model doc): back to its start, or stays."""
        home = f
        if self.cfg.water_no_exit == "stay" and visited:
            home = visited[-1]
        self.fol[p][home] += size
        self.pigs[home] += pigs
        self.transit[p], self.transit_pigs[p] = 0, 0

    def water_exits(self, p, f, visited, improved):
        """RC-A7(d) / RC-A56: enterable fields next to the last water field (improved: next to the area)."""
        if not visited:
            return []
        if improved:
            area = set().union(*(self.water_area(w) for w in visited))
        else:
            area = {visited[-1]}
        return sorted({g for w in area for g in self.adj[w] if g != f and self.enterable(p, g)})

    # ---- development actions (RC-R113..R158)

    def building_of(self, f) -> int:
        """Building kind field f takes (RC-R116; an island is a forest field, RC-A50), or NONE."""
        if self.terr[f] < 0:
            return NONE
        if self.island[f]:
            return WKS
        return self.ct.map.terrains[self.terr[f]].building

    def column_of(self, f) -> int:
        """Workshop column of a field: grain / forest / mountain (island: forest)."""
        if self.island[f]:
            return 1
        return {GRAIN: 0, FOREST: 1, MOUNTAIN: 2}[self.terr[f]]

    def others_built(self, p, f) -> list:
        return [q for q in range(self.n) if q != p and self.bld[q][f] >= 0]

    def build_cost(self, p, kind, f):
        """Crystal cost of building ``kind`` on f next (None: none left)."""
        b = self.ct.board
        if kind == SAN:
            return (0, 0, 0) if not all(self.sanct[p]) else None
        if kind == WKS:
            col = self.column_of(f)
            return b.workshops[col][self.ws[p][col]] if self.ws[p][col] < len(b.workshops[col]) else None
        return b.monuments[self.mons[p]] if self.mons[p] < len(b.monuments) else None

    def can_build(self, p, kind, f) -> bool:
        if self.fol[p][f] == 0 or self.bld[p][f] >= 0 or self.building_of(f) != kind:
            return False                            # RC-R113, RC-R117, RC-R116
        need = self.min_payers(p, 1 + len(self.others_built(p, f)))      # RC-R119, RC-R120, RC-R244
        if need > self.payable_followers(p, f):
            return False
        cost = self.build_cost(p, kind, f)
        return cost is not None and self.can_pay(p, cost)

    def can_excavate(self, p, f) -> bool:
        k = len(self.site[f])
        if self.fol[p][f] == 0 or self.terr[f] != EXCAVATION or k == 0:
            return False                            # RC-R157
        return self.can_pay(p, self.single(self.ct.setup.excavation[k - 1][0]))

    def dev_targets(self, p, t) -> list:
        if t == 3:
            return [f for f in range(self.NF) if self.can_excavate(p, f)]
        return [f for f in range(self.NF) if self.can_build(p, t, f)]

    def development(self, p):
        """One development action: build, excavate or upgrade a crystal (RC-R113, RC-R114)."""
        types = [t for t in range(4) if self.dev_targets(p, t)]
        if self.cr[p][W] or self.cr[p][R]:
            types.append(4)
        t = yield from self._opt(p, "dev", types, end=True)
        if t is None or t < 0:
            return
        if t == 4:
            c = yield from self._opt(p, "crystal", [c for c in (W, R) if self.cr[p][c] > 0])
            self.cr[p][c] -= 1
            self.cr[p][c + 1] += 1
            return
        f = yield from self._field(p, "dev_field", self.dev_targets(p, t))
        if t == 3:
            yield from self.excavate(p, f)
        else:
            yield from self.build(p, t, f)

    def excavate(self, p, f):
        """RC-R151..R158: 1 follower + the crystal by stones on the site; 2/3/4 steps; GPR window."""
        colours = sorted(set(self.site[f]))
        c = yield from self._opt(p, "stone", colours)
        crystal, steps = self.ct.setup.excavation[len(self.site[f]) - 1]      # RC-R152..R154 (setup.toml)
        exo = yield from self.payment(p, 1, self.payable_followers(p, f))
        yield from self.pay_and_points(p, self.single(crystal))
        if not exo:
            self.pay_followers(p, f, 1)             # RC-R122
        self.site[f].remove(c)
        self.stones[p][c] += 1                      # RC-R155: usable at once
        yield from self.step_track(p, c, steps)
        yield from self.event(p, "excavate", track=c)

    def build(self, p, kind, f):
        """RC-R119..R150: followers, crystals, others' followers, the building's reward, camps."""
        if kind == SAN:                              # RC-R127: which sanctuary (its reward)
            i = yield from self._opt(p, "sanctuary", [i for i, b in enumerate(self.sanct[p]) if not b])
        others = self.others_built(p, f)
        exo = yield from self.payment(p, 1 + len(others), self.payable_followers(p, f))
        if not exo:
            self.pay_followers(p, f, 1 + len(others))
        cost = self.build_cost(p, kind, f)
        yield from self.pay_and_points(p, cost)
        if not exo:                                  # RC-R121, RC-R245, RC-A52
            for q in others:
                self.add_followers(q, f, 1)
        self.bld[p][f] = kind
        if kind == SAN:
            self.sanct[p][i] = True
            yield from self.sanctuary_reward(p, f, i)
        elif kind == WKS:
            col = self.column_of(f)
            self.ws[p][col] += 1
            yield from self.take_key(p, self.ct.map.terrains[(GRAIN, FOREST, MOUNTAIN)[col]].key_colour)   # RC-R133
        else:
            self.mons[p] += 1
            if self.terr[f] == MONUMENT:
                if f not in self.mon_tile:              # RC-R142
                    j = yield from self._opt(p, "monument_tile", range(len(self.mon_display)))
                    if j is not None:
                        self.mon_tile[f] = self.mon_display.pop(j)
                if f in self.mon_tile:                  # RC-R143
                    yield from self.gain(p, self.ct.monument_tiles[self.mon_tile[f]].reward, field=f)
        for g in sorted(self.adj[f]):                   # RC-R144..R146, RC-R150: in field order
            if self.terr[g] == CAMP and g not in self.camp_got[p]:
                self.camp_got[p].add(g)
                yield from self.gain(p, self.ct.camps[self.camp[g]].reward, field=g)
                yield from self.event(p, "camp")

    def sanctuary_reward(self, p, f, i):
        """RC-R125, RC-R128, RC-R129: the reward beside sanctuary i; K-01 and Decoder windows."""
        reward = self.ct.board.sanctuaries[i]
        display = len(reward) == 1 and reward[0][0].op == "ART_DISPLAY"
        covered = None
        if display:
            covered = yield from self.take_display_artifact(p)
        else:
            yield from self.gain(p, reward, field=f)
        yield from self.event(p, "sanctuary", reward=reward, field=f, display=display, artifact_reward=covered)

    # ---- exploring (RC-R106..R112, RC-A6)

    def explorable(self, p) -> list:
        return [k for k in range(self.NS) if not self.face_up[k]
                and any(self.face_up[j] and self.present_slot(p, j) for j in self.slot_adj[k])]

    def explore(self, p):
        k = yield from self._opt(p, "explore", self.explorable(p))
        if k is None:
            return
        rot = yield from self._opt(p, "rotation", range(6))
        self._lay_tile(k, rot)
        self.stats["rc_explorations"][p] += 1
        present = sum(1 for q in range(self.n) if any(self.present_slot(q, j) for j in self.slot_adj[k]))
        yield from self.gain_points(p, present)            # RC-R109
        self._fill_tile(k)                                 # RC-R110, RC-R111
        for g in range(7 * k, 7 * k + 7):                  # RC-R112, RC-R148, RC-A52
            if self.terr[g] != CAMP:
                continue
            for q in [(p + i) % self.n for i in range(self.n)]:
                if g not in self.camp_got[q] and any(self.bld[q][x] >= 0 for x in self.adj[g]):
                    self.camp_got[q].add(g)
                    yield from self.gain(q, self.ct.camps[self.camp[g]].reward, field=g)
