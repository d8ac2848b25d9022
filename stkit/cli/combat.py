"""`stkit attack`, and the output of `char hit` and `scene initiative`: thin adapters over the store's
attack, hit and initiative use cases (stkit.store.fight.attack, stkit.store.fight.hit, stkit.store.fight.initiative).

Only typer and the standard library at module level; the store, the dice engine and rich load inside the
functions. The dice rules and their sources: stkit.dice.combat; the store's readings: stkit.store.fight.hit.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from stkit.cli.options import (
    ChronicleLookupOpt,
    DamageOnesCancelOpt,
    DbOpt,
    ExtraOnesOpt,
    JsonOpt,
    OnesDontCancelOpt,
    SeedOpt,
    SpecialtyOpt,
    flag_overrides,
    make_combat_rules,
    rule_options,
)
from stkit.text import check_range

_CONTEXT = {"ignore_unknown_options": True}

DamageTypeOpt = Annotated[
    str, typer.Option("--type", "-t", help="Damage type: bashing, lethal or aggravated (default bashing).")
]
SoakOpt = Annotated[
    bool, typer.Option("--soak", help="The target rolls soak first (Stamina, with the form's change; never botches).")
]
SoakPoolOpt = Annotated[
    str | None,
    typer.Option("--soak-pool", help="Soak with this pool instead of Stamina, e.g. 'Stamina + 2' (implies --soak)."),
]
UnsoakableOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--unsoakable",
        help="HOUSE RULE: damage of this type may not be soaked (repeat; off: every type may be soaked).",
    ),
]


def _faces(text: str | None) -> list[int] | None:
    if text is None:
        return None
    from stkit.dice import parse_faces  # lazy: start-up (loaded when the command runs)

    return parse_faces(text)


def _console():
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    return render.console()


def _text(value: str, style: str = ""):
    """User text made safe for the terminal: :func:`stkit.cli.render.safe_text`."""
    from stkit.cli.render import safe_text  # lazy: start-up (loaded when the command runs)

    return safe_text(value, style=style)


def _logged(ids: list[int] | tuple[int, ...], scene_id: int | None, turn: int | None) -> str:
    where = f" (scene {scene_id}, turn {turn})" if scene_id is not None else ""
    label = "roll" if len(ids) == 1 else "rolls"
    return f"Logged as {label} {', '.join(f'#{i}' for i in ids)}{where}"


# ------------------------------------------------------------------------------------- roll --damage -c NAME


def print_purpose_roll(done: Any, order: Any, *, json_out: bool) -> None:
    """`stkit roll POOL --damage|--soak` output (``done``: the :class:`stkit.store.rolling.RollOutcome` of
    ``order``): from a sheet with its pool and log entry, else the bare roll."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.sheet.pools import PoolBreakdown  # lazy: start-up (loaded when the command runs)

    kind = order.purpose.value
    combat = order.combat.to_dict() if order.combat is not None else None
    if json_out:
        data = done.roll.to_dict()
        if done.pool is not None:
            data |= {
                "character": done.character,
                "chronicle": done.chronicle,
                "kind": kind,
                "pool_breakdown": done.pool.to_dict(),
                "log_id": done.log_id,
                "scene_id": done.scene_id,
                "turn": done.turn,
            }
        else:
            data["kind"] = kind
        render.print_json(data | {"combat_rules": combat, "seed": done.seed})
        return
    if not isinstance(done.pool, PoolBreakdown):
        render.print_roll(done.roll, title=f"{kind.capitalize()} roll (cannot botch)", kind=kind)
        return
    from stkit.store.fight.hit import pool_words  # lazy: start-up (loaded when the command runs)

    out = _console()
    title = f"{kind.capitalize()} roll (cannot botch): {pool_words(done.pool)}"
    out.print(_text(f"{done.character}: ", "bold") + _text(done.pool.text))
    for line in render.roll_lines(done.roll, title=title, kind=kind):
        out.print(line)
    out.print(_text(_logged([done.log_id], done.scene_id, done.turn), "dim"))


# ------------------------------------------------------------------------------------------------- char hit


