"""Who acts when, on the store: initiative rolled on the open scene's turn, who is in the scene, who has
already acted this turn, and Rage spent for extra actions (once per turn).

Each use case takes a :class:`~stkit.store.db.gateway.Gateway` (one transaction: the caller's) and returns a
frozen result; a refusal raises before anything is written. Dice rules: :mod:`stkit.dice.combat`.

Reading of stkit's own (see docs/combat.md): "in the scene" means, when initiative has been rolled in the
open scene, the characters in its order; else every character of the scene's chronicle.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stkit.dice.combat import (
    STANDARD_COMBAT,
    CombatRules,
    InitiativeEntry,
    InitiativeRoll,
    order_initiative,
    roll_initiative,
    validate_rage_spend,
)
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.forms import in_form
from stkit.sheet.sheet import Sheet
from stkit.store.characters import find_character, save_sheet
from stkit.store.db.gateway import DuplicateRow, Gateway
from stkit.store.fight.hit import store_now
from stkit.store.fight.rules import is_dead, rage_cap, turn_power, use_turn_power
from stkit.store.house import rules_in_force
from stkit.store.rolling import generator
from stkit.store.scenes import find_turn_context
from stkit.store.table.events import record_event
from stkit.text import counted

if TYPE_CHECKING:
    from stkit.store.characters import CharacterRow
    from stkit.store.scenes import TurnContext


@dataclass(frozen=True)
class InitiativeOrder:
    """Initiative rolled for a scene's turn: the order (place 1 first), who could not act, the seed."""

    scene_id: int
    scene: str
    turn: int
    order: tuple[InitiativeRoll, ...]
    cannot_act: tuple[str, ...] = ()
    seed: int | None = None
    dead: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "scene_id": self.scene_id,
            "scene": self.scene,
            "turn": self.turn,
            "order": [o.to_dict() for o in self.order],
            "cannot_act": list(self.cannot_act),
            "dead": list(self.dead),
            "seed": self.seed,
        }


def _open_scene(gw: Gateway, chronicle: str, *, lock: bool = False) -> tuple[int, str, int]:
    sql = "SELECT id, name, turn FROM scenes WHERE chronicle = :chronicle AND status = 'open'"
    row = gw.row(sql + (gw.lock if lock else ""), chronicle=chronicle)
    if row is None:
        raise NotFound(f"no scene is open in chronicle {chronicle!r}; start one with: stkit scene start NAME")
    return int(row[0]), str(row[1]), int(row[2])


def _scene_roster(gw: Gateway, scene_id: int) -> list[str]:
    """Names of the characters who have rolled in the scene, in the order they first rolled."""
    rows = gw.rows(
        "SELECT c.name, MIN(l.id) FROM roll_log l JOIN characters c ON c.id = l.character_id "
        "WHERE l.scene_id = :sid GROUP BY c.name ORDER BY MIN(l.id)",
        sid=scene_id,
    )
    return [str(r[0]) for r in rows]


def initiative_entry(sheet: Sheet) -> InitiativeEntry:
    """The initiative of ``sheet``: the form's Dexterity, Wits, and the wound penalty."""
    dexterity = in_form(sheet, "Dexterity")
    wits = in_form(sheet, "Wits")
    return InitiativeEntry(sheet.name, dexterity, wits, sheet.wound_penalty)


def roll_scene_initiative(
    gw: Gateway,
    chronicle: str,
    names: list[str] | None = None,
    *,
    dice: list[int] | None = None,
    seed: int | None = None,
) -> InitiativeOrder:
    """`scene initiative [NAME ...]`: one die + Dexterity + Wits - wound penalty for each named character
    (default: every character who has rolled in the open scene of ``chronicle``), ordered by
    :data:`stkit.dice.combat.INITIATIVE_TIE_RULE`, stored on the scene's current turn (later turns keep it
    until initiative is rolled again). Incapacitated characters cannot act and are left out (listed in
    ``cannot_act``); the dead too (listed in ``dead``). ``dice``: one face per character who can act, in
    the order named.

    Raises NotFound (no open scene, unknown name), InvalidValue (no one to order, bad dice).
    """

    scene_id, scene_name, turn = _open_scene(gw, chronicle, lock=True)
    wanted = list(names or []) or _scene_roster(gw, scene_id)
    if not wanted:
        raise InvalidValue(
            "nobody has rolled in this scene yet; name the characters: stkit scene initiative NAME [NAME ...]"
        )
    entries: list[InitiativeEntry] = []
    cannot_act: list[str] = []
    dead: list[str] = []
    for name in wanted:
        row = find_character(gw, name, chronicle)
        sheet = row.to_sheet()
        if is_dead(gw, row.id):
            dead.append(sheet.name)
            continue
        if sheet.incapacitated:
            cannot_act.append(sheet.name)
            continue
        entries.append(initiative_entry(sheet))
    if not entries:
        raise RuleRefusal(
            "; ".join(
                p
                for p in (
                    f"{', '.join(cannot_act)}: Incapacitated" if cannot_act else "",
                    f"{', '.join(dead)}: dead" if dead else "",
                )
                if p
            )
            + ", nobody can act"
        )
    rng, seed = generator(seed)  # in the transaction: a retry rolls the same dice
    order = roll_initiative(entries, rng=rng, dice=dice)
    result = InitiativeOrder(
        scene_id, scene_name, turn, order, tuple(cannot_act), None if dice else seed, dead=tuple(dead)
    )
    _store_order(gw, chronicle, result)
    return result


