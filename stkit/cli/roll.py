"""`stkit roll`, `stkit multi`, `stkit resisted`, `stkit teamwork`: dice pools the Storyteller way.

Only typer and the standard library are imported here at module level; the dice engine and rich are
loaded inside the commands (start-up time is part of the product).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from stkit.cli.common import make_roll_in, print_house_line, print_outcome, rules_in, run, store
from stkit.cli.complete import complete_character, complete_pool
from stkit.cli.options import (
    ChronicleLookupOpt,
    ChronicleOpt,
    DamageOnesCancelOpt,
    DbOpt,
    FreeBotchOpt,
    HouseExtraOnesOpt,
    HouseOnesOpt,
    HouseSpecialtyOpt,
    JsonOpt,
    RollDifficultyOpt,
    SeedOpt,
    SuccessesOpt,
    make_combat_rules,
    rule_options,
    rule_overrides,
)
from stkit.errors import InvalidValue
from stkit.text import check_range, counted

if TYPE_CHECKING:
    from stkit.store.db.handle import StoreHandle
    from stkit.store.rolling import RollOrder, RollOutcome


#: The most earlier failures --retry takes: the difficulty stops at 10 long before.
MAX_RETRY = 100


NoteOpt = Annotated[
    str | None,
    typer.Option("--note", help="A note kept with the roll in the log (the roll is logged).", show_default=False),
]
NeedOpt = Annotated[
    int | None,
    typer.Option(
        "--need",
        metavar="N",
        help="The successes the Storyteller requires (1 to 1000); the result says whether they were met.",
        show_default=False,
    ),
]


@rule_options
def roll(
    pool: Annotated[
        str,
        typer.Argument(
            help="Dice pool: a number of dice (1 to 1000) or a sum like 3+2; "
            "with --char, Traits like 'Dexterity + Brawl + 2'.",
            show_default=False,
            autocompletion=complete_pool,
        ),
    ],
    difficulty: RollDifficultyOpt = None,
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
        typer.Option("--dice", help="Count physical dice instead of rolling: the faces, e.g. 4,7,5,8,1 (a 0 is a 10)."),
    ] = None,
    need: NeedOpt = None,
    specialty: HouseSpecialtyOpt = None,
    extra_ones_cancel: HouseExtraOnesOpt = None,
    ones_cancel: HouseOnesOpt = None,
    free_botch: FreeBotchOpt = None,
    successes: SuccessesOpt = 0,
    note: NoteOpt = None,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
    char: Annotated[
        str | None,
        typer.Option(
            "--char",
            "-c",
            autocompletion=complete_character,
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
    damage: Annotated[
        bool, typer.Option("--damage", help="A damage roll: it never botches (see --damage-ones-cancel).")
    ] = False,
    soak: Annotated[
        bool,
        typer.Option("--soak", help="A soak roll: reflexive, it never botches (see --damage-ones-cancel)."),
    ] = False,
    damage_ones_cancel: DamageOnesCancelOpt = False,
    spec: Annotated[
        bool,
        typer.Option(
            "--spec",
            help="With --char: the roll uses a specialty of one of the pool's Traits, so --specialty's house "
            "rule applies (refused when no Trait of the pool has one).",
        ),
    ] = False,
) -> None:
    """Roll a dice pool against a difficulty.

    Chapter Five: Rules.

    Each die at or above the difficulty is a success; each 1 cancels a success (the rule of one); no
    success die and any 1 is a botch. Examples: `stkit roll 5 -d 7`, `stkit roll 6 --dice 5,4,8,8,2,6`.
    """
    from stkit.dice import parse_faces, validate_roll_options  # lazy: start-up (loaded when the command runs)
    from stkit.store.rolling import Purpose, RollOrder  # lazy: start-up (loaded when the command runs)

    if need is not None:
        check_range(need, "required successes (--need)", 1, 1000)
    check_range(successes, "automatic successes (--successes)", 0, 1000)
    kind = _kind_of(damage, soak, damage_ones_cancel, auto=auto, retry=retry, task=task)
    if kind is not None and (spec or (log_roll and char is None)):
        raise InvalidValue(f"--{'spec' if spec else 'log'} is not for a {kind} roll here")
    if task is not None and char is None:
        raise InvalidValue("--task needs --char: try-again is counted per character (or use --retry K)")
    if spec and char is None:
        raise InvalidValue("--spec needs --char: specialties are on the character's sheet")
    if task is not None:
        from stkit.text import MAX_NAME, check_text  # lazy: start-up (loaded when the command runs)

        check_text(task.strip(), "--task", limit=MAX_NAME)  # stored as a name: the name rules
    if retry >= 0:  # a negative one gets the dice engine's own message
        check_range(retry, "--retry", 0, MAX_RETRY)
    faces = parse_faces(dice) if dice is not None else None
    overrides = rule_overrides(
        specialty,
        extra_ones_cancel,
        ones_cancel,
        difficulty,
        free_botch,
    )
    if kind is None and difficulty is not None:
        validate_roll_options(difficulty, retry=retry, automatic=auto, willpower=willpower, has_faces=faces is not None)
    logged = char is not None or log_roll or secret or note is not None
    order = RollOrder(
        pool,
        character=char,
        chronicle=chronicle,
        purpose=Purpose(kind) if kind else Purpose.sheet if char else Purpose.plain,
        overrides=overrides,
        faces=tuple(faces) if faces is not None else None,
        seed=seed,
        willpower=willpower and not (kind and char),  # a damage or soak roll from a sheet spends none
        retry=retry,
        auto=auto,
        stressful=stressful,
        task=task,
        note=note,
        secret=secret,
        spec=spec,
        log=logged,
        combat=make_combat_rules(damage_ones_cancel) if kind else None,
        successes=successes,
    )
    done = make_roll_in(store(db), order)
    if kind is None:
        print_outcome(done, json_out=json_out, need=need, logged=logged, secret=secret)
        return
    from stkit.cli.combat import print_purpose_roll  # lazy: start-up (loaded when the command runs)

    print_purpose_roll(done, order, json_out=json_out)


def _kind_of(damage: bool, soak: bool, ones_cancel: bool, *, auto: bool, retry: int, task: str | None) -> str | None:
    """'damage', 'soak' or None (an action) from the flags; refuses the flags that only fit an action."""

    if damage and soak:
        raise InvalidValue("--damage and --soak are two different rolls; give one of them")
    kind = "damage" if damage else "soak" if soak else None
    if kind is None:
        if ones_cancel:
            raise InvalidValue("--damage-ones-cancel only applies with --damage or --soak")
        return None
    for flag, given in (("--auto", auto), ("--retry", bool(retry)), ("--task", task is not None)):
        if given:
            raise InvalidValue(f"{flag} is for actions; a {kind} roll is not an action")
    return kind


@rule_options
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
    willpower: Annotated[
        int | None,
        typer.Option(
            "--willpower",
            "-w",
            metavar="ACTION",
            help="Spend Willpower on action ACTION (1 = the first declared): one extra success; once a turn.",
        ),
    ] = None,
    specialty: HouseSpecialtyOpt = None,
    extra_ones_cancel: HouseExtraOnesOpt = None,
    ones_cancel: HouseOnesOpt = None,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
    char: Annotated[
        str | None,
        typer.Option(
            "--char",
            "-c",
            autocompletion=complete_character,
            help="Build each pool from this character's sheet ('Dexterity + Brawl'), "
            "then apply the ladder; each roll is logged (in the open scene's turn).",
        ),
    ] = None,
    chronicle: ChronicleLookupOpt = None,
    db: DbOpt = None,
    rage: Annotated[
        int,
        typer.Option(
            "--rage",
            help="With --char: spend K Rage points for K extra actions (the last K pools) with no penalty; "
            "at most the current points, once per turn in a scene.",
        ),
    ] = 0,
    rage_cap: Annotated[
        int | None,
        typer.Option("--rage-cap", help="HOUSE RULE: at most N Rage a turn for extra actions (off: only the points)."),
    ] = None,
) -> None:
    """Several actions in one turn, with the multiple-action dice.

    Chapter Five, "Multiple Actions".

    With N actions declared, the first loses N dice and each later one a die more (N+1, N+2, ...). An
    action left with no dice cannot be attempted and is not rolled. Example: `stkit multi 7 6 6` gives 4, 2, 1.
    """
    from stkit.dice import (  # lazy: start-up (loaded when the command runs)
        DEFAULT_DIFFICULTY,
        parse_faces,
        parse_pool_number,
        validate_pool,
    )
    from stkit.dice.actions import ActionSlot  # lazy: start-up (loaded when the command runs)
    from stkit.dice.request import plan_multiple_actions  # lazy: start-up (loaded when the command runs)
    from stkit.store.rolling import Purpose, RollOrder, fresh_seed  # lazy: start-up (loaded when the command runs)

    if (rage or rage_cap is not None) and char is None:
        raise InvalidValue("--rage needs --char: the Rage points are spent from the character's sheet")
    if rage < 0:
        raise InvalidValue(f"--rage {rage} must be 0 or more Rage points")
    overrides = rule_overrides(specialty, extra_ones_cancel, ones_cancel)
    diffs = _difficulties(difficulty, len(pools), "actions")
    faces = [parse_faces(d) for d in dice] if dice else None
    used_seed = fresh_seed(seed)
    if char is not None:
        _multi_from_sheet(
            pools,
            char=char,
            chronicle=chronicle,
            db=db,
            difficulties=diffs,
            faces=faces,
            overrides=overrides,
            seed=used_seed,
            json_out=json_out,
            rage=rage,
            combat=make_combat_rules(rage_cap=rage_cap),
            willpower_action=willpower,
        )
        return
    declared = [validate_pool(parse_pool_number(p)) for p in pools]
    plan = plan_multiple_actions(
        declared,
        [DEFAULT_DIFFICULTY if d is None else d for d in diffs],
        faces_given=None if faces is None else len(faces),
        willpower_action=willpower,
    )
    hands = iter(faces or [])
    orders = [
        RollOrder(
            str(left),
            chronicle=chronicle,
            purpose=Purpose.multi,
            overrides=overrides.at_difficulty(d),
            faces=tuple(next(hands)) if faces is not None else None,
            seed=used_seed,
            willpower=i == willpower,
            log=False,
        )
        for i, ((_, _, left), d) in enumerate(zip(plan, diffs, strict=True), 1)
        if left >= 1
    ]
    handle = store(db)
    done = iter(make_rolls_in(handle, orders))
    slots = [ActionSlot(p, pen, left, next(done).roll if left >= 1 else None) for p, pen, left in plan]
    in_force = rules_in(handle, chronicle, overrides).in_force()  # also when no action had dice left
    print_house_line(in_force, json_out)
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

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
                "house_rules_in_force": in_force,
            }
        )
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

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


def _multi_from_sheet(
    pools, *, char, chronicle, db, difficulties, faces, overrides, seed, json_out, rage, combat, willpower_action
) -> None:
    """`stkit multi --char`: the ladder applied to pools from the sheet, every roll logged in one transaction."""
    from stkit.store.multi_actions import multi_from_sheet  # lazy: start-up (loaded when the command runs)

    slots = run(
        db,
        lambda gw: multi_from_sheet(
            gw,
            char,
            list(pools),
            difficulties,
            chronicle=chronicle,
            faces=faces,
            seed=seed,
            overrides=overrides,
            rage=rage,
            combat=combat,
            willpower_action=willpower_action,
        ),
    )
    rolled = [x.rolled for x in slots if x.rolled is not None]
    in_force = list(rolled[0].house_in_force) if rolled else []
    used_seed = seed
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if json_out:
        render.print_json(
            {
                "character": char,
                "actions": [dict(action=i + 1, **x.to_dict()) for i, x in enumerate(slots)],
                "seed": None if faces else used_seed,
                "house_rules_in_force": in_force,
            }
        )
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    out = render.console()
    print_house_line(in_force)
    if rage:
        left = slots[-1].rage_left
        ordinary = slots[: len(slots) - rage]
        others = (
            "the other action takes no penalty"
            if len(ordinary) == 1
            else f"the others lose {', '.join(str(x.penalty) for x in ordinary)} dice"
        )
        out.print(
            render.safe_text(
                f"{char} spends {rage} Rage for {rage} extra action{'s' if rage != 1 else ''} with no penalty "
                f"({left} Rage left); {others}",
                style="dim",
            )
        )
    else:
        out.print(
            Text(
                f"{len(slots)} actions declared: the first loses {len(slots)} dice, each later one a die more",
                style="dim",
            )
        )
    for i, x in enumerate(slots, 1):
        if x.rage_left is not None:
            title = f"Action {i} (Rage): {x.breakdown}"
        else:
            title = f"Action {i}: {x.breakdown}" + (f" - {x.penalty}" if x.penalty else "")
        if x.rolled is None:
            out.print(Text(f"{title}: no dice left, this action cannot be attempted", style="yellow bold"))
        else:
            render.print_roll(x.rolled.roll, title=title)
            where = f" (scene {x.rolled.scene_id}, turn {x.rolled.turn})" if x.rolled.scene_id is not None else ""
            out.print(Text(f"Logged as roll #{x.rolled.log_id}{where}", style="dim"))


@rule_options
def resisted(
    pool_a: Annotated[str, typer.Argument(help="Dice pool of side A.")],
    pool_b: Annotated[str, typer.Argument(help="Dice pool of side B.")],
    difficulty: RollDifficultyOpt = None,
    difficulty_b: Annotated[
        int | None, typer.Option("--difficulty-b", help="Side B's difficulty when it differs from A's.")
    ] = None,
    dice_a: Annotated[str | None, typer.Option("--dice-a", help="Physical dice for side A.")] = None,
    dice_b: Annotated[str | None, typer.Option("--dice-b", help="Physical dice for side B.")] = None,
    willpower: Annotated[
        str | None,
        typer.Option("--willpower", "-w", metavar="SIDE", help="Side a or b spends Willpower: one extra success."),
    ] = None,
    char_a: Annotated[
        str | None,
        typer.Option(
            "--char-a",
            help="Side A rolls from this sheet (POOL_A like 'Wits + Subterfuge'); logged.",
            autocompletion=complete_character,
        ),
    ] = None,
    char_b: Annotated[
        str | None,
        typer.Option("--char-b", help="Side B rolls from this sheet; logged.", autocompletion=complete_character),
    ] = None,
    specialty: HouseSpecialtyOpt = None,
    extra_ones_cancel: HouseExtraOnesOpt = None,
    ones_cancel: HouseOnesOpt = None,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
) -> None:
    """Resisted action: both roll, the winner keeps the margin.

    Chapter Five, "Resisted Actions": the side with more successes keeps only the margin over the other;
    a tie leaves nobody a success.

    Example (the moot plea): `stkit resisted 6 7 -d 8`.
    """
    from stkit.dice import (  # lazy: start-up (loaded when the command runs)
        parse_faces,
        parse_pool_number,
        resolve_resisted,
    )
    from stkit.store.rolling import Purpose, RollOrder, fresh_seed  # lazy: start-up (loaded when the command runs)

    side = _willpower_side(willpower)
    overrides = rule_overrides(specialty, extra_ones_cancel, ones_cancel)
    used_seed = fresh_seed(seed)
    sides = []
    for char, pool, d, hand, label, me in (
        (char_a, pool_a, difficulty, dice_a, "side A's dice pool", "a"),
        (char_b, pool_b, difficulty if difficulty_b is None else difficulty_b, dice_b, "side B's dice pool", "b"),
    ):
        if char is None:
            parse_pool_number(pool, label)
        sides.append(
            RollOrder(
                pool,
                character=char,
                chronicle=chronicle,
                purpose=Purpose.resisted,
                overrides=overrides.at_difficulty(d),
                faces=tuple(parse_faces(hand)) if hand is not None else None,
                seed=used_seed,
                willpower=side == me,
                log=False,
            )
        )
    done = make_rolls_in(store(db), sides)
    in_force = list(done[0].house_in_force)
    print_house_line(in_force, json_out)
    a, b = done[0].roll, done[1].roll
    who = [_who(d) for d in done]
    res = resolve_resisted(a, b)
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if json_out:
        render.print_json(
            {
                "a": a.to_dict() | _who_dict(who[0]),
                "b": b.to_dict() | _who_dict(who[1]),
                "winner": res.winner,
                "margin": res.margin,
                "degree": res.degree.value if res.degree else None,
                "botches": {"a": a.botch, "b": b.botch},
                "seed": None if dice_a is not None and dice_b is not None else used_seed,
                "house_rules_in_force": in_force,
            }
        )
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    render.print_roll(a, title=_side_title("Side A", who[0]))
    render.print_roll(b, title=_side_title("Side B", who[1]))
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


def make_rolls_in(handle: StoreHandle, orders: list[RollOrder]) -> list[RollOutcome]:
    """Several rolls of one door in ONE transaction on the store ``handle``, in order, with one generator
    seeded from the first order's seed (:func:`stkit.store.rolling.make_rolls`); a door of bare pools that
    log nothing, with no store yet, rolls under the rules as written without creating one."""
    from stkit.store.rolling import make_rolls  # lazy: start-up (loaded when the command runs)

    writes = any(o.character is not None or o.log for o in orders)
    if not writes and not any(o.overrides.free_botch for o in orders) and not handle.exists():
        return make_rolls(None, orders)
    return handle.run(lambda gw: make_rolls(gw, orders), readonly=not writes)


def _difficulties(given: list[int] | None, n: int, what: str) -> list[int | None]:
    """One difficulty per roll: the one given for all, or one each; None each (the chronicle's) when none."""
    from stkit.dice import pick_difficulties  # lazy: start-up (loaded when the command runs)

    return list(pick_difficulties(given, n, what)) if given else [None] * n


def _who(done: RollOutcome) -> tuple[str | None, str | None, int | None]:
    """(character, pool text, log id) of a roll from a sheet; (None, None, None) for a bare pool."""
    if done.character is None:
        return None, None, None
    return done.character, done.pool.text if done.pool else None, done.log_id


def _participant(text: str) -> tuple[str | None, str]:
    """(character name or None, pool) from a teamwork argument: 'Ana:dex+ath' or '4'."""

    if ":" not in text:
        return None, text
    name, pool = (part.strip() for part in text.split(":", 1))
    if not name or not pool:
        raise InvalidValue(f"participant {text!r} needs NAME:POOL, e.g. 'Ana:Dexterity + Athletics'")
    return name, pool


def _who_dict(who: tuple[str | None, str | None, int | None]) -> dict:
    """The JSON keys naming a roll's character, pool and log entry (none for a bare dice pool)."""
    name, pool_text, log_id = who
    return {} if name is None else {"character": name, "pool_text": pool_text, "log_id": log_id}


def _side_title(label: str, who: tuple[str | None, str | None, int | None]) -> str:
    """'Side A' or 'Side A: Ana, Wits 3 + Subterfuge 2 = 5 dice (roll #4)'."""
    name, pool_text, log_id = who
    return label if name is None else f"{label}: {name}, {pool_text} (roll #{log_id})"


def _willpower_side(text: str | None) -> str | None:
    """'a' or 'b' (any case) from --willpower on a resisted action; None when not given."""

    if text is None:
        return None
    side = text.strip().casefold()
    if side not in ("a", "b"):
        raise InvalidValue(f"--willpower {text!r} names no side; allowed: a or b (one side spends it)")
    return side


@rule_options
def teamwork(
    pools: Annotated[
        list[str],
        typer.Argument(
            help="Each participant's own dice pool (pools are never merged), two or more: a number of dice, "
            "or NAME:POOL to roll from a sheet ('Ana:Dexterity + Athletics'), logged."
        ),
    ],
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
    specialty: HouseSpecialtyOpt = None,
    extra_ones_cancel: HouseExtraOnesOpt = None,
    ones_cancel: HouseOnesOpt = None,
    seed: SeedOpt = None,
    json_out: JsonOpt = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
) -> None:
    """Teamwork: separate rolls, successes added.

    Chapter Five, "Teamwork": each participant rolls separately and the successes are added.
    By default one botch spoils everyone's work. Example: `stkit teamwork 4 5 3 -d 7`.
    """
    from stkit.dice import (  # lazy: start-up (loaded when the command runs)
        combine_teamwork,
        parse_faces,
        parse_pool_number,
        validate_pool,
    )
    from stkit.dice.actions import check_teamwork_size  # lazy: start-up (loaded when the command runs)
    from stkit.store.rolling import Purpose, RollOrder, fresh_seed  # lazy: start-up (loaded when the command runs)

    specs = [_participant(p) for p in pools[: check_teamwork_size(len(pools))]]
    overrides = rule_overrides(specialty, extra_ones_cancel, ones_cancel)
    diffs = _difficulties(difficulty, len(specs), "participants")
    faces = list(dice or [])
    if faces and len(faces) != len(specs):
        raise InvalidValue(f"{len(faces)} --dice given for {counted(len(specs), 'participant')}; give one each")
    for name, pool in specs:
        if name is None:
            validate_pool(parse_pool_number(pool))
    used_seed = fresh_seed(seed)
    orders = [
        RollOrder(
            pool,
            character=name,
            chronicle=chronicle,
            purpose=Purpose.teamwork,
            overrides=overrides.at_difficulty(d),
            faces=tuple(parse_faces(faces[i])) if faces else None,
            seed=used_seed,
            log=False,
        )
        for i, ((name, pool), d) in enumerate(zip(specs, diffs, strict=True))
    ]
    done = make_rolls_in(store(db), orders)
    in_force = list(done[0].house_in_force)
    print_house_line(in_force, json_out)
    rolls = [d.roll for d in done]
    who = [_who(d) for d in done]
    team = combine_teamwork(rolls, botch_spoils=botch_spoils)
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)

    if json_out:
        render.print_json(
            {
                "rolls": [r.to_dict() | _who_dict(w) for r, w in zip(rolls, who, strict=True)],
                "total": team.total,
                "outcome": team.outcome.value,
                "degree": team.degree.value if team.degree else None,
                "spoiled": team.spoiled,
                "botch_spoils": team.botch_spoils,
                "seed": None if faces else used_seed,
                "house_rules_in_force": in_force,
            }
        )
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    for i, (r, w) in enumerate(zip(rolls, who, strict=True), 1):
        render.print_roll(r, title=_side_title(f"Participant {i}", w))
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
    app.command("roll")(roll)
    app.command("multi")(multi)
    app.command("resisted")(resisted)
    app.command("teamwork")(teamwork)
