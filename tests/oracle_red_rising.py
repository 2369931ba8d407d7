"""Red Rising test oracle: a plain, one-game-at-a-time implementation written from the rules.

It exists only to cross-check the vectorised engine (``sim/games/red_rising/``): a test plays
both side by side and requires the same decider, the same legal actions at every decision and
the same final scores. It follows ``docs/red_rising_model.md`` (the contract) and
``shared/specs/red_rising.md`` (the rules); it deliberately shares no code with the engine.

How it works: the whole game is one generator, ``_play``. Game logic ``yield``s every decision
as ``(decider, kind, legal actions)`` and receives the chosen action; nested op lists are
resolved by recursion (``yield from``). ``step`` validates the action and resumes the generator
up to the next decision or the end.

Choices made where the contract is silent or ambiguous (so the engine can match them):

C1  prev_done is False at the start of every op list, nested ``then`` / ``else`` lists included;
    the result of a nested list never leaks out (the parent op's own result counts).
C2  The seen set is inherited by nested lists (an ``if`` inside a look's ``then`` sees it);
    steal and banish_from_hand also set seen = {that card}; lose and gain_free set seen = {}.
C3  Selector ``this`` with no ``this`` (house ops, end abilities) selects no location; an op
    whose location choice would then be empty (``place_from_deck``, ``recover`` to a location,
    ``move``) is not possible.
C4  ``move`` with ``which = top / bottom`` also requires that card to match the op's filter
    (the default filter matches everything); ``which = self`` ignores the filter.
C5  ``trade``: "every pay can be paid" compares the sum per resource with the holding; pays
    are paid in list order, then gets gained in list order (the end trigger is checked after each).
    The per-turn trade record is cleared at the start of every turn and at the start of every
    player's scoring step 1; house ops trade under the key "no card".
C6  Opponent ops with several targets (each / neighbours): eligibility is checked again just
    before each target is processed (a target that lost eligibility meanwhile is skipped).
C7  ``pick`` draws happen even when only one card is eligible (m = 1); drawing k cards takes k
    draws without replacement, each among the remaining cards by ascending card index.
    Roque's reshuffle (automa_shuffle) of Au Toma's top k cards: k draws among the remaining
    cards (ascending index); the first drawn becomes her new top card, the next one below it...
C8  ``gain_free`` asks ``accept`` even when the gain would have no effect; Au Toma's die
    (RR-V46) does not roll at all when no face can be gained.
C9  A stalemate (n * stalemate_rounds consecutive unchanged turns) and the round limit trigger
    the end like a threshold: the round is completed, then the extra_last_turn player plays.
    round_limit is checked at the end of each round: when ``rounds >= max_rounds`` and the end is
    not triggered yet. end_reason is the reason of the first trigger. A turn is "unchanged"
    when no character card changed place and no helium / fleet / cube / Sovereign holder changed
    (Au Toma's own deck is not a character card).
C10 ``rounds`` counts the turns of player 0, Apollo's extra last turn included; ``turns``
    counts all turns of all seats (Au Toma's included).
C11 In ``with_own_end_abilities`` mode the Ceres player is asked ``end_order`` (with ``yes``)
    only while at least one of its end abilities is pending; when none is (or none left) and the
    banish is still due, ``end_banish`` is asked directly at the end of its step.
C12 Au Toma's discard down to automa_hand_limit (RR-V41) happens at scoring, removes cards
    from the game (they are not banished); ``hand_size`` reports her hand after it.
    Psychologist's comparison uses her hand size before the discard, // 3 (RR-V48).
C13 Wildcards at scoring: all wildcards of a hand at once, the assignment that maximises the card points
    (every combination; ties: the first best, slots in card-index order, a card's name before its
    colour, declining first, colours in meta.colours order, names in card-index order; a colour or
    name that no end-bonus filter of the hand mentions scores like declining, so it is not tried).
    A grey card matches ``not_colour`` only if none of its colours is listed.
C14 The neutral house exists whenever there are 2 seats (2 players or solo) with
    config.neutral_cubes cubes; it takes part in both influence tie modes as an entry.
C15 Au Toma's caps: helium <= automa_max, fleet <= min(automa_max, last space),
    cubes <= min(automa_max, 10). Players: helium unlimited, fleet <= last space, 10 cubes.
C16 The end trigger is only evaluated while turns are played (not during scoring step 1).
C17 ``ceres_banish`` is applied by the content loader (content.houses is used as given).
C18 ``lose sovereign`` (and paying it in a trade) puts the token back beside the board.
C19 Au Toma deck shuffles use len(content.automa_cards) (22) and set the first 4 aside; a
    rebuild happens whenever she must draw from an empty deck (RR-A26).
C20 The die is ``content.die_faces`` (face f gives bonus die_faces[f - 1], RR-R22). Minerva's
    re-choice (RR-R36) happens when the rolled face's bonus is "sovereign" and offers every face
    whose bonus is not; with no such face she gains nothing. Au Toma (RR-V46) re-rolls until a
    face whose bonus she can gain, and does not roll when no face of the die has one.
"""
from __future__ import annotations

import inspect
import itertools
import math
from dataclasses import dataclass, replace

import numpy as np

from sim.core import rng
from sim.games.red_rising import actions as act
from sim.games.red_rising.content_types import LOCATIONS

JUPITER, MARS, LUNA, INSTITUTE = range(4)
ALL_LOCS = (0, 1, 2, 3)
CUBES = 10                      # influence cubes per house (RR-S9)
START_HAND = 5                  # RR-S6
AUTOMA_START_HAND = 2           # RR-V8
SET_ASIDE = 4                   # RR-V3
BONUS_RES = {JUPITER: "fleet", MARS: "helium", INSTITUTE: "influence"}   # Luna: the Sovereign
RESOURCE_ATTR = {"helium": "helium", "fleet": "fleet", "influence": "cubes"}


@dataclass(frozen=True)
class Ctx:
    """Context of an op list: who acts, the deploy location, the ability's card, the seen set."""

    actor: int
    this: int | None = None
    card: int | None = None
    seen: tuple = ()
    depth: int = 0              # 0 = a played card (or house / end ops); 1+ = chained by deploy_another


