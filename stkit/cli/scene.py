"""`stkit scene`, `stkit extended`, `stkit contest`: scenes with turns, and tracked actions that last the night.

Only typer and the standard library at module level; the store, the dice engine and rich load inside the
commands. Rules: Chapter Five, "Extended Actions", "Resisted Actions", "Try It Out".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from stkit.cli.complete import complete_character, complete_contest, complete_extended
from stkit.cli.odds import DifficultyOpt
from stkit.cli.options import (
    ChronicleOpt,
    DbOpt,
    FreeBotchOpt,
    HouseExtraOnesOpt,
    HouseOnesOpt,
    HouseSpecialtyOpt,
    JsonOpt,
    RuleOverrides,
    SeedOpt,
    Specialty,
    rule_options,
    rule_overrides,
)
from stkit.errors import NotFound
from stkit.sheet.vocab import ActionStatus, ContestMode, ContestSide
from stkit.text import counted, dice_text

if TYPE_CHECKING:  # pragma: no cover
    from stkit.store.contests import ContestStatus
    from stkit.store.db.gateway import Gateway
    from stkit.store.extended import ExtendedAction, ExtendedStatus
    from stkit.store.scenes import SceneTimeline


_ExtendedArg = Annotated[
    str,
    typer.Argument(
        help="The extended action's id or name (a unique prefix will do).", autocompletion=complete_extended
    ),
]
_ContestArg = Annotated[
    str,
    typer.Argument(help="The contest's id or name (a unique prefix will do).", autocompletion=complete_contest),
]


def _house_flags(
    specialty: Specialty | None, extra_ones_cancel: bool | None, ones_cancel: bool | None, free_botch: bool | None
) -> RuleOverrides:
    """The per-roll house-rule overrides of a tracked roll (None: as the chronicle's house rules say)."""
    return rule_overrides(specialty, extra_ones_cancel, ones_cancel, None, free_botch)


_T = TypeVar("_T")


def _run(db: str | None, work: Callable[[Gateway], _T], *, readonly: bool = False) -> _T:
    """``work(gateway)`` as one transaction, retried whole when the database is busy (over sqlite3 on an
    up-to-date SQLite file: no SQLAlchemy import)."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)

    return run(db, work, readonly=readonly)


def _chronicle(chronicle: str | None) -> str:
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)

    return default_chronicle(chronicle)


def _faces(text: str | None) -> list[int] | None:
    if text is None:
        return None
    from stkit.dice import parse_faces  # lazy: start-up (loaded when the command runs)

    return parse_faces(text)


def _seed(seed: int | None) -> int:
    from stkit.store.rolling import fresh_seed  # lazy: start-up (loaded when the command runs)

    return fresh_seed(seed)


def _print_json(data) -> None:
    from stkit.cli.render import print_json  # lazy: start-up (loaded when the command runs)

    print_json(data)


def _bar(value: int, target: int, width: int = 24):
    """A progress bar as rich Text: filled blocks for the tally, light ones for what remains."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    filled = min(width, round(width * min(value, target) / target)) if target else width
    return Text("█" * filled, style="green") + Text("░" * (width - filled), style="dim")


# ------------------------------------------------------------------------------------------------ scene


def scene_start(
    name: Annotated[str, typer.Argument(help="The scene's name, e.g. 'The embassy wall'.")],
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Open a scene at turn 1 (one open scene per chronicle).

    While it is open, rolls made with --char belong to its current turn: Willpower once per turn, and
    try-again raises for a --task failed earlier in the scene. Example: `stkit scene start "The embassy"`.
    """
    from stkit.store.scenes import start_scene  # lazy: start-up (loaded when the command runs)

    scene = _run(db, lambda gw: start_scene(gw, _chronicle(chronicle), name))
    if json_out:
        _print_json(
            {
                "id": scene.id,
                "name": scene.name,
                "chronicle": scene.chronicle,
                "turn": scene.turn,
                "status": scene.status,
            }
        )
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(
        f"Scene {scene.id} {scene.name} opened in chronicle {scene.chronicle!r}: turn 1", markup=False
    )


def scene_turn(chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Move the open scene to its next turn.

    Each character may spend Willpower again."""
    from stkit.store.scenes import next_turn  # lazy: start-up (loaded when the command runs)

    def work(gw: Gateway) -> tuple[Any, dict | None]:
        from stkit.store.fight.initiative import current_initiative  # lazy: start-up (loaded when the command runs)

        scene = next_turn(gw, _chronicle(chronicle))
        return scene, current_initiative(gw, scene.id, scene.turn)

    scene, order = _run(db, work)
    if json_out:
        data = {"id": scene.id, "name": scene.name, "chronicle": scene.chronicle, "turn": scene.turn}
        _print_json(data | ({"initiative": order} if order else {}))
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.combat import initiative_lines  # lazy: start-up (loaded when the command runs)

    render.console().print(f"Scene {scene.id} {scene.name}: turn {scene.turn}", markup=False)
    for line in initiative_lines(order):
        render.console().print(line, markup=False)


def scene_initiative(
    names: Annotated[
        list[str] | None,
        typer.Argument(help="Who rolls (default: every character who has rolled in the scene).", show_default=False),
    ] = None,
    dice: Annotated[
        str | None, typer.Option("--dice", help="Physical dice: one face per character who can act, in order.")
    ] = None,
    seed: SeedOpt = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
    add: Annotated[
        list[str] | None,
        typer.Option("--add", help="A latecomer joins the order; the others keep their rolls. Repeatable."),
    ] = None,
) -> None:
    """Roll initiative and store the order on the current turn.

    One die + Dexterity (the form's) + Wits - wound penalties each; later
    turns keep the order until initiative is rolled again. Ties: the higher
    Dexterity + Wits, then the higher Wits; still equal, they act at the
    same moment. Example: `stkit scene initiative Weston Shadow-in-the-Wood`;
    a latecomer: `stkit scene initiative --add "Fomor two"`."""
    from stkit.cli.combat import initiative_command  # lazy: start-up (loaded when the command runs)

    if add and names:
        raise typer.BadParameter("give names to reroll everyone named, or --add NAME for a latecomer, not both")
    initiative_command(names, dice=dice, seed=seed, chronicle=chronicle, db=db, json_out=json_out, add=add)


def scene_end(chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Close the open scene.

    Extended actions and contests stay as they are and may go on in a later scene."""
    from stkit.store.scenes import end_scene  # lazy: start-up (loaded when the command runs)

    scene = _run(db, lambda gw: end_scene(gw, _chronicle(chronicle)))
    if json_out:
        _print_json(
            {
                "id": scene.id,
                "name": scene.name,
                "chronicle": scene.chronicle,
                "turns": scene.turn,
                "status": scene.status,
            }
        )
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(f"Scene {scene.id} {scene.name} ended after {counted(scene.turn, 'turn')}", markup=False)


def scene_moon(
    phase: Annotated[str, typer.Argument(help="new, crescent, half, gibbous or full.", show_default=False)],
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Set the chronicle's moon: it sets the Rage roll's difficulty.

    New 8, crescent 7, half 6, gibbous 5, full 4; `char moonrise` regains
    Rage by it. Example: `stkit scene moon full`."""
    from stkit.store.fight.night import set_moon  # lazy: start-up (loaded when the command runs)

    done = _run(db, lambda gw: set_moon(gw, _chronicle(chronicle), phase))
    if json_out:
        _print_json(done.to_dict())
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(
        f"The {done.phase} moon over chronicle {done.chronicle!r}: Rage rolls at difficulty {done.rage_difficulty}",
        markup=False,
    )


def scene_show(
    scene_id: Annotated[
        str | None,
        typer.Argument(help="Scene id or name (a unique prefix will do; default: the open scene, else the latest)."),
    ] = None,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Show a scene's timeline, turn by turn.

    Each turn with the rolls made in it, and the extended actions and contests."""
    timeline, board = _run(db, lambda gw: _timeline_and_board(gw, scene_id, chronicle), readonly=True)
    if json_out:
        _print_json(timeline.to_dict() | ({"fight": board.to_dict()} if board else {}))
        return
    _print_timeline(timeline, board)


def _timeline_and_board(gw: Gateway, scene_id: str | None, chronicle: str | None) -> tuple[SceneTimeline, Any]:
    """The scene's timeline (``scene_id``, else the open scene, else the latest) and, while it is open, the
    fight board. NotFound when the chronicle has no scene."""
    from stkit.store.fight.night import fight_board  # lazy: start-up (loaded when the command runs)
    from stkit.store.scenes import (  # lazy: start-up (loaded when the command runs)
        get_scene,
        list_scenes,
        open_scene,
        scene_id_for,
        scene_timeline,
    )

    if scene_id is not None:
        found = scene_timeline(gw, get_scene(gw, scene_id_for(gw, scene_id)))
    else:
        chron = _chronicle(chronicle)
        scene = open_scene(gw, chron) or next(iter(list_scenes(gw, chron, limit=1)), None)
        if scene is None:
            raise NotFound(f"chronicle {chron!r} has no scene yet; start one with: stkit scene start NAME")
        found = scene_timeline(gw, scene)
    board = fight_board(gw, found.scene.chronicle) if found.scene.status == "open" else None
    return found, board


def _timeline_roll_line(r) -> Any:
    """One roll of a scene's turn as a rich Text: id, link, who, pool, dice and result."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    line = Text(f"  #{r.roll_id} ")
    if r.kind != "roll":
        line += Text(f"[{r.linked_to or r.kind}] ", style="cyan")
    line += Text(f"{r.character or 'dice'}: {r.expression} ({r.pool}) at {r.difficulty}")
    if r.task:
        line += Text(f", task {r.task!r}", style="dim")
    line += Text(f": {' '.join(map(str, r.dice))} -> ")
    style = {"success": "green", "botch": "red bold"}.get(r.outcome, "yellow")
    line += Text(f"{r.result} ({r.outcome})" + (" +Willpower" if r.willpower else ""), style=style)
    return line


def _print_timeline(timeline: SceneTimeline, board: Any) -> None:
    """`scene show` as text: each turn with its initiative and rolls, then the tracked actions and the fight."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    out = render.console()
    sc = timeline.scene
    state = f"open, turn {sc.turn}" if sc.status == "open" else f"ended after {counted(sc.turn, 'turn')}"
    out.print(Text(f"Scene {sc.id} {sc.name} ({sc.chronicle}): {state}", style="bold"))
    for t in timeline.turns:
        out.print(Text(f"Turn {t.turn}", style="bold"))
        if t.initiative:
            order = ", ".join(f"{o['place']}. {o['name']} ({o['total']})" for o in t.initiative["order"])
            out.print(render.safe_text(f"  initiative: {order}", style="cyan"))
        if not t.rolls:
            out.print(Text("  no rolls", style="dim"))
        for r in t.rolls:
            out.print(_timeline_roll_line(r))
    for a in timeline.extended_actions:
        out.print(
            Text(
                f"Extended action {a['id']} {a['name']!r}: {a['tally']}/{a['target']} "
                f"after {counted(a['rolls'], 'roll')}, {a['status']}"
            )
        )
    for c in timeline.contests:
        out.print(
            Text(
                f"Contest {c['id']} {c['name']!r}: A {c['tally_a']} / B {c['tally_b']} "
                f"(target {c['target']}, {c['mode']}), {c['status']}"
            )
        )
    if board is not None:
        from stkit.cli.combat import fight_board_lines  # lazy: start-up (loaded when the command runs)

        for line in fight_board_lines(board):
            out.print(line)


def scene_list(chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """The scenes of a chronicle, newest first."""
    from stkit.store.scenes import list_scenes  # lazy: start-up (loaded when the command runs)

    scenes = _run(db, lambda gw: list_scenes(gw, _chronicle(chronicle)), readonly=True)
    if json_out:
        _print_json({"scenes": [x.to_dict() for x in scenes]})
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    out = render.console()
    if not scenes:
        out.print("No scenes yet.")
    for x in scenes:
        out.print(f"{x.id:>4}  {x.name}  ({x.status}, turn {x.turn})", markup=False)


# ------------------------------------------------------------------------------------------- extended


_BotchEndsOpt = Annotated[
    bool | None,
    typer.Option(
        "--botch-ends/--botch-wipes",
        help="A botch ends the attempt, or wipes the tally (default: the house rule extended-botch, else wipes).",
        show_default=False,
    ),
]
_BotchSpoilsOpt = Annotated[
    bool,
    typer.Option(
        "--botch-spoils/--no-botch-spoils",
        help="A botch by any participant spoils the effort (the rules); off: a botch just adds nothing.",
    ),
]


def extended_start(
    name: Annotated[str, typer.Argument(help="What is being done, e.g. 'Stay hidden'.")],
    char: Annotated[
        str | None,
        typer.Option(
            "--char", "-c", help="The character who rolls it from the sheet.", autocompletion=complete_character
        ),
    ] = None,
    pool: Annotated[
        str,
        typer.Option("--pool", "-p", help="Sheet expression ('Stamina + Stealth') with --char, else a number of dice."),
    ] = "",
    difficulty: DifficultyOpt = None,
    target: Annotated[int, typer.Option("--target", help="Successes needed to finish (at least 1).")] = 0,
    interval: Annotated[
        str | None, typer.Option("--interval", help="In-game time per roll, e.g. '30 min', '1 h', '1 turn'.")
    ] = None,
    botch_ends: _BotchEndsOpt = None,
    botch_spoils: _BotchSpoilsOpt = True,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Start tracking an extended action; prints its id.

    Chapter Five, "Extended Actions".

    Example (Weston hiding from the security teams):
    `stkit extended start "Stay hidden" --char Weston --pool "Stamina + Stealth" -d 7 --target 16 --interval "30 min"`
    """
    from stkit.store.extended import extended_status, start_extended  # lazy: start-up (loaded when the command runs)

    def work(gw: Gateway) -> ExtendedStatus:
        from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)
        from stkit.store.house import rules_in_force  # lazy: start-up (loaded when the command runs)

        house = rules_in_force(gw, default_chronicle(chronicle))
        action = start_extended(
            gw,
            name,
            chronicle=chronicle,
            character=char,
            pool=pool,
            difficulty=house.difficulty if difficulty is None else difficulty,
            target=target,
            interval=interval,
            botch_ends=house.extended_botch == "end" if botch_ends is None else botch_ends,
            botch_spoils=botch_spoils,
        )
        return extended_status(gw, action, odds=False)

    status = _run(db, work)
    if json_out:
        _print_json(status.to_dict())
        return
    _print_extended_started(status)


def _print_extended_started(status: ExtendedStatus) -> None:
    """The line `extended start` prints: id, name, who rolls what, the difficulty, target and interval."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    a = status.action
    who = f"{status.character} rolls {a.pool_expr}" if status.character else dice_text(a.pool_expr)
    every = f", one roll every {a.interval_text}" if a.interval_text else ""
    render.console().print(
        f"Extended action {a.id} {a.name!r}: {who} at difficulty {a.difficulty}, "
        f"{counted(a.target, 'success')} needed{every}",
        markup=False,
    )


_ParticipantOpt = Annotated[
    str | None,
    typer.Option(
        "--char",
        "-c",
        help="Another participant rolls this time (teamwork over time).",
        autocompletion=complete_character,
    ),
]
_RollDifficultyOpt = Annotated[
    int | None,
    typer.Option(
        "--difficulty", "-d", help="This roll's difficulty, if not the action's (2 to 10).", show_default=False
    ),
]
_SheetWillpowerOpt = Annotated[
    bool, typer.Option("--willpower", "-w", help="Spend a Willpower point from the sheet: one extra success.")
]


@rule_options
def extended_roll(
    action: _ExtendedArg,
    char: _ParticipantOpt = None,
    pool: Annotated[str | None, typer.Option("--pool", "-p", help="This roller's pool, if not the action's.")] = None,
    difficulty: _RollDifficultyOpt = None,
    dice: Annotated[str | None, typer.Option("--dice", help="Physical dice: faces, e.g. 4,7,5,8,1 (0 is 10).")] = None,
    willpower: _SheetWillpowerOpt = False,
    specialty: HouseSpecialtyOpt = None,
    extra_ones_cancel: HouseExtraOnesOpt = None,
    ones_cancel: HouseOnesOpt = None,
    free_botch: FreeBotchOpt = None,
    seed: SeedOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll once for an extended action, adding to its tally.

    A botch wipes the tally (or ends the attempt with --botch-ends); reaching the target completes it.
    """
    from stkit.store.extended import (  # lazy: start-up (loaded when the command runs)
        ExtendedRollOutcome,
        action_id_for,
        extended_status,
        roll_extended,
    )

    faces = _faces(dice)
    used_seed = _seed(seed)

    def work(gw: Gateway) -> tuple[ExtendedRollOutcome, ExtendedStatus]:
        done = roll_extended(
            gw,
            action_id_for(gw, action),
            character=char,
            pool=pool,
            faces=faces,
            willpower=willpower,
            seed=used_seed,
            difficulty=difficulty,
            overrides=_house_flags(specialty, extra_ones_cancel, ones_cancel, free_botch),
        )
        return done, extended_status(gw, done.action, odds=False)

    out, status = _run(db, work)
    in_force, forgiven = list(out.made.house_in_force), out.made.forgiven_botch
    if json_out:
        data = out.to_dict(status, seed=None if faces is not None else used_seed)
        _print_json(data | {"house_rules_in_force": in_force, "forgiven_botch": forgiven})
        return
    _print_extended_roll(out, status, in_force, forgiven)


def _print_extended_roll(out: Any, status: ExtendedStatus, in_force: list, forgiven: Any) -> None:
    """`extended roll` as text: the roll, the tally, and what a botch or the finish did."""
    roll, explanation, who = out.made.roll, out.made.explanation, out.made.participant.label
    tracked = out.action
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import print_forgiven, print_house_line  # lazy: start-up (loaded when the command runs)

    con = render.console()
    print_house_line(in_force)
    render.print_roll(roll, title=f"{who} ({explanation})" if out.made.participant.character else None)
    print_forgiven(forgiven)
    con.print(_tally_line(status))
    if out.spoiled and tracked.status == "failed":
        con.print(Text("The botch ends the attempt.", style="red bold"))
    elif out.spoiled and out.tally_before:
        con.print(
            Text(
                f"The botch wipes the {out.tally_before} success{'es' if out.tally_before != 1 else ''} gathered: "
                "back to zero.",
                style="red bold",
            )
        )
    elif out.spoiled:
        con.print(Text("Botch: nothing was gathered yet, the tally stays at zero.", style="red bold"))
    elif roll.botch:
        con.print(Text("Botch, but this action was started with --no-botch-spoils: nothing is lost.", style="yellow"))
    if tracked.status == "done":
        con.print(Text(f"Done: {tracked.name} succeeds after {counted(tracked.rolls, 'roll')}.", style="green bold"))


def _tally_line(status: ExtendedStatus) -> Any:
    """'#1 Stay hidden  ████░░  3/16  (1 roll, 30 min in-game)  open' as rich Text."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.dice.contest import format_duration  # lazy: start-up (loaded when the command runs)

    a: ExtendedAction = status.action
    line = Text(f"#{a.id} {a.name}  ") + _bar(a.tally, a.target)
    line += Text(f"  {a.tally}/{a.target}  ({a.rolls} roll{'s' if a.rolls != 1 else ''}")
    spent = status.time_spent_seconds
    if spent is not None:
        line += Text(f", {format_duration(spent)} in-game")
    line += Text(f")  {a.status}")
    return line


def extended_status_cmd(
    action: _ExtendedArg,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Show an extended action: tally, rolls, chance to finish.

    Tally against target, every roll so far and who made it, the in-game time spent, and the exact chance
    to finish within the next 1, 2, 4 and 8 rolls (exact, from the odds engine)."""
    from stkit.store.extended import (  # lazy: start-up (loaded when the command runs)
        action_id_for,
        extended_status,
        get_action,
    )

    status = _run(db, lambda gw: extended_status(gw, get_action(gw, action_id_for(gw, action))), readonly=True)
    if json_out:
        _print_json(status.to_dict())
        return
    from rich.table import Table  # lazy: start-up (loaded when the command runs)
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    con = render.console()
    con.print(_tally_line(status))
    a = status.action
    who = f"{status.character}: {a.pool_expr}" if status.character else dice_text(a.pool_expr)
    if status.character_deleted:
        who = f"A deleted character: {a.pool_expr}"
    rules = "a botch ends it" if a.botch_ends else "a botch wipes the tally"
    if not a.botch_spoils:
        rules = "botches do not spoil it"
    con.print(f"{who} at difficulty {a.difficulty}; {rules}", style="dim", markup=False)
    if status.history:
        table = Table(show_header=True, header_style="bold")
        for col in ("#", "Who", "Pool", "Dice", "Result", "Tally"):
            table.add_column(col)
        for h in status.history:
            r = h.record
            result = f"{r.result} ({r.outcome})" + (" +WP" if r.willpower else "")
            table.add_row(
                str(r.seq), Text(h.character or ""), str(r.pool), " ".join(map(str, r.dice)), result, str(r.tally_after)
            )
        con.print(table)
    if status.odds:
        from fractions import Fraction  # lazy: start-up (loaded when the command runs)

        from stkit.text import percent  # lazy: start-up (loaded when the command runs)

        within = status.odds["within"].items()
        parts = [f"{k} roll{'s' if k != '1' else ''} {percent(Fraction(v['exact']))}" for k, v in within]
        con.print(f"Chance to finish within the next {', '.join(parts)} (pool {status.odds_pool})", markup=False)
        if status.odds["mean_rolls"] is not None:
            con.print(f"Expected rolls still needed: {status.odds['mean_rolls']:.1f}", style="dim", markup=False)
    elif status.odds_note:
        con.print(f"No exact chances: {status.odds_note}", style="dim", markup=False)


def extended_list(
    chronicle: ChronicleOpt = None,
    all_: Annotated[bool, typer.Option("--all", help="Also the finished and abandoned ones.")] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List the extended actions of a chronicle, newest first.

    Only the open ones unless --all."""
    from stkit.store.extended import extended_status, list_extended  # lazy: start-up (loaded when the command runs)

    def work(gw: Gateway) -> list[ExtendedStatus]:
        found = list_extended(gw, chronicle=_chronicle(chronicle), status=None if all_ else ActionStatus.open)
        return [extended_status(gw, a, odds=False) for a in found]

    rows = _run(db, work, readonly=True)
    if json_out:
        _print_json({"extended_actions": [r.to_dict(history=False) for r in rows]})
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    con = render.console()
    if not rows:
        con.print("No extended actions." if all_ else "No open extended actions (--all shows finished ones).")
    for r in rows:
        con.print(_tally_line(r))


def extended_abandon(
    action: _ExtendedArg,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Give up an open extended action; it takes no more rolls."""
    from stkit.store.extended import (  # lazy: start-up (loaded when the command runs)
        abandon_extended,
        action_id_for,
        extended_status,
    )

    status = _run(db, lambda gw: extended_status(gw, abandon_extended(gw, action_id_for(gw, action)), odds=False))
    if json_out:
        _print_json(status.to_dict())
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    a = status.action
    render.console().print(f"Extended action {a.id} {a.name!r} abandoned at {a.tally}/{a.target}", markup=False)


# --------------------------------------------------------------------------------------------- contest


_ContestDifficultyOpt = Annotated[
    str | None,
    typer.Option(
        "--difficulty",
        "-d",
        help="Side A's difficulty (both sides' unless --difficulty-b): 2 to 10, "
        "or the other side's Traits, e.g. 'Wits + 3' (default: the chronicle's house rule, else 6).",
        show_default=False,
    ),
]
_ContestModeOpt = Annotated[
    ContestMode,
    typer.Option(
        "--mode",
        help="tally: each side adds the margins it wins to its own tally (the moot debate). "
        "lead: one running lead, won by getting that many successes more than the other in total "
        "(the truck chase).",
    ),
]


def contest_start(
    name: Annotated[str, typer.Argument(help="The contest's name, e.g. 'Debate at the moot'.")],
    a: Annotated[str, typer.Option("--a", help="Side A: a character's name, or a number of dice.")],
    b: Annotated[str, typer.Option("--b", help="Side B: a character's name, or a number of dice.")],
    pool_a: Annotated[
        str | None, typer.Option("--pool-a", help="Side A's sheet expression, e.g. 'Charisma + Expression'.")
    ] = None,
    pool_b: Annotated[str | None, typer.Option("--pool-b", help="Side B's sheet expression.")] = None,
    difficulty: _ContestDifficultyOpt = None,
    difficulty_b: Annotated[
        str | None, typer.Option("--difficulty-b", help="Side B's difficulty: a number, or side A's Traits.")
    ] = None,
    target: Annotated[int, typer.Option("--target", help="Successes needed to win (at least 1).")] = 0,
    mode: _ContestModeOpt = ContestMode.tally,
    botch_wipes: Annotated[
        bool, typer.Option("--botch-wipes/--no-botch-wipes", help="A side that botches loses what it gathered.")
    ] = True,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Start an extended resisted contest; prints its id.

    Chapter Five, "Resisted Actions".

    Each exchange both sides roll; the side with more successes adds the difference; first to the target wins.
    Example: `stkit contest start "Debate" --a Ears-of-the-Wind --pool-a "Charisma + Expression"
    --b Red-of-Teeth --pool-b "Charisma + Expression" -d 7 --target 5`
    """
    from stkit.store.contests import contest_status, start_contest  # lazy: start-up (loaded when the command runs)

    def work(gw: Gateway) -> ContestStatus:
        from stkit.store.house import rules_in_force  # lazy: start-up (loaded when the command runs)

        default = rules_in_force(gw, _chronicle(chronicle)).difficulty
        contest = start_contest(
            gw,
            name,
            chronicle=chronicle,
            a=a,
            b=b,
            pool_a=pool_a,
            pool_b=pool_b,
            difficulty=default if difficulty is None else difficulty,
            difficulty_b=difficulty_b,
            target=target,
            mode=mode.value,
            botch_wipes=botch_wipes,
        )
        return contest_status(gw, contest)

    data = _run(db, work).to_dict()
    if json_out:
        _print_json(data)
        return
    _print_contest_started(data)


def _print_contest_started(data: dict) -> None:
    """The line `contest start` prints: id, name, the two sides, the target and mode."""
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(
        f"Contest {data['id']} {data['name']!r}: {_side_label(data['a'])} against {_side_label(data['b'])}, "
        f"first to {data['target']} ({data['mode']} mode)",
        markup=False,
    )


def _side_label(side: dict) -> str:
    if side["character"]:
        return f"{side['character']} ({side['pool']}, difficulty {side['difficulty']})"
    return f"{dice_text(side['pool'])} (difficulty {side['difficulty']})"


_ExchangeDifficultyAOpt = Annotated[
    str | None,
    typer.Option(
        "--difficulty-a",
        help="Side A's difficulty for this exchange: 2 to 10, or side B's Traits ('Intelligence + Expression').",
    ),
]


@rule_options
def contest_roll(
    contest: _ContestArg,
    side: Annotated[
        ContestSide | None, typer.Option("--side", help="Roll only this side (players rolling separately).")
    ] = None,
    pool_a: Annotated[str | None, typer.Option("--pool-a", help="Side A's pool for this exchange only.")] = None,
    pool_b: Annotated[str | None, typer.Option("--pool-b", help="Side B's pool for this exchange only.")] = None,
    difficulty_a: _ExchangeDifficultyAOpt = None,
    difficulty_b: Annotated[
        str | None,
        typer.Option("--difficulty-b", help="Side B's difficulty for this exchange (or side A's Traits)."),
    ] = None,
    dice_a: Annotated[str | None, typer.Option("--dice-a", help="Side A's physical dice.")] = None,
    dice_b: Annotated[str | None, typer.Option("--dice-b", help="Side B's physical dice.")] = None,
    willpower_a: Annotated[bool, typer.Option("--willpower-a", help="Side A spends Willpower.")] = False,
    willpower_b: Annotated[bool, typer.Option("--willpower-b", help="Side B spends Willpower.")] = False,
    specialty: HouseSpecialtyOpt = None,
    extra_ones_cancel: HouseExtraOnesOpt = None,
    ones_cancel: HouseOnesOpt = None,
    free_botch: FreeBotchOpt = None,
    seed: SeedOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Roll the next exchange of a contest.

    Both sides roll, or one with --side; the winner of the exchange adds its margin. The debate changes
    Traits each exchange: --pool-a/--pool-b and --difficulty-a/-b do that."""
    from stkit.store.contests import contest_id_for, roll_contest  # lazy: start-up (loaded when the command runs)
    from stkit.store.house import rules_in_force  # lazy: start-up (loaded when the command runs)

    fa, fb = _faces(dice_a), _faces(dice_b)
    used_seed = _seed(seed)
    flags = _house_flags(specialty, extra_ones_cancel, ones_cancel, free_botch)

    sides: dict[str, Any] = dict(pool_a=pool_a, pool_b=pool_b, difficulty_a=difficulty_a, difficulty_b=difficulty_b)
    sides |= dict(faces_a=fa, faces_b=fb, willpower_a=willpower_a, willpower_b=willpower_b)

    def work(gw):
        side_value = side.value if side else None
        out = roll_contest(gw, contest_id_for(gw, contest), side=side_value, overrides=flags, seed=used_seed, **sides)
        return out, rules_in_force(gw, out.status.contest.chronicle, flags).in_force()

    done, in_force = _run(db, work)
    data = done.to_dict() | {"seed": used_seed, "house_rules_in_force": in_force}
    if json_out:
        _print_json(data)
        return
    _print_contest_roll(done, data, in_force)


def _print_contest_roll(done: Any, data: dict, in_force: list) -> None:
    """`contest roll` as text: each side's roll, the exchange's winner (or the wait), then the standing."""
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.cli.common import print_house_line  # lazy: start-up (loaded when the command runs)

    con = render.console()
    print_house_line(in_force)
    for s_, side_roll in done.rolled.items():
        r = data["rolled"][s_]
        label = f"Side {s_.upper()}: {r['who']} ({r['explanation']})" if r["character"] else f"Side {s_.upper()}"
        if r.get("difficulty_from"):
            con.print(Text(f"Difficulty: {r['difficulty_from']}", style="dim"))
        render.print_roll(side_roll.roll, title=label)  # scored as rolled, house rules included
    ex = data["exchange"]
    if ex is None:
        con.print(Text(f"Waiting for side {data['waiting_for'].upper()} to roll this exchange.", style="yellow"))
    else:
        if ex["wiped"]:
            con.print(
                Text(
                    f"Botch: side {', '.join(w.upper() for w in ex['wiped'])} loses what it had gathered",
                    style="red bold",
                )
            )
        if ex["winner"]:
            con.print(
                Text(
                    f"Exchange {ex['exchange']}: side {ex['winner'].upper()} by {ex['margin']} "
                    f"({ex['result_a']} vs {ex['result_b']})",
                    style="bold",
                )
            )
        else:
            con.print(Text(f"Exchange {ex['exchange']}: tie at {ex['result_a']}, nobody gains", style="yellow"))
    _print_contest_standing(data)


def _print_contest_standing(data: dict) -> None:
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    con = render.console()
    t = data["target"]
    if data["mode"] == "lead":
        lead = data["lead"]
        who = "A" if lead > 0 else "B" if lead < 0 else None
        con.print(Text(f"Lead: {'side ' + who + ' by ' + str(abs(lead)) if who else 'even'} (target {t})"))
    else:
        con.print(
            Text("A ")
            + _bar(data["a"]["tally"], t, 16)
            + Text(f" {data['a']['tally']}/{t}   B ")
            + _bar(data["b"]["tally"], t, 16)
            + Text(f" {data['b']['tally']}/{t}")
        )
    if data["status"] == "done":
        side = data[data["winner"]]
        name = side["character"] or f"side {data['winner'].upper()}"
        con.print(
            Text(f"{name} wins {data['name']!r} after {counted(data['exchanges'], 'exchange')}.", style="green bold")
        )


def contest_status_cmd(
    contest: _ContestArg,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Show a contest: sides, tallies and every exchange."""
    from stkit.store.contests import (  # lazy: start-up (loaded when the command runs)
        contest_id_for,
        contest_status,
        get_contest,
    )

    data = _run(
        db, lambda gw: contest_status(gw, get_contest(gw, contest_id_for(gw, contest))), readonly=True
    ).to_dict()
    if json_out:
        _print_json(data)
        return
    from rich.table import Table  # lazy: start-up (loaded when the command runs)

    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    con = render.console()
    con.print(
        f"Contest {data['id']} {data['name']}: A {_side_label(data['a'])} vs B {_side_label(data['b'])}, "
        f"{data['status']}",
        markup=False,
    )
    if data["history"]:
        table = Table(show_header=True, header_style="bold")
        for col in ("Exchange", "A dice", "A", "B dice", "B"):
            table.add_column(col)
        for ex in data["history"]:
            cells = [str(ex["exchange"])]
            for k in ("a", "b"):
                r = ex.get(k)
                cells += (
                    [" ".join(map(str, r["dice"])), f"{r['result']} ({r['outcome']})"] if r else ["", "[dim]waiting[/]"]
                )
            table.add_row(*cells)
        con.print(table)
    _print_contest_standing(data)


def contest_list(
    chronicle: ChronicleOpt = None,
    all_: Annotated[bool, typer.Option("--all", help="Also the finished and abandoned ones.")] = False,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List the contests of a chronicle, newest first.

    Only the open ones unless --all."""
    from stkit.store.contests import contest_status, list_contests  # lazy: start-up (loaded when the command runs)

    def work(gw: Gateway) -> list[dict]:
        found = list_contests(gw, chronicle=_chronicle(chronicle), status=None if all_ else ActionStatus.open)
        return [contest_status(gw, c).to_dict(history=False) for c in found]

    rows = _run(db, work, readonly=True)
    if json_out:
        _print_json({"contests": rows})
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    con = render.console()
    if not rows:
        con.print("No contests." if all_ else "No open contests (--all shows finished ones).")
    for r in rows:
        con.print(
            f"{r['id']:>4}  {r['name']}: A {r['a']['tally']} / B {r['b']['tally']} of {r['target']} "
            f"({r['mode']}), {r['status']}",
            markup=False,
        )


def contest_abandon(
    contest: _ContestArg,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Call off an open contest."""
    from stkit.store.contests import (  # lazy: start-up (loaded when the command runs)
        abandon_contest,
        contest_id_for,
        contest_status,
    )

    data = _run(db, lambda gw: contest_status(gw, abandon_contest(gw, contest_id_for(gw, contest)))).to_dict()
    if json_out:
        _print_json(data)
        return
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    render.console().print(f"Contest {data['id']} {data['name']!r} abandoned", markup=False)


def register(app: typer.Typer) -> None:
    """Add the `scene`, `extended` and `contest` groups to the root app."""
    groups = (
        (
            "scene",
            "Scenes and turns: Willpower once a turn, try-again per task.",
            (
                ("start", scene_start),
                ("turn", scene_turn),
                ("next", scene_turn),
                ("initiative", scene_initiative),
                ("show", scene_show),
                ("moon", scene_moon),
                ("end", scene_end),
                ("list", scene_list),
            ),
        ),
        (
            "extended",
            "Extended actions tracked across commands.",
            (
                ("start", extended_start),
                ("roll", extended_roll),
                ("status", extended_status_cmd),
                ("list", extended_list),
                ("abandon", extended_abandon),
            ),
        ),
        (
            "contest",
            "Extended resisted contests: debates, chases.",
            (
                ("start", contest_start),
                ("roll", contest_roll),
                ("status", contest_status_cmd),
                ("list", contest_list),
                ("abandon", contest_abandon),
            ),
        ),
    )
    for name, summary, commands in groups:
        group = typer.Typer(help=summary, no_args_is_help=True)
        for command_name, function in commands:
            group.command(command_name)(function)
        app.add_typer(group, name=name)
