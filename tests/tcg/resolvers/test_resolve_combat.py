"""Combat resolver: Equinox Update, "Combat" (every step), "Frenzy", "Kailindo", "Insight", "Sustained Rage"."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkit.errors import DataFileError, RuleRefusal
from stkit.tcg.resolvers.combat import load_combat, parse_combat, resolve_combat

FIXTURES = Path(__file__).parent / "resolver_fixtures"

CARDS = {
    "Claw": {"kind": "attack", "damage": 3, "rage": 1},
    "Big Claw": {"kind": "attack", "damage": 5, "rage": 3},
    "Bite": {"kind": "attack", "damage": 2, "rage": 0},
    "Dodge": {"kind": "defense", "block": 2, "rage": 1},
    "Duck": {"kind": "defense", "block": 1, "rage": 0},
    "Jab": {"kind": "flex", "damage": 2, "block": 3, "rage": 0},
    "Riposte": {"kind": "counterattack", "damage": 3, "block": 2, "rage": 1},
}


def garou(name, player, **extra):
    base = {"name": name, "player": player, "rage": 3, "health": 3, "crinos": {"rage": 5, "health": 6}}
    base.update(extra)
    return base


def enemy(name="Fomor", **extra):
    base = {"name": name, "player": "Bob", "type": "Enemy", "keywords": ["Wyrm"], "rage": 4, "health": 5}
    base.update(extra)
    return base


def fight(rounds, hunter=None, prey=None, cards=None, **top):
    data = {
        "hunter": hunter or garou("Janus", "Ann"),
        "prey": prey or enemy(),
        "cards": {**CARDS, **(cards or {})},
        "rounds": rounds,
        **top,
    }
    return resolve_combat(parse_combat(data))


def state(r, n, role):
    return r["rounds"][n - 1]["state"][role]


def test_janus_fixture_file_frenzies_and_draws_two():
    r = resolve_combat(load_combat(FIXTURES / "janus_frenzy.yaml"))
    one = r["rounds"][0]
    assert one["state"]["hunter"]["wounds"] == 3  # Rifle Burst's Damage 3 against an attack's Block 0
    assert one["state"]["prey"]["wounds"] == 2  # the counterattack's printed Block 1 is not used
    assert one["state"]["hunter"]["hand"] == 4 + 2  # played one, frenzy drew two
    assert "frenzy.frenzy-trait" in r.rules and "conflicts.counterattack-block" in r.rules
    assert r["ended"] and r["end_reason"].startswith("both players passed")
    assert len(r["rounds"]) == 4 and r["deaths"] == [] and r["winner"] is None


def test_initiative_alternates_from_the_hunter():
    r = fight([{"hunter": "Bite", "prey": "Duck"}, {"prey": "Bite", "hunter": "Duck"}, {"hunter": "Bite"}])
    assert [x["initiative"] for x in r["rounds"]] == ["hunter", "prey", "hunter"]


def test_card_can_give_prey_first_initiative():
    r = fight([{"prey": "Bite"}], initiative="prey")
    assert r["rounds"][0]["initiative"] == "prey"
    assert state(r, 1, "hunter")["wounds"] == 2


def test_damage_above_block_becomes_wounds():
    r = fight([{"hunter": "Claw", "prey": "Dodge"}])
    assert state(r, 1, "prey")["wounds"] == 1
    r = fight([{"hunter": "Bite", "prey": "Dodge"}])
    assert state(r, 1, "prey")["wounds"] == 0  # equal Damage and Block: nothing


def test_no_defense_card_is_block_zero():
    r = fight([{"hunter": "Claw"}])
    assert state(r, 1, "prey")["wounds"] == 3
    assert "combat.defense-pick" in r.rules


def test_rage_is_paid_on_reveal():
    r = fight([{"hunter": "Claw", "prey": "Dodge"}])
    assert state(r, 1, "hunter")["rage_spent"] == 1 and state(r, 1, "hunter")["rage_available"] == 2
    assert state(r, 1, "prey")["rage_available"] == 3


def test_too_expensive_card_is_zero_but_takes_all_rage():
    # Equinox "Reveal Combat Cards": with 1 Rage left a card costing 2 or more is out of reach; here a Rage 3 card.
    hunter = garou("Janus", "Ann", rage=1)
    r = fight([{"hunter": "Big Claw"}], hunter=hunter)
    card = r["rounds"][0]["cards"]["hunter"]
    assert card["eligible"] is False and card["rage_paid"] == 1
    assert state(r, 1, "prey")["wounds"] == 0
    assert state(r, 1, "hunter")["rage_available"] == 0
    assert "combat.ineligible-card" in r.rules


def test_with_no_rage_only_cost_zero_cards_work():
    hunter = garou("Janus", "Ann", rage=0)
    r = fight([{"hunter": "Claw"}, {"prey": None}, {"hunter": "Bite"}], hunter=hunter)
    assert r["rounds"][0]["cards"]["hunter"]["eligible"] is False
    assert r["rounds"][2]["cards"]["hunter"]["eligible"] is True
    assert state(r, 3, "prey")["wounds"] == 2


def test_sustained_rage_plays_at_zero_rage():
    # Sustained Rage 2 with 0 Rage left can still use cards of Rage 2 or less.
    hunter = garou("Janus", "Ann", rage=1, sustained_rage=2)
    cards = {"Slash": {"kind": "attack", "damage": 2, "rage": 2}}
    r = fight([{"hunter": "Slash"}, {"prey": None}, {"hunter": "Slash"}], hunter=hunter, cards=cards)
    assert [x["cards"].get("hunter", {}).get("rage_paid") for x in r["rounds"]] == [1, None, 0]
    assert state(r, 3, "prey")["wounds"] == 4
    assert "combat.sustained-rage" in r.rules


def test_flex_uses_damage_as_attack_and_block_as_defense():
    r = fight([{"hunter": "Jab", "prey": "Jab"}])
    assert state(r, 1, "prey")["wounds"] == 0  # Damage 2 against Block 3
    r = fight([{"hunter": "Claw", "prey": "Jab"}])
    assert state(r, 1, "prey")["wounds"] == 0 and state(r, 1, "hunter")["wounds"] == 0
    assert "combat.flex" in r.rules


def test_counterattack_hurts_both_and_does_not_block():
    r = fight([{"hunter": "Claw", "prey": "Riposte"}])
    assert state(r, 1, "prey")["wounds"] == 3 and state(r, 1, "hunter")["wounds"] == 3


def test_counterattack_cannot_be_an_attack():
    r = fight([{"hunter": "Riposte"}])
    assert r["rounds"][0]["cards"]["hunter"]["eligible"] is False
    assert state(r, 1, "prey")["wounds"] == 0 and state(r, 1, "hunter")["rage_spent"] == 1


def test_reaction_blocks_counter_damage():
    cards = {"Spiked Riposte": {"kind": "counterattack", "damage": 3, "rage": 0, "reactable": True}}
    r = fight([{"hunter": "Claw", "prey": "Spiked Riposte", "react": "Dodge"}], cards=cards)
    assert state(r, 1, "hunter")["wounds"] == 1  # 3 against the reaction's Block 2
    assert state(r, 1, "hunter")["rage_spent"] == 2 and state(r, 1, "hunter")["hand"] == 3
    assert "combat.react-to-damage" in r.rules


def test_reaction_cannot_be_a_counterattack():
    cards = {"Spiked Riposte": {"kind": "counterattack", "damage": 3, "rage": 0, "reactable": True}}
    r = fight([{"hunter": "Claw", "prey": "Spiked Riposte", "react": "Riposte"}], cards=cards)
    assert state(r, 1, "hunter")["wounds"] == 3
    assert r["rounds"][0]["cards"]["hunter_react"]["eligible"] is False


def test_reaction_needs_a_reactable_card():
    with pytest.raises(DataFileError, match="does not let Janus react"):
        fight([{"hunter": "Claw", "prey": "Riposte", "react": "Dodge"}])


def test_fast_counterattack_kills_before_a_normal_attack():
    prey = enemy(health=5)
    hunter = garou("Janus", "Ann", rage=5, health=3, crinos=None, wounds=2)  # a one-sided character
    del hunter["crinos"]
    cards = {"Quick Riposte": {"kind": "counterattack", "damage": 2, "rage": 0, "speed": "fast"}}
    r = fight([{"hunter": "Big Claw", "prey": "Quick Riposte"}], hunter=hunter, prey=prey, cards=cards)
    assert state(r, 1, "hunter")["dead"] is True
    assert state(r, 1, "prey")["wounds"] == 0  # Janus died before his attack landed
    assert "combat.fast-slow" in r.rules
    assert r["winner"] == "Fomor"


def test_slow_attack_strikes_after():
    hunter = {"name": "Kinfolk", "player": "Ann", "type": "Ally", "rage": 3, "health": 2}
    cards = {"Heavy Swing": {"kind": "attack", "damage": 6, "rage": 1, "speed": "slow"}}
    r = fight([{"hunter": "Heavy Swing", "prey": "Riposte"}], hunter=hunter, cards=cards)
    assert state(r, 1, "hunter")["dead"] and not state(r, 1, "prey")["dead"]


def test_same_speed_damage_is_simultaneous_both_die():
    hunter = {"name": "Kinfolk", "player": "Ann", "type": "Ally", "rage": 3, "health": 2}
    prey = enemy(health=3)
    r = fight([{"hunter": "Claw", "prey": "Riposte"}], hunter=hunter, prey=prey)
    assert state(r, 1, "hunter")["dead"] and state(r, 1, "prey")["dead"]
    assert r["winner"] is None and len(r["deaths"]) == 2


def test_speed_ignored_when_no_death_is_at_stake():
    cards = {"Quick Riposte": {"kind": "counterattack", "damage": 1, "rage": 0, "speed": "fast"}}
    r = fight([{"hunter": "Bite", "prey": "Quick Riposte"}], cards=cards)
    assert "combat.fast-slow" not in r.rules
    assert state(r, 1, "hunter")["wounds"] == 1 and state(r, 1, "prey")["wounds"] == 2


def test_flip_to_crinos_at_wounds_equal_to_breed_health():
    # Ruling conflicts.crinos-flip-threshold: wounds reaching the Breed Health flip the shapeshifter.
    r = fight([{"prey": "Claw"}], initiative="prey")
    s = state(r, 1, "hunter")
    assert s["wounds"] == 3 and s["form"] == "crinos" and not s["dead"]
    assert "conflicts.crinos-flip-threshold" in r.rules


def test_no_flip_below_breed_health():
    r = fight([{"prey": "Bite"}], initiative="prey")
    assert state(r, 1, "hunter")["form"] == "breed"


def test_rage_spent_in_breed_counts_against_crinos_rage():
    hunter = garou("Janus", "Ann", rage=3, crinos={"rage": 6, "health": 7})
    r = fight([{"hunter": "Big Claw"}, {"prey": "Claw"}], hunter=hunter, prey=enemy(health=10))
    assert state(r, 1, "hunter")["rage_available"] == 0
    s = state(r, 2, "hunter")
    assert s["form"] == "crinos" and s["rage_available"] == 3  # 6 Crinos Rage - 3 already spent


def test_shapeshifter_dies_at_crinos_health():
    hunter = garou("Janus", "Ann", wounds=5)  # Crinos Health 6
    r = fight([{"prey": "Bite"}], hunter=hunter, initiative="prey")
    assert state(r, 1, "hunter")["dead"]
    assert r["deaths"] == [
        {"name": "Janus", "role": "hunter", "killed_by": "Fomor", "to": "removed", "renown_scored": False}
    ]
    assert r["umbra_change"] == 1  # a non-Wyrm Garou died


def test_killed_wyrm_enemy_goes_to_victory_pile_and_lowers_umbra():
    prey = enemy(health=3)
    r = fight([{"hunter": "Claw"}], prey=prey)
    assert r["deaths"] == [
        {"name": "Fomor", "role": "prey", "killed_by": "Janus", "to": "victory_pile", "renown_scored": True}
    ]
    assert r["winner"] == "Janus" and r["umbra_change"] == -1
    assert any("Ann's Victory Pile" in line for line in r["log"])
    assert "combat.after-death" in r.rules


def test_frenzy_draws_by_base_crinos_health():
    hunter = garou("Janus", "Ann", crinos={"rage": 5, "health": 7}, health=4, frenzy=3)
    r = fight([{"prey": "Claw"}], hunter=hunter, initiative="prey")  # 3 wounds, trigger 3 for Health 7
    assert state(r, 1, "hunter")["hand"] == 5 + 3
    r = fight([{"prey": "Bite"}], hunter=hunter, initiative="prey")  # 2 wounds: below trigger
    assert state(r, 1, "hunter")["hand"] == 5


def test_hysterical_must_pass_next_round():
    hunter = garou("Janus", "Ann", frenzy=2, derangements=["Hysterical"])
    r = fight([{"prey": "Claw"}, {"hunter": "Claw", "prey": "Duck"}], hunter=hunter, initiative="prey")
    assert state(r, 1, "hunter")["hand"] == 5
    assert "hunter" not in r["rounds"][1]["cards"]  # forced pass: the Claw is not played
    assert state(r, 2, "prey")["wounds"] == 0
    assert "frenzy.hysterical" in r.rules


def test_melancholic_never_frenzies_in_combat():
    hunter = garou("Janus", "Ann", frenzy=2, derangements=["Melancholic"])
    r = fight([{"prey": "Claw"}], hunter=hunter, initiative="prey")
    assert state(r, 1, "hunter")["hand"] == 5 and "frenzy.melancholic" in r.rules


def test_kailindo_gains_the_difference_in_rage_costs():
    hunter = garou("Stargazer", "Ann", kailindo=True)
    r = fight([{"hunter": "Bite", "prey": "Dodge"}, {"prey": "Big Claw", "hunter": "Duck"}], hunter=hunter)
    assert state(r, 1, "hunter")["rage_gained"] == 1 and state(r, 1, "hunter")["rage_available"] == 4
    assert state(r, 2, "hunter")["rage_gained"] == 4
    assert "combat.kailindo" in r.rules


def test_timing_lowest_cost_first_ties_to_initiative():
    cards = {
        "Venom Bite": {"kind": "attack", "damage": 3, "rage": 2, "effect": "the Prey loses 1 Rage"},
        "Iron Hide": {"kind": "defense", "block": 1, "rage": 1, "effect": "never shown: it deals no damage"},
    }
    r = fight([{"hunter": "Venom Bite", "prey": "Iron Hide"}], cards=cards)
    log = r["rounds"][0]["log"]
    assert any("Timing order: Iron Hide then Venom Bite (lowest Rage cost first)" in line for line in log)
    assert any("Damage Effect of Venom Bite" in line for line in log)
    assert any("Iron Hide did no damage" in line for line in log)
    r = fight([{"hunter": "Bite", "prey": "Duck"}])
    assert any("same Rage cost: the initiative player's card first" in line for line in r["rounds"][0]["log"])


def test_damage_effect_ignored_without_damage():
    cards = {"Venom Bite": {"kind": "attack", "damage": 2, "rage": 0, "effect": "poison"}}
    r = fight([{"hunter": "Venom Bite", "prey": "Jab"}], cards=cards)
    assert any("did no damage, so its Damage Effect is ignored" in line for line in r["log"])


def test_combat_ends_when_both_pass_in_successive_rounds():
    r = fight(["pass", {"prey": "pass"}, {"hunter": "Bite"}])
    assert r["ended"] and len(r["rounds"]) == 2
    assert "conflicts.combat-end-on-passes" in r.rules
    assert any("come after the end of combat and are ignored" in line for line in r["log"])


def test_one_pass_only_ends_the_round():
    r = fight(["pass", {"prey": "Bite"}])
    assert not r["ended"] and state(r, 2, "hunter")["wounds"] == 2


def test_combat_ends_when_both_run_out_of_cards():
    rounds = [{"hunter": "Bite", "prey": "Duck"}, {"prey": "Bite", "hunter": "Duck"}] * 2 + [
        {"hunter": "Bite", "prey": "Duck"}
    ]
    r = fight(rounds, prey=enemy(health=10))
    assert r["ended"] and r["end_reason"] == "both sides ran out of Combat cards"
    assert state(r, 5, "hunter")["hand"] == 0


def test_playing_more_cards_than_held_is_an_error():
    rounds = [{"hunter": "Bite"}, "pass"] * 5 + [{"hunter": "Bite"}]
    with pytest.raises(DataFileError, match="round 11: Janus plays 'Bite' but holds only 0"):
        fight(rounds, prey=enemy(health=20))


def test_draw_entry_refills_the_hand():
    rounds = [{"hunter": "Bite", "prey": "Duck"}, {"prey": "Bite", "hunter": "Duck"}] * 2
    rounds += [{"hunter": "Bite", "prey": "Duck", "draw": {"hunter": 1}}, {"prey": "pass"}, {"hunter": "Bite"}]
    r = fight(rounds, prey=enemy(health=20))
    assert state(r, 5, "hunter")["hand"] == 1 and not r["rounds"][4]["ended"]
    assert len(r["rounds"]) == 7 and r["end_reason"] == "both sides ran out of Combat cards"


def test_insight_is_narrated():
    r = fight([{"hunter": "Bite"}], hunter=garou("Seer", "Ann", insight=2))
    assert any("draws 7 and discards back to 5" in line for line in r["log"])


def test_mortally_wounded_fights_on_then_dies():
    hunter = garou("Janus", "Ann", wounds=5, fights_on=True)
    r = fight([{"prey": "Bite"}, {"hunter": "Claw"}, {"prey": "pass"}, "pass"], hunter=hunter, initiative="prey")
    assert state(r, 1, "hunter")["mortally_wounded"] and not state(r, 1, "hunter")["dead"]
    assert state(r, 2, "prey")["wounds"] == 3
    assert r["ended"] and r["deaths"][0]["name"] == "Janus"


def test_unfinished_combat_is_reported():
    r = fight([{"hunter": "Bite"}])
    assert r["ended"] is False and r["winner"] is None


def test_one_player_cannot_control_both():
    with pytest.raises(RuleRefusal, match="both the Hunter and the Prey"):
        fight([], hunter=garou("A", "Ann"), prey=garou("B", "Ann"))


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda d: d["hunter"].update(health=-1), r"combat.hunter.health: -1 is out of range"),
        (lambda d: d["prey"].update(colour="red"), r"combat.prey: unknown field 'colour'"),
        (
            lambda d: d["rounds"].append({"hunter": "Flying Kick"}),
            r"rounds\[2\].hunter: card 'Flying Kick' is not described",
        ),
        (lambda d: d["cards"]["Bite"].update(kind="punch"), r"is not a Combat card kind"),
        (lambda d: d["hunter"].update(wounds=6), r"already kill Janus"),
        (lambda d: d["hunter"].pop("rage"), r"missing required field 'rage'"),
    ],
)
def test_bad_combat_descriptions(mutate, message):
    data = {
        "hunter": garou("Janus", "Ann"),
        "prey": enemy(),
        "cards": {k: dict(v) for k, v in CARDS.items()},
        "rounds": [{"hunter": "Bite"}],
    }
    mutate(data)
    with pytest.raises(DataFileError, match=message):
        resolve_combat(parse_combat(data))


def test_malformed_yaml_names_the_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("hunter:\n  name: Janus\n  rage: [3\n")
    with pytest.raises(DataFileError, match=r"bad.yaml: malformed YAML at line \d+"):
        load_combat(bad)


def test_missing_file():
    with pytest.raises(DataFileError, match="no such file"):
        load_combat("/nonexistent/combat.yaml")


def test_wounded_shapeshifter_starts_in_crinos():
    r = fight([{"hunter": "Bite"}], hunter=garou("Janus", "Ann", wounds=3))
    assert state(r, 1, "hunter")["form"] == "crinos"
    assert any("already has 3 wounds" in line for line in r["log"])


def test_metis_has_one_form():
    hunter = {"name": "Crooked", "player": "Ann", "metis": True, "rage": 4, "health": 4, "frenzy": 1}
    r = fight([{"prey": "Claw"}], hunter=hunter, initiative="prey")
    s = state(r, 1, "hunter")
    assert s["form"] == "crinos" and s["wounds"] == 3 and not s["dead"]
    assert s["hand"] == 6  # metis Health 4: Trigger Damage 2, Frenzy 1
    assert "combat.crinos-flip" not in r.rules


def test_damage_causing_defense_hurts_the_attacker():
    cards = {"Thorn Guard": {"kind": "defense", "block": 2, "damage": 1, "rage": 0}}
    r = fight([{"hunter": "Claw", "prey": "Thorn Guard"}], cards=cards)
    assert state(r, 1, "prey")["wounds"] == 1 and state(r, 1, "hunter")["wounds"] == 1


PLAYS = st.sampled_from([None, "Claw", "Big Claw", "Bite", "Dodge", "Duck", "Jab", "Riposte"])


@settings(max_examples=60, deadline=None)
@given(rounds=st.lists(st.fixed_dictionaries({"hunter": PLAYS, "prey": PLAYS}), max_size=8), rage=st.integers(0, 6))
def test_combat_invariants(rounds, rage):
    """Whatever is played: Rage never negative, wounds never shrink, nobody acts after combat ends."""
    try:
        r = fight(rounds, hunter=garou("Janus", "Ann", rage=rage, frenzy=1), prey=enemy(health=8, sustained_rage=1))
    except DataFileError as exc:  # only a side playing more cards than it holds
        assert "Combat card" in str(exc)
        return
    before = {"hunter": 0, "prey": 0}
    for rnd in r["rounds"]:
        for role, s in rnd["state"].items():
            assert s["rage_available"] >= 0 and s["wounds"] >= before[role]
            before[role] = s["wounds"]
    assert all(not x["ended"] for x in r["rounds"][:-1])
    assert r["ended"] == (bool(r["rounds"]) and r["rounds"][-1]["ended"])
