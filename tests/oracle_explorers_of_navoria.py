"""Explorers of Navoria test oracle: a plain, one-game-at-a-time implementation of the rules.

It exists to cross-check the vectorised engine (``sim/games/explorers_of_navoria/``): a test
plays both side by side and requires the same decider, decision kind and legal actions at every
decision and the same final score sheet. Written from the rules
(/work/shared/specs/explorers_of_navoria.md, the Dutch seed wins) and the decision model
(docs/explorers_of_navoria_model.md, the contract); it shares no code with the engine (only
the ``Content`` it reads and the name tuples of ``content_types``).

How it works: the whole game is one generator, ``_play``. Game logic ``yield``s every decision
as ``(decider, kind, legal actions)`` and receives the chosen action back; effects are resolved
by ``yield from``. ``_ask`` applies a decision with exactly one legal action at once without
yielding (model doc: a decision is asked only when it has at least two legal actions).

Interface (properties, like the brief asks): ``decider`` (seat, -1 once over), ``kind``
("recruit", "collect", "track", "goods", "alt"; None once over), ``done``; methods ``legal()``
(bool[A]), ``legal_list()``, ``step(action)``, ``sheet()`` (the outcome, flat: per-seat lists and
per-game values), ``outcome()`` (the same split into "per_seat" / "per_game"), ``name(action)``.

Hand-made positions: ``EnOracle(config, content, seed, game, start=False)`` sets the game up
(random draws included) without starting it. Tests then set the plain attributes below and
either call ``begin()`` (play from round 1's recruit phase, or from ``round``) or drive single
pieces with ``drive(generator, actions)``: ``recruit_turn(p)``, ``collect_turn(p)``,
``resolve(p, effect, part)``, ``receive_goods(p, atoms)``, ``step_marker(p, r, n)``; the
automatic phases ``income_phase()``, ``return_phase()``, ``final_scoring()`` are plain calls.

State (seats 0..n-1; card = index into content.cards; colour / people / region / good = index):
``order`` (seats on compass spaces 1..n), ``piles`` (5 lists, top first), ``offers`` (5 lists of
3, card or None), ``discarded``, ``tableau`` (per seat), ``bag`` / ``centre`` / ``on_pile``
(tokens per colour), ``city_taken`` (per city space: seat or None), ``drawn`` (colours drawn
this turn), ``taking`` (the card whose immediate effect is resolving, in no tableau yet), ``marker`` / ``posts`` (per seat, per region), ``docks`` (per seat, per region,
[W, M, F] counts), ``supply`` ([W, M, F] or None when unlimited), ``score``, ``parts``
(component -> per-seat list), ``tile_of`` (people -> FavourTile), ``favour`` (people -> [seat
of space 1, seat of space 2]), ``tried`` / ``favour_space`` (per seat, per people), statistics
``fulfilled``, ``goods_lost``, ``centre_takes``, ``score_r``, ``recruited`` (per seat, per round),
``passes``, ``unusable_draws``, ``turns``, ``round``; ``log`` (readable decisions).

Readings of the contract made here (reported; the engine must make the same):

O1  Offer slots: at setup and at every refill, slot s (0, 1, 2) gets the (s+1)-th card from the
    top of the pile; a short pile leaves the last slots empty (EN-A19).
O2  The ALT decision of an ``a|b`` item is asked when the item is reached, before the goods of
    the run collected so far are placed; a chosen ``good:`` side joins the run, any other chosen
    atom first ends the run (GOODS decision + orders), then runs.
O3  ``en_goods_lost`` counts every good of a run that is not placed, also those a finite supply
    could not provide.
O4  A recruit turn that passes without a card (no legal action) still counts in ``turns``;
    ``turns`` counts every recruit turn and every collect turn (``back:c`` included).
O5  Exploration places in use: min(n - 1, number of reward columns) (model doc: 1 / 1-2 / 1-3).
O6  A flag counts for adventurers when its position <= the marker (flags at 0 would count).
O7  ``question_mark_split`` applies to every ``step:any:n`` atom (cards, city, dock rewards).
O8  Orders of all three docks are checked after every GOODS placement (also one placing
    nothing); a dock is complete: forest exactly one of each kind, desert 4 goods, glacier 3
    of one kind. Under-post reward k runs when ``posts[r] >= k`` at the moment it comes.
O9  ``rank`` = 1 + seats with a strictly higher score, ``win_share`` = 1/k for the k top seats.
O10 The blank tile replaces the tile on favour space ``integers(key "blank", 0, 4)``; the draw
    happens only when ``blank_tile_variant`` is set.
O11 Permutations are read as "position i holds item perm[i]": pile c = [cards_c[perm[0]] (top),
    cards_c[perm[1]], ...]; favour space s gets non-blank tile perm[s].
O12 Complete docks are fulfilled one after the other: a dock's goods go back when its turn
    comes, so during the reward decisions of the forest order a complete glacier dock still
    holds its goods (invisible to legality: rewards never hold goods).
O13 Scripted ``Oracle = EnOracle`` alias; ``decider`` / ``kind`` / ``done`` are properties.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.explorers_of_navoria.content_types import (ANY, BUILD, COLOURS, GOOD, PEOPLES,
                                                          PER_ARTISAN, PTS, REGIONS, STEP)

ROUNDS = 3
SLOTS = 3                         # offer slots per colour (EN-S9)
POSTS = 3                         # trading posts per dock (EN-S14)
KINDS = ("recruit", "collect", "track", "goods", "alt")
PARTS = ("score_cards", "score_city", "score_orders", "score_treasure", "score_trader_income", "score_adventurer_income",
         "score_exploration", "score_soldiers", "score_favour")
ORDER_SIZE = (3, 4, 3)            # forest W+M+F, desert any 4, glacier 3 of one kind (EN-R88..R90)


def order_complete(region: int, goods) -> bool:
    """EN-R88..R90, EN-R94: does a dock hold exactly its order?"""
    if region == 0:
        return list(goods) == [1, 1, 1]
    if region == 1:
        return sum(goods) == 4
    return sum(goods) == 3 and max(goods) == 3


def dock_accepts(mode: str, region: int, goods, kind: int) -> bool:
    """EN-A12: may good ``kind`` be placed on a dock now holding ``goods``?"""
    if mode == "free":
        return sum(goods) < ORDER_SIZE[region]
    if region == 0:                       # forest: only a kind it does not hold
        return goods[kind] == 0
    if region == 1:                       # desert: any kind
        return True
    return sum(goods) == 0 or goods[kind] > 0     # glacier: the kind it holds, any when empty


class EnOracle:
    """One game of Explorers of Navoria, played decision by decision (see the module doc)."""

    def __init__(self, config, content, seed: int, game: int, start: bool = True):
        self.cfg, self.ct = config, content
        self.cards = content.cards
        n = self.n = config.players
        self.S = len(content.city)
        # the flat action space (model doc)
        self.A_DRAW = 0
        self.A_TAKE = 1
        self.A_CITY = 16
        self.A_BACK = 16 + self.S
        self.A_TRACK = 21 + self.S
        self.A_GOODS = 24 + self.S
        self.A_ALT = 88 + self.S
        self.A = 90 + self.S
        gid = [int(game)]
        self.seed, self.game = seed, int(game)
        # start slot (EN-S18, RND4)
        if config.start_player == "first_slot":
            self.start_slot = 0
        else:
            self.start_slot = int(rng.integers(rng.stream_keys(seed, gid, "start"), 0, n)[0])
        self.slot_of = [(self.start_slot + j) % n for j in range(n)]
        self.order = list(range(n))                      # EN-S18, EN-S19
        # piles (EN-S6..S8, RND1): first = top
        self.piles = []
        for c in range(len(COLOURS)):
            cards_c = content.pile(c)
            if cards_c:
                perm = rng.permutations(rng.stream_keys(seed, gid, "piles", c), len(cards_c))[0]
                self.piles.append([cards_c[int(i)] for i in perm])
            else:
                self.piles.append([])
        # favour tiles (EN-S10, EN-S11, RND2) and the blank tile (EN-V1, EN-V2, RND3)
        tiles = content.favour_tiles
        perm = rng.permutations(rng.stream_keys(seed, gid, "favour"), len(tiles))[0]
        on_space = [tiles[int(perm[s])] for s in range(4)]
        if config.blank_tile_variant:
            b = int(rng.integers(rng.stream_keys(seed, gid, "blank"), 0, 4)[0])
            on_space[b] = content.blank_tile
        self.tile_of = [None] * len(PEOPLES)
        for s in range(4):
            self.tile_of[content.favour_space_people[s]] = on_space[s]
        self.favour = [[None, None] for _ in PEOPLES]
        # offers (EN-S9), reading O1
        self.offers = [[None] * SLOTS for _ in COLOURS]
        self.discarded = []
        self.refill_offers()
        # tokens (EN-S4, EN-S5, EN-A1)
        tpc = content.tokens_per_colour
        per = tpc[n] if n in tpc else tpc[str(n)]
        self.token_total = [int(per)] * len(COLOURS)
        self.bag = list(self.token_total)
        self.centre = [0] * len(COLOURS)
        self.on_pile = [0] * len(COLOURS)
        self.city_taken = [None] * self.S
        self.drawn = []
        self.taking = None                               # the card whose immediate effect resolves
        self.bag_key = rng.stream_keys(seed, gid, "bag")
        self.draws = 0
        # players (EN-S13..S17, EN-S20)
        self.tableau = [[] for _ in range(n)]
        self.marker = [[0, 0, 0] for _ in range(n)]
        self.posts = [[0, 0, 0] for _ in range(n)]
        self.docks = [[[0, 0, 0] for _ in REGIONS] for _ in range(n)]
        self.supply = [config.goods_per_kind] * 3 if config.goods_per_kind > 0 else None
        self.score = [0] * n
        self.parts = {k: [0] * n for k in PARTS}
        self.tried = [[False] * len(PEOPLES) for _ in range(n)]
        self.favour_space = [[0] * len(PEOPLES) for _ in range(n)]
        self.fulfilled = [[0, 0, 0] for _ in range(n)]
        self.goods_lost = [0] * n
        self.centre_takes = [0] * n
        self.recruited = [[0] * ROUNDS for _ in range(n)]
        self.passes = 0                                  # recruit turns without a card
        self.unusable_draws = 0                          # draws whose tokens all went to the centre (EN-A18)
        self.score_r = [[0] * n, [0] * n]
        self.turns = 0
        self.round = 0
        self.log = []
        self._pending = None
        self._gen = None
        self._over = False
        if start:
            self.begin()

    # ------------------------------------------------------------------ public interface

    def begin(self, round: int | None = None):
        """Start (or restart) play from the recruit phase of ``round`` (default: self.round)."""
        if round is not None:
            self.round = round
        self._gen = self._play()
        self._over = False
        self._resume(None, first=True)

    @property
    def decider(self) -> int:
        return -1 if self._pending is None else self._pending[0]

    @property
    def kind(self):
        return None if self._pending is None else self._pending[1]

    @property
    def done(self) -> bool:
        return self._pending is None and self._over

    def legal_list(self) -> tuple:
        return () if self._pending is None else self._pending[2]

    def legal(self) -> np.ndarray:
        mask = np.zeros(self.A, dtype=bool)
        if self._pending is not None:
            mask[list(self._pending[2])] = True
        return mask

    def step(self, action: int):
        if self._pending is None:
            raise ValueError("no decision is pending")
        who, kind, legal = self._pending
        action = int(action)
        if action not in legal:
            raise ValueError(f"illegal action {action} ({self.name(action)}) for {kind} of seat {who}")
        self.log.append(f"seat {who} {kind}: {self.name(action)}")
        self._resume(action)

    def name(self, a: int) -> str:
        """Readable action name (model doc table)."""
        if a == self.A_DRAW:
            return "draw"
        if a < self.A_CITY:
            c, s = divmod(a - self.A_TAKE, 3)
            return f"take:{COLOURS[c]}:{s + 1}"
        if a < self.A_BACK:
            return f"city:{self.ct.city[a - self.A_CITY].id}"
        if a < self.A_TRACK:
            return f"back:{COLOURS[a - self.A_BACK]}"
        if a < self.A_GOODS:
            return f"track:{REGIONS[a - self.A_TRACK]}"
        if a < self.A_ALT:
            f, d, g = self.goods_triple(a)
            return "goods:" + "".join("-WMF"[x] for x in (f, d, g))
        return f"alt:{a - self.A_ALT + 1}"

    def goods_action(self, f: int, d: int, g: int) -> int:
        """Action of placing kind f / d / g (0 nothing, 1 W, 2 M, 3 F) on forest / desert / glacier."""
        return self.A_GOODS + 16 * f + 4 * d + g

    def goods_triple(self, a: int):
        x = a - self.A_GOODS
        return x // 16, (x // 4) % 4, x % 4

    def drive(self, gen, actions=()):
        """Run a sub-generator to its end, answering its decisions with ``actions`` in order.

        Returns (asked, value): ``asked`` lists the decisions actually asked (decider, kind,
        legal tuple); ``value`` is the generator's return value.
        """
        actions = list(actions)
        asked = []
        try:
            d = next(gen)
            while True:
                asked.append(d)
                if not actions:
                    raise AssertionError(f"decision asked with no scripted action: {d}")
                a = actions.pop(0)
                assert a in d[2], (self.name(a), [self.name(x) for x in d[2]])
                d = gen.send(a)
        except StopIteration as stop:
            assert not actions, f"unused scripted actions {actions}"
            return asked, stop.value

    def sheet(self) -> dict:
        """Per-seat lists (seat order) and per-game values (model doc "What a game returns")."""
        n = self.n
        out = {"score": list(self.score)}
        for k in PARTS:
            out[k] = list(self.parts[k])
        for c, name in enumerate(COLOURS):
            out[f"en_cards_{name}"] = [sum(1 for x in self.tableau[p] if self.cards[x].colour == c) for p in range(n)]
        for r, name in enumerate(REGIONS):
            out[f"en_posts_{name}"] = [self.posts[p][r] for p in range(n)]
            out[f"en_fulfilled_{name}"] = [self.fulfilled[p][r] for p in range(n)]
        out["en_goods_lost"] = list(self.goods_lost)
        out["en_centre_takes"] = list(self.centre_takes)
        out["en_score_r1"] = list(self.score_r[0])
        out["en_score_r2"] = list(self.score_r[1])
        for q, name in enumerate(PEOPLES):
            out[f"en_favour_{name}"] = [self.favour_space[p][q] for p in range(n)]
        top = max(self.score)
        k = self.score.count(top)
        out["rank"] = [1 + sum(1 for s in self.score if s > self.score[p]) for p in range(n)]
        out["win_share"] = [1.0 / k if self.score[p] == top else 0.0 for p in range(n)]
        out["slot"] = list(self.slot_of)
        out["faction"] = ["none"] * n
        out["is_automa"] = [False] * n
        # per game
        out["turns"] = self.turns
        out["rounds"] = ROUNDS
        out["end_reason"] = "three_rounds"
        out["start_slot"] = self.start_slot
        for q, name in enumerate(PEOPLES):
            out[f"en_tile_{name}"] = self.tile_of[q].id
        return out

    def outcome(self) -> dict:
        """The sheet split like an engine outcome: {"per_seat": {column: list}, "per_game": {column: value}}."""
        sheet = self.sheet()
        per_game = ("turns", "rounds", "end_reason", "start_slot") + tuple(f"en_tile_{q}" for q in PEOPLES)
        return {"per_seat": {k: v for k, v in sheet.items() if k not in per_game},
                "per_game": {k: sheet[k] for k in per_game}}

    # ------------------------------------------------------------------ generator driving

    def _resume(self, action, first=False):
        try:
            self._pending = next(self._gen) if first else self._gen.send(action)
        except StopIteration:
            self._pending = None
            self._over = True

    def _ask(self, who: int, kind: str, legal):
        """A decision: applied at once when it has one legal action, else yielded."""
        legal = tuple(sorted(set(legal)))
        assert kind in KINDS
        assert legal, f"decision {kind} without legal action"
        if len(legal) == 1:
            return legal[0]
        return (yield (who, kind, legal))

    # ------------------------------------------------------------------ the game

    def _play(self):
        for rnd in range(self.round, ROUNDS):                   # EN-R1..R4
            self.round = rnd
            yield from self.recruit_phase()
            yield from self.collect_phase()
            self.income_phase()
            if rnd < ROUNDS - 1:
                self.score_r[rnd] = list(self.score)
                self.return_phase()
        self.final_scoring()                                    # EN-E1, EN-E2

    # ---- small helpers

    def gain(self, p: int, points: int, part: str):
        """EN-R5: points are added at once; ``part`` is the score component."""
        self.score[p] += points
        self.parts[part][p] += points

    def symbols(self, p: int, people: int) -> int:
        return sum(self.cards[x].symbols[people] for x in self.tableau[p])

    def count_colour(self, p: int, colour: int) -> int:
        return sum(1 for x in self.tableau[p] if self.cards[x].colour == colour)

    def flags_reached(self, p: int) -> int:
        """EN-R82: flags reached or passed over the three tracks."""
        return sum(1 for r, t in enumerate(self.ct.tracks) for f in t.flags if f <= self.marker[p][r])

    def draw_token(self) -> int:
        """RND5 / model doc "bag": the k-th token of the game is floor(u * tokens_in_bag) of the bag by colour."""
        u = float(rng.uniform(self.bag_key, self.draws)[0])
        self.draws += 1
        i = int(np.floor(u * sum(self.bag)))
        for c in range(len(COLOURS)):
            if i < self.bag[c]:
                self.bag[c] -= 1
                return c
            i -= self.bag[c]
        raise AssertionError("draw from an empty bag")

    def refill_offers(self):
        """EN-S9, EN-R52, EN-A19: the offers are discarded and refilled from the top (O1)."""
        for c in range(len(COLOURS)):
            for s in range(SLOTS):
                if self.offers[c][s] is not None:
                    self.discarded.append(self.offers[c][s])
                self.offers[c][s] = self.piles[c].pop(0) if self.piles[c] else None

    # ---- phase 1: recruit

    def recruit_phase(self):
        """EN-R7, EN-R21, EN-R22: cards_per_round x n turns in compass order."""
        n = self.n
        for t in range(self.cfg.recruits_per_round * n):
            p = self.order[t % n]
            self.turns += 1
            got = yield from self.recruit_turn(p)
            if got:
                self.recruited[p][self.round] += 1

    def recruit_legal(self) -> list:
        offers = self.offers
        if self.drawn:                                          # EN-R10, EN-A18
            return [self.A_TAKE + 3 * c + s for c in sorted(set(self.drawn))
                    for s in range(SLOTS) if offers[c][s] is not None]
        legal = [self.A_DRAW] if sum(self.bag) > 0 else []      # EN-R9, EN-A17
        legal += [self.A_TAKE + 3 * c + s for c in range(len(COLOURS)) if self.centre[c] > 0
                  for s in range(SLOTS) if offers[c][s] is not None]   # EN-R12, EN-A16, EN-A18
        return legal

    def recruit_turn(self, p: int):
        """One recruit turn (model doc steps 1-4); returns True when a card was taken."""
        while True:
            legal = self.recruit_legal()
            if self.drawn and not legal:                         # EN-A18: both to the centre
                self.unusable_draws += 1
                for c in self.drawn:
                    self.centre[c] += 1
                self.drawn = []
                continue
            if not legal:                                        # bag and usable centre empty
                self.passes += 1
                return False
            a = yield from self._ask(p, "recruit", legal)        # EN-R8, EN-R13: forced draw is automatic
            if a == self.A_DRAW:
                k = 2 if sum(self.bag) >= 2 else 1               # EN-R9, EN-A17
                self.drawn = [self.draw_token() for _ in range(k)]
                continue
            c, s = divmod(a - self.A_TAKE, 3)
            if self.drawn:
                self.drawn.remove(c)
                for d in self.drawn:                             # EN-R11
                    self.centre[d] += 1
                self.drawn = []
            else:
                self.centre[c] -= 1                              # EN-R12
                self.centre_takes[p] += 1
            self.on_pile[c] += 1                                 # EN-R14, EN-R20
            card = self.taking = self.offers[c][s]
            self.offers[c][s] = None                             # EN-R15, EN-R19
            yield from self.resolve(p, self.cards[card].immediate, "score_cards")   # EN-R16, EN-R17
            self.taking = None
            self.tableau[p].append(card)                         # EN-R17
            self.favour_check(p)                                 # EN-R112
            return True

    # ---- phase 2: collect

    def collect_phase(self):
        """EN-R23..R25, EN-R38."""
        for c in range(len(COLOURS)):                           # EN-R23
            self.bag[c] += self.centre[c]
            self.centre[c] = 0
        t = 0
        while sum(self.on_pile) > 0:
            p = self.order[self.n - 1 - t % self.n]              # EN-R25
            t += 1
            self.turns += 1
            yield from self.collect_turn(p)

    def collect_legal(self) -> list:
        legal = []
        for x, space in enumerate(self.ct.city):                 # EN-R26, EN-R27
            if self.on_pile[space.colour] > 0 and self.city_taken[x] is None:
                legal.append(self.A_CITY + x)
        for c in range(len(COLOURS)):                            # EN-A20
            if self.on_pile[c] > 0 and all(self.city_taken[x] is not None
                                           for x, sp in enumerate(self.ct.city) if sp.colour == c):
                legal.append(self.A_BACK + c)
        return legal

    def collect_turn(self, p: int):
        a = yield from self._ask(p, "collect", self.collect_legal())
        if a >= self.A_BACK:                                     # EN-A20
            c = a - self.A_BACK
            self.on_pile[c] -= 1
            self.bag[c] += 1
            return
        x = a - self.A_CITY
        space = self.ct.city[x]
        self.on_pile[space.colour] -= 1
        self.city_taken[x] = p
        yield from self.resolve(p, space.reward, "score_city")     # EN-R28

    # ---- effects

    def resolve(self, p: int, effect, part: str):
        """Items left to right (EN-A14); a run of consecutive goods arrives together (EN-A13), O2."""
        run = []
        for item in effect:
            if len(item) > 1:                                    # a|b: ALT decision (DP9)
                a = yield from self._ask(p, "alt", [self.A_ALT + i for i in range(len(item))])
                atom = item[a - self.A_ALT]
            else:
                atom = item[0]
            if atom.op == GOOD:
                run.append(atom)
                continue
            if run:
                yield from self.receive_goods(p, run)
                run = []
            yield from self.do_atom(p, atom, part)
        if run:
            yield from self.receive_goods(p, run)

    def do_atom(self, p: int, atom, part: str):
        op = atom.op
        if op == PTS:
            self.gain(p, atom.n, part)
        elif op == PER_ARTISAN:                                  # EN-R85 (card not yet in tableau, EN-R17)
            self.gain(p, atom.n * self.count_colour(p, COLOURS.index("artisans")), part)
        elif op == STEP:
            if atom.arg == ANY:                                  # DP5, DP8, EN-A15, O7
                tracks = [self.A_TRACK + r for r in range(len(REGIONS))]
                if self.cfg.question_mark_split:
                    for _ in range(atom.n):
                        r = (yield from self._ask(p, "track", tracks)) - self.A_TRACK
                        self.step_marker(p, r, 1)
                else:
                    r = (yield from self._ask(p, "track", tracks)) - self.A_TRACK
                    self.step_marker(p, r, atom.n)
            else:
                self.step_marker(p, atom.arg, atom.n)
        elif op == BUILD:
            if atom.arg == ANY:                                  # DP10, EN-A21
                options = [self.A_TRACK + r for r in range(len(REGIONS)) if self.posts[p][r] < POSTS]
                if not options:
                    return
                r = (yield from self._ask(p, "track", options)) - self.A_TRACK
                self.build(p, r)
            else:
                self.build(p, atom.arg)
        else:
            raise ValueError(f"atom {atom} outside a goods run")

    def step_marker(self, p: int, r: int, n: int):
        """EN-R100, EN-R103..R106: n steps; every step ending on the treasure pays it."""
        track = self.ct.tracks[r]
        pos, L = self.marker[p][r], track.length
        pays = max(0, pos + n - max(pos, L - 1))
        self.gain(p, pays * track.treasure, "score_treasure")
        self.marker[p][r] = min(L, pos + n)

    def build(self, p: int, r: int):
        """EN-R64, EN-R66..R72, EN-A21: the next post of dock r stands on build space posts+1."""
        if self.posts[p][r] < POSTS:
            self.posts[p][r] += 1

    def placements(self, p: int, atoms):
        """(legal GOODS actions, goods lost) for a run of good atoms received together (model doc (i)-(iv))."""
        fixed = [0, 0, 0]
        free = 0
        for atom in atoms:
            if atom.arg == ANY:
                free += 1
            else:
                fixed[atom.arg] += 1
        total = sum(fixed) + free
        docks = self.docks[p]
        mode = self.cfg.dock_placement
        ok = []
        for f in range(4):
            for d in range(4):
                for g in range(4):
                    placed = [0, 0, 0]
                    good = True
                    for r, x in enumerate((f, d, g)):
                        if x:
                            placed[x - 1] += 1
                            if not dock_accepts(mode, r, docks[r], x - 1):      # (ii) EN-A12
                                good = False
                    if not good:
                        continue
                    if sum(max(0, placed[k] - fixed[k]) for k in range(3)) > free or sum(placed) > total:
                        continue                                                # (i)
                    if self.supply is not None and any(placed[k] > self.supply[k] for k in range(3)):
                        continue                                                # (iii) EN-A11
                    ok.append((sum(placed), self.goods_action(f, d, g)))
        best = max(t for t, _ in ok)                                            # (iv) EN-A13
        return [a for t, a in ok if t == best], total - best

    def receive_goods(self, p: int, atoms):
        """EN-R91..R94, EN-A11..A13: one GOODS decision for goods received together, then orders."""
        legal, lost = self.placements(p, atoms)
        a = yield from self._ask(p, "goods", legal)
        for r, x in enumerate(self.goods_triple(a)):
            if x:
                self.docks[p][r][x - 1] += 1
                if self.supply is not None:
                    self.supply[x - 1] -= 1
        self.goods_lost[p] += lost                               # O3
        yield from self.check_orders(p)

    def check_orders(self, p: int):
        """EN-R94..R98, EN-A14: complete docks are fulfilled forest, desert, glacier."""
        for r in range(len(REGIONS)):
            goods = self.docks[p][r]
            if not order_complete(r, goods):
                continue
            if self.supply is not None:                          # EN-R95
                for k in range(3):
                    self.supply[k] += goods[k]
            self.docks[p][r] = [0, 0, 0]
            self.fulfilled[p][r] += 1
            dock = self.ct.docks[r]
            for effect in dock.base:                             # EN-R96
                yield from self.resolve(p, effect, "score_orders")
            for k, effect in enumerate(dock.under):              # EN-R97, EN-A8
                if self.posts[p][r] > k:
                    yield from self.resolve(p, effect, "score_orders")

    # ---- favour

    def favour_check(self, p: int):
        """EN-R107..R109, EN-R112, EN-A22: after a card enters the tableau, people in index order."""
        for q in range(len(PEOPLES)):
            if self.tried[p][q] or self.symbols(p, q) < self.cfg.favour_symbols:
                continue
            self.tried[p][q] = True
            for i in range(2):
                if self.favour[q][i] is None:
                    self.favour[q][i] = p
                    self.favour_space[p][q] = i + 1
                    break

    # ---- phase 3: income

    def income_phase(self):
        """EN-R39..R47, EN-A23, EN-A24 (all from the same state)."""
        n = self.n
        trader = [0] * n
        adventurer = [0] * n
        for p in range(n):
            flags = self.flags_reached(p)
            for x in self.tableau[p]:
                card = self.cards[x]
                if card.income_people >= 0:                      # EN-R62, EN-R63
                    trader[p] += self.symbols(p, card.income_people)
                if card.income_flags:                            # EN-R82, EN-R83
                    adventurer[p] += flags
        explore = [0] * n
        for r in range(len(REGIONS)):
            rewards = self.ct.exploration[r]
            in_use = min(n - 1, len(rewards))                    # EN-R42, EN-R43, O5
            for p in range(n):
                m = self.marker[p][r]
                if m <= 0:                                       # EN-R47
                    continue
                place = 1 + sum(1 for q in range(n) if self.marker[q][r] > m)   # EN-R46, EN-A23
                if place <= in_use:
                    explore[p] += rewards[place - 1]
        for p in range(n):
            self.gain(p, trader[p], "score_trader_income")
            self.gain(p, adventurer[p], "score_adventurer_income")
            self.gain(p, explore[p], "score_exploration")

    # ---- phase 4: return

    def return_phase(self):
        """EN-R48..R54, EN-A25."""
        for p in range(self.n):                                  # EN-R49, EN-R50
            for r, track in enumerate(self.ct.tracks):
                k = self.posts[p][r]
                self.marker[p][r] = track.build[k - 1] if k else 0
        self.bag = list(self.token_total)                        # EN-R51
        self.centre = [0] * len(COLOURS)
        self.on_pile = [0] * len(COLOURS)
        self.city_taken = [None] * self.S
        self.drawn = []
        self.refill_offers()                                     # EN-R52, EN-A19
        self.order = sorted(self.order, key=lambda p: -self.score[p])   # EN-R53, EN-R54 (stable)

    # ---- final scoring

    def final_scoring(self):
        """EN-E3..E6: soldiers (end posts), then favour tiles."""
        for p in range(self.n):
            for x in self.tableau[p]:
                card = self.cards[x]
                if card.end_region >= 0:                         # EN-E3, EN-R76
                    self.gain(p, card.end_points * self.posts[p][card.end_region], "score_soldiers")
        for q in range(len(PEOPLES)):                            # EN-E4, EN-R110, EN-R111
            tile = self.tile_of[q]
            for i, p in enumerate(self.favour[q]):
                if p is None:
                    continue
                value = tile.first if i == 0 else tile.second
                cards = sum(1 for x in self.tableau[p] if self.cards[x].colour in tile.kinds)
                self.gain(p, value * cards, "score_favour")

    # ---- checks used by the invariant tests

    def card_count(self) -> int:
        return (sum(len(pl) for pl in self.piles) + sum(1 for o in self.offers for x in o if x is not None)
                + sum(len(t) for t in self.tableau) + len(self.discarded) + (self.taking is not None))

    def token_counts(self) -> list:
        """Tokens per colour over bag, centre, piles, city and the current draw."""
        out = []
        for c in range(len(COLOURS)):
            city = sum(1 for x, sp in enumerate(self.ct.city) if sp.colour == c and self.city_taken[x] is not None)
            out.append(self.bag[c] + self.centre[c] + self.on_pile[c] + city + self.drawn.count(c))
        return out


Oracle = EnOracle