def print_hit(result: Any, json_out: bool, *, soaked: bool = True, type_given: bool = True) -> None:
    """`char hit` output: the one-line summary, the log entry, warnings; a plain line when no soak was rolled
    (``soaked`` False) and when the damage type is the default (``type_given`` False)."""
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json(result.to_dict() | {"soak_rolled": soaked, "type_given": type_given})
        return
    out = _console()
    out.print(_text(f"{result.character}: ", "bold") + _text(result.summary))
    if not type_given:
        out.print(
            _text("No --type given: taken as bashing (-t lethal or -t aggravated for blades, claws, fangs).", "yellow")
        )
    if not soaked:
        out.print(_text(f"Not soaked: {result.character} rolled no soak (add --soak to roll it first).", "yellow"))
    for note in result.notes:
        out.print(_text(note, "dim"))
    if result.log_id is not None:
        out.print(_text(_logged([result.log_id], result.scene_id, result.turn), "dim"))
    for w in result.warnings:
        out.print(_text(f"Warning: {w}", "yellow"))


def hit_command(
    name: str,
    levels: int,
    *,
    damage_type: str,
    soak: bool,
    soak_pool: str | None,
    difficulty: int | None,
    dice: str | None,
    unsoakable: list[str] | None,
    damage_ones_cancel: bool,
    ones_dont_cancel: bool,
    seed: int | None,
    chronicle: str | None,
    db: str | None,
    json_out: bool,
    silver: bool = False,
    type_given: bool = True,
) -> None:
    """`char hit`: one transaction through :func:`stkit.store.fight.hit.take_hit`, then the output."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.dice import validate_difficulty  # lazy: start-up (loaded when the command runs)
    from stkit.store.fight.hit import take_hit  # lazy: start-up (loaded when the command runs)
    from stkit.store.rolling import fresh_seed  # lazy: start-up (loaded when the command runs)

    if difficulty is not None:
        validate_difficulty(difficulty)
    combat = make_combat_rules(damage_ones_cancel, unsoakable=unsoakable or ())
    overrides = flag_overrides(None, False, ones_dont_cancel)
    used_seed = fresh_seed(seed)
    faces = _faces(dice)
    soak_expr = soak_pool if soak_pool is not None else ("" if soak else None)
    result = run(
        db,
        lambda gw: take_hit(
            gw,
            name,
            levels,
            damage_type,
            soak=soak_expr,
            difficulty=difficulty,
            chronicle=chronicle,
            faces=faces,
            seed=used_seed,
            overrides=overrides,
            combat=combat,
            silver=silver,
        ),
    )
    print_hit(result, json_out, soaked=soak_expr is not None, type_given=type_given)


# ------------------------------------------------------------------- regen, shift, stay-active, rage


def power_command(db: str | None, work: Any, *, dice: str | None, seed: int | None, json_out: bool) -> None:
    """Run a fight rule's use case ``work(gateway, faces, seed)`` in one transaction and print its
    :class:`stkit.store.fight.night.PowerRoll`: the summary, the roll, notes, the log row. The seed is chosen
    once, so a transaction retried after a lock rolls the same dice."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.rolling import fresh_seed  # lazy: start-up (loaded when the command runs)

    used_seed = fresh_seed(seed)
    faces = _faces(dice)
    done = run(db, lambda gw: work(gw, faces, used_seed))
    if json_out:
        data = done.to_dict()
        data["seed"] = None if faces is not None or done.roll is None else used_seed
        render.print_json(data)
        return
    out = _console()
    if done.roll is not None:
        title = done.rule.capitalize()
        for line in render.roll_lines(done.roll, title=title):
            out.print(line)
    out.print(_text(done.summary, "bold"))
    for note in done.notes:
        out.print(_text(note, "yellow"))
    if done.log_id is not None:
        out.print(_text(_logged([done.log_id], done.scene_id, done.turn), "dim"))


# ------------------------------------------------------------------------------------------ scene initiative


def print_initiative(order: Any, json_out: bool) -> None:
    """`scene initiative` output: the order with each total's parts, then the tie rule."""
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        print_json(order.to_dict())
        return
    from stkit.dice.combat import INITIATIVE_TIE_RULE  # lazy: start-up (loaded when the command runs)

    out = _console()
    out.print(_text(f"Initiative, scene {order.scene_id} {order.scene}, turn {order.turn}", "bold"))
    width = max(len(o.name) for o in order.order)
    for o in order.order:
        wound = f" - {o.wound_penalty} wound" if o.wound_penalty else ""
        out.print(
            _text(f"{o.place:>2}. {o.name:<{width}}  {o.total:>2}  ")
            + _text(f"(die {o.die} + Dexterity + Wits {o.rating}{wound})", "dim")
        )
    for name in order.cannot_act:
        out.print(_text(f"{name} is Incapacitated and cannot act", "yellow"))
    for name in getattr(order, "dead", ()):
        out.print(_text(f"{name} is dead", "yellow"))
    out.print(_text(f"Ties: {INITIATIVE_TIE_RULE}.", "dim"))


