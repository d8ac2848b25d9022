"""`stkit roll`, `stkit multi`, `stkit resisted`, `stkit teamwork`: dice pools the Storyteller way.

Only typer and the standard library are imported here at module level; the dice engine and rich are
loaded inside the commands (start-up time is part of the product).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from stkit.cli.options import (
    ChronicleLookupOpt,
    DbOpt,
    DifficultyOpt,
    ExtraOnesOpt,
    JsonOpt,
    OnesDontCancelOpt,
    SeedOpt,
    Specialty,
    SpecialtyOpt,
    make_rng,
    make_rules,
)

if TYPE_CHECKING:
    from stkit.dice import HouseRules, RollRequest

_ROLL_CONTEXT = {"ignore_unknown_options": True}  # so that `stkit roll -3` reaches our own clear message
#: The most earlier failures --retry takes: the difficulty stops at 10 long before.
MAX_RETRY = 100


def _request(
    pool: int,
    difficulty: int,
    faces_text: str | None,
    *,
    rules: HouseRules,
    willpower: bool = False,
    retry: int = 0,
    automatic: bool = False,
    stressful: bool = False,
) -> RollRequest:
    """The roll request for ``pool`` dice, with the physical dice in ``faces_text`` when given."""
    from stkit.dice import RollRequest, parse_faces

    return RollRequest(
        pool,
        difficulty,
        rules=rules,
        willpower=willpower,
        retry=retry,
        automatic=automatic,
        stressful=stressful,
        faces=tuple(parse_faces(faces_text)) if faces_text is not None else None,
    )


def roll(
    pool: Annotated[
        str,
        typer.Argument(
            help="Dice pool: a number of dice (1 to 1000) or a sum like 3+2; "
            "with --char, Traits like 'Dexterity + Brawl + 2'.",
            show_default=False,
        ),
    ],
    difficulty: DifficultyOpt = 6,
    willpower: Annotated[
        bool, typer.Option("--willpower", "-w", help="Spend Willpower: one extra success 1s cannot cancel.")
    ] = False,
    auto: Annotated[
        bool,
        typer.Option(
            "--auto", help="Take one marginal success without rolling (pool must be at least the difficulty)."
        ),
    ] = False,
    stressful: Annotated[
        bool, typer.Option("--stressful", help="Combat or another stressful action: no automatic success.")
    ] = False,
    retry: Annotated[
        int, typer.Option("--retry", help="This is the K-th retry of a failed task: difficulty +K (at most 10).")
    ] = 0,
    dice: Annotated[
        str | None,
        typer.Option("--dice", help="Count physical dice instead of rolling: the faces, e.g. 4,7,5,8,1."),
    ] = None,
    specialty: SpecialtyOpt = Specialty.NONE,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
    char: Annotated[
        str | None,
        typer.Option(
            "--char",
            "-c",
            help="Build the pool from this character's sheet ('Dexterity + Brawl + 2'); "
            "form and wounds apply, --willpower spends a point from the sheet; the roll is logged.",
        ),
    ] = None,
    chronicle: ChronicleLookupOpt = None,
    log_roll: Annotated[
        bool, typer.Option("--log", help="Store the roll in the roll log (always on with --char).")
    ] = False,
    db: DbOpt = None,
    secret: Annotated[
        bool,
        typer.Option(
            "--secret",
            help="A Storyteller's secret roll: logged, and shown on the table server's Storyteller screen "
            "only (players' pages never see it).",
        ),
    ] = False,
    task: Annotated[
        str | None,
        typer.Option(
            "--task",
            help="Name the task (with --char): each earlier failure of it in this scene raises "
            "the difficulty by one, at most 10 (Chapter Five, 'Try, Try Again'); a success clears it.",
        ),
    ] = None,
) -> None:
    """Roll a dice pool against a difficulty.

    Chapter Five: Rules.

    Each die at or above the difficulty is a success; each 1 cancels a success (the rule of one); no
    success die and any 1 is a botch. Examples: `stkit roll 5 -d 7`, `stkit roll 6 --dice 5,4,8,8,2,6`.
    """
    from stkit.dice import parse_faces, parse_pool_number, resolve_roll, validate_pool, validate_roll_options
    from stkit.errors import InvalidValue
    from stkit.text import check_range

    if task is not None and char is None:
        raise InvalidValue("--task needs --char: try-again is counted per character (or use --retry K)")
    if task is not None:
        from stkit.text import MAX_NAME, check_text

        check_text(task.strip(), "--task", limit=MAX_NAME)  # stored as a name: the name rules
    if char is not None or log_roll or secret:
        # The store (sqlmodel) is imported only here, so a plain roll stays fast.
        from stkit.cli.common import roll_with_store

        faces = parse_faces(dice) if dice is not None else None
        validate_roll_options(difficulty, retry=retry, automatic=auto, willpower=willpower, has_faces=faces is not None)
        check_range(retry, "--retry", 0, MAX_RETRY)
        roll_with_store(
            pool,
            pool_dice=None if char is not None else validate_pool(parse_pool_number(pool)),
            char=char,
            chronicle=chronicle,
            db=db,
            difficulty=difficulty,
            willpower=willpower,
            auto=auto,
            stressful=stressful,
            retry=retry,
            faces=faces,
            rules=make_rules(specialty, extra_ones_cancel, ones_dont_cancel),
            seed=seed,
            json_out=json_out,
            task=task,
            secret=secret,
        )
        return
    n = parse_pool_number(pool)
    rules = make_rules(specialty, extra_ones_cancel, ones_dont_cancel)
    request = _request(
        n, difficulty, dice, rules=rules, willpower=willpower, retry=retry, automatic=auto, stressful=stressful
    )
    check_range(retry, "--retry", 0, MAX_RETRY)
    rng, used_seed = make_rng(seed)
    result = resolve_roll(request, rng=rng)
    from stkit.cli import render

    if json_out:
        data = result.to_dict()
        data["seed"] = None if dice is not None or auto else used_seed
        render.print_json(data)
    else:
        render.print_roll(result)


def multi(
    pools: Annotated[list[str], typer.Argument(help="The dice pool of each action, in the order declared.")],
    difficulty: Annotated[
        list[int] | None,
        typer.Option("--difficulty", "-d", help="Difficulty for all actions, or repeat once per action (2 to 10)."),
    ] = None,
    dice: Annotated[
        list[str] | None,
        typer.Option("--dice", help="Physical dice for each action that can be attempted, in order (repeat)."),
    ] = None,
    specialty: SpecialtyOpt = Specialty.NONE,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
    char: Annotated[
        str | None,
        typer.Option(
            "--char",
            "-c",
            help="Build each pool from this character's sheet ('Dexterity + Brawl'), "
            "then apply the ladder; each roll is logged (in the open scene's turn).",
        ),
    ] = None,
    chronicle: ChronicleLookupOpt = None,
    db: DbOpt = None,
) -> None:
    """Several actions in one turn, with the multiple-action dice.

    Chapter Five, "Multiple Actions".

    With N actions declared, the first loses N dice and each later one a die more (N+1, N+2, ...). An
    action left with no dice cannot be attempted and is not rolled. Example: `stkit multi 7 6 6` gives 4, 2, 1.
    """
    from stkit.dice import parse_faces, parse_pool_number, pick_difficulties, roll_multiple_actions, validate_pool

    if char is not None:
        _multi_from_sheet(
            pools,
            char=char,
            chronicle=chronicle,
            db=db,
            difficulty=difficulty,
            dice=dice,
            rules=make_rules(specialty, extra_ones_cancel, ones_dont_cancel),
            seed=seed,
            json_out=json_out,
        )
        return
    declared = [validate_pool(parse_pool_number(p)) for p in pools]
    diffs = pick_difficulties(difficulty or [], len(declared), "actions")
    rules = make_rules(specialty, extra_ones_cancel, ones_dont_cancel)
    faces = [parse_faces(d) for d in dice] if dice else None
    rng, used_seed = make_rng(seed)
    slots = roll_multiple_actions(declared, diffs, rng=rng, rules=rules, faces=faces)
    from stkit.cli import render

    if json_out:
        render.print_json(
            {
                "actions": [
                    {
                        "action": i + 1,
                        "declared_pool": s.declared_pool,
                        "penalty": s.penalty,
                        "pool": s.pool,
                        "possible": s.possible,
                        "roll": s.roll.to_dict() if s.roll else None,
                    }
                    for i, s in enumerate(slots)
                ],
                "seed": None if faces else used_seed,
            }
        )
        return
    from rich.text import Text

    out = render.console()
    out.print(
        Text(
            f"{len(slots)} actions declared: the first loses {len(slots)} dice, each later one a die more", style="dim"
        )
    )
    for i, s in enumerate(slots, 1):
        title = f"Action {i} (pool {s.declared_pool} - {s.penalty})"
        if s.roll is None:
            out.print(Text(f"{title}: no dice left, this action cannot be attempted", style="yellow bold"))
        else:
            render.print_roll(s.roll, title=title)


def _multi_from_sheet(pools, *, char, chronicle, db, difficulty, dice, rules, seed, json_out) -> None:
    """`stkit multi --char`: the ladder applied to pools from the sheet, every roll logged in one transaction."""
    import random

    from stkit.cli.common import run
    from stkit.dice import parse_faces, pick_difficulties
    from stkit.store.multi_actions import multi_from_sheet

    diffs = pick_difficulties(difficulty or [], len(pools), "actions")
    faces = [parse_faces(d) for d in dice] if dice else None
    _, used_seed = make_rng(seed)
    slots = run(
        db,
        lambda s: multi_from_sheet(
            s, char, list(pools), diffs, chronicle=chronicle, faces=faces, rng=random.Random(used_seed), rules=rules
        ),
    )
    from stkit.cli import render

    if json_out:
        render.print_json(
            {
                "character": char,
                "actions": [dict(action=i + 1, **x.to_dict()) for i, x in enumerate(slots)],
                "seed": None if faces else used_seed,
            }
        )
        return
    from rich.text import Text

    out = render.console()
    out.print(
        Text(
            f"{len(slots)} actions declared: the first loses {len(slots)} dice, each later one a die more", style="dim"
        )
    )
    for i, x in enumerate(slots, 1):
        title = f"Action {i}: {x.breakdown} - {x.penalty}"
        if x.rolled is None:
            out.print(Text(f"{title}: no dice left, this action cannot be attempted", style="yellow bold"))
        else:
            render.print_roll(x.rolled.roll, title=title)
            where = f" (scene {x.rolled.scene_id}, turn {x.rolled.turn})" if x.rolled.scene_id is not None else ""
            out.print(Text(f"Logged as roll #{x.rolled.log_id}{where}", style="dim"))


def resisted(
    pool_a: Annotated[str, typer.Argument(help="Dice pool of side A.")],
    pool_b: Annotated[str, typer.Argument(help="Dice pool of side B.")],
    difficulty: DifficultyOpt = 6,
    difficulty_b: Annotated[
        int | None, typer.Option("--difficulty-b", help="Side B's difficulty when it differs from A's.")
    ] = None,
    dice_a: Annotated[str | None, typer.Option("--dice-a", help="Physical dice for side A.")] = None,
    dice_b: Annotated[str | None, typer.Option("--dice-b", help="Physical dice for side B.")] = None,
    specialty: SpecialtyOpt = Specialty.NONE,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Resisted action: both roll, the winner keeps the margin.

    Chapter Five, "Resisted Actions": the side with more successes keeps only the margin over the other;
    a tie leaves nobody a success.

    Example (the moot plea): `stkit resisted 6 7 -d 8`.
    """
    from stkit.dice import parse_pool_number, resolve_resisted, resolve_roll

    a_n, b_n = parse_pool_number(pool_a, "side A's dice pool"), parse_pool_number(pool_b, "side B's dice pool")
    rules = make_rules(specialty, extra_ones_cancel, ones_dont_cancel)
    request_a = _request(a_n, difficulty, dice_a, rules=rules)
    request_b = _request(b_n, difficulty if difficulty_b is None else difficulty_b, dice_b, rules=rules)
    rng, used_seed = make_rng(seed)
    a = resolve_roll(request_a, rng=rng)
    b = resolve_roll(request_b, rng=rng)
    res = resolve_resisted(a, b)
    from stkit.cli import render

    if json_out:
        render.print_json(
            {
                "a": a.to_dict(),
                "b": b.to_dict(),
                "winner": res.winner,
                "margin": res.margin,
                "degree": res.degree.value if res.degree else None,
                "botches": {"a": a.botch, "b": b.botch},
                "seed": None if dice_a is not None and dice_b is not None else used_seed,
            }
        )
        return
    from rich.text import Text

    render.print_roll(a, title="Side A")
    render.print_roll(b, title="Side B")
    out = render.console()
    if res.winner is None:
        out.print(Text(f"Tie at {a.final_successes}: nobody keeps any success", style="yellow bold"))
    else:
        word = "success" if res.margin == 1 else "successes"
        out.print(
            Text(
                f"Side {res.winner.upper()} wins with {res.margin} {word} ({res.degree}) "
                f"after {a.final_successes} vs {b.final_successes}",
                style="green bold",
            )
        )


