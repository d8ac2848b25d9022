"""Prompts on the table's phones: an attack waiting for the defender's choice, and the Storyteller's call
for a roll.

An attack posted from the page is not rolled at once: it is stored as an open prompt (``table_prompts``,
revision 0015) and an 'attack' event tells the pages. The defender's own phone shows the choice (dodge,
block, parry or take it, each with its exact odds, :func:`defence_options`); the Storyteller answers for a
character without a player (an NPC, :func:`is_npc`) at once, and for a player who has not answered by the
prompt's ``answer_by``. The answer rolls the whole exchange through :func:`stkit.store.fight.attack.attack`
(soak by the soak rules) and writes one 'attack' event holding the card: hit or miss, each step's dice,
soak, wounds and the target's health after.

A call for a roll (:func:`call_for_roll`) names a pool, a difficulty and the characters asked; each
answers with one roll through :func:`stkit.store.rolling.make_roll` at the call's difficulty, and the
answers gather on the prompt (one 'call' event per change; the page shows them as one card).

Every function takes the caller's gateway (one transaction) and raises before writing anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from stkit.dice.combat import STANDARD_COMBAT, AttackSpec, p_attack
from stkit.dice.house import RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.sheet import Sheet
from stkit.store.characters import character_by_id, find_character
from stkit.store.db.gateway import iso_utc
from stkit.store.fight.attack import AttackOrder, attack, attack_pools, refuse_second_action
from stkit.store.fight.initiative import acted_this_turn, check_in_scene
from stkit.store.fight.rules import is_dead, refuse_dead
from stkit.store.house import rules_in_force
from stkit.store.rolling import Purpose, RollOrder, make_roll, odds_for
from stkit.store.scenes import find_turn_context
from stkit.store.table.events import dice_marks, record_event
from stkit.text import check_range, check_text

if TYPE_CHECKING:
    from stkit.dice import RollResult
    from stkit.store.db.gateway import Gateway
    from stkit.store.fight.attack import AttackExchange

#: The defender's answers to an attack and the pool each rolls: dodging (Dexterity + Dodge), blocking
#: (Dexterity + Brawl) and parrying (Dexterity + Melee), as the Revised combat chapter's defensive
#: maneuvers give them (Werewolf: The Apocalypse Revised, Chapter Six, "Combat Maneuvers": Block, Dodge,
#: Parry; restated in docs/combat.md), each at difficulty 6. "take" rolls no defence.
DEFENCE_POOLS = {"dodge": "Dexterity + Dodge", "block": "Dexterity + Brawl", "parry": "Dexterity + Melee"}
ANSWERS = ("take", "dodge", "block", "parry")
DEFENCE_DIFFICULTY = 6
#: The longest a player may be given to answer a prompt (seconds).
MAX_WAIT = 600
#: Most characters one call for a roll may ask.
MAX_CALLED = 40


@dataclass(frozen=True)
class Prompt:
    """One stored prompt: ``id``, ``chronicle``, ``kind`` ('attack' or 'call'), ``status`` ('open' or
    'closed'), ``created_at`` and ``answer_by`` (ISO 8601 UTC; None: no limit), ``asked`` and ``answers``
    (JSON objects)."""

    id: int
    chronicle: str
    kind: str
    status: str
    created_at: str
    answer_by: str | None
    asked: dict[str, Any]
    answers: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "chronicle": self.chronicle,
            "kind": self.kind,
            "status": self.status,
            "created_at": self.created_at,
            "answer_by": self.answer_by,
            "asked": self.asked,
            "answers": self.answers,
        }

    def waiting(self, now: datetime | None = None) -> bool:
        """Whether a player may still answer before the Storyteller may answer for them."""
        if self.answer_by is None:
            return False
        moment = now or datetime.now(UTC)
        return moment < datetime.fromisoformat(self.answer_by)


_COLUMNS = "id, chronicle, kind, status, created_at, answer_by, asked, answers"


def _prompt(row: tuple) -> Prompt:
    pid, chronicle, kind, status, created, answer_by, asked, answers = row
    return Prompt(
        int(pid),
        chronicle,
        kind,
        status,
        iso_utc(created),
        iso_utc(answer_by) if answer_by is not None else None,
        json.loads(asked or "{}"),
        json.loads(answers or "{}"),
    )


def find_prompt(gw: Gateway, prompt_id: int, chronicle: str, *, for_update: bool = False) -> Prompt:
    """Prompt ``prompt_id`` of ``chronicle``; NotFound otherwise."""
    check_range(prompt_id, "prompt id", 1, 2**62)
    row = gw.row(
        f"SELECT {_COLUMNS} FROM table_prompts WHERE id = :id AND chronicle = :c" + (gw.lock if for_update else ""),
        id=prompt_id,
        c=chronicle,
    )
    if row is None:
        raise NotFound(f"no prompt {prompt_id} in chronicle {chronicle!r}")
    return _prompt(row)


def open_prompts(gw: Gateway, chronicle: str) -> list[Prompt]:
    """The open prompts of ``chronicle``, oldest first."""
    rows = gw.rows(
        f"SELECT {_COLUMNS} FROM table_prompts WHERE chronicle = :c AND status = 'open' ORDER BY id", c=chronicle
    )
    return [_prompt(r) for r in rows]


def is_npc(sheet: Sheet) -> bool:
    """A character no player plays (the sheet names no player): the Storyteller answers its prompts, and a
    player's page does not show it in the party or the initiative order."""
    return not sheet.player.strip()


