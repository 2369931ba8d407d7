"""Red Rising content: the default data files (RR-A1..RR-A10) and the loader's validation."""
from __future__ import annotations

import importlib.util
import shutil
import statistics
from collections import Counter

import pytest

from sim.core.errors import InputError
from sim.games.red_rising import content as rr_content
from sim.games.red_rising.config import Config
from sim.games.red_rising.content import (
    COND_KINDS, DATA_DIR, END_BONUS_KINDS, OP_PARAMS, content_hash, load_content,
)
from sim.games.red_rising.content_types import DIE_BONUSES, OPPONENT_ACTIONS, Content, Filter
from tests.scaffold import copy_content, edit, one_line_error

RR_A2_COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Violet", "Copper",
                 "Silver", "Gold", "Grey", "Obsidian", "Pink", "White", "Brown")


@pytest.fixture(scope="module")
def content():
    return load_content(Config())


def walk(ops):
    """Every op of a list, nested then/else included."""
    for op in ops:
        yield op
        yield from walk(op.then)
        yield from walk(op.else_)


def all_ops(content):
    return [op for card in content.cards for op in walk(card.deploy + card.end_ability)]


# ---- the default deck ----------------------------------------------------------------------

def test_default_deck_composition_RR_A3_RR_A4_RR_A5(content):
    """RR-A3 Revision / RR-A5: 112 cards, 14 colours in RR-A2 order, Gold 21, every other colour 7.
    RR-A4: the fourteen colour names are the seed's seven (Red, Orange, Yellow, Copper, Silver,
    Gold, Grey) and the seven assumed (Green, Blue, Violet, Obsidian, Pink, White, Brown)."""
    assert len(content.cards) == 112
    assert content.colours == RR_A2_COLOURS
    counts = Counter(card.colour for card in content.cards)
    assert counts["Gold"] == 21
    assert all(counts[c] == 7 for c in RR_A2_COLOURS if c != "Gold")
    assert [card.index for card in content.cards] == list(range(112))
    assert len({card.id for card in content.cards}) == 112


def test_default_deck_is_labelled_synthetic_RR_A1(content):
    """RR-A1: the default deck is synthetic and says so, in meta and in a comment."""
    assert content.synthetic is True
    text = (DATA_DIR / "deck.toml").read_text(encoding="utf-8")
    assert "SYNTHETIC" in text and "NOT the real game's card texts" in text


def test_core_values_RR_A3(content):
    """RR-A3 Revision: core values in 0..40, mean near 14.6, about half odd (RR-R66: 0 is even)."""
    cores = [card.core for card in content.cards]
    assert min(cores) == 0 and max(cores) == 40
    assert abs(statistics.mean(cores) - 14.6) < 0.3
    odd = sum(core % 2 for core in cores)
    assert abs(odd - 56) <= 4


def test_slot_6_dropped_and_gold_sets_named_uniquely_RR_A3(content):
    """RR-A3 Revision: slots 1,2,3,4,5,7,8 per colour set; Gold's three sets have unique names."""
    ids = {card.id for card in content.cards}
    assert "RED-6" not in ids and {"RED-1", "RED-8", "GOL-1", "GOL-1b", "GOL-1c", "GOL-8c"} <= ids
    names = [card.name for card in content.cards]
    assert {"Gold 1", "Gold 1b", "Gold 1c"} <= set(names)
    assert len(set(names)) == len(names)


def test_every_op_kind_appears_RR_A2(content):
    """RR-A2: the default deck uses every op and every variant of its main parameters."""
    ops = all_ops(content)
    assert {op.op for op in ops} == set(OP_PARAMS)
    by = lambda name: [op for op in ops if op.op == name]  # noqa: E731
    assert {op.position for op in by("banish_location")} == {"top", "any"}
    assert {op.which for op in by("move")} == {"top", "self", "bottom", "filter"}
    assert {op.to_position for op in by("move")} == {"top", "bottom"}
    gain_card_from = {op.from_ for op in by("gain_card")}
    assert {"banished", "deck"} <= gain_card_from and gain_card_from - {"banished", "deck"}
    assert "hand" in {op.to for op in by("recover")} and {op.to for op in by("recover")} - {"hand"}
    assert {op.when for op in by("end_turn")} == {"always", "if_prev_done"}
    assert {op.resource for op in by("gain")} == {"helium", "fleet", "influence", "sovereign"}
    assert any(op.else_ for op in by("if"))
    assert any(op.automa_shuffle for op in by("look_opponent_hand"))


