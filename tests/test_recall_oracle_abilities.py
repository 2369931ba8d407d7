"""Recall oracle: the 14 tribes and the rare items (spec 3.21, 3.22) in hand-made positions."""
from __future__ import annotations

from sim.games.recall.content_types import CAMP, GRAIN, VOLCANO, WATER
from tests.oracle_recall import SAN, WKS
from tests.test_recall_oracle_rules import CT, fld, item, kind, oracle, opt, plain_slot, run, tribe, until


def use(o, p, name):
    """Activate ability ``name`` of p as a free action (stones paid, count raised)."""
    return o.free_action(p, o.A_USE + o.abil_index[name])


def grain_slot(o, k=2):
    plain_slot(o, k, GRAIN)
    for q in range(o.n):
        o.fol[q] = [0] * o.NF
    return 7 * k


def test_aynir_exchanges_and_two_for_one():
    """RC-R205, RC-R206 (upgrade tiles kept when moving back), RC-R207, RC-A44."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Aynir")
    c = grain_slot(o)
    o.fol[p][c] = 2
    o.score[p] = 5
    o.sym_got[p] = {0}
    o.upg[p][0] = 0
    o.cr[p] = [0, 0, 0]
    # follower -> white, point -> white, then stop
    o.drive(o.ab_aynir(p), [opt(o, 0), opt(o, 5), o.A_END])
    assert o.fol[p][c] == 1 and o.cr[p] == [2, 0, 0] and o.score[p] == 4 and o.upg[p][0] == 0
    o.crystal_cap(p)
    assert o.ratio(p) == 2 and o.can_pay(p, (0, 1, 0))


def test_colteron_volcano_move_and_permanent():
    """RC-R208, RC-R209, RC-A45: any other face-up volcano, 1 white crystal; volcanoes enterable."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Colteron")
    c = grain_slot(o)
    o.terr[c + 1] = o.terr[c + 4] = VOLCANO
    o.fol[p][c + 1] = 3
    o.drive(o.ab_colteron(p), [fld(o, c + 1), o.A_COUNT + 1])   # only one other volcano: automatic
    assert o.fol[p][c + 4] == 2 and o.fol[p][c + 1] == 1 and o.cr[p][0] == 4
    assert o.enterable(p, c + 1) and not o.enterable(1, c + 1)


def test_dorian_pig_farm_pigs_pay_and_move_and_score():
    """RC-R210, RC-R211, RC-R212, RC-R213, RC-R214, RC-R215, RC-E44, RC-A36, RC-A46, RC-A57, RC-A72: pigs pay first, move along, 2 per farm."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Dorian")
    c = grain_slot(o)
    o.pigpic[c] = 3
    o.fol[p][c] = 1
    o.drive(o.ab_dorian(p), [])                                 # the only grain field where p is present
    assert o.farm[c] and o.pigs[c] == 3 and o.pigs_left == CT.setup.pigs - 3
    o.art[c + 1] = 0                                           # cost 1: a pig pays it
    o.drive(o.movement(p, 1), [fld(o, c), fld(o, c + 1), opt(o, 2)])   # 1 follower, 2 pigs along
    assert o.fol[p][c + 1] == 1 and o.pigs[c + 1] == 1 and o.pigs[c] == 1 and o.arts[p][0] == 1
    o.fol[p][c] = 1
    o.final_scoring()
    assert o.parts["score_pigs"][p] == 2
    o.tribe[1] = tribe("Dorian")                                # RC-R215: every holder scores farms where present
    o.fol[1][c] = 1
    o.final_scoring()
    assert o.parts["score_pigs"][1] == 2


def test_enterin_island_rewards_and_terrain():
    """RC-R216, RC-R217, RC-R218, RC-R219, RC-A50: an island on a free field next to p; rewards per neighbouring building field."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Enterin")
    c = grain_slot(o)
    o.fol[p][c] = 1
    w = c + 1
    o.terr[w] = WATER
    o.bld[1][c + 2] = WKS                                       # neighbours of ring d0: c, c+2, c+6, outside
    o.bld[2][c + 6] = SAN
    o.start_field[p] = c
    o.drive(o.ab_enterin(p), [fld(o, w)])
    assert o.island[w] and o.is_water(w) and o.enterable(1, w) and o.building_of(w) == WKS
    assert o.cr[p][0] == 4 and o.fol[p][w] == 1


