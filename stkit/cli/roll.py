"""`stkit roll`, `stkit multi`, `stkit resisted`, `stkit teamwork`: dice pools the Storyteller way.

Only typer and the standard library are imported here at module level; the dice engine and rich are
loaded inside the commands (start-up time is part of the product).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from stkit.cli.common import need_dict, print_forgiven, print_house_line, print_need
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
    Specialty,
    house_rules_for,
    make_combat_rules,
    make_rng,
)

if TYPE_CHECKING:
    from stkit.dice import HouseRules, RollRequest, RollResult
    from stkit.dice.house import ChronicleRules


def _house(
    db: str | None,
    chronicle: str | None,
    specialty: Specialty | None,
    extra_ones_cancel: bool | None,
    ones_cancel: bool | None,
) -> ChronicleRules:
    """The chronicle's house rules with this command's dice flags on top (see house_rules_for)."""
    return house_rules_for(
        db, chronicle, specialty=specialty, extra_ones_cancel=extra_ones_cancel, ones_cancel=ones_cancel
    )


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
        typer.Option("--dice", help="Count physical dice instead of rolling: the faces, e.g. 4,7,5,8,1."),
    ] = None,
    need: NeedOpt = None,
    specialty: HouseSpecialtyOpt = None,
    extra_ones_cancel: HouseExtraOnesOpt = None,
    ones_cancel: HouseOnesOpt = None,
    free_botch: FreeBotchOpt = None,
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
    from stkit.dice import parse_faces, parse_pool_number, validate_pool, validate_roll_options
    from stkit.errors import InvalidValue
    from stkit.text import check_range

    if need is not None:
        check_range(need, "required successes (--need)", 1, 1000)
    kind = _kind_of(damage, soak, damage_ones_cancel, auto=auto, retry=retry, task=task)
    if kind is not None and (spec or (log_roll and char is None)):
        raise InvalidValue(f"--{'spec' if spec else 'log'} is not for a {kind} roll here")
    if kind is not None:
        kind_rules = house_rules_for(
            db,
            chronicle,
            specialty=specialty,
            extra_ones_cancel=extra_ones_cancel,
            ones_cancel=ones_cancel,
            difficulty=difficulty,
        )
    if kind is not None and char is not None:
        from stkit.cli.combat import purpose_roll_command

        purpose_roll_command(
            kind,
            pool,
            char=char,
            chronicle=chronicle,
            db=db,
            difficulty=kind_rules.difficulty,
            dice=dice,
            rules=kind_rules.dice_rules(),
            combat=make_combat_rules(damage_ones_cancel),
            seed=seed,
            json_out=json_out,
        )
        return
    if kind is not None:
        _roll_kind_plain(
            kind,
            pool,
            kind_rules.difficulty,
            dice=dice,
            willpower=willpower,
            rules=kind_rules.dice_rules(),
            combat=make_combat_rules(damage_ones_cancel),
            seed=seed,
            json_out=json_out,
        )
        return
    if task is not None and char is None:
        raise InvalidValue("--task needs --char: try-again is counted per character (or use --retry K)")
    if spec and char is None:
        raise InvalidValue("--spec needs --char: specialties are on the character's sheet")
    if task is not None:
        from stkit.text import MAX_NAME, check_text

        check_text(task.strip(), "--task", limit=MAX_NAME)  # stored as a name: the name rules
    if retry >= 0:  # a negative one gets the dice engine's own message
        check_range(retry, "--retry", 0, MAX_RETRY)
    flags: dict[str, Any] = {
        "specialty": specialty,
        "extra_ones_cancel": extra_ones_cancel,
        "ones_cancel": ones_cancel,
        "difficulty": difficulty,
        "free_botch": free_botch,
    }
    faces = parse_faces(dice) if dice is not None else None
    if char is None and not log_roll and not secret and note is None:
        house = house_rules_for(db, chronicle, **flags)
        _plain_roll(pool, house, faces, willpower, retry, auto, stressful, seed, json_out, need, db, chronicle)
        return
    # The store (sqlmodel) is imported only here, so a plain roll stays fast.
    from stkit.cli.common import roll_with_store

    if difficulty is not None:
        validate_roll_options(difficulty, retry=retry, automatic=auto, willpower=willpower, has_faces=faces is not None)
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
        rules=None,
        seed=seed,
        json_out=json_out,
        task=task,
        house_flags=flags,
        note=note,
        need=need,
        spec=spec,
        secret=secret,
    )


def _plain_roll(
    pool: str,
    house: ChronicleRules,
    faces: list[int] | None,
    willpower: bool,
    retry: int,
    auto: bool,
    stressful: bool,
    seed: int | None,
    json_out: bool,
    need: int | None,
    db: str | None,
    chronicle: str | None,
) -> None:
    """A roll that writes nothing, under the chronicle's house rules, printed or as JSON; except that a
    botch the free botch forgives is logged with its forgiveness (the night's one)."""
    from stkit.dice import RollRequest, parse_pool_number, resolve_roll

    request = RollRequest(
        parse_pool_number(pool),
        house.difficulty,
        rules=house.dice_rules(),
        willpower=willpower,
        retry=retry,
        automatic=auto,
        stressful=stressful,
        faces=tuple(faces) if faces is not None else None,
    )
    rng, used_seed = make_rng(seed)
    result = resolve_roll(request, rng=rng)
    logged = None
    if house.free_botch and result.botch:
        from stkit.cli.common import run
        from stkit.config import default_chronicle
        from stkit.store.house import claim_free_botch
        from stkit.store.rolls import log_plain_roll

        chron = default_chronicle(chronicle)

        def forgive(gw: Any) -> Any:  # only a forgiven botch is logged: the forgiveness is its record
            done = claim_free_botch(gw, chron, result, house)
            if not done.forgiven:
                return None
            return log_plain_roll(gw, pool, result, chronicle=chron, seed=used_seed, house=house, forgiveness=done)

        logged = run(db, forgive)
        if logged is not None:
            result = logged.roll
    from stkit.cli import render

    if json_out:
        data = result.to_dict()
        data["seed"] = None if faces is not None or auto else used_seed
        data["house_rules_in_force"] = house.in_force()
        if logged is not None:
            data |= {"forgiven_botch": logged.forgiven_botch, "log_id": logged.log_id}
        render.print_json(data | need_dict(result, need))
    else:
        print_house_line(house.in_force())
        render.print_roll(result)
        if logged is not None:
            print_forgiven(logged.forgiven_botch)
            render.console().print(f"Logged as roll #{logged.log_id}", style="dim", markup=False)
        print_need(result, need)


def _kind_of(damage: bool, soak: bool, ones_cancel: bool, *, auto: bool, retry: int, task: str | None) -> str | None:
    """'damage', 'soak' or None (an action) from the flags; refuses the flags that only fit an action."""
    from stkit.errors import InvalidValue

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


def _roll_kind_plain(kind, pool, difficulty, *, dice, willpower, rules, combat, seed, json_out) -> None:
    """`stkit roll --damage` / `--soak` without a sheet: roll or count, print, log nothing."""
    from stkit.dice import parse_faces, parse_pool_number, validate_difficulty, validate_pool
    from stkit.dice.combat import RollPurpose, roll_kind

    n = validate_pool(parse_pool_number(pool))
    validate_difficulty(difficulty)
    rng, used_seed = make_rng(seed)
    faces = parse_faces(dice) if dice is not None else None
    result = roll_kind(
        RollPurpose(kind), n, difficulty, rng=rng, faces=faces, rules=rules, combat=combat, willpower=willpower
    )
    from stkit.cli import render

    if json_out:
        data = result.to_dict()
        data["kind"] = kind
        data["combat_rules"] = combat.to_dict()
        data["seed"] = None if dice is not None else used_seed
        render.print_json(data)
    else:
        render.print_roll(result, title=f"{kind.capitalize()} roll (cannot botch)", kind=kind)


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
    from stkit.dice import parse_faces, parse_pool_number, pick_difficulties, roll_multiple_actions, validate_pool
    from stkit.errors import InvalidValue

    if (rage or rage_cap is not None) and char is None:
        raise InvalidValue("--rage needs --char: the Rage points are spent from the character's sheet")
    if rage < 0:
        raise InvalidValue(f"--rage {rage} must be 0 or more Rage points")
    if char is not None:
        if willpower is not None:
            raise InvalidValue("--willpower with --char on multi is not supported yet; roll that action with `roll -w`")
        _multi_from_sheet(
            pools,
            char=char,
            chronicle=chronicle,
            db=db,
            difficulty=difficulty,
            dice=dice,
            rules=_house(db, chronicle, specialty, extra_ones_cancel, ones_cancel).dice_rules(),
            seed=seed,
            json_out=json_out,
            rage=rage,
            combat=make_combat_rules(rage_cap=rage_cap),
        )
        return
    declared = [validate_pool(parse_pool_number(p)) for p in pools]
    house = _house(db, chronicle, specialty, extra_ones_cancel, ones_cancel)
    diffs = pick_difficulties(difficulty or [house.difficulty], len(declared), "actions")
    rules = house.dice_rules()
    print_house_line(house.in_force(), json_out)
    faces = [parse_faces(d) for d in dice] if dice else None
    rng, used_seed = make_rng(seed)
    slots = roll_multiple_actions(declared, diffs, rng=rng, rules=rules, faces=faces, willpower_action=willpower)
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
                "house_rules_in_force": house.in_force(),
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


def _multi_from_sheet(
    pools, *, char, chronicle, db, difficulty, dice, rules, seed, json_out, rage=0, combat=None
) -> None:
    """`stkit multi --char`: the ladder applied to pools from the sheet, every roll logged in one transaction."""
    import random

    from stkit.cli.common import run
    from stkit.dice import parse_faces, pick_difficulties
    from stkit.store.multi_actions import multi_from_sheet

    house = house_rules_for(db, chronicle, specialty=rules.specialty)  # for the default difficulty
    diffs = pick_difficulties(difficulty or [house.difficulty], len(pools), "actions")
    faces = [parse_faces(d) for d in dice] if dice else None
    _, used_seed = make_rng(seed)
    slots = run(
        db,
        lambda s: multi_from_sheet(
            s,
            char,
            list(pools),
            diffs,
            chronicle=chronicle,
            faces=faces,
            rng=random.Random(used_seed),
            rules=rules,
            rage=rage,
            combat=combat,
        ),
    )
    from stkit.cli import render

    if json_out:
        render.print_json(
            {
                "character": char,
                "actions": [dict(action=i + 1, **x.to_dict()) for i, x in enumerate(slots)],
                "seed": None if faces else used_seed,
                "house_rules_in_force": house.in_force(),
            }
        )
        return
    from rich.text import Text

    out = render.console()
    print_house_line(house.in_force())
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
    from stkit.dice import parse_pool_number, resolve_resisted, resolve_roll

    side = _willpower_side(willpower)
    house = _house(db, chronicle, specialty, extra_ones_cancel, ones_cancel).override(difficulty=difficulty)
    print_house_line(house.in_force(), json_out)
    rng, used_seed = make_rng(seed)
    who: list[tuple[str | None, str | None, int | None]] = [(None, None, None), (None, None, None)]
    if char_a is not None or char_b is not None:
        flags = {"specialty": specialty, "extra_ones_cancel": extra_ones_cancel, "ones_cancel": ones_cancel}
        if char_a is None:
            parse_pool_number(pool_a, "side A's dice pool")
        if char_b is None:
            parse_pool_number(pool_b, "side B's dice pool")
        done = _sheet_rolls(
            db,
            chronicle,
            [
                (char_a, pool_a, difficulty, dice_a, side == "a"),
                (char_b, pool_b, difficulty if difficulty_b is None else difficulty_b, dice_b, side == "b"),
            ],
            flags,
            used_seed,
        )
        (a, *wa), (b, *wb) = done
        who = [tuple(wa), tuple(wb)]  # type: ignore[list-item]
    else:
        a_n, b_n = parse_pool_number(pool_a, "side A's dice pool"), parse_pool_number(pool_b, "side B's dice pool")
        rules = house.dice_rules()
        request_a = _request(a_n, house.difficulty, dice_a, rules=rules, willpower=side == "a")
        request_b = _request(
            b_n, house.difficulty if difficulty_b is None else difficulty_b, dice_b, rules=rules, willpower=side == "b"
        )
        a = resolve_roll(request_a, rng=rng)
        b = resolve_roll(request_b, rng=rng)
    res = resolve_resisted(a, b)
    from stkit.cli import render

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
                "house_rules_in_force": house.in_force(),
            }
        )
        return
    from rich.text import Text

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