class OracleGame:
    """One game of Red Rising, played decision by decision.

    Interface: ``decider()``, ``kind()``, ``legal()`` (bool[A]), ``legal_list()``, ``step(a)``,
    ``done()``, ``result()``; ``score()`` scores the current state (tests score positions with
    it); ``log`` holds readable lines; ``card_places()`` counts where each card lies.

    State (player indices in turn order; cards are card indices): ``deck`` (top first),
    ``stacks`` (4 lists, bottom→top), ``hands`` (Au Toma's bottom→top), ``banished``, ``limbo``
    (a flipped card awaiting its location), ``helium`` / ``fleet`` / ``cubes``, ``sovereign``
    (holder or None), ``house`` (None = Au Toma), ``is_automa``, ``neutral``; solo:
    ``letter_of``, ``loc_of_letter``, ``luna_bonus_loc``, ``parity_even``, ``automa_deck``...

    ``setup_override(game)`` (optional) is called after the regular setup and before the first
    turn: tests build positions by hand by setting the state above. ``forced_rolls`` is a test
    hook: while it is non-empty, die rolls take its values in order (the die counter advances).
    """

    def __init__(self, config, content, seed: int, game: int, slot_houses=None, setup_override=None):
        self.config, self.content = config, content
        self.cards = content.cards
        self.n = config.seats
        self.solo = config.players == 1
        self.num_actions = act.num_actions(len(content.cards))
        self.last_space = len(content.fleet_points) - 1
        self.action_names = act.action_names([c.id for c in content.cards])
        self.log: list[str] = []
        self._keys = {p: rng.stream_keys(seed, [game], p)
                      for p in ("houses", "start", "deck", "priority", "automa", "die", "pick")}
        self.die_counter = self.pick_counter = 0
        self.forced_rolls: list[int] = []
        self._setup(slot_houses)
        if setup_override is not None:
            setup_override(self)
        self._result = None
        self._gen = self._play()
        self._pending = None
        self._resume(None, first=True)

    # ------------------------------------------------------------------ public interface

    def decider(self) -> int:
        """Player index (turn order) whose decision it is; -1 once the game is over."""
        return -1 if self._pending is None else self._pending[0]

    def kind(self) -> str:
        """Decision kind name (actions.DECISION_KINDS); "none" once the game is over."""
        return "none" if self._pending is None else self._pending[1]

    def legal(self) -> np.ndarray:
        """bool[A] mask of the legal actions of the pending decision."""
        mask = np.zeros(self.num_actions, dtype=bool)
        if self._pending is not None:
            mask[list(self._pending[2])] = True
        return mask

    def legal_list(self) -> tuple:
        """The legal action indices of the pending decision, ascending."""
        return () if self._pending is None else self._pending[2]

    def step(self, action: int):
        """Apply the pending decision and run everything automatic up to the next one."""
        if self._pending is None:
            raise ValueError("the game is over")
        who, kind, legal = self._pending
        action = int(action)
        if action not in legal:
            raise ValueError(f"illegal action {action} ({self._name(action)}) for {kind} of P{who}")
        self.log.append(f"  P{who} {kind}: {self._name(action)}")
        self._resume(action)

    def done(self) -> bool:
        return self._pending is None

    def result(self) -> dict:
        """Per-seat lists (turn order) and per-game values; only after the end."""
        if self._result is None:
            raise ValueError("the game is not over")
        return self._result

    # ------------------------------------------------------------------ generator driving

    def _resume(self, action, first=False):
        try:
            self._pending = next(self._gen) if first else self._gen.send(action)
        except StopIteration:
            self._pending = None

    def _ask(self, who: int, kind: str, legal):
        """Yield one decision and return the chosen action (validated by ``step``)."""
        legal = tuple(sorted(set(legal)))
        assert legal, f"empty decision {kind}"
        assert not self.is_automa[who], "Au Toma never decides"
        return (yield (who, kind, legal))

    def _name(self, action: int) -> str:
        return self.action_names[action]

    def _cid(self, c: int) -> str:
        return self.cards[c].id

    def _say(self, text: str):
        self.log.append(text)

    # ------------------------------------------------------------------ setup (RR-S*, RR-V3..V9)

    def _setup(self, slot_houses):
        """Houses, start player, deck, locations, hands; solo extras. Order fixed by the contract."""
        cfg = self.config
        slot_house = self._deal_houses(slot_houses)
        firsts = [s for s, h in enumerate(slot_house) if h is not None and h.first_turn]
        start_slot = firsts[0] if firsts else int(rng.integers(self._keys["start"], 0, self.n)[0])
        self.start_slot = start_slot
        self.slot_of = [(start_slot + j) % self.n for j in range(self.n)]
        self.house = [slot_house[s] for s in self.slot_of]
        self.is_automa = [h is None for h in self.house]
        in_use = [c.index for c in self.cards if self._in_use(c)]
        perm = rng.permutations(self._keys["deck"], len(in_use))[0]
        self.in_use = in_use
        self.deck = [in_use[i] for i in perm]                  # deck[0] is the top
        self.stacks = [[] for _ in ALL_LOCS]                  # bottom -> top
        for x in ALL_LOCS:
            for _ in range(2):
                if self.deck:
                    self.stacks[x].append(self.deck.pop(0))
        self.hands = [[] for _ in range(self.n)]              # Au Toma: bottom -> top
        for p in range(self.n):
            count = AUTOMA_START_HAND if self.is_automa[p] else START_HAND + self.house[p].start_extra_cards
            for _ in range(count):
                if self.deck:
                    self.hands[p].append(self.deck.pop(0))
        self.banished: list[int] = []
        self.limbo: list[int] = []                            # flipped / chosen cards being placed
        self.discarded: list[int] = []                        # Au Toma's discards at scoring (C12)
        self.helium = [0] * self.n
        self.fleet = [0] * self.n
        self.cubes = [0] * self.n
        self.sovereign = None                                 # holder (player index) or None
        self.neutral = cfg.neutral_cubes if self.n == 2 else None
        self.reached = [[False] * 3 for _ in range(self.n)]   # threshold_mode = ever_reached
        self.triggered, self.end_reason = False, None
        self.phase = "play"
        self.turns = self.rounds = 0
        self.changes = 0                                      # stalemate bookkeeping (C9)
        self.quiet_turns = 0
        self.deployed: set[int] = set()
        self.traded: set = set()
        self.skip_gain = False
        self.automa_sizes_before = None
        if self.solo:
            self._setup_solo()
        self._say(f"setup: houses {[self._house_name(p) for p in range(self.n)]} slots {self.slot_of}")

    def _deal_houses(self, slot_houses):
        """House per slot (None = Au Toma): fixed names, else the "houses" permutation (RR-S8)."""
        cfg, houses = self.config, self.content.houses
        names = list(slot_houses or cfg.houses)[:cfg.players]
        if names:
            by_name = {h.name: h for h in houses}
            dealt = [by_name[nm] for nm in names]
        else:
            pool = [h for h in houses if not (self.solo and cfg.solo_exclude_ceres and h.name == "Ceres")]
            perm = rng.permutations(self._keys["houses"], len(pool))[0]
            dealt = [pool[perm[s]] for s in range(cfg.players)]
        return dealt + [None] if self.solo else dealt

    def _in_use(self, card) -> bool:
        """Solo removes the RR-V6 cards; RR-V45 re-adds them except Loan Shark."""
        if not self.solo or not card.solo_removed:
            return True
        return self.config.solo_readd_removed and not card.solo_never_readd

    def _setup_solo(self):
        """Priority letters, Luna bonus location, odd/even card, Au Toma deck (RR-V3..V5, V9)."""
        perm = rng.permutations(self._keys["priority"], 4)[0]
        self.letter_of = ["ABCD"[perm[x]] for x in ALL_LOCS]
        self.loc_of_letter = {self.letter_of[x]: x for x in ALL_LOCS}
        partner = {"A": "D", "D": "A", "B": "C", "C": "B"}
        self.luna_bonus_loc = self.loc_of_letter[partner[self.letter_of[LUNA]]]
        self.parity_even = self.odd_even_card() == "EVEN"
        self.automa_shuffles = 0
        self._automa_shuffle(0)

    def odd_even_card(self) -> str:
        """RR-V9: the side of the odd/even card for the cards now on the locations (tie -> EVEN)."""
        cores = [self.cards[c].core for st in self.stacks for c in st]
        odd = sum(v % 2 for v in cores)
        return "ODD" if odd > len(cores) - odd else "EVEN"

    def _automa_shuffle(self, counter: int):
        """Shuffle all Au Toma cards (file order permuted), set the first four aside (RR-V3, V14)."""
        perm = rng.permutations(self._keys["automa"], len(self.content.automa_cards), counter=counter)[0]
        order = [int(i) for i in perm]
        self.automa_aside = order[:SET_ASIDE]
        self.automa_deck = order[SET_ASIDE:]
        self.automa_discard = []

    def _house_name(self, p: int) -> str:
        return "Au Toma" if self.is_automa[p] else self.house[p].name

    # ------------------------------------------------------------------ random draws

    def _roll(self) -> int:
        """One roll of the Rising die (purpose "die", counter +1 per roll)."""
        face = int(rng.integers(self._keys["die"], self.die_counter, 6)[0]) + 1
        self.die_counter += 1
        if self.forced_rolls:
            face = self.forced_rolls.pop(0)
        return face

    def _pick(self, m: int) -> int:
        """Uniform index in [0, m) (purpose "pick", counter +1 per draw)."""
        i = int(rng.integers(self._keys["pick"], self.pick_counter, m)[0])
        self.pick_counter += 1
        return i

    def _pick_cards(self, cards, k: int) -> list[int]:
        """k cards drawn without replacement, each among the rest by ascending card index (C7)."""
        rest, drawn = sorted(cards), []
        for _ in range(min(k, len(rest))):
            drawn.append(rest.pop(self._pick(len(rest))))
        return drawn

    # ------------------------------------------------------------------ cards and piles

    def _match(self, c: int, flt) -> bool:
        """Printed attributes against a filter (wildcards in play: ``_can_match``, RR-A19)."""
        card = self.cards[c]
        return ((flt.colour is None or card.colour in flt.colour)
                and (flt.not_colour is None or card.colour not in flt.not_colour)
                and (flt.name is None or card.name in flt.name)
                and (flt.parity is None or (card.core % 2 == 0) == (flt.parity == "even"))
                and (flt.core_min is None or card.core >= flt.core_min)
                and (flt.core_max is None or card.core <= flt.core_max))

    def _top(self, x: int):
        return self.stacks[x][-1] if self.stacks[x] else None

    def _loc_of(self, c):
        for x in ALL_LOCS:
            if c in self.stacks[x]:
                return x
        return None

    def _sel(self, selector: str, ctx: Ctx) -> list[int]:
        """Location selector -> location indices (C3 for ``this`` without a deploy location)."""
        if selector == "any":
            return list(ALL_LOCS)
        if selector == "this":
            return [] if ctx.this is None else [ctx.this]
        if selector == "other":
            return [x for x in ALL_LOCS if x != ctx.this]
        return [LOCATIONS.index(selector)]

    def _moved(self):
        self.changes += 1

    def _place(self, c: int, x: int, bottom: bool = False):
        """Put a card (from limbo) on a location's top (or bottom)."""
        self.limbo.remove(c)
        if bottom:
            self.stacks[x].insert(0, c)
        else:
            self.stacks[x].append(c)
        self._moved()

    def _lift(self, c: int):
        """Take a card out of wherever it is into limbo."""
        for pile in [self.deck, self.banished, *self.stacks, *self.hands]:
            if c in pile:
                pile.remove(c)
                break
        else:
            raise AssertionError(f"card {c} is nowhere")
        self.limbo.append(c)
        self._moved()

    def _flip(self) -> int:
        """Top deck card into limbo (face up)."""
        c = self.deck[0]
        self._lift(c)
        return c

    def _to_hand(self, p: int, c: int):
        """Card (anywhere) into p's hand; for Au Toma on top (RR-V34)."""
        self._lift(c)
        self.limbo.remove(c)
        self.hands[p].append(c)

    def _banish(self, c: int):
        self._lift(c)
        self.limbo.remove(c)
        self.banished.append(c)
        self._say(f"    banish {self._cid(c)}")

    # ------------------------------------------------------------------ resources

    def _have(self, p: int, res: str) -> int:
        if res == "sovereign":
            return int(self.sovereign == p)
        return getattr(self, RESOURCE_ATTR[res])[p]

    def _cap(self, p: int, res: str) -> float:
        """Upper limit of a resource (C15)."""
        auto = self.is_automa[p]
        top = self.content.automa_max
        if res == "helium":
            return top if auto else math.inf
        if res == "fleet":
            return min(top, self.last_space) if auto else self.last_space
        return min(top, CUBES) if auto else CUBES

    def _room(self, p: int, res: str):
        return self._cap(p, res) - self._have(p, res)

    def _add(self, p: int, res: str, delta: int):
        """Change helium / fleet / cubes by delta (already limited) and check the end trigger."""
        if delta == 0:
            return
        getattr(self, RESOURCE_ATTR[res])[p] += delta
        self.changes += 1
        self._say(f"    P{p} {res} {delta:+d} -> {self._have(p, res)}")
        self._check_end()

    def _gain(self, p: int, res: str, amount: int):
        """Gain up to ``amount`` within the cap; sovereign = receive the Sovereign (generator)."""
        if res == "sovereign":
            yield from self._receive_sovereign(p)
        else:
            self._add(p, res, int(min(amount, self._room(p, res))))

    def _lose(self, p: int, res: str, amount: int):
        if res == "sovereign":
            if self.sovereign == p:
                self.sovereign = None
                self.changes += 1
        else:
            self._add(p, res, -min(amount, self._have(p, res)))

    def _take_token(self, p: int):
        if self.sovereign != p:
            self.sovereign = p
            self.changes += 1
        self._say(f"    P{p} takes the Sovereign")

    def _receive_sovereign(self, p: int):
        """RR-R27: token first, then the house ability (Au Toma: nothing, RR-V31)."""
        self._take_token(p)
        if not self.is_automa[p]:
            yield from self._resolve(self.house[p].on_sovereign, Ctx(p))

    def _location_bonus(self, p: int, x: int):
        """RR-R15..R20 for a player."""
        if x == LUNA:
            yield from self._receive_sovereign(p)
        else:
            yield from self._gain(p, BONUS_RES[x], 1)

    # ------------------------------------------------------------------ the die (RR-R22..R25, R36)

    def _face_bonus(self, face: int) -> str:
        """The bonus of die face ``face`` (1..6) of this content's die (RR-R22)."""
        return self.content.die_faces[face - 1]

    def _roll_and_gain(self, p: int, rechoose: bool = False):
        face = self._roll()
        self._say(f"    P{p} rolls {face} ({self._face_bonus(face)})")
        if self._face_bonus(face) == "sovereign" and rechoose:
            others = [f for f in range(1, 7) if self._face_bonus(f) != "sovereign"]
            if not others:
                return
            a = yield from self._ask(p, "die_face", [act.FACE0 + f - 1 for f in others])
            face = a - act.FACE0 + 1
        yield from self._apply_face(p, face)

    def _apply_face(self, p: int, face: int):
        """A player gains one die face's bonus, making the choices it needs."""
        bonus = self._face_bonus(face)
        if bonus == "banish":
            full = [x for x in ALL_LOCS if self.stacks[x]]
            if full:
                a = yield from self._ask(p, "target_location", [act.LOC0 + x for x in full])
                self._banish(self._top(a - act.LOC0))
        elif bonus == "place":
            if self.deck:
                c = self._flip()
                a = yield from self._ask(p, "place_location", [act.LOC0 + x for x in ALL_LOCS])
                self._place(c, a - act.LOC0)
        elif bonus == "sovereign":
            yield from self._receive_sovereign(p)
        else:
            yield from self._gain(p, bonus, 1)

    # ------------------------------------------------------------------ end trigger (RR-E1..E3, RR-A15)

    def _check_end(self):
        """Evaluated after every change of helium, cubes or fleet while turns are played (C16)."""
        if self.triggered or self.phase != "play":
            return
        t = self.config.threshold
        met = []
        for p in range(self.n):
            now = [self.helium[p] >= t, self.cubes[p] >= t, self.fleet[p] >= t]
            if self.config.threshold_mode == "ever_reached":
                self.reached[p] = [a or b for a, b in zip(self.reached[p], now)]
                now = self.reached[p]
            met.append(now)
        if any(sum(m) >= 2 for m in met):
            self._trigger("two_thresholds")
        elif all(any(m[k] for m in met) for k in range(3)):
            self._trigger("all_thresholds")

    def _trigger(self, reason: str):
        self.triggered, self.end_reason = True, reason
        self._say(f"  END TRIGGERED: {reason}")

    # ------------------------------------------------------------------ the game loop

    def _play(self):
        """Rounds until the end is triggered, Apollo's extra turn, scoring step 1, scoring."""
        while True:
            for p in range(self.n):
                yield from self._turn(p)
            if not self.triggered and self.rounds >= self.config.max_rounds:
                self._trigger("round_limit")
            if self.triggered:
                break
        for p in range(self.n):
            if not self.is_automa[p] and self.house[p].extra_last_turn:
                self._say("extra last turn")
                yield from self._turn(p)
        self.phase = "end"
        yield from self._end_abilities()
        self._finish()

    def _turn(self, p: int):
        """One turn of player p; bookkeeping for turns, rounds, trades and the stalemate guard."""
        self.turns += 1
        if p == 0:
            self.rounds += 1
        self._say(f"turn {self.turns} (round {self.rounds}) P{p} {self._house_name(p)}")
        self.deployed, self.traded, self.skip_gain = set(), set(), False
        before = self.changes
        if self.is_automa[p]:
            self._automa_turn(p)
        else:
            a = yield from self._ask(p, "action", [act.LEAD] + ([act.SCOUT] if self.deck else []))
            yield from (self._lead(p) if a == act.LEAD else self._scout(p))
        self.quiet_turns = self.quiet_turns + 1 if self.changes == before else 0
        if (not self.triggered and self.phase == "play"
                and self.quiet_turns >= self.n * self.config.stalemate_rounds):
            self._trigger("stalemate")

    def _lead(self, p: int):
        """RR-R3..R10, R68: deploy (if the hand is not empty), its ops, then the gain step."""
        if self.hands[p]:
            a = yield from self._ask(p, "deploy_card", [act.CARD0 + c for c in self.hands[p]])
            yield from self._deploy(p, a - act.CARD0, Ctx(p), "deploy_location")
        if not self.skip_gain:
            yield from self._gain_step(p)

    def _deploy(self, p: int, c: int, ctx: Ctx, loc_kind: str):
        """Place hand card c on a chosen location, mark it deployed, resolve its deploy ops."""
        self._lift(c)
        a = yield from self._ask(p, loc_kind, [act.LOC0 + x for x in ALL_LOCS])
        x = a - act.LOC0
        self._place(c, x)
        self.deployed.add(x)
        self._say(f"    P{p} deploys {self._cid(c)} on {LOCATIONS[x]}")
        yield from self._resolve(self.cards[c].deploy, Ctx(p, this=x, card=c, depth=ctx.depth))

    def _gain_step(self, p: int):
        """Option A (an allowed non-empty location) or B (deck + die); skipped if none (RR-A17)."""
        legal = [act.LOC0 + x for x in ALL_LOCS if x not in self.deployed and self.stacks[x]]
        legal += [act.DECK] if self.deck else []
        if not legal:
            return
        a = yield from self._ask(p, "gain", legal)
        if a == act.DECK:
            self._to_hand(p, self.deck[0])
            yield from self._roll_and_gain(p)
        else:
            x = a - act.LOC0
            self._to_hand(p, self._top(x))
            yield from self._location_bonus(p, x)

    def _scout(self, p: int):
        """RR-R11..R14: flip, choose the location, place, location bonus."""
        c = self._flip()
        a = yield from self._ask(p, "scout_location", [act.LOC0 + x for x in ALL_LOCS])
        self._place(c, a - act.LOC0)
        yield from self._location_bonus(p, a - act.LOC0)

    # ------------------------------------------------------------------ ops (RR-A2 vocabulary)

    def _resolve(self, ops, ctx: Ctx):
        """Resolve an op list in order; prev_done starts False (C1)."""
        prev = False
        for op in ops:
            prev = yield from self._resolve_op(op, ctx, prev)

    def _resolve_op(self, op, ctx: Ctx, prev: bool):
        """Not possible -> skipped; optional -> yes/no first; else resolve. Returns prev_done."""
        if not getattr(self, "_can_" + op.op)(op, ctx, prev):
            return False
        if op.optional or self._wild_only(op, ctx):
            a = yield from self._ask(ctx.actor, "optional", [act.YES, act.NO])
            if a == act.NO:
                return False
        self._say(f"    P{ctx.actor} op {op.op}")
        done = getattr(self, "_do_" + op.op)(op, ctx, prev)
        if inspect.isgenerator(done):                  # ops that may ask decisions are generators
            done = yield from done
        return True if done is None else done

    # -- gain / lose / trade

    def _can_gain(self, op, ctx, prev):
        return op.resource == "sovereign" or self._room(ctx.actor, op.resource) > 0

    def _do_gain(self, op, ctx, prev):
        yield from self._gain(ctx.actor, op.resource, op.amount)

    def _can_lose(self, op, ctx, prev):
        return self._have(ctx.actor, op.resource) >= 1

    def _do_lose(self, op, ctx, prev):
        self._lose(ctx.actor, op.resource, op.amount)

    def _can_trade(self, op, ctx, prev):
        need: dict[str, int] = {}
        for res, amount in op.pay:
            need[res] = need.get(res, 0) + amount
        if any(self._have(ctx.actor, res) < amount for res, amount in need.items()):
            return False
        if self.config.trade_limit == "per_turn_total":
            return not self.traded
        return ctx.card not in self.traded

    def _do_trade(self, op, ctx, prev):
        self.traded.add(ctx.card)
        for res, amount in op.pay:
            self._lose(ctx.actor, res, amount)
        for res, amount in op.get:
            yield from self._gain(ctx.actor, res, amount)

    # -- cards on locations, in hand, on the deck, banished

    def _loc_cands(self, selector, flt, position, ctx) -> list[tuple[int, int]]:
        """(card, location) pairs: matching top cards, or any matching card of the stacks."""
        out = []
        for x in self._sel(selector, ctx):
            cards = self.stacks[x][-1:] if position == "top" else self.stacks[x]
            out += [(c, x) for c in cards if self._match(c, flt)]
        return out

    def _choose_loc_card(self, who, pairs, position):
        """target_location (top) or target_card (any) among (card, location) pairs -> card."""
        if position == "top":
            a = yield from self._ask(who, "target_location", [act.LOC0 + x for _, x in pairs])
            return self._top(a - act.LOC0)
        a = yield from self._ask(who, "target_card", [act.CARD0 + c for c, _ in pairs])
        return a - act.CARD0

    def _can_banish_location(self, op, ctx, prev):
        return bool(self._loc_cands(op.where, op.filter, op.position, ctx))

    def _do_banish_location(self, op, ctx, prev):
        pairs = self._loc_cands(op.where, op.filter, op.position, ctx)
        c = yield from self._choose_loc_card(ctx.actor, pairs, op.position)
        self._banish(c)

    def _hand_matches(self, p, flt, wild=False) -> list[int]:
        """Hand cards of p matching flt; ``wild``: also wildcards that can match (RR-A19)."""
        return sorted(c for c in self.hands[p] if (self._can_match(c, flt) if wild else self._match(c, flt)))

    def _can_match(self, c: int, flt) -> bool:
        """Does card c match flt with its printed attributes or some choice of its wildcards?"""
        card = self.cards[c]
        colours = [None] + (list(self.content.colours) if card.colour_wildcard else [])
        names = [None] + (list(dict.fromkeys(x.name for x in self.cards)) if card.name_wildcard else [])
        return any(self._match_w(c, flt, {(c, "colour"): x, (c, "name"): n}) for x in colours for n in names)

    def _wild_only(self, op, ctx) -> bool:
        """Own-hand ops (banish_hand, reveal_own, deploy_another) that only a wildcard of the actor's
        hand makes possible: the actor may decline to use it, asked as ``optional`` (RR-A19)."""
        if op.op not in ("banish_hand", "reveal_own", "deploy_another"):
            return False
        return not self._hand_matches(ctx.actor, op.filter)

    def _can_banish_hand(self, op, ctx, prev):
        return bool(self._hand_matches(ctx.actor, op.filter, wild=True))

    def _do_banish_hand(self, op, ctx, prev):
        for i in range(op.count):
            cands = self._hand_matches(ctx.actor, op.filter, wild=True)
            if not cands:
                break
            if i > 0 and not self._hand_matches(ctx.actor, op.filter):      # only wildcards left
                a = yield from self._ask(ctx.actor, "optional", [act.YES, act.NO])
                if a == act.NO:
                    break
            a = yield from self._ask(ctx.actor, "target_card", [act.CARD0 + c for c in cands])
            self._banish(a - act.CARD0)

    def _can_banish_deck_top(self, op, ctx, prev):
        return bool(self.deck)

    def _do_banish_deck_top(self, op, ctx, prev):
        for _ in range(min(op.count, len(self.deck))):
            self._banish(self.deck[0])

    def _move_sources(self, op, ctx) -> list[tuple[int, int]]:
        """(card, location) that can move: a destination in ``to`` other than its location (C4)."""
        to = self._sel(op.to, ctx)
        if op.which == "self":
            x = None if ctx.card is None else self._loc_of(ctx.card)
            return [(ctx.card, x)] if x is not None and any(y != x for y in to) else []
        out = []
        for x in self._sel(op.from_, ctx):
            st = self.stacks[x]
            if not st or not any(y != x for y in to):
                continue
            cards = {"top": st[-1:], "bottom": st[:1]}.get(op.which, st)
            out += [(c, x) for c in cards if self._match(c, op.filter)]
        return out

    def _can_move(self, op, ctx, prev):
        return bool(self._move_sources(op, ctx))

    def _do_move(self, op, ctx, prev):
        sources = self._move_sources(op, ctx)
        if op.which in ("top", "bottom"):
            a = yield from self._ask(ctx.actor, "target_location", [act.LOC0 + x for _, x in sources])
            c, x = next(s for s in sources if s[1] == a - act.LOC0)
        elif op.which == "filter":
            a = yield from self._ask(ctx.actor, "target_card", [act.CARD0 + c for c, _ in sources])
            c, x = next(s for s in sources if s[0] == a - act.CARD0)
        else:
            c, x = sources[0]
        dests = [y for y in self._sel(op.to, ctx) if y != x]
        a = yield from self._ask(ctx.actor, "target_location", [act.LOC0 + y for y in dests])
        self._lift(c)
        self._place(c, a - act.LOC0, bottom=op.to_position == "bottom")
        self._say(f"    move {self._cid(c)} {LOCATIONS[x]} -> {LOCATIONS[a - act.LOC0]}")

    def _can_place_from_deck(self, op, ctx, prev):
        return bool(self.deck) and bool(self._sel(op.to, ctx))

    def _do_place_from_deck(self, op, ctx, prev):
        for _ in range(op.count):
            if not self.deck:
                break
            c = self._flip()
            a = yield from self._ask(ctx.actor, "place_location", [act.LOC0 + x for x in self._sel(op.to, ctx)])
            self._place(c, a - act.LOC0)

    def _gain_card_cands(self, op, ctx) -> list[tuple[int, int | None]]:
        if op.from_ == "banished":
            return [(c, None) for c in sorted(self.banished) if self._match(c, op.filter)]
        if op.from_ == "deck":
            return [(self.deck[0], None)] if self.deck and self._match(self.deck[0], op.filter) else []
        return self._loc_cands(op.from_, op.filter, op.position, ctx)

    def _can_gain_card(self, op, ctx, prev):
        return bool(self._gain_card_cands(op, ctx))

    def _do_gain_card(self, op, ctx, prev):
        cands = self._gain_card_cands(op, ctx)
        if op.from_ == "deck":
            c = cands[0][0]
        elif op.from_ == "banished":
            a = yield from self._ask(ctx.actor, "target_card", [act.CARD0 + c for c, _ in cands])
            c = a - act.CARD0
        else:
            c = yield from self._choose_loc_card(ctx.actor, cands, op.position)
        self._to_hand(ctx.actor, c)
        self._say(f"    P{ctx.actor} takes {self._cid(c)}")

    def _can_deploy_another(self, op, ctx, prev):
        if ctx.depth > 0 and not self.config.chain_deploy_recursive:
            return False
        return bool(self._hand_matches(ctx.actor, op.filter, wild=True))

    def _do_deploy_another(self, op, ctx, prev):
        cands = self._hand_matches(ctx.actor, op.filter, wild=True)
        a = yield from self._ask(ctx.actor, "target_card", [act.CARD0 + c for c in cands])
        yield from self._deploy(ctx.actor, a - act.CARD0, replace(ctx, depth=ctx.depth + 1), "target_location")

    def _can_recover(self, op, ctx, prev):
        if op.to != "hand" and not self._sel(op.to, ctx):
            return False
        return any(self._match(c, op.filter) for c in self.banished)

    def _do_recover(self, op, ctx, prev):
        cands = sorted(c for c in self.banished if self._match(c, op.filter))
        a = yield from self._ask(ctx.actor, "target_card", [act.CARD0 + c for c in cands])
        c = a - act.CARD0
        if op.to == "hand":
            self._to_hand(ctx.actor, c)
        else:
            locs = [act.LOC0 + x for x in self._sel(op.to, ctx)]
            b = yield from self._ask(ctx.actor, "target_location", locs)
            self._lift(c)
            self._place(c, b - act.LOC0)

    def _can_roll_die(self, op, ctx, prev):
        return True

    def _do_roll_die(self, op, ctx, prev):
        for _ in range(op.times):
            yield from self._roll_and_gain(ctx.actor, rechoose=op.sovereign_face == "rechoose")

    # -- conditions, end_turn

    def _can_if(self, op, ctx, prev):
        return True

    def _do_if(self, op, ctx, prev):
        ok = self._cond(op.cond, ctx, prev)
        if not ok and self._cond_wild(op.cond, ctx):           # the actor may use a wildcard (RR-A19)
            ok = (yield from self._ask(ctx.actor, "optional", [act.YES, act.NO])) == act.YES
        yield from self._resolve(op.then if ok else op.else_, ctx)
        return ok

    def _cond_wild(self, cond, ctx) -> bool:
        """Can a wildcard of the actor's own hand make a hand_has / seen_has condition true? (Other
        players' cards count as printed: their owners decline.)"""
        kind, value = cond
        if kind == "hand_has":
            return bool(self._hand_matches(ctx.actor, value, wild=True))
        if kind == "seen_has":
            return any(c in self.hands[ctx.actor] and self._can_match(c, value) for c in ctx.seen)
        return False

    def _cond(self, cond, ctx, prev) -> bool:
        kind, value = cond
        if kind == "hand_has":
            return any(self._match(c, value) for c in self.hands[ctx.actor])
        if kind == "seen_has":
            return any(self._match(c, value) for c in ctx.seen)
        if kind == "banished_has":
            return any(self._match(c, value) for c in self.banished)
        if kind == "location_top":
            selector, flt = value
            tops = [self._top(x) for x in self._sel(selector, ctx)]
            return any(c is not None and self._match(c, flt) for c in tops)
        if kind == "resource_at_least":
            res, amount = value
            return self._have(ctx.actor, res) >= amount
        if kind == "prev_done":
            return prev == bool(value)
        raise ValueError(f"unknown condition {kind}")

    def _can_end_turn(self, op, ctx, prev):
        return op.when == "always" or prev

    def _do_end_turn(self, op, ctx, prev):
        self.skip_gain = True

    # -- looking at and revealing cards

    def _opponents(self, actor: int) -> list[int]:
        """Opponents clockwise from the actor's left: opp:+1 .. opp:+(n-1)."""
        return [(actor + k) % self.n for k in range(1, self.n)]

    def _targets(self, op, ctx, eligible):
        """choose -> target_opponent among eligible; each -> all from the left; neighbours."""
        opps = self._opponents(ctx.actor)
        if op.target == "choose":
            legal = [act.OPP0 + k for k, t in enumerate(opps) if eligible(t)]
            a = yield from self._ask(ctx.actor, "target_opponent", legal)
            return [opps[a - act.OPP0]]
        if op.target == "each":
            return opps
        left, right = (ctx.actor + 1) % self.n, (ctx.actor - 1) % self.n
        return [left] if left == right else [left, right]

    def _can_look_opponent_hand(self, op, ctx, prev):
        return any(self.hands[t] for t in self._opponents(ctx.actor))

    def _do_look_opponent_hand(self, op, ctx, prev):
        has_cards = lambda t: bool(self.hands[t])
        targets = yield from self._targets(op, ctx, has_cards)
        for t in targets:
            if has_cards(t):
                seen = self._look(t, op)
                self._say(f"    P{ctx.actor} looks at P{t}: {[self._cid(c) for c in seen]}")
                yield from self._resolve(op.then, replace(ctx, seen=tuple(seen)))

    def _look(self, t: int, op) -> list[int]:
        """Seen cards: whole hand if small; else ``count`` picks; Au Toma her top cards (C7)."""
        hand = self.hands[t]
        if self.is_automa[t]:
            k = min(op.count, len(hand))
            top = hand[len(hand) - k:]
            if op.automa_shuffle:
                drawn = self._pick_cards(top, k)            # first drawn = new top
                hand[len(hand) - k:] = drawn[::-1]
                self._moved()
            return top
        if len(hand) <= op.count:
            return sorted(hand)
        return self._pick_cards(hand, op.count)

    def _can_reveal_own(self, op, ctx, prev):
        return bool(self._hand_matches(ctx.actor, op.filter, wild=True))

    def _do_reveal_own(self, op, ctx, prev):
        cands = self._hand_matches(ctx.actor, op.filter, wild=True)
        a = yield from self._ask(ctx.actor, "target_card", [act.CARD0 + c for c in cands])
        yield from self._resolve(op.then, replace(ctx, seen=(a - act.CARD0,)))

    # -- opponent ops

    def _eligible(self, op, t: int) -> bool:
        """Can opponent t be targeted by this opponent op? (contract's eligibility)"""
        hand = self.hands[t]
        if op.action in ("steal", "banish_from_hand", "reveal_choice"):
            if self.is_automa[t]:
                return bool(hand) and self._match(hand[0], op.filter)
            return any(self._match(c, op.filter) for c in hand)
        if op.action == "reveal_random":
            return any(self._match(c, op.filter) for c in hand)
        if op.action == "lose":
            return self._have(t, op.resource) >= 1
        return True                                              # gain_free

    def _can_opponent(self, op, ctx, prev):
        return any(self._eligible(op, t) for t in self._opponents(ctx.actor))

    def _do_opponent(self, op, ctx, prev):
        """Targets in order: block?, effect, then-ops (C6). Done iff some target not blocked."""
        targets = yield from self._targets(op, ctx, lambda t: self._eligible(op, t))
        done = False
        for t in targets:
            if not self._eligible(op, t):
                continue
            blocked = yield from self._block(op, t)
            if blocked:
                continue
            done = True
            seen = yield from self._opponent_effect(op, ctx, t)
            yield from self._resolve(op.then, replace(ctx, seen=tuple(seen)))
        return done

    def _block(self, op, t: int):
        """RR-R42, RR-A28: the target may reveal a block card (Au Toma never blocks)."""
        if not op.blockable or self.is_automa[t]:
            return False
        blockers = [c for c in self.hands[t]
                    if op.action in self.cards[c].block_against or "any" in self.cards[c].block_against]
        if not blockers:
            return False
        a = yield from self._ask(t, "block", [act.NO] + [act.CARD0 + c for c in blockers])
        if a == act.NO:
            return False
        self._say(f"    P{t} blocks with {self._cid(a - act.CARD0)}")
        return True

    def _opponent_effect(self, op, ctx, t: int):
        """The effect on one target; returns the seen cards."""
        auto, hand, action = self.is_automa[t], self.hands[t], op.action
        if action in ("steal", "banish_from_hand"):
            if auto:
                c = hand[0]                                       # RR-V33: her bottom card
            else:
                c = yield from self._choose_from_hand(op, ctx, t)
            if action == "steal":
                self._to_hand(ctx.actor, c)
                self._say(f"    P{ctx.actor} steals {self._cid(c)} from P{t}")
            else:
                self._banish(c)
            return [c]
        if action in ("reveal_random", "reveal_choice"):
            cands = self._hand_matches(t, op.filter, wild=action == "reveal_choice" and not auto)
            if action == "reveal_random":
                c = cands[self._pick(len(cands))]
            elif auto:
                c = hand[0]
            else:
                a = yield from self._ask(t, "target_card", [act.CARD0 + c for c in cands])
                c = a - act.CARD0
            if auto:
                self._to_hand(t, c)                              # back on top (RR-V34)
            self._say(f"    P{t} reveals {self._cid(c)}")
            return [c]
        if action == "lose":
            self._lose(t, op.resource, op.amount)
            return []
        if not auto:
            a = yield from self._ask(t, "accept", [act.YES, act.NO])
            if a == act.NO:
                return []
        if op.resource == "die":
            if auto:
                self._automa_free_die(t)
            else:
                yield from self._roll_and_gain(t)
        else:
            yield from self._gain(t, op.resource, op.amount)
        return []

    def _choose_from_hand(self, op, ctx, t: int):
        """random -> pick; owner_chooses -> the target decides (and may hand over a wildcard that can
        match, RR-A19); actor_chooses -> the actor (the owner declines its wildcards)."""
        cands = self._hand_matches(t, op.filter, wild=op.selection == "owner_chooses")
        if op.selection == "random":
            return cands[self._pick(len(cands))]
        who = t if op.selection == "owner_chooses" else ctx.actor
        a = yield from self._ask(who, "target_card", [act.CARD0 + c for c in cands])
        return a - act.CARD0

    # ------------------------------------------------------------------ Au Toma (RR-V11..V36)

    def _automa_loc(self, symbol: str) -> int:
        return "JMLI".index(symbol) if symbol in "JMLI" else self.loc_of_letter[symbol]

    def _automa_turn(self, p: int):
        """Two Au Toma cards, each resolved completely (RR-V13..V23)."""
        for _ in range(2):
            if not self.automa_deck:
                self.automa_shuffles += 1
                self._automa_shuffle(self.automa_shuffles)
                self._say(f"    Au Toma rebuilds her deck (shuffle {self.automa_shuffles})")
            i = self.automa_deck.pop(0)
            self._automa_card(p, self.content.automa_cards[i])
            self.automa_discard.append(i)

    def _automa_card(self, p: int, card):
        """Deploy the top deck card; gain (searching along the arrow); star / cross."""
        step = 1 if card.arrow == "cw" else -1
        self._say(f"    Au Toma card {card.id}: {card.deploy} {card.gain} {card.extra} {card.arrow}")
        if self.deck:
            c = self._flip()
            self._place(c, self._automa_loc(card.deploy))
            self._say(f"    Au Toma places {self._cid(c)} on {LOCATIONS[self._automa_loc(card.deploy)]}")
        start = self._automa_loc(card.gain)
        took = next((x for x in ((start + k * step) % 4 for k in range(4)) if self.stacks[x]), None)
        if took is not None:
            self._say(f"    Au Toma takes {self._cid(self._top(took))} from {LOCATIONS[took]}")
            self._to_hand(p, self._top(took))
            if card.extra == "star":
                self._automa_bonus(p, took, step)
        if card.extra == "cross" and self.deck:
            self._banish(self.deck[0])

    def _automa_can(self, p: int, x: int) -> bool:
        """Can Au Toma still gain location x's bonus? Luna always (RR-A24)."""
        res = BONUS_RES.get(x)
        return res is None or self._room(p, res) > 0

    def _automa_bonus(self, p: int, x: int, step: int):
        """RR-V28..V30, RR-A24: bonus of x, or the first gainable one along the arrow."""
        if not self._automa_can(p, x):
            x = next(y for y in ((x + k * step) % 4 for k in range(1, 4)) if self._automa_can(p, y))
        if x != LUNA:
            self._automa_plain_bonus(p, x)
            return
        self._take_token(p)
        b = self.luna_bonus_loc
        if not self._automa_can(p, b):
            b = next((y for y in ((b + k * step) % 4 for k in range(1, 4))
                      if y != LUNA and self._automa_can(p, y)), None)
        if b is not None:
            self._automa_plain_bonus(p, b)

    def _automa_plain_bonus(self, p: int, x: int):
        self._add(p, BONUS_RES[x], int(min(1, self._room(p, BONUS_RES[x]))))

    def _automa_free_die(self, p: int):
        """RR-V46, RR-A36: re-roll until a face she can gain; choices by priority letters."""
        full = [x for x in (self.loc_of_letter[k] for k in "ABCD") if self.stacks[x]]
        can = {"banish": bool(full), "place": bool(self.deck), "sovereign": self.sovereign != p,
               "helium": self._room(p, "helium") > 0, "fleet": self._room(p, "fleet") > 0,
               "influence": self._room(p, "influence") > 0}
        if not any(can[self._face_bonus(f)] for f in range(1, 7)):
            return
        face = self._roll()
        while not can[self._face_bonus(face)]:
            face = self._roll()
        bonus = self._face_bonus(face)
        self._say(f"    Au Toma rolls {face} ({bonus})")
        if bonus == "banish":
            self._banish(self._top(full[0]))
        elif bonus == "place":
            self._place(self._flip(), self.loc_of_letter["A"])
        elif bonus == "sovereign":
            self._take_token(p)
        else:
            self._automa_plain_bonus(p, {"helium": MARS, "fleet": JUPITER, "influence": INSTITUTE}[bonus])

    # ------------------------------------------------------------------ end of the game (RR-E7, E8)

    def _end_abilities(self):
        """Scoring step 1 in turn order, then (default mode) the Ceres end banish."""
        own = self.config.ceres_end_banish == "with_own_end_abilities"
        for p in range(self.n):
            if self.is_automa[p]:
                continue
            self.traded = set()
            pending = sorted(c for c in self.hands[p] if self.cards[c].end_ability)
            due = self.house[p].end_banish_from_hand if own else 0
            while True:
                pending = [c for c in pending if c in self.hands[p]]
                if not pending:
                    break
                legal = [act.CARD0 + c for c in pending] + ([act.YES] if due else [])
                a = yield from self._ask(p, "end_order", legal)
                if a == act.YES:
                    yield from self._end_banish(p, due)
                    due = 0
                else:
                    pending.remove(a - act.CARD0)
                    yield from self._resolve(self.cards[a - act.CARD0].end_ability, Ctx(p, card=a - act.CARD0))
            if due:
                yield from self._end_banish(p, due)
        if not own:
            for p in range(self.n):
                if not self.is_automa[p] and self.house[p].end_banish_from_hand:
                    yield from self._end_banish(p, self.house[p].end_banish_from_hand)

    def _end_banish(self, p: int, count: int):
        for _ in range(count):
            if not self.hands[p]:
                break
            a = yield from self._ask(p, "end_banish", [act.CARD0 + c for c in self.hands[p]])
            self._banish(a - act.CARD0)

    def _finish(self):
        """Au Toma's discard to her hand limit (RR-V41, C12), then scoring."""
        self.automa_sizes_before = [len(h) for h in self.hands]
        for p in range(self.n):
            if self.is_automa[p]:
                keep = self._automa_kept(p)
                self.discarded += [c for c in self.hands[p] if c not in keep]
                self.hands[p] = [c for c in self.hands[p] if c in keep]
        self._result = self.score()
        self._say(f"end: {self.end_reason}, scores {self._result['score']}")

    def _automa_matches(self, c: int) -> bool:
        return (self.cards[c].core % 2 == 0) == self.parity_even

    def _automa_kept(self, p: int) -> set:
        """Cards she keeps: drop non-matching first (from the bottom), then matching."""
        hand, limit = self.hands[p], self.content.automa_hand_limit
        drop = max(0, len(hand) - limit)
        non = [c for c in hand if not self._automa_matches(c)]
        mat = [c for c in hand if self._automa_matches(c)]
        dropped = (non + mat)[:drop]
        return set(hand) - set(dropped)

    # ------------------------------------------------------------------ scoring (RR-E9..E19, RR-V37..V43)

    def score(self) -> dict:
        """Steps 2..7 and ranks on the current state (public so tests can score positions)."""
        cfg, content = self.config, self.content
        infl = self._influence_points()
        cols = {k: [] for k in ("score", "score_cards", "score_fleet", "score_helium", "score_sovereign",
                                "score_influence", "score_hand_penalty", "score_automa_base")}
        for p in range(self.n):
            if self.is_automa[p]:
                level = content.automa_levels[cfg.automa_level]
                kept = self._automa_kept(p)
                mat = sum(self._automa_matches(c) for c in kept)
                cards = mat * level.matching + (len(kept) - mat) * level.non_matching
                base, penalty = level.start_points, 0
            else:
                cards, base = self._card_points(p), 0
                penalty = -cfg.hand_penalty * max(0, len(self.hands[p]) - cfg.hand_limit)
            part = {"score_cards": cards, "score_fleet": content.fleet_points[self.fleet[p]],
                    "score_helium": cfg.helium_points * self.helium[p],
                    "score_sovereign": cfg.sovereign_points if self.sovereign == p else 0,
                    "score_influence": infl[p], "score_hand_penalty": penalty, "score_automa_base": base}
            for k, v in part.items():
                cols[k].append(int(v))
            cols["score"].append(int(sum(part.values())))
        keys = [(cols["score"][p], self.sovereign == p) for p in range(self.n)]
        cols["rank"] = [1 + sum(k > keys[p] for k in keys) for p in range(self.n)]
        winners = cols["rank"].count(1)
        cols["win_share"] = [1.0 / winners if r == 1 else 0.0 for r in cols["rank"]]
        cols["house"] = [self._house_name(p) for p in range(self.n)]
        cols["slot"] = list(self.slot_of)
        cols["is_automa"] = list(self.is_automa)
        cols["hand_size"] = [len(h) for h in self.hands]
        cols["helium"], cols["fleet"], cols["cubes"] = list(self.helium), list(self.fleet), list(self.cubes)
        cols["sovereign"] = [self.sovereign == p for p in range(self.n)]
        cols.update(turns=self.turns, rounds=self.rounds, end_reason=self.end_reason, deck_empty=not self.deck)
        return cols

    def _influence_points(self) -> list[int]:
        """RR-E13..E15, RR-A11: 4 / 2 / 1 per cube by place; neutral house as an entry."""
        entries = list(self.cubes) + ([self.neutral] if self.neutral is not None else [])
        if self.config.influence_tie_mode == "dense":
            distinct = sorted(set(entries), reverse=True)
            place = [distinct.index(e) + 1 for e in entries]
        else:
            place = [1 + sum(o > e for o in entries) for e in entries]
        rate = {1: 4, 2: 2}
        return [rate.get(place[p], 1) * self.cubes[p] for p in range(self.n)]

    def _card_points(self, p: int) -> int:
        """RR-E9 with the assignment of wildcard choices that maximises the points (RR-A19, C13).

        Every combination is tried, slots in card-index order (a card's name before its colour),
        declining first; the first best wins. Only colours and names that some end bonus of the
        hand mentions can change a match: the others score like declining and are not tried.
        """
        hand = sorted(self.hands[p])
        filters = [b.filter for c in hand for b in self.cards[c].end_bonus]
        colours = {k for f in filters for k in (f.colour or ()) + (f.not_colour or ())}
        names = {nm for f in filters for nm in (f.name or ())}
        slots, options = [], []
        for c in hand:
            card = self.cards[c]
            if card.name_wildcard:
                slots.append((c, "name"))
                options.append([None] + [n for n in dict.fromkeys(x.name for x in self.cards)
                                         if n in names and n != card.name])
            if card.colour_wildcard:
                slots.append((c, "colour"))
                options.append([None] + [k for k in self.content.colours if k in colours and k != card.colour])
        best = None
        for combo in itertools.product(*options):
            v = self._hand_points(p, hand, dict(zip(slots, combo)))
            if best is None or v > best:
                best = v
        return best

    def _match_w(self, c: int, flt, choice) -> bool:
        """Filter match at scoring: a grey card has a second colour, an orange card a second name."""
        card = self.cards[c]
        colours = {card.colour} | ({choice[(c, "colour")]} if choice.get((c, "colour")) else set())
        names = {card.name} | ({choice[(c, "name")]} if choice.get((c, "name")) else set())
        return ((flt.colour is None or bool(colours & set(flt.colour)))
                and (flt.not_colour is None or not colours & set(flt.not_colour))
                and (flt.name is None or bool(names & set(flt.name)))
                and (flt.parity is None or (card.core % 2 == 0) == (flt.parity == "even"))
                and (flt.core_min is None or card.core >= flt.core_min)
                and (flt.core_max is None or card.core <= flt.core_max))

    def _hand_points(self, p, hand, choice) -> int:
        total = 0
        for c in hand:
            total += self.cards[c].core
            others = [o for o in hand if o != c]
            for b in self.cards[c].end_bonus:
                total += self._bonus(p, b, others, choice)
        return total

    def _bonus(self, p, b, others, choice) -> int:
        """One end-bonus term (RR-R55..R59; hand_compare with Au Toma's size // 3, RR-V48)."""
        if b.kind == "for_each":
            return b.points * sum(self._match_w(o, b.filter, choice) for o in others)
        if b.kind == "if_with":
            return b.points if any(self._match_w(o, b.filter, choice) for o in others) else 0
        if b.kind == "if_with_no":
            return 0 if any(self._match_w(o, b.filter, choice) for o in others) else b.points
        if b.kind == "for_each_on_locations":
            return b.points * sum(self._match(c, b.filter) for st in self.stacks for c in st)
        if b.kind == "for_each_banished":
            return b.points * sum(self._match(c, b.filter) for c in self.banished)
        if b.kind == "hand_compare":
            mine = len(self.hands[p])
            sizes = [self._compare_size(q) for q in range(self.n) if q != p]
            if b.compare == "more_than_each_opponent":
                return b.points if all(mine > s for s in sizes) else 0
            if b.compare == "fewer_than_each_opponent":
                return b.points if all(mine < s for s in sizes) else 0
        raise ValueError(f"unknown end bonus {b.kind} {b.compare}")

    def _compare_size(self, q: int) -> int:
        if not self.is_automa[q]:
            return len(self.hands[q])
        before = self.automa_sizes_before[q] if self.automa_sizes_before else len(self.hands[q])
        return before // 3

    # ------------------------------------------------------------------ test helpers

    def card_places(self) -> dict[int, int]:
        """How many places hold each card (deck, stacks, hands, banished, limbo, discarded)."""
        count: dict[int, int] = {}
        for pile in [self.deck, self.banished, self.limbo, self.discarded, *self.stacks, *self.hands]:
            for c in pile:
                count[c] = count.get(c, 0) + 1
        return count