def test_every_opponent_target_action_selection_RR_A2(content):
    """RR-A2: opponent ops use every target, action and selection; gain_free also gives a die bonus."""
    opponent = [op for op in all_ops(content) if op.op == "opponent"]
    assert {op.target for op in opponent} == {"choose", "each", "neighbours"}
    assert {op.action for op in opponent} == set(OPPONENT_ACTIONS)
    assert {op.selection for op in opponent} == {"random", "owner_chooses", "actor_chooses"}
    assert {op.resource for op in opponent if op.action == "gain_free"} >= {"die", "helium"}
    assert all(not op.blockable for op in opponent if op.action == "gain_free")


def test_every_cond_kind_RR_A2(content):
    """RR-A2: `if` uses every condition kind."""
    assert {op.cond[0] for op in all_ops(content) if op.cond} == set(COND_KINDS)


def test_every_end_bonus_kind_RR_R55_to_RR_R59(content):
    """RR-A2, RR-R55..RR-R59: every end-bonus kind, penalties, if_with by colour and by name."""
    bonuses = [b for card in content.cards for b in card.end_bonus]
    assert {b.kind for b in bonuses} == set(END_BONUS_KINDS)
    assert any(b.kind == "for_each" and b.points < 0 for b in bonuses)
    if_with = [b for b in bonuses if b.kind == "if_with"]
    assert any(b.filter.colour for b in if_with) and any(b.filter.name for b in if_with)


def test_blocks_end_abilities_and_wildcards_RR_R42_RR_R51_RR_R54(content):
    """RR-R42 blocks, RR-R43 end abilities; every Orange card is a name wildcard (RR-R51) and
    every Grey card a colour wildcard (RR-R54), and no other card is."""
    cards = content.cards
    assert any(card.block_against for card in cards)
    assert "any" in set().union(*(card.block_against for card in cards))
    assert any(card.end_ability for card in cards)
    assert all(card.name_wildcard == (card.colour == "Orange") for card in cards)
    assert all(card.colour_wildcard == (card.colour == "Grey") for card in cards)


def test_solo_removed_cards_RR_V6_RR_A10(content):
    """RR-V6: the five solo-removed cards with their colours; RR-V45: Loan Shark never re-added;
    RR-V49: Roque's look shuffles Au Toma's cards; RR-V46/RR-V48 hooks for Auctioneer/Psychologist."""
    removed = {card.name: card for card in content.cards if card.solo_removed}
    assert {name: card.colour for name, card in removed.items()} == {
        "Auctioneer": "Copper", "Eo": "Red", "Loan Shark": "Silver", "Psychologist": "Yellow",
        "Roque": "Gold"}
    assert [c.name for c in content.cards if c.solo_never_readd] == ["Loan Shark"]
    assert removed["Roque"].deploy[0].op == "look_opponent_hand"
    assert removed["Roque"].deploy[0].automa_shuffle and removed["Roque"].deploy[0].count == 6
    assert removed["Eo"].deploy[0].then[0].cond == ("seen_has", Filter(colour=("Red",)))
    auctioneer = removed["Auctioneer"].deploy
    assert (auctioneer[0].action, auctioneer[0].resource, auctioneer[0].target) == ("gain_free", "die", "each")
    assert (auctioneer[1].op, auctioneer[1].resource, auctioneer[1].amount) == ("gain", "helium", 2)
    assert removed["Loan Shark"].deploy[0].pay == (("influence", 1),)
    assert removed["Loan Shark"].deploy[0].get == (("helium", 3),)
    assert removed["Psychologist"].end_bonus[0].kind == "hand_compare"
    assert removed["Psychologist"].end_bonus[0].compare == "more_than_each_opponent"