def test_goliath_bonus_token_twice():
    """RC-R220, RC-R65: when a bonus token's reward is gained, once more (once per event)."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Goliath")
    o.light[0] = [t.id for t in CT.light_tokens].index("L5")   # VP:2
    o.trk[p][0] = 3
    o.sym_got[p] = set(range(6))                                # no upgrade tile in the way
    asked, _ = o.drive(o.step_track(p, 0, 1), [o.A_USE + o.abil_index["goliath"]])
    assert o.score[p] == 4 and len(asked) == 1


def test_hayla_jump_and_scatter():
    """RC-R221, RC-R222, RC-R223, RC-A47: over one field (here water) to the field behind; or scatter."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Hayla")
    c = grain_slot(o)
    o.terr[c] = WATER
    x = c + 1                                                    # ring d0 at centre + d0
    o.fol[p][x] = 2
    z = c + 4                                                    # centre + d3: x + 2 * d3
    o.drive(o.ab_hayla(p), [opt(o, 0), fld(o, z), o.A_COUNT + 1])   # source x: the only one
    assert o.fol[p][z] == 2 and o.fol[p][x] == 0
    o2 = oracle()
    o2.tribe[0] = tribe("Hayla")
    c = grain_slot(o2)
    o2.fol[0][c] = 2
    kinds = run(o2, o2.ab_hayla(0), [opt(o2, 1)])                # scatter the only field
    assert o2.fol[0][c] == 0 and sum(o2.fol[0]) == 2 and kinds.count("ability_field") == 2


def test_ion_takes_back_a_card():
    """RC-R224, RC-R198, RC-A41: a used card back, available, its slot free."""
    o = oracle()
    o.slots[0][3] = kind("Y1")
    o.drive(o.run_ability(0, o.abil_index["ion"]), [])
    assert o.slots[0][3] == -1 and o.avail[0][kind("Y1")] == 1


def test_jhe_card_effects_twice_not_the_field():
    """RC-R225: when a key card is used, its effects once more."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("J'He")
    o.active = p
    o.avail[p][kind("Y3")] = 1
    gen = o.play_card(p, kind("Y3"), 0)
    d = next(gen)
    assert d[1] == "event"
    d = gen.send(o.A_USE + o.abil_index["jhe"])
    ops = [(i[0].op, src) for i, src in o.turn["pending"]]
    assert ops.count(("CRYSTAL", "card")) == 2 and ops.count(("F", 0)) == 1


def test_k01_sanctuary_reward_twice_and_artifact_reward_twice():
    """RC-R226, RC-R227: the sanctuary reward again; with the artifact reward, one artifact, its reward twice."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("K-01")
    o.stones[p] = [2, 0, 0, 1]                                   # costs 1, then 2
    c = grain_slot(o)
    o.terr[c] = 5
    o.fol[p][c] = 2
    o.cr[p] = [0, 0, 0]
    o.sym_got[p] = set(range(6))
    o.drive(o.development(p), [opt(o, 0), opt(o, 4), o.A_USE + o.abil_index["k01"]])   # sanctuary 5: VP:3
    assert o.score[p] == 6
    o.terr[c + 1] = 5
    o.fol[p][c + 1] = 1
    o.drive(o.development(p), [opt(o, 0), opt(o, 5), opt(o, 0), o.A_USE + o.abil_index["k01"]])   # one field only
    assert o.arts[p][0] == 1 and o.trk[p][0] == 2                # white column 1: K:white:1, twice


def test_lentefee_pays_white_to_upgrade_a_card():
    """RC-R228: pay 1 white crystal, upgrade one key card a level."""
    o = oracle()
    o.tribe[0] = tribe("Lentefee")
    o.avail[0] = [0] * o.K
    o.avail[0][kind("W0")] = 1
    o.drive(o.run_ability(0, o.abil_index["lentefee"]), [opt(o, 2)])
    assert o.cr[0][0] == 2 and o.avail[0][kind("Y3")] == 1 and o.avail[0][kind("W0")] == 0


def test_lexander_and_zendeling_and_noorderling_effects():
    """RC-R229 (upgrade a crystal), RC-R240 (a development action), RC-R232 (one move of one group)."""
    o = oracle()
    o.drive(o.run_ability(0, o.abil_index["lexander"]), [opt(o, 0)])
    assert o.cr[0] == [2, 1, 0]
    c = grain_slot(o)
    o.fol[0][c] = 2
    o.drive(o.run_ability(0, o.abil_index["zendeling"]), [opt(o, 1), opt(o, 0)])
    assert o.ws[0][0] == 1
    o.drive(o.run_ability(0, o.abil_index["noorderling"]), [fld(o, c), fld(o, c + 1)])
    assert o.fol[0][c + 1] == 1 and o.fol[0][c] == 0


