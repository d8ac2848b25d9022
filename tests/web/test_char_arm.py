"""`stkit char arm`: weapons and armour from the packaged table (the Revised values with their sources),
usable at once by `stkit attack` and by the page's Attack (firearms with the gun picked)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.sheet import arms

HX = {"hx-request": "true"}


def test_every_table_entry_fits_the_sheet_and_names_its_source():
    from stkit.sheet.sheet import Sheet

    data = arms.arms_data()
    assert "bardicknowledge" in data["weapons"]["source"] and "regretgames" in data["armour"]["source"]
    sheet = Sheet(name="Quartermaster")
    arms.arm(sheet, weapons=list(arms.weapon_names()), armour=["class five"])
    again = Sheet.from_dict(sheet.to_dict())  # the sheet's own checks take every entry
    assert len(again.weapons) == len(arms.weapon_names()) and again.armor[0]["lethal"] == 5
    # the chart's values: a heavy pistol deals 5 dice, a sword Strength + 2 lethal, a Kevlar vest 3 / -1
    assert arms.weapon_entry("heavy pistol")["damage_bonus"] == 5
    sword = arms.weapon_entry("Sword")
    assert (sword["damage_attribute"], sword["damage_bonus"], sword["damage_type"]) == ("Strength", 2, "lethal")
    vest = arms.armour_entry("class three")
    assert (vest["bashing"], vest["lethal"], vest["dexterity_penalty"]) == (3, 3, 1)


def test_char_arm_then_attack_with_the_gun(migrated_db_url):
    runner = CliRunner()
    env = {"STKIT_DATABASE_URL": migrated_db_url, "NO_COLOR": "1"}
    assert (
        runner.invoke(app, ["char", "new", "Maria", "--set", "Dexterity=3", "--set", "Firearms=2"], env=env).exit_code
        == 0
    )
    assert runner.invoke(app, ["char", "new", "Fomor"], env=env).exit_code == 0
    done = runner.invoke(app, ["char", "arm", "Maria", "--weapon", "heavy pistol", "--armour", "class three"], env=env)
    assert done.exit_code == 0, done.output
    assert "Heavy Pistol: Dexterity + Firearms at 6, damage 5 lethal" in done.output
    again = runner.invoke(app, ["char", "arm", "Maria", "--weapon", "Heavy Pistol"], env=env)
    assert again.exit_code == 1 and "already holds Heavy Pistol" in again.output
    bad = runner.invoke(app, ["char", "arm", "Maria", "--weapon", "hvy pistol"], env=env)
    assert bad.exit_code == 1 and "unknown weapon 'hvy pistol'" in bad.output and "Traceback" not in bad.output
    shot = runner.invoke(
        app,
        ["attack", "Maria", "Fomor", "--weapon", "heavy pistol", "--range", "long", "--seed", "1", "--json"],
        env=env,
    )
    assert shot.exit_code == 0, shot.output
    out = json.loads(shot.output)
    assert out["plan"]["difficulty"] == 8 and out["damage_type"] == "lethal"
    assert out["attack_pool"]["dice"] == 4  # Dexterity 3 + Firearms 2, less the vest's 1 Dexterity die


def test_char_arm_as_a_subprocess_lists_the_table(migrated_db_url):
    env = os.environ | {"STKIT_DATABASE_URL": migrated_db_url, "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "stkit", "char", "arm", "x", "--list", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["weapons"]["knife"]["damage_type"] == "lethal"


def test_the_page_attacks_with_the_gun_picked_under_the_firearms_maneuver(clients, table):
    from stkit.store.characters import Edit, edit_character
    from stkit.store.db.gateway import run_unit

    def give(gw):
        return edit_character(
            gw, "Weston", "default", lambda s: Edit(s, " ".join(arms.arm(s, weapons=["light pistol"])))
        )

    run_unit(table.url, give)
    st = clients("storyteller")
    st.post("/scene/start", data={"name": "Car park"}, headers=HX)
    bare = st.post(
        "/attack", data={"attacker": table.weston, "target": table.archibald, "maneuver": "firearms"}, headers=HX
    )
    assert "the firearms maneuver needs a gun" in bare.text
    r = st.post(
        "/attack",
        data={
            "attacker": table.weston,
            "target": table.archibald,
            "maneuver": "firearms",
            "weapon": "Light Pistol",
            "range": "point-blank",
        },
        headers=HX,
    )
    assert "waiting for Archibald" in re.sub(r"&#39;", "'", r.text)
    prompts = st.get("/prompts").text
    # point-blank: difficulty 4, one more for the untrained Skill (Firearms 0: Revised's unskilled rule)
    assert "Dexterity 3 + Firearms 0" in prompts and "at 5" in prompts and "= 4 dice lethal" in prompts