def _now() -> datetime:
    return datetime.now(UTC)


def _insert(gw: Gateway, chronicle: str, kind: str, asked: dict, answer_by: datetime | None) -> int:
    return gw.insert(
        "INSERT INTO table_prompts (chronicle, kind, status, created_at, answer_by, asked, answers) "
        "VALUES (:c, :k, 'open', :now, :by, :asked, '{}')",
        c=chronicle,
        k=kind,
        now=gw.timestamp(_now()),
        by=gw.timestamp(answer_by) if answer_by is not None else None,
        asked=json.dumps(asked, sort_keys=True, ensure_ascii=False),
    )


def _close(gw: Gateway, prompt: Prompt, answers: dict, *, status: str = "closed") -> None:
    gw.execute(
        "UPDATE table_prompts SET status = :s, answers = :a WHERE id = :id",
        s=status,
        a=json.dumps(answers, sort_keys=True, ensure_ascii=False, default=str),
        id=prompt.id,
    )


def _wait(seconds: int) -> int:
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= MAX_WAIT:
        raise InvalidValue(f"time to answer {seconds!r}: allowed 0 to {MAX_WAIT} seconds")
    return seconds


# ---------------------------------------------------------------------------------------------- attack


def post_attack(
    gw: Gateway,
    chronicle: str,
    attacker: str,
    target: str,
    *,
    pool: str | None = None,
    damage: str | None = None,
    damage_type: str | None = None,
    difficulty: int | None = None,
    weapon: str | None = None,
    maneuver: str | None = None,
    range_: str | None = None,
    rage_action: bool = False,
    wait: int = 30,
    force: bool = False,
) -> Prompt:
    """Post ``attacker``'s attack on ``target`` (both of ``chronicle``) for the defender's answer: the pool,
    weapon or maneuver, range and Rage action as :func:`stkit.store.fight.attack.attack` takes them, checked now
    (the pools are built, the two are in the same scene and alive, the target is not Incapacitated).
    ``wait``: seconds (0..:data:`MAX_WAIT`) the target's player has to answer before the Storyteller may
    answer for them (an NPC's prompt is the Storyteller's at once). Writes the prompt and an 'attack' event
    (state 'asked'). Raises NotFound, InvalidValue, RuleRefusal; nothing is written then."""

    a_row = find_character(gw, attacker, chronicle)
    t_row = find_character(gw, target, chronicle)
    if a_row.id == t_row.id:
        raise RuleRefusal(f"{a_row.name} cannot attack themselves")
    refuse_dead(gw, a_row, "attack")
    if is_dead(gw, t_row.id):
        raise RuleRefusal(f"attack: {t_row.name} is already dead")
    check_in_scene(gw, t_row, a_row)
    refuse_second_action(gw, a_row, find_turn_context(gw, a_row), rage_action=rage_action, force=force)
    t_sheet = t_row.to_sheet()
    if t_sheet.incapacitated:
        raise RuleRefusal(f"{t_row.name} is already Incapacitated; finishing them is a coup de grace (stkit attack)")
    if range_ is not None and weapon is None and maneuver is None:
        raise InvalidValue("a range goes with the firearms maneuver or a ranged weapon")
    if maneuver is not None and weapon is not None:
        if maneuver.strip().casefold() != "firearms":
            raise InvalidValue("give a weapon or a maneuver, not both (a gun goes with the firearms maneuver)")
        maneuver = None  # the gun's own plan: Dexterity + Firearms, its damage, the range's difficulty
    if maneuver is not None and maneuver.strip().casefold() == "firearms" and damage is None:
        raise InvalidValue(
            "the firearms maneuver needs a gun: pick the attacker's weapon "
            "(arm them with: stkit char arm NAME --weapon 'heavy pistol') or give a damage pool"
        )
    pools = attack_pools(
        gw,
        a_row.name,
        pool,
        damage,
        target=t_row.name,
        chronicle=chronicle,
        weapon=weapon,
        maneuver=maneuver,
        range_=range_,
        damage_type=damage_type,
        difficulty=difficulty,
    )
    npc = is_npc(t_sheet)
    asked = {
        "attacker": a_row.name,
        "attacker_id": a_row.id,
        "target": t_row.name,
        "target_id": t_row.id,
        "npc": npc,
        "pool": pool,
        "damage": damage,
        "damage_type": damage_type,
        "difficulty": difficulty,
        "weapon": weapon,
        "maneuver": maneuver,
        "range": range_,
        "rage_action": bool(rage_action),
        "force": bool(force),
        "attack_text": pools.attack.text,
        "attack_difficulty": pools.difficulty,
        "damage_text": pools.damage.text,
        "kind": str(pools.damage_type),
    }
    seconds = _wait(wait)
    answer_by = None if npc else _now() + timedelta(seconds=seconds)
    pid = _insert(gw, chronicle, "attack", asked, answer_by)
    posted = find_prompt(gw, pid, chronicle)
    record_event(
        gw,
        chronicle=chronicle,
        kind="attack",
        data={"prompt": pid, "state": "asked", "attacker": a_row.name, "target": t_row.name, "npc": npc},
        character_id=t_row.id,
    )
    return posted


