"""Construction and setup: the map, the ability ids, the action space, every setup draw (spec section 2)."""
from __future__ import annotations

from sim.core import rng
from sim.games.recall.content_types import ARTIFACT_COLOURS, BOARD_MONUMENT, EXCAVATION, NONE, WATER
from tests.oracle_recall.common import N_PICK, N_COUNT, N_OPT, norm


class Setup:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

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
        self.transit_pigs = [0] * n               # pigs travelling with them (RC-R212)
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