def _store_order(gw: Gateway, chronicle: str, result: InitiativeOrder, *, added: list[str] | None = None) -> None:
    """Keep ``result`` on its scene's turn and write the 'scene' event the pages follow."""
    gw.execute(
        "UPDATE scene_turns SET initiative = :data WHERE scene_id = :sid AND turn = :turn",
        data=json.dumps(result.to_dict(), sort_keys=True),
        sid=result.scene_id,
        turn=result.turn,
    )
    data = {
        "scene_id": result.scene_id,
        "name": result.scene,
        "turn": result.turn,
        "status": "open",
        "change": "initiative",
        "order": [o.name for o in result.order],
    }
    if added:
        data["added"] = added
    record_event(gw, chronicle=chronicle, kind="scene", data=data)


def add_to_initiative(
    gw: Gateway, chronicle: str, names: list[str], *, dice: list[int] | None = None, seed: int | None = None
) -> InitiativeOrder:
    """`scene initiative --add NAME`: latecomers join the open scene's current initiative order without
    rerolling the others. Each rolls one die + Dexterity + Wits - wound penalty (``dice``: one face each,
    in the order named); everyone already in the order keeps their die and the whole order is sorted again
    by :data:`stkit.dice.combat.INITIATIVE_TIE_RULE` and stored on the current turn. With no order yet, it
    is :func:`roll_scene_initiative` for ``names``.

    Raises NotFound (no open scene, unknown name), InvalidValue (no name, bad dice), RuleRefusal (someone
    already in the order, Incapacitated or dead)."""

    if not names:
        raise InvalidValue("name who joins: stkit scene initiative --add NAME")
    scene_id, scene_name, turn = _open_scene(gw, chronicle, lock=True)
    current = current_initiative(gw, scene_id, turn)
    if current is None:
        return roll_scene_initiative(gw, chronicle, names, dice=dice, seed=seed)
    kept = [o for o in current.get("order", [])]
    have = {o["name"] for o in kept}
    entries: list[InitiativeEntry] = []
    faces: list[int] = []
    for o in kept:
        entries.append(InitiativeEntry(o["name"], o["rating"] - o["wits"], o["wits"], o["wound_penalty"]))
        faces.append(int(o["die"]))
    newcomers: list[InitiativeEntry] = []
    for name in names:
        row = find_character(gw, name, chronicle)
        sheet = row.to_sheet()
        if sheet.name in have or sheet.name in [e.name for e in newcomers]:
            raise RuleRefusal(
                f"{sheet.name} is already in the initiative order; a full reroll is stkit scene initiative"
            )
        if is_dead(gw, row.id):
            raise RuleRefusal(f"{sheet.name} is dead and takes no place in the order")
        if sheet.incapacitated:
            raise RuleRefusal(f"{sheet.name} is Incapacitated and cannot act")
        newcomers.append(initiative_entry(sheet))
    if dice is not None and len(dice) != len(newcomers):
        raise InvalidValue(
            f"{counted(len(dice), 'die', 'dice')} given for {counted(len(newcomers), 'latecomer')}; "
            "give one die each, in order"
        )
    rng, seed = generator(seed)
    rolled = list(dice) if dice is not None else [rng.randint(1, 10) for _ in newcomers]
    order = order_initiative([*entries, *newcomers], [*faces, *rolled])
    result = InitiativeOrder(
        scene_id, scene_name, turn, order, tuple(current.get("cannot_act") or ()), None if dice else seed
    )
    _store_order(gw, chronicle, result, added=[e.name for e in newcomers])
    return result


@dataclass(frozen=True)
class HeldAction:
    """A character holding their action in a turn: they step out of the order's count and act when they
    choose later in the turn (their next roll)."""

    character: str
    scene_id: int
    turn: int

    def to_dict(self) -> dict[str, Any]:
        return {"character": self.character, "scene_id": self.scene_id, "turn": self.turn}


