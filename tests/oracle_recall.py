"""Recall test oracle: a plain, one-game-at-a-time implementation of the rules.

It is the reference the compiled Recall engine must agree with decision by decision (same
decider, decision kind and legal actions at every decision, same final score sheet). Written
from the rules (/work/shared/specs/recall.md, recall_addendum.md; the Dutch seed wins) and the
decision model (docs/recall_model.md, the contract); it shares no rules code with the engine,
only the ``Content`` it reads (``sim/games/recall/content_types.py``).

How it works (as the other oracles): the whole game is one generator, ``_play``. Game logic
``yield``s every decision as ``(decider, kind, legal actions)`` and receives the chosen action
back; sub-steps are ``yield from``. ``_ask`` applies a decision with exactly one legal action at
once without yielding, and skips a decision with none (returns None).

Interface: properties ``decider`` (seat, -1 once over), ``kind``, ``done``; methods
``legal_list()``, ``legal()`` / ``legal_mask()`` (bool[A]), ``step(action)``, ``name(action)``,
``scores()`` and ``outcome()``. Hand-made positions: ``RcOracle(config, content, seed, game,
start=False)`` sets the game up (random draws included, no decision asked); a test then edits
the plain state below and drives single pieces with ``drive(generator, actions)``.

State (seats 0..n-1, seat 0 = start player; field = index of the map, see ``self.coord``):
``terr`` (per field: terrain index, -1 = face-down or no field), ``pigpic``, ``camp``, ``startno``,
``art`` (artifact colour on the field or -1), ``site`` (stones on an excavation site, list of
colours), ``fol[p][f]`` (follower units), ``bld[p][f]`` (building index or -1), ``cr[p]``
([W, R, P]), ``score``, ``purple``, ``trk[p]`` (3 positions), ``stones[p]`` ([white, grey,
black, own] owned anywhere), ``placed[p]`` (stones lying on abilities), ``uses[p]`` (ability
id -> activations since the last recall), ``avail[p]`` (kind -> count), ``slots[p]`` (6 kinds or
-1), ``sanct[p]`` (6 flags: built), ``ws[p]`` (workshops built per terrain), ``mons[p]``,
``arts[p]`` (4 row lengths), ``chests[p]`` (kind -> count), ``upg[p]`` (side per letter or -1),
``tribe[p]``, ``items[p]`` (item indices), ``unlocked[p]`` (3 flags), ``paths[p]`` (choice per
sector), ``goals[p]``, ``camp_got[p]`` (camp fields rewarded).
"""
from __future__ import annotations

import re

import numpy as np

from sim.core import rng
from sim.games.recall.content_types import (
    ANY, ARTIFACT_COLOURS, BOARD_MONUMENT, CAMP, EXCAVATION, FOREST, GOAL_KINDS, GRAIN, LETTERS,
    MONUMENT, MOUNTAIN, NONE, PATHS, START, VOLCANO, WATER, Atom,
)

KINDS = ("draft", "start_field", "main", "effect", "choose", "units", "pay_move", "buy", "sell",
         "sell_count", "copy", "place", "move_from", "move_to", "move_count", "move_pigs",
         "water_from", "water_count", "water_step", "water_exit", "water_exit_count", "dev",
         "dev_field", "sanctuary", "stone", "monument_tile", "crystal", "key", "keyup", "slot",
         "track", "item", "upgrade", "display", "explore", "rotation", "produce", "event", "free",
         "ability", "ability_field", "ability_count", "turn_end", "path", "goal")
PARTS = ("score_track", "score_knowledge", "score_ancestors", "score_saints", "score_efficiency",
         "score_ambition", "score_power", "score_leftover", "score_pigs", "score_purple", "score_goal")