@dataclass(frozen=True)
class DefenceOption:
    """One answer the defender may give: ``answer`` (one of :data:`ANSWERS`), the ``pool`` it rolls (its
    text as built, None for 'take'), the exact chance the defence roll succeeds (``p_defence``, None for
    'take'), the exact chance the attack then hits (``p_hit``) and the wounds expected (``expected``);
    ``refused``: why the answer is not open now (None: it is)."""

    answer: str
    pool: str | None
    p_defence: Any
    p_hit: Any
    expected: Any
    refused: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "answer": self.answer,
            "pool": self.pool,
            "p_defence": str(self.p_defence) if self.p_defence is not None else None,
            "p_hit": str(self.p_hit),
            "expected": str(self.expected),
            "refused": self.refused,
        }


def defence_options(gw: Gateway, prompt: Prompt) -> list[DefenceOption]:
    """The defender's answers to the attack ``prompt`` with their exact odds: the defence roll's chance
    (:func:`stkit.store.rolling.odds_for` on the defender's sheet at difficulty 6) and the chance the attack
    hits and the wounds expected after it (:func:`stkit.dice.combat.p_attack`, soak by the soak rules). A
    defender who already acted this turn may only take it (the attack use case refuses the rest)."""

    a = prompt.asked
    rules = rules_in_force(gw, prompt.chronicle).dice_rules()
    t_row = find_character(gw, a["target"], prompt.chronicle)
    acted = acted_this_turn(gw, t_row, find_turn_context(gw, t_row))
    out = []
    for answer in ANSWERS:
        expression = DEFENCE_POOLS.get(answer)
        pools = attack_pools(
            gw,
            a["attacker"],
            a.get("pool"),
            a.get("damage"),
            target=a["target"],
            chronicle=prompt.chronicle,
            weapon=a.get("weapon"),
            maneuver=a.get("maneuver"),
            range_=a.get("range"),
            damage_type=a.get("damage_type"),
            difficulty=a.get("difficulty"),
            defence=expression,
        )
        spec = AttackSpec(
            attack_pool=pools.attack.dice,
            damage_pool=pools.damage.dice,
            soak_pool=pools.soak.dice if pools.soak else 0,
            attack_difficulty=pools.difficulty,
            rules=rules,
            combat=STANDARD_COMBAT,
            defence_pool=pools.defence.dice if pools.defence else 0,
            defence_difficulty=DEFENCE_DIFFICULTY,
        )
        odds = p_attack(spec)
        p_defence = None
        if expression is not None:
            order = RollOrder(
                expression=expression,
                character=t_row.name,
                chronicle=prompt.chronicle,
                purpose=Purpose.sheet,
                overrides=RuleOverrides(difficulty=DEFENCE_DIFFICULTY),
            )
            p_defence = odds_for(gw, order).odds.p_success if pools.defence else 0
        refused = None
        if expression is not None and acted is not None:
            refused = f"{t_row.name} already acted this turn"
        elif expression is not None and pools.defence is None:
            refused = f"no dice to {answer} with"
        out.append(
            DefenceOption(
                answer, pools.defence.text if pools.defence else None, p_defence, odds.p_hit, odds.expected, refused
            )
        )
    return out