def hold_action(gw: Gateway, chronicle: str, name: str) -> HeldAction:
    """`hold`: ``name`` holds their action this turn: the order passes to the next one who has not acted,
    and ``name`` acts when they choose later in the turn (stkit's reading of delaying an action, not
    checked against the book). Refused (RuleRefusal) outside the initiative order, for one who already
    acted or already holds this turn, and for the dead; NotFound with no open scene or no such character."""

    scene_id, scene_name, turn = _open_scene(gw, chronicle)
    row = find_character(gw, name, chronicle, for_update=True)
    current = current_initiative(gw, scene_id, turn)
    if current is None or row.name not in {o["name"] for o in current.get("order", [])}:
        raise RuleRefusal(f"hold: {row.name} has no place in this turn's initiative order")
    if is_dead(gw, row.id):
        raise RuleRefusal(f"hold: {row.name} is dead")
    ctx = find_turn_context(gw, row)
    if acted_this_turn(gw, row, ctx) is not None:
        raise RuleRefusal(f"hold: {row.name} already acted in turn {turn}")
    if turn_power(gw, ctx, row.id, "held"):
        raise RuleRefusal(f"hold: {row.name} already holds their action in turn {turn}")
    use_turn_power(gw, row, ctx, "held", 1)
    record_event(
        gw,
        chronicle=chronicle,
        kind="scene",
        data={
            "scene_id": scene_id,
            "name": scene_name,
            "turn": turn,
            "status": "open",
            "change": "held",
            "character": row.name,
        },
        character_id=row.id,
    )
    return HeldAction(row.name, scene_id, turn)


def held_in_turn(gw: Gateway, scene_id: int, turn: int) -> set[int]:
    """Ids of the characters holding their action in ``turn`` of the scene."""
    rows = gw.rows(
        "SELECT character_id FROM turn_powers WHERE scene_id = :s AND turn = :t AND power = 'held'", s=scene_id, t=turn
    )
    return {int(r[0]) for r in rows}


def current_initiative(gw: Gateway, scene_id: int, turn: int) -> dict[str, Any] | None:
    """The initiative stored for ``turn`` of the scene (or the latest earlier turn that has one), as
    :meth:`InitiativeOrder.to_dict` stored it with ``rolled_turn`` added; None when none was rolled."""
    row = gw.row(
        "SELECT turn, initiative FROM scene_turns WHERE scene_id = :sid AND turn <= :turn AND initiative IS NOT NULL "
        "ORDER BY turn DESC LIMIT 1",
        sid=scene_id,
        turn=turn,
    )
    if row is None:
        return None
    data: dict[str, Any] = json.loads(row[1])
    data["rolled_turn"] = row[0]
    # who died since the roll keeps their place as rolled and is listed dead too (the dead no longer act,
    # docs/combat.md)
    died = {
        str(r[0])
        for r in gw.rows(
            "SELECT c.name FROM characters c JOIN character_fates f ON f.character_id = c.id "
            "JOIN scenes s ON s.chronicle = c.chronicle WHERE s.id = :sid",
            sid=scene_id,
        )
    }
    known = list(data.get("dead", []))
    data["dead"] = known + [o["name"] for o in data.get("order", []) if o["name"] in died and o["name"] not in known]
    return data


#: The roll-log kinds that are actions of the character's turn (SQL list).
_ACTIONS = "('roll', 'attack', 'rage action', 'shift', 'extended', 'contest')"


def acted_this_turn(gw: Gateway, row: CharacterRow, ctx: TurnContext | None) -> int | None:
    """The id of the first action roll (a roll, an attack, a Rage action, a shift) ``row`` made in the turn
    ``ctx``, or None."""
    if ctx is None:
        return None
    found = gw.row(
        f"SELECT MIN(id) FROM roll_log WHERE scene_id = :s AND turn = :t AND character_id = :c AND kind IN {_ACTIONS}",
        s=ctx.scene_id,
        t=ctx.turn,
        c=row.id,
    )
    return None if found is None or found[0] is None else int(found[0])


def actions_this_turn(gw: Gateway, row: CharacterRow, ctx: TurnContext | None) -> int:
    """How many action rolls (the kinds :func:`acted_this_turn` counts) ``row`` made in the turn ``ctx``
    (0 outside a scene)."""
    if ctx is None:
        return 0
    found = gw.row(
        f"SELECT COUNT(*) FROM roll_log WHERE scene_id = :s AND turn = :t AND character_id = :c AND kind IN {_ACTIONS}",
        s=ctx.scene_id,
        t=ctx.turn,
        c=row.id,
    )
    return 0 if found is None else int(found[0])


