"""The rulings recorded in conflicts.yaml are what the resolvers apply, case by case at the boundary.

Each test reads the packaged conflict entry (so a reworded ruling that no longer says what the code does
fails here) and then runs the resolver right at the edge the ruling decides.
"""

import pytest

from stkit.tcg.resolvers.combat import parse_combat, resolve_combat
from stkit.tcg.resolvers.victory import parse_victory, resolve_victory
from stkit.tcg.rules import get_rule, load_rules

CARDS = {
    "Bite": {"kind": "attack", "damage": 2, "rage": 0},
    "Claw": {"kind": "attack", "damage": 3, "rage": 0},
    "Riposte": {"kind": "counterattack", "damage": 1, "block": 4, "rage": 0},
    "Parry": {"kind": "defense", "block": 3, "rage": 0},
}


def garou(**extra):
    # Breed side Health 3 and Rage 1; Crinos side Health 6
    return {"name": "Janus", "player": "Ann", "rage": 1, "health": 3, "crinos": {"rage": 5, "health": 6}, **extra}


def enemy(**extra):
    return {"name": "Fomor", "player": "Bob", "type": "Enemy", "rage": 4, "health": 5, **extra}


def fight(rounds, hunter=None, prey=None, **top):
    data = {"hunter": hunter or garou(), "prey": prey or enemy(), "cards": CARDS, "rounds": rounds, **top}
    return resolve_combat(parse_combat(data))


def ruling(rule_id):
    return get_rule(rule_id).conflict["ruling"]


def test_every_conflict_a_resolver_cites_is_a_conflict_entry():
    conflicts = {e.id for e in load_rules() if e.kind == "conflict"}
    cited = {
        "conflicts.crinos-flip-threshold",
        "conflicts.counterattack-block",
        "conflicts.combat-end-on-passes",
        "conflicts.victory-reach-or-exceed",
        "conflicts.renown-level-drop-phase",
        "conflicts.umbra-pass-spirits",
        "conflicts.battlefield-procedures",
    }
    assert cited <= conflicts


# --- conflicts.crinos-flip-threshold: flip (or die) at wounds EQUAL to or above Health -----------------------


def test_crinos_flip_ruling_says_equal_or_greater():
    assert "equal to or greater" in ruling("conflicts.crinos-flip-threshold")
    assert "misprint" in ruling("conflicts.crinos-flip-threshold")  # the "or its printed Rage" clause


@pytest.mark.parametrize("card, wounds, form", [("Bite", 2, "breed"), ("Claw", 3, "crinos")])
def test_breed_form_flips_exactly_at_breed_health(card, wounds, form):
    r = fight([{"prey": card}], initiative="prey")
    s = r["rounds"][0]["state"]["hunter"]
    assert (s["wounds"], s["form"], s["dead"]) == (wounds, form, False)


def test_wounds_above_printed_rage_but_below_health_do_not_flip():
    # Breed Rage 1: two wounds are "more than its printed Rage" yet stkit ignores that clause
    r = fight([{"prey": "Bite"}], initiative="prey")
    assert r["rounds"][0]["state"]["hunter"]["form"] == "breed"


@pytest.mark.parametrize("start, dead", [(3, False), (4, True)])
def test_death_exactly_at_crinos_health(start, dead):
    r = fight([{"prey": "Bite"}], hunter=garou(wounds=start), initiative="prey")  # Crinos Health 6
    s = r["rounds"][0]["state"]["hunter"]
    assert s["wounds"] == start + 2 and s["dead"] is dead and r["ended"] is dead


def test_one_sided_character_dies_exactly_at_its_health():
    r = fight([{"hunter": "Claw"}], prey=enemy(health=3))
    assert r["rounds"][0]["state"]["prey"]["dead"] and r["deaths"][0]["name"] == "Fomor"


# --- conflicts.counterattack-block: a counterattack blocks nothing ------------------------------------------


def test_counterattack_block_is_ignored():
    assert "blocks nothing" in ruling("conflicts.counterattack-block")
    r = fight([{"hunter": "Claw", "prey": "Riposte"}])  # printed Block 4 would stop the Claw's 3
    state = r["rounds"][0]["state"]
    assert state["prey"]["wounds"] == 3 and state["hunter"]["wounds"] == 1
    assert "conflicts.counterattack-block" in r.rules


# --- conflicts.combat-end-on-passes: each side passes its own attack, in consecutive rounds ---------------


def test_end_on_passes_ruling_wording():
    text = ruling("conflicts.combat-end-on-passes")
    assert "each side has passed its own attack in consecutive rounds" in text
    assert "is not enough" in text  # one side passing twice does not end it


@pytest.mark.parametrize(
    "rounds, ended_after",
    [
        (["pass", "pass"], 2),  # Hunter passes, then Prey passes
        (["pass", {"prey": "Bite"}, "pass", "pass", {"prey": "Bite"}], 4),  # an attack restarts the count
        ([{"hunter": "Bite"}, "pass", "pass"], 3),
        (["pass", {"prey": "Bite"}, "pass"], None),  # never two consecutive passes
        (["pass"], None),  # a single pass only ends the round
    ],
)
def test_combat_ends_when_each_side_has_passed_in_consecutive_rounds(rounds, ended_after):
    r = fight(rounds, prey=enemy(health=10))
    ended = [x["round"] for x in r["rounds"] if x["ended"]]
    assert (ended[0] if ended else None) == ended_after
    if ended_after:
        assert r["end_reason"] == "both players passed their attacks in successive rounds"
        assert "conflicts.combat-end-on-passes" in r.rules


def test_forced_hysterical_pass_counts_as_a_pass():
    hunter = garou(frenzy=1, derangements=["Hysterical"], health=2, crinos={"rage": 5, "health": 9})
    # Round 1 the Prey (initiative) wounds Janus 3: Trigger Damage 3 for Crinos Health 9, so he would frenzy;
    # Hysterical, he must pass round 2 (his initiative). The Prey then passes round 3: combat over.
    r = fight([{"prey": "Claw"}, {"hunter": "Bite"}, "pass"], hunter=hunter, initiative="prey")
    assert [x["ended"] for x in r["rounds"]] == [False, False, True]


# --- conflicts.victory-reach-or-exceed and conflicts.renown-level-drop-phase -------------------------------


def test_victory_at_exactly_the_level():
    assert "equal to or greater" in ruling("conflicts.victory-reach-or-exceed")
    pile = lambda n: [{"name": "Kill", "renown": n}]  # noqa: E731
    for total, wins in ((19, False), (20, True), (21, True)):
        r = resolve_victory(parse_victory({"players": [{"name": "Ann", "victory_pile": pile(total)}]}))
        assert (r["winner"] == "Ann") is wins


def test_renown_level_drops_once_per_sept_draw_phase_without_draws():
    assert "Sept Draw Phase" in ruling("conflicts.renown-level-drop-phase")
    for phases, level in ((0, 20), (1, 19), (3, 17)):
        r = resolve_victory(parse_victory({"nobody_drew": phases, "players": [{"name": "Ann", "victory_pile": []}]}))
        assert r["renown_level"] == level
        assert ("conflicts.renown-level-drop-phase" in r.rules) is bool(phases)
