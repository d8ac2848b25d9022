"""The fight's use cases as a user runs them, with hand-checked dice: regeneration, shifting, the Rage cap,
Rage and Gnosis, the dodge after acting, the coup de grace; refusals change nothing. SQLite and PostgreSQL."""

from __future__ import annotations

from tests.clirun import fails, ok, ok_json, sheet


def _fighters() -> None:
    ok("char", "new", "Wolf", "--breed", "homid", "--set", "Dexterity=3", "--set", "Wits=2", "--set", "Stamina=3",
       "--set", "Brawl=3", "--set", "Primal-Urge=2", "--set", "Rage=4", "--set", "Strength=2")  # fmt: skip
    ok("char", "new", "Mook", "--creature", "mortal", "--set", "Dexterity=2", "--set", "Stamina=2")
    ok("scene", "start", "Alley")


def test_regeneration_stress_roll_once_a_turn_and_calm(db_url):
    """Crinos Stamina 3 + 3 = 6 dice at 8: 8, 2, 3, 4, 5, 6 is one success: the lethal level heals first
    (1 lethal + 1 bashing -> 1 bashing). A second regeneration in the turn is refused; next turn, calm, the
    bashing level heals with no roll."""
    _fighters()
    ok("char", "damage", "Wolf", "1", "--type", "lethal")
    ok("char", "damage", "Wolf", "1")
    fails("char", "regen", "Wolf", match="regeneration: Wolf is Homid-born and in Homid, the breed form")
    ok("char", "shift", "Wolf", "crinos", "--instant")
    done = ok_json("char", "regen", "Wolf", "--dice", "8,2,3,4,5,6")
    assert (done["pool"], done["difficulty"], done["changes"]["healed_type"]) == (6, 8, "lethal")
    assert sheet("Wolf")["health"] == {"aggravated": 0, "lethal": 0, "bashing": 1}
    fails("char", "regen", "Wolf", "--calm", match="already regenerated in turn 1; one level a turn")
    ok("scene", "next")
    assert ok_json("char", "regen", "Wolf", "--calm")["roll"] is None
    assert sheet("Wolf")["health"]["bashing"] == 0


def test_shifting_one_success_per_form_and_partway(db_url):
    """Stamina 3 + Primal-Urge 2 = 5 dice at Homid's 6; Homid to Crinos needs 2: 7, 2, 3, 4, 5 is 1 success,
    so Wolf gets as far as Glabro; from Glabro (difficulty 7) 7, 2, 3, 4, 5 is 1: Crinos."""
    _fighters()
    first = ok_json("char", "shift", "Wolf", "crinos", "--dice", "7,2,3,4,5")
    assert (first["difficulty"], first["form"]) == (6, "Glabro")
    second = ok_json("char", "shift", "Wolf", "crinos", "--dice", "7,2,3,4,5,6,6")  # Glabro Stamina 3 + 2 = 5 + 2
    assert (second["difficulty"], second["form"]) == (7, "Crinos")
    assert ok_json("char", "shift", "Wolf", "homid")["roll"] is None  # the breed form: instant


def test_rage_cap_rage_and_gnosis_and_nothing_changed(db_url):
    """Revised cap: the lower of Dexterity 3 and Wits 2 = 2 Rage actions a turn; a third is refused with the
    Rage points unchanged. Under rage-cap w20 (Rage 4: 2) the same. Gnosis after Rage in the turn: refused."""
    _fighters()
    for _ in range(2):
        ok("attack", "Wolf", "Mook", "--maneuver", "punch", "--rage", "--seed", "5")
    before = sheet("Wolf")["rage"]
    fails("attack", "Wolf", "Mook", "--maneuver", "punch", "--rage", "--seed", "5", match="Rage cap (revised): Wolf")
    assert sheet("Wolf")["rage"] == before
    fails("char", "spend", "Wolf", "gnosis", match="Rage and Gnosis: Wolf already spent 2 Rage in turn 1")
    ok("scene", "next")
    ok("char", "spend", "Wolf", "gnosis")
    fails("attack", "Wolf", "Mook", "--maneuver", "punch", "--rage", "--seed", "5", match="Rage and Gnosis")


def test_dodge_after_acting_refused_and_defender_actions_penalty(db_url):
    """Mook rolled this turn: his dodge is refused, nothing logged. Declared as one of 2 actions, the dodge
    Dexterity 2 + Dodge 0 ... loses 2 dice: 'Dexterity + 3 - 2' = 3 dice."""
    _fighters()
    ok("roll", "Dexterity", "-c", "Mook", "--seed", "1")
    n = len(ok_json("log", "--limit", "100")["rolls"])
    fails("attack", "Wolf", "Mook", "--maneuver", "punch", "--dodge", "Dexterity + 3", "--seed", "2",
          match="dodge: Mook already acted in turn 1")  # fmt: skip
    assert len(ok_json("log", "--limit", "100")["rolls"]) == n
    done = ok_json("attack", "Wolf", "Mook", "--maneuver", "punch", "--dodge", "Dexterity + 3",
                   "--defender-actions", "2", "--dice-attack", "8,8,8,2,2,2", "--dice-dodge", "9,2,2", "--seed", "1")  # fmt: skip
    assert (done["defence_pool"], done["net_successes"], done["damage_pool"]) == (3, 2, 3)