def _step(roll: RollResult | None, label: str) -> dict[str, Any] | None:
    if roll is None:
        return None
    return {
        "label": label,
        "dice": list(roll.dice),
        "marks": dice_marks(roll),
        "pool": roll.pool,
        "difficulty": roll.difficulty,
        "successes": roll.final_successes,
        "outcome": str(roll.outcome.value if hasattr(roll.outcome, "value") else roll.outcome),
    }


def _dice_word(n: int) -> str:
    return "die" if n == 1 else "dice"


def attack_card(done: AttackExchange, answer: str, by: str) -> dict[str, Any]:
    """The feed card of one answered attack: hit or miss, each step's dice (attack, defence, damage,
    soak), the soak, the wounds and the target's health after; ``answer``: the defender's, ``by``:
    'player', 'storyteller' or 'terminal'."""
    r = done.result
    return {
        "attacker": done.attacker,
        "target": done.target,
        "target_id": None,
        "hit": r.hit,
        "answer": answer,
        "by": by,
        "steps": [
            s
            for s in (
                _step(r.attack, f"Attack: {done.attack_pool.text}"),
                _step(
                    r.defence,
                    f"{(done.defence_kind or answer).capitalize()}: "
                    f"{done.defence_pool.text if done.defence_pool else ''}",
                ),
                _step(r.damage, f"Damage ({done.damage_type.value}): {r.damage_pool} {_dice_word(r.damage_pool)}"),
                _step(r.soak, f"Soak: {done.soak_pool.text if done.soak_pool else ''}"),
            )
            if s is not None
        ],
        "net": r.net_successes,
        "soaked": r.soaked,
        "wounds": r.wounds,
        "damage_type": done.damage_type.value,
        "health": "Dead" if done.dead else done.health.words,
        "dead": done.dead,
        "notes": list(done.notes) + list(done.warnings),
        "log_ids": list(done.log_ids),
    }