def _sheet_rolls(
    db: str | None,
    chronicle: str | None,
    parts: list[tuple[str | None, str, int | None, str | None, bool]],
    flags: dict,
    seed: int,
    note: str | None = None,
) -> list[tuple[RollResult, str | None, str | None, int | None]]:
    """Roll several pools in ONE transaction, in order, with one seeded generator: each part is (character
    or None, pool, difficulty or None for the house default, faces text or None, Willpower?). A character's
    pool is built from the sheet and logged (Willpower spent from the sheet, the scene's turn rules); a bare
    number is rolled under the chronicle's house rules. Returns (roll, character name, pool text, log id)
    per part. Raises what roll_from_sheet raises (nothing is written then)."""
    import random

    from stkit.cli.common import run
    from stkit.config import default_chronicle
    from stkit.dice import RollRequest, parse_faces, parse_pool_number, resolve_roll
    from stkit.store.house import get_house_rules
    from stkit.store.rolls import roll_from_sheet

    rng = random.Random(seed)

    def work(gw: Any) -> list[tuple[RollResult, str | None, str | None, int | None]]:
        out = []
        for char, pool, difficulty, faces, willpower in parts:
            hand = parse_faces(faces) if faces is not None else None
            if char is not None:
                done = roll_from_sheet(
                    gw,
                    char,
                    pool,
                    difficulty=None,
                    chronicle=chronicle,
                    willpower=willpower,
                    rng=rng,
                    faces=hand,
                    seed=seed,
                    house_flags={**flags, "difficulty": difficulty},
                    note=note,
                )
                out.append((done.roll, done.character, done.pool.text if done.pool else None, done.log_id))
                continue
            house = get_house_rules(gw, default_chronicle(chronicle)).override(**{**flags, "difficulty": difficulty})
            request = RollRequest(
                parse_pool_number(pool),
                house.difficulty,
                rules=house.dice_rules(),
                willpower=willpower,
                faces=tuple(hand) if hand is not None else None,
            )
            out.append((resolve_roll(request, rng=rng), None, None, None))
        return out

    return run(db, work)