def test_coup_de_grace_kills_a_mortal_and_the_dead_stay_dead(db_url):
    """Mook Incapacitated by 7 bashing; a plain attack is refused; the coup de grace's punch (Strength 2 at
    6) with 8, 8, 2, 2, 2, 2 on the attack (Dexterity 3 + Brawl 3; 2 successes: Strength 2 + 1 = 3 damage dice) and 9, 9, 9: 3 bashing past
    Incapacitated turn bashing into lethal... all 3 land on bashing levels, so Mook lives; a lethal level then
    kills him, and a dead man is attacked no more."""
    _fighters()
    ok("char", "damage", "Mook", "7")
    fails("attack", "Wolf", "Mook", "--maneuver", "punch", "--seed", "1", match="finishing them is a coup de grace")
    x = ok_json("attack", "Wolf", "Mook", "--maneuver", "punch", "--coup-de-grace", "--dice-attack", "8,8,2,2,2,2",
                "--dice-damage", "9,9,9")  # fmt: skip
    assert (x["wounds"], x["dead"], x["taken"]["overflowed"]) == (3, False, 3)
    assert sheet("Mook")["health"] == {"aggravated": 0, "lethal": 3, "bashing": 4}
    hit = ok_json("char", "hit", "Mook", "1", "--type", "lethal")
    assert hit["taken"]["killed"] is True
    fails("attack", "Wolf", "Mook", "--maneuver", "punch", "--coup-de-grace", "--seed", "1", match="already dead")
    assert "fight" not in ok_json("scene", "show")  # no initiative rolled: no board


def test_soak_rules_on_a_hit(db_url):
    """A mortal hit for 3 lethal with --soak: no Stamina soak and no armour, so no roll and 3 levels. A Garou
    in Homid soaks lethal: 3 dice 8, 8, 2 take 2 off. Aggravated in Homid: no soak (Revised); with the
    homid-aggravated-soak key on, Stamina soaks it."""
    _fighters()
    m = ok_json("char", "hit", "Mook", "3", "--type", "lethal", "--soak")
    assert (m["soak"], m["wounds"], m["notes"]) == (None, 3, ["no soak: a mortal soaks lethal damage only with armour"])
    g = ok_json("char", "hit", "Wolf", "3", "--type", "lethal", "--soak", "--dice", "8,8,2")
    assert (g["soaked"], g["wounds"]) == (2, 1)
    assert ok_json("char", "hit", "Wolf", "1", "--type", "aggravated", "--soak")["soak"] is None
    ok("house", "set", "homid-aggravated-soak", "on")
    assert ok_json("char", "hit", "Wolf", "1", "--type", "aggravated", "--soak", "--dice", "9,2,2")["soaked"] == 1


def test_the_dead_do_not_heal(tmp_path, monkeypatch):
    """docs/combat.md: the dead no longer act, are hit or heal. A mortal's seventh lethal level leaves
    him Incapacitated; the eighth comes past it and kills him; healing him is then refused."""
    from typer.testing import CliRunner

    from stkit.cli.app import app

    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "dead.sqlite"))
    runner = CliRunner()
    assert runner.invoke(app, ["char", "new", "Mort", "--creature", "mortal"]).exit_code == 0
    assert runner.invoke(app, ["char", "damage", "Mort", "7", "--type", "lethal"]).exit_code == 0
    killed = runner.invoke(app, ["char", "damage", "Mort", "1", "--type", "lethal"])
    assert "Mort is dead" in killed.output
    healed = runner.invoke(app, ["char", "heal", "Mort", "8"])
    assert healed.exit_code == 1
    assert "heal: Mort is dead" in healed.output


def test_a_gnosis_roll_shuts_rage_out_of_the_turn(db_url):
    """Revised, "Rage and Gnosis": Rage and Gnosis are not both used in one turn. Rolling the Gnosis pool is
    a use, like a point spent: Wolf rolls Gnosis, then a Rage action is refused; next turn it is allowed.
    (A Gnosis roll left Rage free before: only a Gnosis spend locked it.)"""
    _fighters()
    ok("char", "set", "Wolf", "Gnosis", "3")
    ok("roll", "Gnosis", "-c", "Wolf", "--seed", "1")
    fails("attack", "Wolf", "Mook", "--maneuver", "punch", "--rage", "--seed", "5", match="already rolled Gnosis")
    ok("scene", "next")
    ok("attack", "Wolf", "Mook", "--maneuver", "punch", "--rage", "--seed", "5")


def test_unsoaked_silver_on_a_homid_in_homid_is_marked_lethal(db_url):
    """docs/combat.md, "Who soaks what" (Mirror Play Pantheon's silver rules): a homid-born Garou in Homid,
    her breed form, takes silver as lethal damage; in Crinos it stays aggravated. Two levels unsoaked:
    Homid 2 lethal, Crinos 2 aggravated. (Homid was marked aggravated before.)"""
    ok("char", "new", "Mari", "--breed", "homid")
    done = ok_json("char", "hit", "Mari", "2", "--type", "aggravated", "--silver")
    assert done["health"]["damage"] == {"aggravated": 0, "lethal": 2, "bashing": 0}
    assert done["taken"]["kind"] == "lethal"
    ok("char", "new", "Kes", "--breed", "homid")
    ok("char", "shift", "Kes", "Crinos", "--instant")
    done = ok_json("char", "hit", "Kes", "2", "--type", "aggravated", "--silver")
    assert done["health"]["damage"] == {"aggravated": 2, "lethal": 0, "bashing": 0}