def answer_attack(
    gw: Gateway, chronicle: str, prompt_id: int, answer: str, *, storyteller: bool, seed: int | None = None
) -> tuple[Prompt, dict[str, Any]]:
    """Answer the open attack prompt ``prompt_id``: ``answer`` one of :data:`ANSWERS`, given by the
    defender's player, or by the Storyteller (``storyteller``: for an NPC at once, for a player only once
    the prompt's time to answer is over). Rolls the exchange (:func:`stkit.store.fight.attack.attack`, soak by
    the soak rules, the attack's ``seed``), closes the prompt and writes the 'attack' event holding the
    card (:func:`attack_card`). Returns (the prompt, the card). Raises NotFound, InvalidValue (an unknown
    answer), RuleRefusal (already answered, the player's time not over, what the attack refuses)."""

    if answer not in ANSWERS:
        raise InvalidValue(f"answer {str(answer)[:20]!r}: allowed {', '.join(ANSWERS)}")
    prompt = find_prompt(gw, prompt_id, chronicle, for_update=True)
    a = prompt.asked
    if prompt.kind != "attack":
        raise InvalidValue(f"prompt {prompt_id} is not an attack")
    if prompt.status != "open":
        raise RuleRefusal(f"{a['attacker']}'s attack on {a['target']} was already answered")
    if storyteller and not a.get("npc") and prompt.waiting():
        left = (datetime.fromisoformat(prompt.answer_by or "") - _now()).total_seconds()
        raise RuleRefusal(
            f"{a['target']}'s player has {max(1, round(left))} s more to answer; answer for them after that"
        )
    defence = DEFENCE_POOLS.get(answer)
    order = AttackOrder(
        a["attacker"],
        a["target"],
        pool=a.get("pool"),
        damage=a.get("damage"),
        difficulty=a.get("difficulty"),
        damage_type=a.get("damage_type"),
        soak="",
        chronicle=chronicle,
        seed=seed,
        weapon=a.get("weapon"),
        maneuver=a.get("maneuver"),
        range_=a.get("range"),
        defence=defence,
        defence_kind=answer if defence else "dodge",
        defence_difficulty=DEFENCE_DIFFICULTY,
        rage_action=bool(a.get("rage_action")),
        force=bool(a.get("force")),
    )
    done = attack(gw, order)
    card = attack_card(done, answer, "storyteller" if storyteller else "player") | {"target_id": a["target_id"]}
    _close(gw, prompt, card)
    record_event(
        gw,
        chronicle=chronicle,
        kind="attack",
        data={"prompt": prompt.id, "state": "done", "card": card, "scene_id": done.scene_id, "turn": done.turn},
        character_id=a["target_id"],
    )
    return prompt, card


def attack_with_card(gw: Gateway, order: AttackOrder) -> AttackExchange:
    """An attack made where no prompt is asked (the terminal's `stkit attack`): :func:`attack`, then one
    'attack' event carrying its feed card, so the table's feed shows the exchange as one card with its
    rolls folded in, as it does for an attack answered on the page. Raises what :func:`attack` raises;
    nothing is written then."""
    done = attack(gw, order)
    target = find_character(gw, done.target, done.chronicle)
    answer = (done.defence_kind or "dodge") if done.defence_pool is not None else "take"
    card = attack_card(done, answer, "terminal") | {"target_id": target.id}
    record_event(
        gw,
        chronicle=done.chronicle,
        kind="attack",
        data={"prompt": None, "state": "done", "card": card, "scene_id": done.scene_id, "turn": done.turn},
        character_id=target.id,
    )
    return done