def _participant(text: str) -> tuple[str | None, str]:
    """(character name or None, pool) from a teamwork argument: 'Ana:dex+ath' or '4'."""
    from stkit.errors import InvalidValue

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
    from stkit.errors import InvalidValue

    if text is None:
        return None
    side = text.strip().casefold()
    if side not in ("a", "b"):
        raise InvalidValue(f"--willpower {text!r} names no side; allowed: a or b (one side spends it)")
    return side


def teamwork(
    pools: Annotated[
        list[str],
        typer.Argument(
            help="Each participant's own dice pool (pools are never merged): a number of dice, or NAME:POOL "
            "to roll from a sheet ('Ana:Dexterity + Athletics'), logged."
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
    from stkit.dice import combine_teamwork, parse_pool_number, pick_difficulties, resolve_roll, validate_pool
    from stkit.dice.actions import check_teamwork_size
    from stkit.errors import InvalidValue

    specs = [_participant(p) for p in pools[: check_teamwork_size(len(pools))]]
    house = _house(db, chronicle, specialty, extra_ones_cancel, ones_cancel)
    diffs = pick_difficulties(difficulty or [house.difficulty], len(specs), "participants")
    print_house_line(house.in_force(), json_out)
    faces = list(dice or [])
    if faces and len(faces) != len(specs):
        raise InvalidValue(f"{len(faces)} --dice given for {len(specs)} participants; give one each")
    for name, pool in specs:
        if name is None:
            validate_pool(parse_pool_number(pool))
    rng, used_seed = make_rng(seed)
    who: list[tuple[str | None, str | None, int | None]] = [(None, None, None)] * len(specs)
    if any(name is not None for name, _ in specs):
        flags = {"specialty": specialty, "extra_ones_cancel": extra_ones_cancel, "ones_cancel": ones_cancel}
        given = difficulty or []
        parts = [
            (
                name,
                pool,
                given[0] if len(given) == 1 else (given[i] if given else None),
                faces[i] if faces else None,
                False,
            )
            for i, (name, pool) in enumerate(specs)
        ]
        done = _sheet_rolls(db, chronicle, parts, flags, used_seed)
        rolls = [d[0] for d in done]
        who = [(d[1], d[2], d[3]) for d in done]
    else:
        rules = house.dice_rules()
        requests = [
            _request(parse_pool_number(pool), d, faces[i] if faces else None, rules=rules)
            for i, ((_, pool), d) in enumerate(zip(specs, diffs, strict=True))
        ]
        rolls = [resolve_roll(r, rng=rng) for r in requests]
    team = combine_teamwork(rolls, botch_spoils=botch_spoils)
    from stkit.cli import render

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
                "house_rules_in_force": house.in_force(),
            }
        )
        return
    from rich.text import Text

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