def test_noorderling_ring_on_a_camp():
    """RC-R233, RC-R234, RC-A31: give up a follower on a camp for a random ring's reward; one ring per camp."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Noorderling")
    c = grain_slot(o)
    o.terr[c], o.camp[c] = CAMP, 0
    o.fol[p][c] = 2
    o.active = p
    assert o.A_RING in o.free_actions(p)
    run(o, o.free_action(p, o.A_RING))
    assert o.ring[c] and len(o.ring_left) == len(CT.rings) - 1
    assert o.A_RING not in o.free_actions(p)


def test_vinder_raft_and_its_trigger():
    """RC-R235, RC-R236, RC-R237, RC-R238, RC-R239, RC-A49: raft on free water, 3 followers off the board; a removal next to it."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Vinder")
    c = grain_slot(o)
    w = c + 1
    o.terr[w] = WATER
    o.fol[1][c] = 2
    o.drive(o.ab_vinder(p), [fld(o, w)])
    assert o.raft[p] == w and o.raft_fol[p] == 3 and not o.present_field(p, w)
    o.remove_followers(1, c, 2)                                  # one removal event: one follower
    assert o.fol[p][c] == 1 and o.raft_fol[p] == 2
    o.raft_fol[p] = 1
    o.remove_followers(p, c, 1)
    assert o.raft[p] == -1 and o.fol[p][c] == 1                  # the raft empties and leaves


def test_alambiek_portaal_multitool():
    """RC-R241, RC-R248, RC-R247: remove a follower for a red; a follower to another's building; four parts."""
    o = oracle()
    p = 0
    c = grain_slot(o)
    o.fol[p][c] = 1
    o.items[p] = [item("Alambiek"), item("Portaal"), item("Multitool")]
    o.drive(o.ab_alambiek(p), [])
    assert o.fol[p][c] == 0 and o.cr[p][1] == 1
    o.bld[1][c + 3] = WKS
    o.drive(o.ab_portaal(p), [])
    assert o.fol[p][c + 3] == 1
    parts = [o.abil[j][0] for j in o.owned_abilities(p) if o.abil[j][1] == "part"]
    assert parts == ["Multitool.Pouch", "Multitool.Horn", "Multitool.Boots", "Multitool.Lens"]
    o.active = p
    o.stones[p] = [2, 0, 0, 1]
    j1, j2 = o.abil_index["multitool.pouch"], o.abil_index["multitool.horn"]
    o.drive(o.free_action(p, o.A_USE + j1), [])
    assert o.cost(p, j1) == 2 and o.cost(p, j2) == 1             # separate counts


def test_booster_decoder_gpr_vertolker_events():
    """RC-R242, RC-R243, RC-R246, RC-R251, RC-A33 (hexagon: cost 1)."""
    o = oracle(event_abilities="auto")
    p = 0
    o.items[p] = [item("Booster"), item("Decoder"), item("GPR"), item("Vertolker")]
    o.stones[p] = [3, 0, 0, 1]
    c = grain_slot(o)
    o.terr[c] = 5
    o.terr[c + 1], o.camp[c + 1] = CAMP, 4                      # c5: K:any:1 + F:2
    o.fol[p][c] = 1
    o.start_field[p] = c
    o.cr[p] = [0, 0, 0]
    run(o, o.development(p), [opt(o, 0), opt(o, 4)])             # VP:3 sanctuary; Decoder; camp; Vertolker
    assert sum(o.trk[p]) == 3 and o.placed[p] == 2               # Decoder 1 + camp 1 + Vertolker 1
    x = o.field_names.index("L.0")
    o.site[x] = [1, 1, 1]
    o.fol[p][x] = 1
    o.cr[p] = [1, 0, 0]
    before = o.trk[p][1]
    run(o, o.excavate(p, x))
    assert o.trk[p][1] == before + 3 and o.placed[p] == 3        # 2 steps + GPR
    run(o, o.receive_artifact(p, 3))
    assert o.cr[p][1] == 1 and o.placed[p] == 4                  # Booster


def test_schokbron_doubles_productions_each_field_once():
    """RC-R249, RC-R250: once per production field in a recall, escalating cost."""
    o = oracle(event_abilities="auto")
    p = 0
    o.items[p] = [item("Schokbron")]
    o.stones[p] = [2, 0, 0, 1]
    o.slots[p][0] = o.slots[p][1] = kind("W0")
    o.active = p
    o.placed[p] = 0
    run(o, o.recall(p), [opt(o, 0), opt(o, 2)])                  # W:2 twice (cost 1), R:1 twice (cost 2)
    assert o.cr[p] == [7, 2, 0]


def test_free_activation_non_event_without_stones():
    """RC-R200, RC-A43: a non-event ability, no stone, no count."""
    o = oracle()
    p = 0
    o.items[p] = [item("Pouch"), item("Booster")]
    d = until(o, o.free_activation(p))
    names = [o.name(a) for a in d[2]]
    assert "use:Pouch" in names and "use:Booster" not in names and "end" in names
    run(o, o.free_activation(p), [o.A_USE + o.abil_index["pouch"]])
    assert o.cr[p][0] == 4 and o.placed[p] == 0 and o.uses[p] == {}