def withdraw_prompt(gw: Gateway, chronicle: str, prompt_id: int) -> Prompt:
    """Close an open prompt without rolling (the Storyteller takes it back); an event says so. Raises
    NotFound, RuleRefusal (already closed)."""
    prompt = find_prompt(gw, prompt_id, chronicle, for_update=True)
    if prompt.status != "open":
        raise RuleRefusal(f"prompt {prompt_id} is already closed")
    _close(gw, prompt, {**prompt.answers, "withdrawn": True}, status="withdrawn")
    record_event(gw, chronicle=chronicle, kind=prompt.kind, data={"prompt": prompt.id, "state": "withdrawn"})
    return prompt


# ------------------------------------------------------------------------------------------- calls


def call_for_roll(
    gw: Gateway,
    chronicle: str,
    pool: str,
    *,
    difficulty: int | None = None,
    characters: list[int] | None = None,
    secret: bool = False,
    wait: int = 60,
) -> Prompt:
    """The Storyteller calls for a roll of ``pool`` (Traits, 'Perception + Alertness') at ``difficulty``
    (None: the chronicle's), from the characters of ``chronicle`` with the ids ``characters`` (None or
    empty: every living character). ``secret``: the dice reach the Storyteller only. Each character's
    pool is checked on their sheet now. Writes the prompt and a 'call' event (state 'asked'). Raises
    InvalidValue (no pool, bad difficulty, an unknown id), NotFound, RuleRefusal (a pool a sheet cannot
    roll)."""

    pool = check_text(str(pool or "").strip(), "pool", limit=120)
    if not pool:
        raise InvalidValue("a call for a roll needs a pool, e.g. Perception + Alertness")
    if difficulty is not None:
        check_range(difficulty, "difficulty", 2, 10)
    used = rules_in_force(gw, chronicle, RuleOverrides(difficulty=difficulty)).difficulty
    rows = gw.rows("SELECT id FROM characters WHERE chronicle = :c ORDER BY name_key", c=chronicle)
    ids = [int(r[0]) for r in rows]
    chosen = list(dict.fromkeys(characters or []))
    if len(chosen) > MAX_CALLED:
        raise InvalidValue(f"a call may ask at most {MAX_CALLED} characters")
    for cid in chosen:
        if cid not in ids:
            raise InvalidValue(f"no character with id {cid} in chronicle {chronicle!r}")
    asked_rows = [character_by_id(gw, cid) for cid in (chosen or ids)]
    who = []
    for row in asked_rows:
        if row is None or is_dead(gw, row.id):
            continue
        odds = odds_for(
            gw,
            RollOrder(
                expression=pool,
                character=row.name,
                chronicle=chronicle,
                purpose=Purpose.sheet,
                overrides=RuleOverrides(difficulty=used),
            ),
        )
        who.append({"id": row.id, "name": row.name, "npc": is_npc(row.to_sheet()), "pool_text": odds.label})
    if not who:
        raise RuleRefusal("nobody to call on: every character asked is dead")
    asked = {"pool": pool, "difficulty": used, "secret": bool(secret), "characters": who}
    pid = _insert(gw, chronicle, "call", asked, _now() + timedelta(seconds=_wait(wait)))
    made = find_prompt(gw, pid, chronicle)
    record_event(gw, chronicle=chronicle, kind="call", data={"prompt": pid, "state": "asked", "card": call_card(made)})
    return made


def call_card(prompt: Prompt) -> dict[str, Any]:
    """The feed card of a call for a roll as it stands: the pool, difficulty, secret or not, open or
    closed, and each character asked with their roll (dice, marks, successes) once made."""
    rows = [
        {"name": c["name"], "id": c["id"], "done": prompt.answers.get(str(c["id"]))}
        for c in prompt.asked.get("characters", [])
    ]
    return {
        "pool": prompt.asked["pool"],
        "difficulty": prompt.asked["difficulty"],
        "secret": bool(prompt.asked.get("secret")),
        "status": prompt.status,
        "rows": rows,
        "log_ids": [r["done"]["log_id"] for r in rows if r["done"]],
    }