N_PICK, N_COUNT, N_OPT = 16, 23, 20
SAN, WKS, MON = 0, 1, 2                      # BUILDINGS indices
W, R, P = 0, 1, 2
EXCAVATE = {3: (W, 2), 2: (R, 3), 1: (P, 4)}  # stones on the site -> crystal paid, steps (RC-R152..R154)
OWN = 3                                      # own-colour stones in ``stones[p]``
AYNIR_PAIRS = ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))   # (give, get) over follower, white, point


def norm(name: str) -> str:
    """Ability ids compared without punctuation or case (J'He -> jhe, K-01 -> k01)."""
    return re.sub(r"[^a-z0-9.]", "", name.lower())


class TurnGuard(Exception):
    """RC-A68: the turn reached its decision limit."""


class RcOracle:
    """One game of Recall, played decision by decision (see the module doc)."""

    # ------------------------------------------------------------------ construction

    def __init__(self, config, content, seed: int, game: int, start: bool = True):
        self.cfg, self.ct = config, content
        self.n = config.players
        self.seed, self.game = int(seed), int(game)
        self._gid = [self.game]
        self._build_map()
        self._build_abilities()
        self._build_actions()
        self.log = []
        self._pending = None
        self._gen = None
        self._over = False
        self.turn_decisions = 0
        self.guard_hits = 0
        self._setup()
        if start:
            self.begin()

    def _key(self, purpose, *extra):
        return rng.stream_keys(self.seed, self._gid, purpose, *extra)

    def _perm(self, purpose, m, *extra):
        return [int(x) for x in rng.permutations(self._key(purpose, *extra), m)[0]]

    def _int(self, purpose, counter, high, *extra):
        return int(rng.integers(self._key(purpose, *extra), counter, high)[0])

    def _build_map(self):
        """Fields, coordinates and adjacency of RC-A3 (slots x 7, board monuments, river)."""
        mp = self.ct.map
        d = [tuple(x) for x in mp.directions]
        coords = []
        self.slot_of_field = []
        for k, s in enumerate(mp.slots):
            c = tuple(s.centre)
            coords.append(c)
            coords.extend((c[0] + dq, c[1] + dr) for dq, dr in d)
            self.slot_of_field.extend([k] * 7)
        self.bm_first = len(coords)
        for bm in mp.board_monuments:
            coords.append(tuple(bm.at))
            self.slot_of_field.append(-1)
        self.river_first = len(coords)
        for rc in mp.river:
            coords.append(tuple(rc))
            self.slot_of_field.append(-1)
        self.coord = coords
        self.NF = len(coords)
        index = {c: i for i, c in enumerate(coords)}
        self.field_at = index
        self.dirs = d
        self.adj = [[index[(q + dq, r + dr)] for dq, dr in d if (q + dq, r + dr) in index] for q, r in coords]
        self.NS = len(mp.slots)
        sadj = [set() for _ in range(self.NS)]
        for f in range(self.NS * 7):
            for g in self.adj[f]:
                a, b = self.slot_of_field[f], self.slot_of_field[g]
                if b >= 0 and a != b:
                    sadj[a].add(b)
        self.slot_adj = [sorted(s) for s in sadj]
        names = []
        for k, s in enumerate(mp.slots):
            names.extend(f"{s.id}.{i}" for i in range(7))
        names.extend(bm.id for bm in mp.board_monuments)
        names.extend(f"river.{i}" for i in range(len(mp.river)))
        self.field_names = names

    def _build_abilities(self):
        """Ability ids of the ``use:`` head: tribes, then items with Multitool split in parts."""
        ct = self.ct
        self.abil = []                      # (name, kind "tribe"/"item", index, Ability record)
        by_id = {it.id: it for it in ct.items}
        for i, t in enumerate(ct.tribes):
            self.abil.append((t.id, "tribe", i, t))
        for i, it in enumerate(ct.items):
            if it.parts:
                for part in it.parts:
                    self.abil.append((f"{it.id}.{part}", "part", i, by_id[part]))
            else:
                self.abil.append((it.id, "item", i, it))
        self.abil_index = {norm(a[0]): j for j, a in enumerate(self.abil)}

    def _build_actions(self):
        ct = self.ct
        self.K = len(ct.key_cards)
        self.A_END, self.A_RECALL = 0, 1
        self.A_PLAY = 2
        self.A_PICK = self.A_PLAY + 6 * self.K
        self.A_FIELD = self.A_PICK + N_PICK
        self.A_COUNT = self.A_FIELD + self.NF
        self.A_OPT = self.A_COUNT + N_COUNT
        self.A_USE = self.A_OPT + N_OPT
        self.A_CHEST = self.A_USE + len(self.abil)
        self.A_RING = self.A_CHEST + len(ct.chest_tiles)
        self.A = self.A_RING + 1

    # ------------------------------------------------------------------ setup (section 2)

    def _setup(self):
        ct, n, st = self.ct, self.n, self.ct.setup
        self.start_slot = 0 if self.cfg.start_player == "first_slot" else self._int("start", 0, n)
        self.slot_of = [(self.start_slot + j) % n for j in range(n)]
        # bonus tokens, paths, sides (RC-S2..S6)
        self.light = self._perm("light", len(ct.light_tokens))
        self.dark = self._perm("dark", len(ct.dark_tokens))
        self.path_at = self._perm("paths", len(ct.path_cards))
        sides = self.cfg.sides()
        if sides is None:
            self.side_at = [self._int("sides", i, 2) for i in range(len(ct.path_cards))]
        else:                                    # explicit sides are per card (file order)
            self.side_at = [sides[self.path_at[i]] for i in range(len(ct.path_cards))]
        # monument tiles, chests, upgrades (RC-S7..S9)
        mperm = self._perm("monuments", len(ct.monument_tiles))
        self.mon_display = mperm[:st.monument_tiles_shown]
        chest_list = [k for k, t in enumerate(ct.chest_tiles) for _ in range(t.count)]
        self.chest_stack = [chest_list[i] for i in self._perm("chests", len(chest_list), 0)]
        self.chest_discard = []
        self.chest_shuffles = 0
        self.symbol_letter = self._perm("upgrades", len(ct.upgrade_symbols))
        self.upg_left = [u.count for u in ct.upgrades]
        # key offer (RC-S10..S12)
        self.yellow = {k: ct.key_cards[k].count for k in ct.key_kinds(1)}
        self.decks, self.display = {}, {}
        for colour, purpose in ((2, "green"), (3, "grey")):
            cards = [k for k in ct.key_kinds(colour) for _ in range(ct.key_cards[k].count)]
            deck = [cards[i] for i in self._perm(purpose, len(cards))]
            self.display[colour] = deck[:st.key_display]
            self.decks[colour] = deck[st.key_display:]
        # artifacts and the bag (RC-S13, RC-S14, RC-A35)
        self.art_display = [st.display_per_colour] * len(ARTIFACT_COLOURS)
        self.bag_art = [a - st.display_per_colour for a in st.artifacts_per_colour]
        self.bag_stone = list(st.stones_per_colour)
        self.bag_draws = 0
        # map (RC-S15..S18)
        NF = self.NF
        self.terr = [-1] * NF
        self.pigpic = [0] * NF
        self.camp = [NONE] * NF
        self.startno = [NONE] * NF
        self.art = [-1] * NF
        self.site = [[] for _ in range(NF)]
        self.artsym = [False] * NF
        for i in range(self.bm_first, self.river_first):
            self.terr[i] = BOARD_MONUMENT
        for i in range(self.river_first, NF):
            self.terr[i] = WATER
        self.slot_tile = [None] * self.NS
        self.face_up = [False] * self.NS
        self.rotation = [0] * self.NS
        sids = [s.id for s in ct.map.slots]
        left, right = (sids.index(x) for x in ct.map.start_tile_slots)
        self.slot_tile[left], self.slot_tile[right] = 0, 1
        others = [k for k in range(self.NS) if k not in (left, right)]
        tperm = self._perm("tiles", len(others))
        for j, k in enumerate(others):
            self.slot_tile[k] = 2 + tperm[j]
        self.island = [False] * NF
        self.pigs = [0] * NF
        self.farm = [False] * NF
        self.ring = [False] * NF
        self.rings_placed = 0
        self.ring_left = [k for k, t in enumerate(ct.rings) for _ in range(t.count)]
        self.raft = [-1] * n                      # water field of each player's raft
        self.raft_fol = [0] * n
        self.transit = [0] * n                    # followers of a water movement on the water
        self.pigs_left, self.farms_left, self.islands_left = st.pigs, st.pig_farms, st.islands
        for k in (left, right):
            if k == right and n <= 2:
                continue                           # RC-S16, RC-V10, RC-V16
            self.rotation[k] = self._int("rotation", k, 6)
            self._lay_tile(k, self.rotation[k])
        for k in (left, right):
            if self.face_up[k]:
                self._fill_tile(k)
        self.mon_tile = {}                        # field -> monument tile index
        # players (RC-S20..S29)
        self.fol = [[0] * NF for _ in range(n)]
        self.bld = [[-1] * NF for _ in range(n)]
        self.cr = [list(st.start_crystals) for _ in range(n)]
        self.score = [0] * n
        self.purple = [0] * n
        self.trk = [[0, 0, 0] for _ in range(n)]
        self.stones = [[0, 0, 0, 1] for _ in range(n)]
        self.placed = [0] * n
        self.uses = [dict() for _ in range(n)]
        self.avail = [[0] * self.K for _ in range(n)]
        white = ct.key_kinds(0)[0]
        for p in range(n):
            self.avail[p][white] = ct.key_cards[white].count
        self.slots = [[-1] * 6 for _ in range(n)]
        self.ever = [[False] * 6 for _ in range(n)]
        nsan = len(ct.board.sanctuaries)
        self.sanct = [[False] * nsan for _ in range(n)]
        self.ws = [[0, 0, 0] for _ in range(n)]
        self.mons = [0] * n
        self.arts = [[0] * len(ARTIFACT_COLOURS) for _ in range(n)]
        self.chests = [[0] * len(ct.chest_tiles) for _ in range(n)]
        self.upg = [[-1] * 6 for _ in range(n)]
        self.upg_set = [[True] * 6 for _ in range(n)]      # RC-V8: tiles left in a player's own set
        self.sym_got = [set() for _ in range(n)]
        self.unlocked = [[False] * 3 for _ in range(n)]
        self.third_first = [False] * 3
        self.revealed = [bool(self.cfg.known_old_tribes)] * 3
        self.paths = [[-1] * 3 for _ in range(n)]
        self.camp_got = [set() for _ in range(n)]
        self.exo = [False] * n
        self.recharged = False
        self.stats = {k: [0] * n for k in ("rc_recalls", "rc_explorations", "rc_crystals_lost",
                                           "rc_steps_lost")}
        self.plays = [[0] * 6 for _ in range(n)]
        self.supply = [st.follower_units] * n
        # goal cards (RC-S27, RC-V12)
        gperm = self._perm("goals", len(ct.goal_cards))
        per = st.goal_cards_dealt_solo if n == 1 else st.goal_cards_dealt
        self.goals = [gperm[per * j: per * (j + 1)] for j in range(n)]
        # tribes and items on display (RC-S31, RC-S32)
        self.tperm = self._perm("tribes", len(ct.tribes))
        self.iperm = self._perm("items", len(ct.items))
        self.tribe = [-1] * n
        self.items = [[] for _ in range(n)]
        self.start_field = [-1] * n
        self.old_tribe = [-1] * 3                # set by the draft (RC-S36, RC-S37)
        self.item_stack = [[], [], []]
        self.space = 1
        self.rounds_played = 0
        self.turns = 0
        self.active = -1
        self.turn = None                        # the pending-effects record of a PLAY turn

    def _lay_tile(self, k, rot):
        """Turn the tile of slot k face up with rotation ``rot`` (RC-A3 placement rule)."""
        tile = self.ct.area_tiles[self.slot_tile[k]]
        self.face_up[k] = True
        self.rotation[k] = rot
        for pos, tf in enumerate(tile.fields):
            f = 7 * k if pos == 0 else 7 * k + 1 + (pos - 1 + rot) % 6
            self.terr[f] = tf.terrain
            self.pigpic[f] = tf.pigs
            self.camp[f] = tf.camp
            self.startno[f] = tf.start
            self.artsym[f] = tf.artifact

    def _fill_tile(self, k):
        """Bag draws for a newly face-up tile: artifacts, then stones, fields in order (RC-S18, RC-R110, RC-R111)."""
        fields = range(7 * k, 7 * k + 7)
        for f in fields:
            if self.artsym[f]:
                self.art[f] = self._draw(self.bag_art)
        for f in fields:
            if self.terr[f] == EXCAVATION:
                for _ in range(self.ct.setup.stones_per_site):
                    c = self._draw(self.bag_stone)
                    if c >= 0:
                        self.site[f].append(c)

    def _draw(self, pool) -> int:
        """One bag draw from ``pool`` (counts by colour): the colour drawn, or -1 if empty (RC-A35)."""
        total = sum(pool)
        if total == 0:
            return -1
        u = float(rng.uniform(self._key("bag"), self.bag_draws)[0])
        self.bag_draws += 1
        x = int(u * total)
        for c, m in enumerate(pool):
            if x < m:
                pool[c] -= 1
                return c
            x -= m
        raise AssertionError("bag draw out of range")

    # ------------------------------------------------------------------ public interface

    def begin(self):
        """Start play: setup decisions (solo start field, tribe draft), then the 17 rounds."""
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

    legal_mask = legal

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
        """Readable action name (model doc, "The action space")."""
        if a == self.A_END:
            return "end"
        if a == self.A_RECALL:
            return "recall"
        if a < self.A_PICK:
            k, s = divmod(a - self.A_PLAY, 6)
            return f"play:{self.ct.key_cards[k].id}:{LETTERS[s]}"
        if a < self.A_FIELD:
            return f"pick:{a - self.A_PICK}"
        if a < self.A_COUNT:
            return f"field:{self.field_names[a - self.A_FIELD]}"
        if a < self.A_OPT:
            return f"count:{a - self.A_COUNT + 1}"
        if a < self.A_USE:
            return f"opt:{a - self.A_OPT}"
        if a < self.A_CHEST:
            return f"use:{self.abil[a - self.A_USE][0]}"
        if a < self.A_RING:
            return f"chest:{self.ct.chest_tiles[a - self.A_CHEST].id}"
        return "ring"

    def action_names(self) -> list:
        return [self.name(a) for a in range(self.A)]

    def play_action(self, kind: int, slot: int) -> int:
        return self.A_PLAY + 6 * kind + slot

    def drive(self, gen, actions=()):
        """Run a sub-generator to its end, answering its decisions with ``actions`` in order.

        Returns (asked, value): the decisions actually asked and the generator's return value.
        """
        actions = list(actions)
        asked = []
        try:
            d = next(gen)
            while True:
                asked.append(d)
                if not actions:
                    raise AssertionError(f"decision asked with no scripted action: {d[:2]} "
                                         f"{[self.name(x) for x in d[2]]}")
                a = actions.pop(0)
                assert a in d[2], (self.name(a), [self.name(x) for x in d[2]])
                d = gen.send(a)
        except StopIteration as stop:
            assert not actions, f"unused scripted actions {[self.name(a) for a in actions]}"
            return asked, stop.value

    # ------------------------------------------------------------------ generator driving

    def _resume(self, action, first=False):
        try:
            self._pending = next(self._gen) if first else self._gen.send(action)
        except StopIteration:
            self._pending = None
            self._over = True

    def _ask(self, who: int, kind: str, legal):
        """A decision: applied at once with one legal action, skipped (None) with none, else yielded."""
        legal = tuple(sorted(set(legal)))
        assert kind in KINDS, kind
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        if self.active >= 0:
            self.turn_decisions += 1
            if self.turn_decisions > self.cfg.max_decisions_per_turn:
                raise TurnGuard()
        return (yield (who, kind, legal))

    def _opt(self, who, kind, options, end=False, extra=()):
        """Ask among option indices ``options`` (opt:i), with ``end`` optional; returns i, -1 for end, or None."""
        legal = [self.A_OPT + i for i in options] + ([self.A_END] if end else []) + list(extra)
        a = yield from self._ask(who, kind, legal)
        if a is None:
            return None
        if a == self.A_END:
            return -1
        if self.A_OPT <= a < self.A_USE:
            return a - self.A_OPT
        return a

    def _field(self, who, kind, fields, end=False):
        """Ask a field pointer; returns the field, -1 for end, or None when nothing is legal."""
        legal = [self.A_FIELD + f for f in fields] + ([self.A_END] if end and fields else [])
        a = yield from self._ask(who, kind, legal)
        if a is None:
            return None
        return -1 if a == self.A_END else a - self.A_FIELD

    def _count(self, who, kind, lo, hi):
        """Ask a number lo..hi (count:c); None when lo > hi."""
        lo = max(lo, 1)
        hi = min(hi, N_COUNT)
        a = yield from self._ask(who, kind, [self.A_COUNT + c - 1 for c in range(lo, hi + 1)])
        return None if a is None else a - self.A_COUNT + 1

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
        return [w, r, pp], paid_p

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
        """Followers to pay on entering f (RC-R101; 0 with Exoskelet armed, RC-R244)."""
        c = self.art[f]
        if c < 0 or self.exo[p]:
            return 0
        return self.ct.board.artifact_rows.follower_cost[self.arts[p][c]]

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

    # ------------------------------------------------------------------ rewards (RC-A2, RC-A64)

    def gain(self, p, effect, field=-1, now=False):
        """Resolve a reward for p: items left to right, depth first (model doc, Simplifications).

        Action atoms run at once when ``now`` (an ability, a chest, a free activation); otherwise
        they join the active player's pending effects, or are lost (RC-A64).
        """
        for item in effect:
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
        if op in ("MOVE", "WMOVE", "DEV", "EXPLORE", "PAYOPT", "UNITS", "BUY", "SELL", "COPY"):
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
        out = [self.A_USE + j for j in self.owned_abilities(p) if not self.event_of(j) and self.affordable(p, j)]
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
        opts = [self.A_USE + j for j in self.owned_abilities(p) if not self.event_of(j)]
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
        return self.enterable(p, g) and self.art_cost(p, g) <= size

    def movement(self, p, n):
        """One movement of up to n moves, executed in one go (RC-R89)."""
        for _ in range(n):
            srcs = [f for f in range(self.NF) if self.fol[p][f] > 0
                    and any(self.group_can_enter(p, f, g, self.payable_followers(p, f)) for g in self.adj[f])]
            f = yield from self._field(p, "move_from", srcs, end=True)
            if f is None or f < 0:
                return
            pigs_here = self.pigs[f] if self.dorian(p) else 0
            dests = [g for g in self.adj[f] if self.group_can_enter(p, f, g, self.fol[p][f] + pigs_here)]
            g = yield from self._field(p, "move_to", dests)
            cost = self.art_cost(p, g)
            c = yield from self._count(p, "move_count", max(1, cost - pigs_here), self.fol[p][f])
            m = 0
            if pigs_here:
                m = yield from self._opt(p, "move_pigs", range(max(0, cost - c), pigs_here + 1))
            yield from self.move_group(p, f, g, c, m)

    def move_group(self, p, f, g, c, m=0):
        """Move c followers and m pigs from f to g; an artifact on g is taken, paid pigs first (RC-R99..R104)."""
        self.fol[p][f] -= c
        self.pigs[f] -= m
        self.fol[p][g] += c
        self.pigs[g] += m
        yield from self.arrive(p, g, pig_ok=True)

    def arrive(self, p, g, pig_ok=False):
        """The group has entered g: pay and take its artifact (RC-R99..R104, RC-A18)."""
        c = self.art[g]
        if c < 0:
            return
        cost = self.art_cost(p, g)
        if self.exo[p]:
            self.exo[p] = False
        self.art[g] = -1
        self.pay_followers(p, g, cost, pigs_ok=pig_ok)
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
        srcs = [f for f in range(self.NF) if self.fol[p][f] > 0 and any(self.is_water(w) for w in self.adj[f])]
        f = yield from self._field(p, "water_from", srcs, end=True)
        if f is None or f < 0:
            return
        size = yield from self._count(p, "water_count", 1, self.fol[p][f])
        self.fol[p][f] -= size
        self.transit[p] = size
        visited, cur = [], f
        while True:
            steps = [w for w in self.adj[cur] if self.is_water(w) and w != f and w not in visited
                     and (self.art[w] < 0 or self.arts[p][self.art[w]] < self.ct.board.artifact_rows.columns)
                     and self.art_cost(p, w) <= size]
            exits = self.water_exits(p, f, visited, improved)
            legal = [self.A_FIELD + w for w in steps] + ([self.A_END] if visited and exits else [])
            a = yield from self._ask(p, "water_step", legal)
            if a is None:                             # stuck: the group goes back (model doc)
                self.fol[p][f] += size
                self.transit[p] = 0
                return
            if a == self.A_END:
                break
            w = a - self.A_FIELD
            visited.append(w)
            cur = w
            if self.art[w] >= 0:                      # RC-R97: pay from the group on the water
                c = self.art[w]
                cost = self.art_cost(p, w)
                self.exo[p] = False
                self.art[w] = -1
                size -= cost
                self.transit[p] = size
                self.supply[p] += cost
                yield from self.receive_artifact(p, c)
                if size == 0:
                    return
        while size > 0:
            exits = [g for g in self.water_exits(p, f, visited, improved) if self.art_cost(p, g) <= size]
            g = yield from self._field(p, "water_exit", exits)
            if g is None:
                self.fol[p][f] += size
                self.transit[p] = 0
                return
            k = size
            if improved:
                k = yield from self._count(p, "water_exit_count", max(1, self.art_cost(p, g)), size)
            self.fol[p][g] += k
            size -= k
            self.transit[p] = size
            yield from self.arrive(p, g)

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
        need = 0 if self.exo[p] else 1 + len(self.others_built(p, f))      # RC-R119, RC-R120
        if need > self.payable_followers(p, f):
            return False
        cost = self.build_cost(p, kind, f)
        return cost is not None and self.can_pay(p, cost)

    def can_excavate(self, p, f) -> bool:
        k = len(self.site[f])
        if self.fol[p][f] == 0 or self.terr[f] != EXCAVATION or k == 0:
            return False                            # RC-R157
        return self.can_pay(p, self.single(EXCAVATE[min(k, 3)][0]))

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
        crystal, steps = EXCAVATE[min(len(self.site[f]), 3)]
        yield from self.pay_and_points(p, self.single(crystal))
        exo = self.exo[p]
        self.exo[p] = False
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
        exo = self.exo[p]
        self.exo[p] = False
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
        for g in self.adj[f]:                           # RC-R144..R146, RC-R150
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
            self.supply[p] += self.transit[p]          # a water movement cut short: its group goes home
            self.transit[p] = 0
        self.turn, self.exo[p], self.recharged, self.active = None, False, False, -1
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
            if atom.op in ("MOVE", "WMOVE", "DEV", "EXPLORE", "PAYOPT", "UNITS", "BUY", "SELL", "COPY"):
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
        """RC-R36..R47: cards back, one production per card, recharge."""
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
        """RC-R208, RC-A45: followers from one volcano to another face-up volcano, and 1 white crystal."""
        volcanoes = [f for f in range(self.NF) if self.terr[f] == VOLCANO and not self.island[f]]
        srcs = [f for f in volcanoes if self.fol[p][f] > 0] if len(volcanoes) > 1 else []
        f = yield from self._field(p, "ability_field", srcs, end=True)
        if f is not None and f >= 0:
            g = yield from self._field(p, "ability_field", [v for v in volcanoes if v != f])
            c = yield from self._count(p, "ability_count", 1, self.fol[p][f])
            self.fol[p][f] -= c
            self.fol[p][g] += c
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
        """RC-R221..R223, RC-A47: a jump over one field, or scatter one field's followers."""
        jumps = {}
        for f in self.own_fields(p):
            q, r = self.coord[f]
            for dq, dr in self.dirs:
                y = self.field_at.get((q + dq, r + dr))
                z = self.field_at.get((q + 2 * dq, r + 2 * dr))
                if y is not None and z is not None and self.terr[y] >= 0 and self.group_can_enter(p, f, z, self.fol[p][f]):
                    jumps.setdefault(f, []).append(z)
        scat = [f for f in self.own_fields(p) if any(self.group_can_enter(p, f, g, 1) for g in self.adj[f])]
        modes = ([0] if jumps else []) + ([1] if scat else [])
        mode = yield from self._opt(p, "ability", modes)
        if mode is None:
            return
        if mode == 0:
            f = yield from self._field(p, "ability_field", sorted(jumps))
            z = yield from self._field(p, "ability_field", jumps[f])
            c = yield from self._count(p, "ability_count", max(1, self.art_cost(p, z)), self.fol[p][f])
            yield from self.move_group(p, f, z, c)
            return
        f = yield from self._field(p, "ability_field", scat)
        for _ in range(self.fol[p][f]):
            dests = [g for g in self.adj[f] if self.group_can_enter(p, f, g, 1)]
            g = yield from self._field(p, "ability_field", dests)
            if g is None:
                continue                            # no legal destination: it stays
            yield from self.move_group(p, f, g, 1)

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

    def ab_exoskelet(self, p):
        """RC-R244: the next development action's or artifact's follower cost this turn is 0."""
        self.exo[p] = True
        yield from ()

    def ab_portaal(self, p):
        """RC-R248: a new follower on a field with another player's building, or placed normally."""
        yield from self.gain_followers(p, 1, portal=True)

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
        """RC-V15, RC-A54: both cards met with disjoint components (a split of the shared counts)."""
        g1, v1 = self.goal_resource(p, self.ct.goal_cards[c1].kind)
        g2, v2 = self.goal_resource(p, self.ct.goal_cards[c2].kind)
        if g1 != g2:
            return self.goal_met_with(c1, v1) and self.goal_met_with(c2, v2)
        for split in np.ndindex(*[x + 1 for x in v1]):
            rest = [a - b for a, b in zip(v1, split)]
            if self.goal_met_with(c1, list(split)) and self.goal_met_with(c2, rest):
                return True
        return False

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
                self.parts["score_pigs"][p] = 2 * sum(1 for f in range(self.NF) if self.farm[f] and self.dorian_present(p, f))
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
        out["start_slot"] = self.start_slot
        return out

    def outcome(self) -> dict:
        sheet = self.sheet()
        per_game = ("rounds", "turns", "rc_guard_hits", "start_slot")
        return {"per_seat": {k: v for k, v in sheet.items() if k not in per_game},
                "per_game": {k: sheet[k] for k in per_game}}


Oracle = RcOracle