def teamwork(
    pools: Annotated[list[str], typer.Argument(help="Each participant's own dice pool (pools are never merged).")],
    difficulty: Annotated[
        list[int] | None,
        typer.Option("--difficulty", "-d", help="Difficulty for everyone, or repeat once per participant (2 to 10)."),
    ] = None,
    botch_spoils: Annotated[
        bool,
        typer.Option("--botch-spoils/--no-botch-spoils", help="One participant's botch ruins the whole effort."),
    ] = True,
    dice: Annotated[
        list[str] | None, typer.Option("--dice", help="Physical dice for each participant, in order (repeat).")
    ] = None,
    specialty: SpecialtyOpt = Specialty.NONE,
    extra_ones_cancel: ExtraOnesOpt = False,
    ones_dont_cancel: OnesDontCancelOpt = False,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Teamwork: separate rolls, successes added.

    Chapter Five, "Teamwork": each participant rolls separately and the successes are added.
    By default one botch spoils everyone's work. Example: `stkit teamwork 4 5 3 -d 7`.
    """
    from stkit.dice import combine_teamwork, parse_pool_number, pick_difficulties, resolve_roll, validate_pool
    from stkit.errors import InvalidValue

    ns = [validate_pool(parse_pool_number(p)) for p in pools]
    diffs = pick_difficulties(difficulty or [], len(ns), "participants")
    rules = make_rules(specialty, extra_ones_cancel, ones_dont_cancel)
    faces = list(dice or [])
    if faces and len(faces) != len(ns):
        raise InvalidValue(f"{len(faces)} --dice given for {len(ns)} participants; give one each")
    requests = [
        _request(n, d, faces[i] if faces else None, rules=rules) for i, (n, d) in enumerate(zip(ns, diffs, strict=True))
    ]
    rng, used_seed = make_rng(seed)
    rolls = [resolve_roll(r, rng=rng) for r in requests]
    team = combine_teamwork(rolls, botch_spoils=botch_spoils)
    from stkit.cli import render

    if json_out:
        render.print_json(
            {
                "rolls": [r.to_dict() for r in rolls],
                "total": team.total,
                "outcome": team.outcome.value,
                "degree": team.degree.value if team.degree else None,
                "spoiled": team.spoiled,
                "botch_spoils": team.botch_spoils,
                "seed": None if faces else used_seed,
            }
        )
        return
    from rich.text import Text

    for i, r in enumerate(rolls, 1):
        render.print_roll(r, title=f"Participant {i}")
    out = render.console()
    if team.spoiled:
        out.print(
            Text(" BOTCH! ", style="bold white on red")
            + Text(" a participant botched: the whole effort is spoiled", style="red bold")
        )
    elif team.total:
        word = "success" if team.total == 1 else "successes"
        out.print(Text(f"Team total: {team.total} {word} ({team.degree})", style="green bold"))
    else:
        out.print(Text(f"Team total: no successes ({team.outcome.value})", style="yellow bold"))


def register(app: typer.Typer) -> None:
    """Add roll, multi, resisted and teamwork to the root app."""
    app.command("roll", context_settings=_ROLL_CONTEXT)(roll)
    app.command("multi", context_settings=_ROLL_CONTEXT)(multi)
    app.command("resisted", context_settings=_ROLL_CONTEXT)(resisted)
    app.command("teamwork", context_settings=_ROLL_CONTEXT)(teamwork)