def initiative_command(
    names: list[str] | None,
    *,
    dice: str | None,
    seed: int | None,
    chronicle: str | None,
    db: str | None,
    json_out: bool,
    add: list[str] | None = None,
) -> None:
    """`scene initiative`: roll, order and store on the scene's turn in one transaction, then the output;
    with ``add``, the latecomers join the stored order without rerolling the others."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)
    from stkit.store.fight.initiative import (  # lazy: start-up (loaded when the command runs)
        add_to_initiative,
        roll_scene_initiative,
    )
    from stkit.store.rolling import fresh_seed  # lazy: start-up (loaded when the command runs)

    used_seed = fresh_seed(seed)
    faces = _faces(dice)
    if add:
        order = run(db, lambda gw: add_to_initiative(gw, default_chronicle(chronicle), add, dice=faces, seed=used_seed))
    else:
        order = run(
            db, lambda gw: roll_scene_initiative(gw, default_chronicle(chronicle), names, dice=faces, seed=used_seed)
        )
    print_initiative(order, json_out)


def initiative_lines(data: dict[str, Any] | None) -> list[str]:
    """The stored order as short lines for `scene turn` and `scene show` (empty when none was rolled)."""
    if not data:
        return []
    dead = set(data.get("dead", ()))
    names = ", ".join(
        f"{o['place']}. {o['name']} ({o['total']}{', dead' if o['name'] in dead else ''})" for o in data["order"]
    )
    return [f"Initiative (rolled in turn {data['rolled_turn']}): {names}"]


# ------------------------------------------------------------------------------------------------- attack


@rule_options
def attack_cmd(
    attacker: Annotated[str, typer.Argument(help="Who attacks (a character's name).", show_default=False)],
    target: Annotated[str, typer.Argument(help="Who is attacked.", show_default=False)],
    pool: Annotated[str | None, typer.Option("--pool", "-p", help="The attack pool, e.g. 'Dexterity + Brawl'.")] = None,
    damage: Annotated[
        str | None, typer.Option("--damage", help="The damage pool before extra successes, e.g. 'Strength + 1'.")
    ] = None,
    difficulty: Annotated[
        int | None,
        typer.Option(
            "--difficulty",
            "-d",
            help="The attack's difficulty, 2 to 10 (default: the weapon's or maneuver's, else the chronicle's).",
            show_default=False,
        ),
    ] = None,
    damage_type: Annotated[
        str | None, typer.Option("--type", "-t", help="Damage type: bashing, lethal or aggravated (default bashing).")
    ] = None,
    weapon: Annotated[
        str | None, typer.Option("--weapon", help="A weapon on the attacker's sheet: its pool, difficulty, damage.")
    ] = None,
    maneuver: Annotated[
        str | None, typer.Option("--maneuver", "-m", help="punch, kick, claw, bite or firearms (the book's presets).")
    ] = None,
    range_: Annotated[
        str | None, typer.Option("--range", help="Firearms range: point-blank (4), normal (6) or long (8).")
    ] = None,
    dodge: Annotated[str | None, typer.Option("--dodge", help="The target dodges with this pool.")] = None,
    block: Annotated[str | None, typer.Option("--block", help="The target blocks with this pool.")] = None,
    parry: Annotated[str | None, typer.Option("--parry", help="The target parries with this pool.")] = None,
    dodge_difficulty: Annotated[int, typer.Option("--dodge-difficulty", help="The defence roll's difficulty.")] = 6,
    defender_actions: Annotated[
        int, typer.Option("--defender-actions", help="The defender's actions this turn, the dodge included.")
    ] = 1,
    dice_dodge: Annotated[
        str | None, typer.Option("--dice-dodge", help="Physical dice of the dodge, block or parry.")
    ] = None,
    silver: Annotated[bool, typer.Option("--silver", help="A silver weapon (soaked only in the breed form).")] = False,
    coup_de_grace: Annotated[
        bool, typer.Option("--coup-de-grace", help="Finish an Incapacitated foe: no dodge, no soak.")
    ] = False,
    rage: Annotated[
        bool, typer.Option("--rage", help="This attack is an extra action bought with a Rage point (no penalty).")
    ] = False,
    soak: Annotated[
        bool,
        typer.Option(
            "--soak/--no-soak",
            help="The target soaks by its soak rules (the default: Stamina with the form's change and armour; "
            "never botches); --no-soak: no soak roll.",
        ),
    ] = True,
    soak_pool: SoakPoolOpt = None,
    damage_difficulty: Annotated[int, typer.Option("--damage-difficulty", help="The damage roll's difficulty.")] = 6,
    soak_difficulty: Annotated[int, typer.Option("--soak-difficulty", help="The soak roll's difficulty.")] = 6,
    spec: Annotated[
        bool,
        typer.Option("--spec", help="The attack uses a specialty of a pool Trait: --specialty's house rule applies."),
    ] = False,
    willpower: Annotated[
        bool,
        typer.Option("--willpower", "-w", help="Spend the attacker's Willpower on the attack roll (once a turn)."),
    ] = False,
    damage_spec: Annotated[
        bool,
        typer.Option(
            "--damage-spec", help="The damage roll uses a specialty of a damage pool Trait: the specialty rule applies."
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="The Storyteller lets the attacker act again this turn without spending Rage."),
    ] = False,
    dice_attack: Annotated[str | None, typer.Option("--dice-attack", help="Physical dice of the attack roll.")] = None,
    dice_damage: Annotated[str | None, typer.Option("--dice-damage", help="Physical dice of the damage roll.")] = None,
    dice_soak: Annotated[str | None, typer.Option("--dice-soak", help="Physical dice of the soak roll.")] = None,
    specialty: SpecialtyOpt = None,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    damage_ones_cancel: DamageOnesCancelOpt = False,
    unsoakable: UnsoakableOpt = None,
    seed: SeedOpt = None,
    chronicle: ChronicleLookupOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One attack from the swing to the wounds.

    The attack roll; the target's dodge, block or parry; on a hit the
    damage pool plus one die per success beyond the first; the target
    soaks by its soak rules (unless --no-soak); the damage and soak rolls
    never botch; the wounds go on the target's sheet. Every roll is logged,
    in one transaction. One action a turn: a second needs --rage or --force.
    Example: `stkit attack Shadow-in-the-Wood Guard --pool "Dexterity +
    Brawl" --damage "Strength + 1" --type lethal`.
    """
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.dice import validate_difficulty  # lazy: start-up (loaded when the command runs)
    from stkit.store.fight.attack import AttackOrder  # lazy: start-up (loaded when the command runs)
    from stkit.store.rolling import fresh_seed  # lazy: start-up (loaded when the command runs)

    for d in (difficulty, damage_difficulty, soak_difficulty, dodge_difficulty):
        if d is not None:
            validate_difficulty(d)
    from stkit.dice.expr import check_typed_pool  # lazy: start-up (loaded when the command runs)

    for label, typed in (("--pool", pool), ("--damage", damage), ("--dodge", dodge), ("--block", block)):
        check_typed_pool(typed, label)
    check_typed_pool(parry, "--parry")
    check_typed_pool(soak_pool, "--soak-pool")
    check_range(defender_actions, "--defender-actions", 1, MAX_DEFENDER_ACTIONS)
    defences = [(k, v) for k, v in (("dodge", dodge), ("block", block), ("parry", parry)) if v is not None]
    if len(defences) > 1:
        raise typer.BadParameter("give one of --dodge, --block, --parry")
    defence_kind, defence = defences[0] if defences else ("dodge", None)
    overrides = flag_overrides(specialty, extra_ones_cancel, ones_dont_cancel)
    combat = make_combat_rules(damage_ones_cancel, unsoakable=unsoakable or ())
    used_seed = fresh_seed(seed)
    faces = [_faces(dice_attack), _faces(dice_damage), _faces(dice_soak)]
    all_given = faces[0] is not None
    if soak_pool is not None and not soak:
        raise typer.BadParameter("give --soak-pool or --no-soak, not both")
    order = AttackOrder(
        attacker,
        target,
        pool=pool,
        damage=damage,
        difficulty=difficulty,
        damage_type=damage_type,
        soak=soak_pool if soak_pool is not None else ("" if soak and not coup_de_grace else None),
        damage_difficulty=damage_difficulty,
        soak_difficulty=soak_difficulty,
        chronicle=chronicle,
        spec=spec,
        damage_spec=damage_spec,
        attack_faces=faces[0],
        damage_faces=faces[1],
        soak_faces=faces[2],
        defence_faces=_faces(dice_dodge),
        seed=used_seed,
        overrides=overrides,
        combat=combat,
        willpower=willpower,
        weapon=weapon,
        maneuver=maneuver,
        range_=range_,
        defence=defence,
        defence_kind=defence_kind,
        defence_difficulty=dodge_difficulty,
        defender_actions=defender_actions,
        silver=silver,
        coup_de_grace=coup_de_grace,
        rage_action=rage,
        force=force,
    )
    from stkit.store.table.prompts import attack_with_card  # lazy: start-up (loaded when the command runs)

    exchange = run(db, lambda gw: attack_with_card(gw, order))
    if json_out:
        from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

        data = exchange.to_dict()
        data["seed"] = None if all_given else used_seed
        print_json(data)
        return
    print_exchange(exchange)


