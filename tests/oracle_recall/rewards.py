"""The reward language resolved (RC-A2, RC-A64): atoms, key cards, chests, display artifacts."""
from __future__ import annotations

from sim.games.recall.content_types import ANY, Atom
from tests.oracle_recall.common import ACTION_ATOMS, ORDER_FREE, W, R


class Rewards:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    # ------------------------------------------------------------------ rewards (RC-A2, RC-A64)

    def gain(self, p, effect, field=-1, now=False):
        """Resolve a reward for p, depth first, in the order p chooses (RC-A64, model doc "Reward order").

        Order-free items (``order_free``) resolve first, in item order; then, while two different
        items are left, p picks the next one (``order``). Action atoms run at once when ``now``
        (an ability, a chest, a free activation); otherwise they join the active player's pending
        effects, or are lost (RC-A64).
        """
        rest = []
        for i, item in enumerate(effect):
            if self.order_free(item, now):
                yield from self.resolve_item(p, item, field, now)
            else:
                rest.append((i, item))
        while rest:
            firsts = [i for k, (i, item) in enumerate(rest) if item not in [x for _, x in rest[:k]]]
            a = yield from self._ask(p, "order", [self.A_PICK + i for i in firsts])
            k = next(k for k, (i, _) in enumerate(rest) if self.A_PICK + i == a)
            yield from self.resolve_item(p, rest.pop(k)[1], field, now)

    def order_free(self, item, now) -> bool:
        """Items whose place in the order cannot change what the receiver can reach (model doc)."""
        return all(a.op in ORDER_FREE or (a.op in ACTION_ATOMS and not now) for a in item)

    def resolve_item(self, p, item, field, now):
        atom = yield from self.choose(p, item)
        if atom is not None:
            yield from self.do_atom(p, atom, field, now)

    def choose(self, p, item):
        """RC-R202: one alternative of an ``a|b`` item."""
        if len(item) == 1:
            return item[0]
        x = yield from self._opt(p, "choose", range(len(item)))
        return None if x is None else item[x]

    def do_atom(self, p, a: Atom, field=-1, now=False):
        op = a.op
        if op in ACTION_ATOMS:
            if now:
                yield from self.run_action(p, a, field, "gain")
            elif self.turn is not None and self.turn["p"] == p:
                for _ in range(a.n if op == "DEV" else 1):
                    self.turn["pending"].append(((Atom("DEV") if op == "DEV" else a,), "gain"))
            return
        if op == "CRYSTAL":
            self.cr[p][a.arg] += a.n
        elif op == "F":
            yield from self.gain_followers(p, a.n)
        elif op == "FH":
            if field >= 0:
                self.add_followers(p, field, a.n)
            else:
                yield from self.gain_followers(p, a.n)
        elif op == "VP":
            yield from self.gain_points(p, a.n)
        elif op == "PP":
            self.purple[p] += a.n
        elif op == "K":
            t = a.arg
            if t == ANY:
                t = yield from self._opt(p, "track", [x for x in range(3) if self.trk[p][x] < self.ct.knowledge.last])
                if t is None:
                    return                          # RC-A67: K:any with every track at its end is lost
            yield from self.step_track(p, t, a.n)
        elif op == "KEACH":
            for t in range(3):
                yield from self.step_track(p, t, a.n)
        elif op == "UPC":
            for _ in range(a.n):
                x = yield from self._opt(p, "crystal", [c for c in (W, R) if self.cr[p][c] > 0], end=True)
                if x is None or x < 0:
                    return
                self.cr[p][x] -= 1
                self.cr[p][x + 1] += 1
        elif op == "KEY":
            yield from self.take_key(p, a.arg)
        elif op == "KEYUP":
            yield from self.key_upgrade(p)
        elif op == "KEYBACK":
            s = yield from self._opt(p, "slot", [s for s in range(6) if self.slots[p][s] >= 0])
            if s is not None:
                self.take_back(p, s)
        elif op == "CHEST":
            self.draw_chest(p)
        elif op == "FREE":
            yield from self.free_activation(p)
        elif op == "ART_DISPLAY":
            yield from self.take_display_artifact(p)
        elif op == "COST":
            if self.can_pay(p, a.cost):
                yield from self.pay_and_points(p, a.cost)
                yield from self.gain(p, a.inner, field, now)
        else:
            raise AssertionError(f"unknown atom {op}")

    def pay_and_points(self, p, cost):
        """Pay a crystal cost; Lexander's point per purple paid (RC-R230)."""
        extra = self.pay(p, cost)
        if extra:
            yield from self.gain_points(p, extra)

    def place_fields(self, p, portal=False):
        """RC-R76: fields for a new follower (own followers or buildings, own start field); Portaal adds others' buildings."""
        out = {f for f in range(self.NF) if self.present_field(p, f)}
        if self.start_field[p] >= 0:
            out.add(self.start_field[p])
        if portal:
            out |= {f for f in range(self.NF) for q in range(self.n) if q != p and self.bld[q][f] >= 0}
        return sorted(out)

    def gain_followers(self, p, k, portal=False):
        """F:k: all on one field (RC-A73), as many as the supply holds (RC-R80)."""
        if k <= 0 or self.supply[p] == 0:
            return
        f = yield from self._field(p, "place", self.place_fields(p, portal))
        if f is not None and f >= 0:
            self.add_followers(p, f, k)

    def offer_options(self, colour):
        """Key offer options of a colour (model doc ``key``): yellow kinds with cards, display slots with a card."""
        if colour == 1:
            kinds = self.ct.key_kinds(1)
            return [i for i, k in enumerate(kinds) if self.yellow[k] > 0]
        return [i for i, k in enumerate(self.display[colour]) if k is not None]

    def take_from_offer(self, colour, i) -> int:
        """Remove card option i of a colour from the offer; refill the display (RC-R135, RC-A26)."""
        if colour == 1:
            k = self.ct.key_kinds(1)[i]
            self.yellow[k] -= 1
            return k
        k = self.display[colour][i]
        self.display[colour][i] = self.decks[colour].pop(0) if self.decks[colour] else None
        return k

    def refill(self, colour):
        for i, k in enumerate(self.display[colour]):
            if k is None and self.decks[colour]:
                self.display[colour][i] = self.decks[colour].pop(0)

    def take_key(self, p, colour):
        """RC-R191 / RC-R133: a key card of that colour from the offer (none: nothing, RC-A21)."""
        i = yield from self._opt(p, "key", self.offer_options(colour))
        if i is not None:
            self.avail[p][self.take_from_offer(colour, i)] += 1

    def key_upgrade(self, p):
        """RC-R192..R197, RC-A26: replace one own card (available or in a slot) by one a level higher."""
        cards = self.ct.key_cards
        ok = lambda k: cards[k].colour < 3 and self.offer_options(cards[k].colour + 1)
        opts = [s for s in range(6) if self.slots[p][s] >= 0 and ok(self.slots[p][s])]
        opts += [6 + k for k in range(self.K) if self.avail[p][k] > 0 and ok(k)]
        x = yield from self._opt(p, "keyup", opts)
        if x is None:
            return
        old = self.slots[p][x] if x < 6 else x - 6
        colour = cards[old].colour
        i = yield from self._opt(p, "key", self.offer_options(colour + 1))
        new = self.take_from_offer(colour + 1, i)
        if x < 6:
            self.slots[p][x] = new                # RC-R196: same slot, not activated
        else:
            self.avail[p][old] -= 1
            self.avail[p][new] += 1
        if colour == 1:
            self.yellow[old] += 1                 # RC-R194
        elif colour == 2:
            self.decks[2].append(old)             # RC-R195
            self.refill(2)

    def take_back(self, p, s):
        """RC-R198: a used card from slot s becomes available (no production)."""
        self.avail[p][self.slots[p][s]] += 1
        self.slots[p][s] = -1

    def draw_chest(self, p):
        """RC-R199, RC-A27: top chest tile; an empty stack is the reshuffled discard pile."""
        if not self.chest_stack and self.chest_discard:
            self.chest_shuffles += 1
            perm = self._perm("chests", len(self.chest_discard), self.chest_shuffles)
            self.chest_stack = [self.chest_discard[i] for i in perm]
            self.chest_discard = []
        if self.chest_stack:
            self.chests[p][self.chest_stack.pop(0)] += 1

    def take_display_artifact(self, p):
        """RC-R128, RC-A20, RC-A67: a display artifact whose row is not full, without follower cost."""
        cols = self.ct.board.artifact_rows.columns
        opts = [c for c in range(4) if self.art_display[c] > 0 and self.arts[p][c] < cols]
        c = yield from self._opt(p, "display", opts)
        if c is None:
            return None
        self.art_display[c] -= 1
        return (yield from self.receive_artifact(p, c))

    def receive_artifact(self, p, c):
        """RC-R100, RC-R103: leftmost empty box of the row, its covered reward; the Booster window."""
        col = self.arts[p][c]
        self.arts[p][c] += 1
        reward = self.ct.board.artifact_rows.covered[c][col]
        yield from self.gain(p, reward)
        yield from self.event(p, "artifact")
        return reward