def test_generator_reproduces_the_deck_file_RR_A3():
    """The committed deck.toml is exactly what make_default_deck.py writes."""
    spec = importlib.util.spec_from_file_location("make_default_deck", DATA_DIR / "make_default_deck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render() == (DATA_DIR / "deck.toml").read_text(encoding="utf-8")


# ---- tables and the Au Toma deck -------------------------------------------------------------

def test_fleet_points_RR_A6(content):
    """RR-A6: spaces 0..10 with the printed points."""
    assert content.fleet_points == (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)


def test_automa_levels_and_caps_RR_A9(content):
    """RR-A9: six levels, normal = 3 (6/3), 70 starting points; caps 10 (RR-V28), hand 20 (RR-V41)."""
    levels = content.automa_levels
    assert sorted(levels) == [1, 2, 3, 4, 5, 6]
    assert [(levels[n].matching, levels[n].non_matching) for n in range(1, 7)] == [
        (4, 1), (5, 2), (6, 3), (7, 3), (7, 4), (8, 4)]
    assert all(levels[n].start_points == 70 for n in levels)
    assert content.automa_max == 10 and content.automa_hand_limit == 20


def test_automa_deck_RR_A8(content):
    """RR-A8: 22 cards; 9 stars, 5 crosses, 8 blank; 11/11 arrows; letters A>B>C>D, each location once."""
    cards = content.automa_cards
    assert len(cards) == 22 and cards[0].id == "AT01" and cards[-1].id == "AT22"
    assert Counter(c.extra for c in cards) == {"star": 9, "cross": 5, "none": 8}
    assert Counter(c.arrow for c in cards) == {"cw": 11, "ccw": 11}
    for part in ("deploy", "gain"):
        counts = Counter(getattr(c, part) for c in cards)
        assert [counts[x] for x in "ABCDJMLI"] == [6, 5, 4, 3, 1, 1, 1, 1]
    assert (cards[7].deploy, cards[7].gain, cards[7].extra, cards[7].arrow) == ("M", "A", "cross", "ccw")


def house(content, name):
    return next(h for h in content.houses if h.name == name)


def test_houses_in_order_RR_A38(content):
    """RR-A38: the six houses of the seed, as data."""
    assert [h.name for h in content.houses] == ["Apollo", "Ceres", "Diana", "Jupiter", "Mars", "Minerva"]


def test_house_apollo_RR_R29_RR_R30_RR_S15_RR_E5(content):
    """RR-R29: place the top deck card on a chosen location; RR-S15 first turn; RR-E5 last turn."""
    apollo = house(content, "Apollo")
    (op,) = apollo.on_sovereign
    assert (op.op, op.to, op.count) == ("place_from_deck", "any", 1)
    assert apollo.first_turn and apollo.extra_last_turn


def test_house_ceres_RR_R31_RR_R32_RR_S17_RR_E8_RR_A13(content):
    """RR-R31/RR-A13: banish a card of a location (by default any card, the seed's "een kaart van
    een locatie naar keuze"); RR-S17 one extra card; RR-E8 end banish; with ceres_banish = "top"
    only the location's top card."""
    ceres = house(content, "Ceres")
    (op,) = ceres.on_sovereign
    assert Config().ceres_banish == "any"
    assert (op.op, op.where, op.position) == ("banish_location", "any", "any")
    assert ceres.start_extra_cards == 1 and ceres.end_banish_from_hand == 1
    top = house(load_content(Config(ceres_banish="top")), "Ceres")
    assert top.on_sovereign[0].position == "top"
    assert house(load_content(Config(ceres_banish="top")), "Diana") == house(content, "Diana")


@pytest.mark.parametrize("name, op, resource", [
    ("Diana", "gain", "influence"),      # RR-R33
    ("Jupiter", "gain", "fleet"),        # RR-R34
    ("Mars", "gain", "helium"),          # RR-R35
])
def test_house_resource_abilities_RR_R33_RR_R34_RR_R35(content, name, op, resource):
    (got,) = house(content, name).on_sovereign
    assert (got.op, got.resource, got.amount) == (op, resource, 1)
    assert not house(content, name).first_turn and house(content, name).start_extra_cards == 0


def test_house_minerva_RR_R36_RR_A35(content):
    """RR-R36: roll the die; on the Sovereign face choose another face instead."""
    (op,) = house(content, "Minerva").on_sovereign
    assert (op.op, op.times, op.sovereign_face) == ("roll_die", 1, "rechoose")


def test_default_die_faces_RR_R22(content):
    """RR-R22: the six faces of the Rising die, as data: 1 banish ... 6 influence (the default)."""
    assert content.die_faces == ("banish", "place", "sovereign", "helium", "fleet", "influence")
    assert content.die_faces == DIE_BONUSES
    assert Content.__dataclass_fields__["die_faces"].default == DIE_BONUSES
    text = (DATA_DIR / "tables.toml").read_text(encoding="utf-8")
    assert 'die_faces = ["banish", "place", "sovereign", "helium", "fleet", "influence"]' in text


def test_custom_die_faces_with_repeats_RR_R22(tmp_path):
    """RR-R22 as data: any six bonuses of the vocabulary, repeats allowed; omitted = the default die."""
    got = load_tables_text(tmp_path, '"banish", "place", "sovereign", "helium", "fleet", "influence"',
                           '"helium", "helium", "sovereign", "helium", "fleet", "fleet"')
    assert got.die_faces == ("helium", "helium", "sovereign", "helium", "fleet", "fleet")
    text = (DATA_DIR / "tables.toml").read_text(encoding="utf-8")
    start = text.index("die_faces =")
    path = tmp_path / "no_die.toml"
    path.write_text(text[:start] + text[text.index("\n", start) + 1:], encoding="utf-8")
    assert load_content(Config(tables_file=str(path))).die_faces == DIE_BONUSES


# ---- custom files and the hash -----------------------------------------------------------------

def test_custom_files_relative_to_cwd_and_hash(tmp_path, monkeypatch, content):
    """A config may point at its own files; relative paths are read from the current directory.
    The hash depends on the content, not on where the files are."""
    copy_content(rr_content, tmp_path)
    monkeypatch.chdir(tmp_path)
    config = Config(deck_file="deck.toml", tables_file="tables.toml", automa_deck_file="automa_deck.csv")
    mine = load_content(config)
    assert mine.sources["deck"] == str(tmp_path / "deck.toml")
    assert content.sources["deck"] == str(DATA_DIR / "deck.toml")
    digest = content_hash(mine)
    assert len(digest) == 16 and int(digest, 16) >= 0
    assert digest == content_hash(content)
    assert content_hash(load_content(Config(ceres_banish="top"))) != digest
    text = (tmp_path / "deck.toml").read_text().replace("core = 40", "core = 39")
    (tmp_path / "deck.toml").write_text(text)
    assert content_hash(load_content(config)) != digest


def test_missing_file_names_the_config_key(tmp_path):
    message = one_line_error(load_content, Config(deck_file=str(tmp_path / "nope.toml")), source="exp.toml")
    assert message.startswith("exp.toml: deck_file: ") and "nope.toml" in message and "deck.toml" in message


def test_config_houses_must_exist(tmp_path):
    with pytest.raises(InputError, match=r"exp\.toml: houses\[1\]: unknown house 'Vulcan'"):
        load_content(Config(players=2, houses=("Mars", "Vulcan")), source="exp.toml")


# ---- bad input: the deck -------------------------------------------------------------------------

MINI_DECK = """\
[meta]
name = "mini"
colours = ["Red", "Green", "Gold"]

[[card]]
id = "X1"
name = "Card One"
colour = "Red"
core = 5
  [[card.deploy]]
  op = "gain"
  resource = "helium"
  amount = 1
  [[card.end_bonus]]
  kind = "for_each"
  filter = { colour = ["Green"] }
  points = 2

[[card]]
id = "X2"
name = "Card Two"
colour = "Green"
core = 3
"""


def load_deck_text(tmp_path, text):
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    return load_content(Config(deck_file=str(path)))


def bad_card(body):
    return MINI_DECK + '\n[[card]]\nid = "BAD"\nname = "Bad"\ncolour = "Gold"\ncore = 1\n' + body


def test_mini_deck_loads(tmp_path):
    content = load_deck_text(tmp_path, MINI_DECK)
    assert [c.id for c in content.cards] == ["X1", "X2"] and content.synthetic is False
    assert content.deck_name == "mini"


@pytest.mark.parametrize("body, place, expected", [
    # unknown keys, with a did-you-mean hint
    ('colr = "Red"\n', "card BAD: colr", "did you mean 'colour'"),
    ('[[card.deploy]]\nop = "gain"\nresource = "helium"\namout = 2\n', "card BAD: deploy[0].amout",
     "did you mean 'amount'"),
    ('[[card.deploy]]\nop = "gain_card"\nfilter = { color = ["Red"] }\n',
     "card BAD: deploy[0].filter.color", "did you mean 'colour'"),
    ('[[card.end_bonus]]\nkind = "for_each"\npoints = 1\nfiltr = {}\n', "card BAD: end_bonus[0].filtr",
     "did you mean 'filter'"),
    # wrong types and values
    ('optional = "yes"\n', "card BAD: optional", "unknown key"),
    ('solo_removed = "yes"\n', "card BAD: solo_removed", "expected true or false"),
    ('[[card.deploy]]\nop = "roll_die"\ntimes = "two"\n', "card BAD: deploy[0].times", "expected an integer"),
    ('[[card.deploy]]\nop = "banish_hand"\ncount = 0\n', "card BAD: deploy[0].count", "expected an integer >= 1"),
    ('[[card.deploy]]\nop = "roll_die"\noptional = 1\n', "card BAD: deploy[0].optional",
     "expected true or false"),
    # unknown ops, kinds, resources, selectors, targets, actions, selections, conds
    ('[[card.deploy]]\nop = "gian"\n', "card BAD: deploy[0].op", "unknown op 'gian'; did you mean 'gain'"),
    ('[[card.deploy]]\nop = "gain"\nresource = "gold"\n', "card BAD: deploy[0].resource",
     "unknown resource 'gold'"),
    ('[[card.deploy]]\nop = "lose"\nresource = "sovereign"\n', "card BAD: deploy[0].resource",
     "unknown resource 'sovereign'"),
    ('[[card.deploy]]\nop = "banish_location"\nwhere = "Venus"\n', "card BAD: deploy[0].where",
     "unknown location selector 'Venus'"),
    ('[[card.deploy]]\nop = "move"\nfrom = "deck"\n', "card BAD: deploy[0].from", "unknown location selector 'deck'"),
    ('[[card.deploy]]\nop = "opponent"\naction = "steel"\n', "card BAD: deploy[0].action",
     "did you mean 'steal'"),
    ('[[card.deploy]]\nop = "opponent"\naction = "steal"\ntarget = "all"\n', "card BAD: deploy[0].target",
     "unknown target 'all'"),
    ('[[card.deploy]]\nop = "opponent"\naction = "steal"\nselection = "owner"\n',
     "card BAD: deploy[0].selection", "unknown selection 'owner'"),
    ('[[card.deploy]]\nop = "opponent"\naction = "lose"\n', "card BAD: deploy[0]",
     "missing required key 'resource'"),
    ('[[card.deploy]]\nop = "opponent"\naction = "steal"\nresource = "helium"\n',
     "card BAD: deploy[0].resource", "only with action 'lose' or 'gain_free'"),
    ('[[card.deploy]]\nop = "if"\ncond = { hand_hass = {} }\n', "card BAD: deploy[0].cond.hand_hass",
     "did you mean 'hand_has'"),
    ('[[card.deploy]]\nop = "if"\ncond = { hand_has = {}, prev_done = true }\n', "card BAD: deploy[0].cond",
     "exactly one key"),
    ('[[card.deploy]]\nop = "if"\ncond = { prev_done = false }\n', "card BAD: deploy[0].cond.prev_done",
     "expected prev_done = true"),
    ('[[card.deploy]]\nop = "if"\ncond = { resource_at_least = { amount = 2 } }\n',
     "card BAD: deploy[0].cond.resource_at_least", "missing required key 'resource'"),
    ('[[card.deploy]]\nop = "if"\n', "card BAD: deploy[0]", "missing required key 'cond'"),
    ('[[card.deploy]]\nresource = "helium"\n', "card BAD: deploy[0]", "missing required key 'op'"),
    ('[[card.end_bonus]]\nkind = "for_eech"\npoints = 1\n', "card BAD: end_bonus[0].kind",
     "did you mean 'for_each'"),
    ('[[card.end_bonus]]\nkind = "hand_compare"\npoints = 1\n', "card BAD: end_bonus[0]",
     "missing required key 'compare'"),
    ('[[card.end_bonus]]\nkind = "if_with"\npoints = 1\nfilter = { name = ["Card Three"] }\n',
     "card BAD: end_bonus[0].filter.name[0]", "no card is named 'Card Three'"),
    ('[[card.end_bonus]]\nkind = "if_with"\npoints = 1\nfilter = { colour = ["Gren"] }\n',
     "card BAD: end_bonus[0].filter.colour[0]", "did you mean 'Green'"),
    ('[[card.end_bonus]]\nkind = "if_with"\npoints = 1\nfilter = { core_min = 5, core_max = 2 }\n',
     "card BAD: end_bonus[0].filter.core_min", "above core_max"),
    ('block = { against = ["steel"] }\n', "card BAD: block.against[0]", "did you mean 'steal'"),
    # bad nesting
    ('[[card.deploy]]\nop = "gain"\nresource = "helium"\n[[card.deploy.then]]\nop = "roll_die"\n',
     "card BAD: deploy[0].then", "'then' is not allowed in a 'gain' op"),
    ('[[card.deploy]]\nop = "opponent"\naction = "steal"\n[[card.deploy.else]]\nop = "roll_die"\n',
     "card BAD: deploy[0].else", "'else' is not allowed in a 'opponent' op"),
    ('[[card.deploy]]\nop = "if"\ncond = { seen_has = {} }\n', "card BAD: deploy[0].cond.seen_has",
     "only inside the 'then' of"),
    ('[[card.deploy]]\nop = "reveal_own"\n[[card.deploy.then]]\nop = "if"\ncond = { prev_done = true }\n'
     '[[card.deploy.then.then]]\nop = "gian"\n', "card BAD: deploy[0].then[0].then[0].op", "unknown op"),
    ('[[card.deploy]]\nop = "move"\nfilter = { colour = ["Red"] }\n', "card BAD: deploy[0].filter",
     "only with which = 'filter'"),
])
def test_bad_card_is_rejected_with_file_card_and_field_RR_A2(tmp_path, body, place, expected):
    """RR-A2: every problem in a card names the file, the card id, the field and what was expected."""
    message = one_line_error(load_deck_text, tmp_path, bad_card(body))
    assert message.startswith(f"{tmp_path / 'deck.toml'}: {place}: "), message
    assert expected in message, message


@pytest.mark.parametrize("old, new, place, expected", [
    ('core = 5', 'core = -1', "card X1: core", "expected an integer >= 0"),
    ('core = 5', 'core = "5"', "card X1: core", "expected an integer"),
    ('colour = "Red"', 'colour = "Gren"', "card X1: colour", "unknown colour 'Gren'; did you mean 'Green'"),
    ('core = 5\n', '', "card X1", "missing required key 'core'"),
    ('id = "X2"', 'id = "X1"', "card X1: id", "duplicate id (also card #1"),
    ('name = "mini"', 'nam = "mini"', "meta.nam", "did you mean 'name'"),
    ('colours = ["Red", "Green", "Gold"]', 'colours = ["Red", "Red"]', "meta.colours", "distinct"),
    ('colours = ["Red", "Green", "Gold"]', '', "meta", "missing required key 'colours'"),
    ('[meta]', '[metas]', "metas", "did you mean 'meta'"),
])
def test_bad_deck_fields_RR_A2(tmp_path, old, new, place, expected):
    """RR-A2: card and meta fields: types, negative core, unknown colours, duplicate ids, unknown keys."""
    message = one_line_error(load_deck_text, tmp_path, MINI_DECK.replace(old, new, 1))
    assert message.startswith(f"{tmp_path / 'deck.toml'}: {place}: "), message
    assert expected in message, message


def test_invalid_toml_names_the_file(tmp_path):
    with pytest.raises(InputError, match=r"deck\.toml: not valid TOML"):
        load_deck_text(tmp_path, MINI_DECK + "\n[[card]\n")


# ---- bad input: tables and the Au Toma deck ----------------------------------------------------------

def load_tables_text(tmp_path, old, new):
    path = shutil.copy(DATA_DIR / "tables.toml", tmp_path / "tables.toml")
    edit(path, old, new)
    return load_content(Config(tables_file=str(path)))


@pytest.mark.parametrize("old, new, place, expected", [
    ("0, 1, 3, 6, 10", "0, 1, 3, 2, 10", "fleet_points[3]", "non-decreasing"),
    ("0, 1, 3, 6, 10", "0, 1, 3, true, 10", "fleet_points[3]", "expected an integer"),
    ('4 = { matching = 7, non_matching = 3, start_points = 70 }\n', "", "automa_levels", "missing level 4"),
    ('6 = { matching', '7 = { matching', "automa_levels.7", "expected levels 1..6"),
    ('non_matching = 3, start_points = 70 }', 'non_match = 3, start_points = 70 }', "automa_levels.3.non_match",
     "did you mean 'non_matching'"),
    ("automa_max = 10", "automa_maxx = 10", "automa_maxx", "did you mean 'automa_max'"),
    ('on_sovereign = [ { op = "gain", resource = "influence"', 'on_sovreign = [ { op = "gain", resource = "influence"',
     "house Diana: on_sovreign", "did you mean 'on_sovereign'"),
    ('resource = "helium", amount = 1 }', 'resource = "heluim", amount = 1 }', "house Mars: on_sovereign[0].resource",
     "did you mean 'helium'"),
    ('sovereign_face = "rechoose"', 'sovereign_face = "reroll"', "house Minerva: on_sovereign[0].sovereign_face",
     "unknown sovereign face 'reroll'"),
    ('start_extra_cards = 1', 'start_extra_cards = -1', "house Ceres: start_extra_cards", ">= 0"),
    ('name = "Jupiter"', 'name = "Diana"', "house Diana: name", "duplicate house name"),
    ('"sovereign", "helium", "fleet", "influence"]', '"sovereign", "helium", "fleet", "cube"]', "die_faces[5]",
     "unknown die bonus 'cube'; expected one of: banish, place, sovereign, helium, fleet, influence"),
    ('die_faces = ["banish", "place"', 'die_faces = [4, "place"', "die_faces[0]",
     "expected one of: banish, place, sovereign, helium, fleet, influence"),
    ('"fleet", "influence"]', '"fleet"]', "die_faces", "expected exactly 6 faces (RR-R22), got 5"),
    ('"fleet", "influence"]', '"fleet", "influence", "helium"]', "die_faces", "expected exactly 6 faces"),
    ('die_faces = ["banish", "place", "sovereign", "helium", "fleet", "influence"]', 'die_faces = "banish"',
     "die_faces", "expected an array of 6 die bonus names"),
])
def test_bad_tables_RR_A6_RR_A9_RR_A38(tmp_path, old, new, place, expected):
    """RR-A6 fleet table non-decreasing, RR-A9 levels 1..6, RR-A38 houses with the op vocabulary,
    RR-R22 six die faces from the bonus vocabulary."""
    message = one_line_error(load_tables_text, tmp_path, old, new)
    assert message.startswith(f"{tmp_path / 'tables.toml'}: {place}: "), message
    assert expected in message, message


def load_automa_text(tmp_path, text):
    path = tmp_path / "automa_deck.csv"
    path.write_text(text, encoding="utf-8")
    return load_content(Config(automa_deck_file=str(path)))


def default_automa_lines():
    return (DATA_DIR / "automa_deck.csv").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("line, replacement, place, expected", [
    (0, "id,deploy,gain,bonus,arrow", "line 1", "expected the columns id,deploy,gain,extra,arrow"),
    (4, "AT04,X,A,none,ccw", "line 5, column deploy", "unknown deploy 'X'"),
    (5, "AT05,C,A,starr,cw", "line 6, column extra", "did you mean 'star'"),
    (6, "AT06,A,D,none,up", "line 7, column arrow", "unknown arrow 'up'"),
    (7, "AT07,B,B,star", "line 8", "expected 5 values"),
    (8, "AT01,M,A,cross,ccw", "line 9, column id", "duplicate id 'AT01'"),
])
def test_bad_automa_deck_names_the_line_RR_A8(tmp_path, line, replacement, place, expected):
    """RR-A8: wrong columns or values name the line (and column)."""
    lines = default_automa_lines()
    lines[line] = replacement
    message = one_line_error(load_automa_text, tmp_path, "\n".join(lines) + "\n")
    assert message.startswith(f"{tmp_path / 'automa_deck.csv'}: {place}: "), message
    assert expected in message, message


def test_automa_deck_needs_22_cards_RR_A8(tmp_path):
    lines = default_automa_lines()[:-1]
    with pytest.raises(InputError, match=r"automa_deck\.csv: expected 22 Au Toma cards \(RR-A8\), got 21"):
        load_automa_text(tmp_path, "\n".join(lines) + "\n")