def check_in_scene(gw: Gateway, target: Any, attacker: Any) -> None:
    """Refuse (RuleRefusal) a target out of the attacker's scene: another chronicle, or not in the initiative
    order when one was rolled in the open scene."""

    if target.chronicle != attacker.chronicle:
        raise RuleRefusal(
            f"{target.name} is out of the scene: they are in chronicle {target.chronicle!r}, "
            f"{attacker.name} in {attacker.chronicle!r}"
        )
    ctx = find_turn_context(gw, attacker)
    if ctx is None:
        return
    order = current_initiative(gw, ctx.scene_id, ctx.turn)
    if order is None:
        return
    names = [o["name"] for o in order["order"]]
    for who in (attacker, target):
        if who.name not in names:
            raise RuleRefusal(
                f"{who.name} is out of the scene: not in the initiative order ({', '.join(names)}); "
                f"roll initiative again to bring them in"
            )


@dataclass(frozen=True)
class RageSpend:
    """Rage points spent for extra actions: how many, and the points left."""

    character: str
    points: int
    left: int
    scene_id: int | None = None
    turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points, "left": self.left, "scene_id": self.scene_id, "turn": self.turn}


def spend_rage_for_actions(
    gw: Gateway, row: CharacterRow, rage: int, *, combat: CombatRules = STANDARD_COMBAT
) -> RageSpend:
    """Spend ``rage`` Rage points of the (locked) character ``row`` for extra actions this turn: at most the
    current points (and the house rule's cap), once per turn of the open scene ("Multiple Actions": Rage
    gives extra actions at no penalty). Outside a scene there is no turn to count.

    Raises InvalidValue for ``rage`` < 1, RuleRefusal beyond the points or the cap, or for a second spend
    in the same turn (a unique key backs it against racing processes).
    """

    sheet = row.to_sheet()
    validate_rage_spend(rage, sheet.powers["Rage"].temporary, combat)
    ctx = find_turn_context(gw, row)
    reading = rules_in_force(gw, row.chronicle).rage_cap
    cap = rage_cap(reading, sheet)
    if ctx is not None:
        done = turn_power(gw, ctx, row.id, "rage actions")
        if cap is not None and done + rage > cap:
            raise RuleRefusal(
                f"Rage cap ({reading}): {sheet.name} may spend at most {cap} Rage on actions a turn; "
                f"{done} spent already and {rage} more would make {done + rage}"
            )
        gnosis = turn_power(gw, ctx, row.id, "gnosis")
        if gnosis or turn_power(gw, ctx, row.id, "gnosis roll"):
            what = f"spent {gnosis} Gnosis" if gnosis else "rolled Gnosis"
            raise RuleRefusal(
                f"Rage and Gnosis: {sheet.name} already {what} in turn {ctx.turn}; "
                f"Rage and Gnosis cannot both be spent in one turn"
            )
    elif cap is not None and rage > cap:
        raise RuleRefusal(f"Rage cap ({reading}): {sheet.name} may spend at most {cap} Rage on actions a turn")
    if ctx is not None:
        already = gw.row(
            "SELECT points FROM rage_spends WHERE scene_id = :sid AND turn = :turn AND character_id = :cid",
            sid=ctx.scene_id,
            turn=ctx.turn,
            cid=row.id,
        )
        if already is not None:
            raise RuleRefusal(
                f"{sheet.name} already spent {already[0]} Rage for extra actions in turn {ctx.turn} of this scene; "
                f"Rage buys extra actions once per turn (next turn: stkit scene next)"
            )
        try:
            gw.insert(
                "INSERT INTO rage_spends (scene_id, turn, character_id, points, created_at) "
                "VALUES (:sid, :turn, :cid, :points, :now)",
                sid=ctx.scene_id,
                turn=ctx.turn,
                cid=row.id,
                points=rage,
                now=store_now(gw),
            )
        except DuplicateRow:
            raise RuleRefusal(
                f"{sheet.name} already spent Rage for extra actions in turn {ctx.turn} of this scene"
            ) from None
    sheet.spend("Rage", rage)
    left = sheet.powers["Rage"].temporary
    save_sheet(gw, row, sheet, summary=f"{sheet.name} spends {rage} Rage for extra actions: {left} left")
    return RageSpend(sheet.name, rage, left, getattr(ctx, "scene_id", None), getattr(ctx, "turn", None))


__all__ = [
    "InitiativeOrder",
    "RageSpend",
    "acted_this_turn",
    "actions_this_turn",
    "check_in_scene",
    "current_initiative",
    "initiative_entry",
    "roll_scene_initiative",
    "spend_rage_for_actions",
]