#: The most actions a defender may have taken in one turn (a Garou with Rage and Celerity-like Gifts takes a
#: handful; a larger number is a typing slip).
MAX_DEFENDER_ACTIONS = 20


def print_exchange(x: Any) -> None:
    """Each step of an attack: the pools, every roll, the soak, the wounds and the target's health."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.store.fight.hit import pool_words  # lazy: start-up (loaded when the command runs)

    out = _console()
    r = x.result
    how = " (coup de grace)" if x.coup_de_grace else (" (Rage action)" if x.rage_action else "")
    out.print(_text(f"{x.attacker} attacks {x.target} ({x.damage_type.value}){how}", "bold"))
    if x.specialty is not None:
        out.print(_text(x.specialty.text, "dim"))
    for line in render.roll_lines(r.attack, title=f"Attack: {pool_words(x.attack_pool)}"):
        out.print(line)
    if r.defence is not None and x.defence_pool is not None:
        title = f"{x.defence_kind.capitalize()} ({x.target}): {pool_words(x.defence_pool)}"
        for line in render.roll_lines(r.defence, title=title):
            out.print(line)
        out.print(
            _text(
                f"{r.attack.final_successes} attack success{'es' if r.attack.final_successes != 1 else ''} - "
                f"{r.defence.final_successes} -> {r.net_successes}",
                "bold",
            )
        )
    if not r.hit:
        out.print(_text(f"{x.target} is not hit: no damage", "yellow"))
        for note in x.notes:
            out.print(_text(note, "dim"))
    else:
        base = pool_words(x.damage_pool)
        extra = f" + {r.extra_successes} for extra successes" if r.extra_successes else ""
        for line in render.roll_lines(r.damage, title=f"Damage: {base}{extra}", kind="damage"):
            out.print(line)
        if r.soak is not None and x.soak_pool is not None:
            how = " (the soak rules)" if x.soaked_by == "rules" else ""
            for line in render.roll_lines(r.soak, title=f"Soak{how}: {pool_words(x.soak_pool)}", kind="soak"):
                out.print(line)
        elif x.soaked_by == "none":
            out.print(_text(f"Not soaked: {x.target} rolls no soak (see the note below).", "yellow"))
        for note in x.notes:
            out.print(_text(note, "dim"))
        dealt = r.damage.final_successes
        soaked = f", soaked {r.soaked}" if r.soak is not None else ""
        levels = f"{r.wounds} {x.damage_type.value} level{'s' if r.wounds != 1 else ''}"
        words = "is dead" if x.dead else x.health.words
        out.print(_text(f"{dealt} damage{soaked} -> {levels}: {x.target} {words}", "bold"))
    out.print(_text(_logged(x.log_ids, x.scene_id, x.turn), "dim"))
    for w in x.warnings:
        out.print(_text(f"Warning: {w}", "yellow"))


_BOX = {"aggravated": "*", "lethal": "X", "bashing": "/", "": "."}


def fight_board_lines(board: Any) -> list[Any]:
    """`scene show`'s fight board: the turn's initiative order, who acts next, and each combatant's
    health boxes (* aggravated, X lethal, / bashing, . unhurt), form and state."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    lines = [Text(f"Fight, turn {board.turn}" + (f", {board.moon} moon" if board.moon else ""), style="bold")]
    for c in board.combatants:
        boxes = "".join(_BOX[b] for b in c["boxes"])
        if c["dead"]:
            state = "dead"
        elif c["health"]["incapacitated"]:
            state = "Incapacitated"
        else:
            state = c["health"]["level"] or "unhurt"
        mark = ">" if c["name"] == board.up_next else " "
        acted = "acted" if c["acted"] else ""
        lines.append(
            _text(f"{mark}{c['place']:>2}. {c['name']:<20} [{boxes}] {state:<13} {c['form_name']:<10} {acted}".rstrip())
        )
    who = board.up_next or "nobody: every combatant has acted (stkit scene next)"
    lines.append(_text(f"Next to act: {who}", "dim"))
    return lines


def register(app: typer.Typer) -> None:
    """Add `attack` to the root app."""
    app.command("attack", context_settings=_CONTEXT)(attack_cmd)
