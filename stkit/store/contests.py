"""Contests: extended and resisted actions between two sides, rolled exchange by exchange; each exchange
(both rolls, their log entries and the tallies) is one transaction.

Rules: Chapter Five: Rules, "Resisted Actions", "Extended Actions", "Try It Out" (see stkit.dice.contest).
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import select

from stkit import config
from stkit.dice import (
    STANDARD_RULES,
    HouseRules,
)
from stkit.dice.contest import (
    ContestState,
    advance_contest,
)
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.store.characters import character_by_id, character_names
from stkit.store.events import record_tracked_event
from stkit.store.extended import abandon_row, get_locked, newest_first
from stkit.store.participants import (
    Participant,
    check_pool,
    check_scene_chronicle,
    check_target,
    faces_list,
    numeric_pool,
    opponent_difficulty,
    participant,
    roll_for,
)
from stkit.store.scene_models import Contest, ContestRoll, utcnow
from stkit.store.scenes import open_scene
from stkit.text import MAX_NAME, check_text

# ---------------------------------------------------------------------------------------------- contests


def get_contest(session: Any, contest_id: int, *, lock: bool = False) -> Any:
    """The contest ``contest_id``; NotFound otherwise."""
    return get_locked(session, Contest, contest_id, lock, f"no contest with id {contest_id}; see: stkit contest list")


def start_contest(
    session: Any,
    name: str,
    *,
    chronicle: str | None,
    a: str,
    b: str,
    pool_a: str | None,
    pool_b: str | None,
    difficulty: int | str,
    difficulty_b: int | str | None,
    target: int,
    mode: str = "tally",
    botch_wipes: bool = True,
) -> Any:
    """Start an extended and resisted contest between side ``a`` and side ``b`` (character names with sheet
    expressions, or numbers of dice). Both characters must share the contest's chronicle. ``difficulty`` is side
    A's (and B's too unless ``difficulty_b``): a number, or the other side's Traits ("Wits + 3"), worked out now.

    Raises InvalidValue (target below 1, difficulty, mode), NotFound, RuleRefusal (chronicles differ).
    Source: Chapter Five, "Resisted Actions" and "Try It Out".
    """

    name = (name or "").strip()
    if not name:
        raise InvalidValue('a contest needs a name, e.g. "Debate at the moot"')
    check_text(name, "contest name", limit=MAX_NAME)
    check_target(target)
    ContestState(target=target, mode=mode)  # validates target and mode
    side_a = participant(session, a, pool_a, chronicle)
    chron = chronicle
    if chron is None and side_a.character is not None:
        chron = side_a.character.chronicle
    side_b = participant(session, b, pool_b, chron)
    if chron is None and side_b.character is not None:
        chron = side_b.character.chronicle
    chron = config.default_chronicle(chron)
    if side_a.character_id is not None and side_a.character_id == side_b.character_id:
        raise RuleRefusal(
            f"{side_a.label} is on both sides of the contest; side B needs another character or a number of dice"
        )
    for who in (side_a, side_b):
        check_scene_chronicle(session, chronicle, who)
        if who.character is not None and who.character.chronicle != chron:
            raise RuleRefusal(f"{who.character.name} is in chronicle {who.character.chronicle!r}, not in {chron!r}")
        check_pool(session, who)
    d_a, _ = opponent_difficulty(difficulty, side_b)
    d_b, _ = opponent_difficulty(difficulty if difficulty_b is None else difficulty_b, side_a)
    scene = open_scene(session, chron)
    contest = Contest(
        chronicle=chron,
        scene_id=scene.id if scene else None,
        name=name,
        mode=mode,
        target=target,
        botch_wipes=botch_wipes,
        a_character_id=side_a.character_id,
        a_pool_expr=side_a.expression,
        a_difficulty=d_a,
        b_character_id=side_b.character_id,
        b_pool_expr=side_b.expression,
        b_difficulty=d_b,
        tally_a=0,
        tally_b=0,
        exchanges=0,
        status="open",
    )
    session.add(contest)
    session.flush()
    record_tracked_event(session, contest, "contest", "started")
    return contest


def _side(session: Any, contest: Any, side: str, expression: str | None) -> Participant:
    char_id = contest.a_character_id if side == "a" else contest.b_character_id
    expr = (expression or (contest.a_pool_expr if side == "a" else contest.b_pool_expr)).strip()
    if char_id is None:
        numeric_pool(expr)
        return Participant(None, expr)
    char = character_by_id(session, char_id)
    if char is None:
        raise NotFound(f"side {side.upper()}'s character no longer exists")
    return Participant(char, expr)


def contest_rolls(session: Any, contest_id: int) -> list:
    """The rolls of a contest in order of exchange, side A first."""
    return list(
        session.exec(
            select(ContestRoll)
            .where(ContestRoll.contest_id == contest_id)
            .order_by(ContestRoll.exchange, ContestRoll.side)
        )
    )


def roll_contest(
    session: Any,
    contest_id: int,
    *,
    side: str | None = None,
    pool_a: str | None = None,
    pool_b: str | None = None,
    difficulty_a: int | str | None = None,
    difficulty_b: int | str | None = None,
    faces_a: list[int] | None = None,
    faces_b: list[int] | None = None,
    willpower_a: bool = False,
    willpower_b: bool = False,
    rng: Any,
    rules: HouseRules = STANDARD_RULES,
) -> dict:
    """Roll the next exchange of a contest: both sides, or only ``side`` ("a" or "b") when the players roll
    separately (the exchange resolves once both have rolled). ``pool_*`` and ``difficulty_*`` change the
    traits or difficulty for this exchange only (a debate changes them as it heats up); a difficulty may name
    the other side's Traits ("Intelligence + Expression"), see :func:`opponent_difficulty`.

    Returns a JSON-ready dict (see :func:`contest_status`) with ``"rolled"`` (this call's rolls) and
    ``"exchange"`` (the resolved exchange, or None while waiting for the other side).
    Raises NotFound, RuleRefusal (contest over, side already rolled this exchange), InvalidValue.
    """

    if side not in (None, "a", "b"):
        raise InvalidValue(f"side {side!r} must be a or b")
    contest = get_contest(session, contest_id, lock=True)
    if contest.status != "open":
        state = f"won by side {str(contest.winner).upper()}" if contest.status == "done" else contest.status
        raise RuleRefusal(f"contest {contest.id} ({contest.name!r}) is {state}; it takes no more rolls")
    exchange = contest.exchanges + 1
    pending = {r.side: r for r in contest_rolls(session, contest.id) if r.exchange == exchange}
    sides = [side] if side else [s for s in ("a", "b") if s not in pending]
    for s in sides:
        if s in pending:
            other = "b" if s == "a" else "a"
            raise RuleRefusal(
                f"side {s.upper()} has already rolled exchange {exchange}; waiting for side {other.upper()}"
            )
    args = {
        "a": (pool_a, difficulty_a, faces_a, willpower_a, contest.a_difficulty),
        "b": (pool_b, difficulty_b, faces_b, willpower_b, contest.b_difficulty),
    }
    for s in ("a", "b"):
        if s not in sides and (args[s][0] or args[s][1] is not None or args[s][2] is not None or args[s][3]):
            raise InvalidValue(f"options for side {s.upper()} were given but side {s.upper()} does not roll now")
    rolled = {}
    for s in sides:
        expr, diff, faces, wp, base_diff = args[s]
        who = _side(session, contest, s, expr)
        how = None
        if diff is not None:
            diff, how = opponent_difficulty(diff, _side(session, contest, "b" if s == "a" else "a", None))
        made = roll_for(
            session,
            who,
            base_diff if diff is None else diff,
            chronicle=contest.chronicle,
            faces=faces_list(faces),
            willpower=wp,
            rng=rng,
            rules=rules,
            kind="contest",
        )
        rec = ContestRoll(
            contest_id=contest.id,
            exchange=exchange,
            side=s,
            character_id=who.character_id,
            roll_log_id=made.log.id,
            pool_expr=who.expression,
            pool=made.roll.pool,
            difficulty=made.roll.difficulty,
            dice=json.dumps(list(made.roll.dice)),
            result=made.roll.result,
            outcome=made.roll.outcome.value,
            willpower=made.roll.willpower,
        )
        session.add(rec)
        pending[s] = rec
        rolled[s] = {
            "roll": made.roll.to_dict(),
            "explanation": made.explanation,
            "who": who.label,
            "character": who.character.name if who.character is not None else None,
            "difficulty_from": how,
        }
    resolved = None
    if "a" in pending and "b" in pending:
        ra, rb = pending["a"], pending["b"]
        state = ContestState(
            target=contest.target,
            mode=contest.mode,
            tally_a=contest.tally_a,
            tally_b=contest.tally_b,
            exchanges=contest.exchanges,
            botch_wipes=contest.botch_wipes,
        )
        new, ex = advance_contest(state, ra.result, ra.outcome == "botch", rb.result, rb.outcome == "botch")
        contest.tally_a, contest.tally_b, contest.exchanges = new.tally_a, new.tally_b, new.exchanges
        contest.status, contest.winner = new.status, new.winner
        if new.status != "open":
            contest.finished_at = utcnow()
        resolved = {
            "exchange": exchange,
            "winner": ex.winner,
            "margin": ex.margin,
            "result_a": ex.result_a,
            "result_b": ex.result_b,
            "botch_a": ex.botch_a,
            "botch_b": ex.botch_b,
            "wiped": list(ex.wiped),
        }
    session.add(contest)
    session.flush()
    record_tracked_event(session, contest, "contest", "rolled")
    data = contest_status(session, contest)
    data["rolled"] = rolled
    data["exchange"] = resolved
    return data


def abandon_contest(session: Any, contest_id: int) -> Any:
    """Call off an open contest. RuleRefusal when it is over, NotFound for a bad id."""
    contest = abandon_row(get_contest(session, contest_id, lock=True), "contest")
    session.add(contest)
    session.flush()
    record_tracked_event(session, contest, "contest", "abandoned")
    return contest


def list_contests(session: Any, *, chronicle: str | None = None, status: str | None = None) -> list:
    """Contests, newest first."""
    return newest_first(session, Contest, chronicle, status)


def contest_status(session: Any, contest: Any) -> dict:
    """A JSON-ready description of a contest: sides, tallies (or the lead), exchanges so far."""
    rolls = contest_rolls(session, contest.id)
    names = character_names(session, {contest.a_character_id, contest.b_character_id})
    exchanges: dict[int, dict] = {}
    for r in rolls:
        exchanges.setdefault(r.exchange, {"exchange": r.exchange})[r.side] = {
            "pool_expr": r.pool_expr,
            "pool": r.pool,
            "difficulty": r.difficulty,
            "dice": json.loads(r.dice),
            "result": r.result,
            "outcome": r.outcome,
            "willpower": r.willpower,
            "roll_id": r.roll_log_id,
        }
    waiting = None
    if contest.status == "open":
        nxt = exchanges.get(contest.exchanges + 1)
        if nxt:
            waiting = "b" if "a" in nxt else "a"
    return {
        "id": contest.id,
        "name": contest.name,
        "chronicle": contest.chronicle,
        "scene_id": contest.scene_id,
        "mode": contest.mode,
        "target": contest.target,
        "botch_wipes": contest.botch_wipes,
        "a": {
            "character": names.get(contest.a_character_id),
            "pool": contest.a_pool_expr,
            "difficulty": contest.a_difficulty,
            "tally": contest.tally_a,
        },
        "b": {
            "character": names.get(contest.b_character_id),
            "pool": contest.b_pool_expr,
            "difficulty": contest.b_difficulty,
            "tally": contest.tally_b,
        },
        "lead": contest.tally_a - contest.tally_b,
        "exchanges": contest.exchanges,
        "status": contest.status,
        "winner": contest.winner,
        "waiting_for": waiting,
        "history": [exchanges[k] for k in sorted(exchanges)],
    }