def call_odds(gw: Gateway, prompt: Prompt, character_id: int) -> Any:
    """The exact odds (:class:`stkit.store.rolling.OddsAnswer`) of character ``character_id``'s roll for the
    call ``prompt``, at the call's difficulty."""
    entry = _called(prompt, character_id)
    return odds_for(
        gw,
        RollOrder(
            expression=prompt.asked["pool"],
            character=entry["name"],
            chronicle=prompt.chronicle,
            purpose=Purpose.sheet,
            overrides=RuleOverrides(difficulty=prompt.asked["difficulty"]),
        ),
    )


def _called(prompt: Prompt, character_id: int) -> dict[str, Any]:
    for entry in prompt.asked.get("characters", []):
        if entry["id"] == character_id:
            return entry
    raise RuleRefusal(f"character {character_id} was not asked to roll for this call")


def answer_call(
    gw: Gateway, chronicle: str, prompt_id: int, character_id: int, *, willpower: bool = False, seed: int | None = None
) -> tuple[Prompt, Any]:
    """Roll character ``character_id``'s answer to the call ``prompt_id``: the call's pool at its difficulty
    through :func:`stkit.store.rolling.make_roll` (secret when the call is), the answer kept on the prompt,
    which closes when everyone asked has rolled; a 'call' event says so. Returns (the prompt after, the
    roll's outcome). Raises NotFound, RuleRefusal (not asked, already rolled, the call closed), what
    make_roll raises."""

    prompt = find_prompt(gw, prompt_id, chronicle, for_update=True)
    if prompt.kind != "call":
        raise InvalidValue(f"prompt {prompt_id} is not a call for a roll")
    if prompt.status != "open":
        raise RuleRefusal("this call for a roll is closed")
    entry = _called(prompt, character_id)
    if str(character_id) in prompt.answers:
        raise RuleRefusal(f"{entry['name']} already rolled for this call")
    done = make_roll(
        gw,
        RollOrder(
            expression=prompt.asked["pool"],
            character=entry["name"],
            chronicle=chronicle,
            purpose=Purpose.sheet,
            preset_difficulty=prompt.asked["difficulty"],
            willpower=willpower,
            secret=bool(prompt.asked.get("secret")),
            seed=seed,
            note=f"call {prompt.id}",
        ),
    )
    roll = done.roll
    answers = {
        **prompt.answers,
        str(character_id): {"name": entry["name"], **(_step(roll, entry["pool_text"]) or {}), "log_id": done.log_id},
    }
    everyone = all(str(e["id"]) in answers for e in prompt.asked.get("characters", []))
    _close(gw, prompt, answers, status="closed" if everyone else "open")
    after = find_prompt(gw, prompt.id, chronicle)
    record_event(
        gw,
        chronicle=chronicle,
        kind="call",
        data={"prompt": prompt.id, "state": after.status, "name": entry["name"], "card": call_card(after)},
        secret=bool(prompt.asked.get("secret")),
    )
    return after, done


def close_call(gw: Gateway, chronicle: str, prompt_id: int) -> Prompt:
    """Close a call for a roll where it stands (those who have not rolled no longer may); a 'call' event
    says so. Raises NotFound, RuleRefusal (already closed)."""
    prompt = find_prompt(gw, prompt_id, chronicle, for_update=True)
    if prompt.kind != "call" or prompt.status != "open":
        raise RuleRefusal(f"prompt {prompt_id} is not an open call for a roll")
    _close(gw, prompt, prompt.answers)
    after = find_prompt(gw, prompt.id, chronicle)
    record_event(
        gw,
        chronicle=chronicle,
        kind="call",
        data={"prompt": prompt.id, "state": "closed", "card": call_card(after)},
        secret=bool(prompt.asked.get("secret")),
    )
    return after
