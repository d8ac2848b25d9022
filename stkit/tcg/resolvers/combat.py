"""Combat between two characters, resolved round by round from a described sequence of plays.

The input (see ``docs/tcg-resolvers.md``) names the Hunter and the Prey with their traits and, round by
round, the Combat card each side plays (or ``pass``). The resolver applies the Equinox Update's combat
steps: initiative, Rage payment, ineligible cards, flexes, counterattacks and reactions, fast/slow when a
death is at stake, wounds, the flip to Crinos, frenzy, Kailindo, timing order, the end of combat and
deaths.

Source: Equinox Update, "Combat" (all its steps), "Frenzy", "Insight", "Kailindo", "Sustained Rage",
"Derangements"; the earlier rulebook's combat steps where the Equinox Update is silent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stkit.errors import DataFileError, NotFound, RuleRefusal
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.tcg.resolvers.files import Fields, load_yaml_mapping
from stkit.tcg.resolvers.frenzy import frenzy_threshold
from stkit.tcg.vocab import CombatKind, Derangement, Speed, values
from stkit.text import counted

if TYPE_CHECKING:
    from stkit.tcg.cards import Card

KINDS = values(CombatKind)
SPEEDS = {Speed.FAST.value: 0, Speed.NORMAL.value: 1, Speed.SLOW.value: 2}
HAND_SIZE = 5
MAX_STAT = 100
# Killers whose victims leave play instead of going to a Victory Pile.
NO_VICTORY_PILE = ("enemy", "victim", "battlefield")
ROLES = ("hunter", "prey")

CARD_FIELDS = {"name", "card", "kind", "damage", "block", "rage", "speed", "reactable", "discard", "effect"}
COMBATANT_FIELDS = {
    "name",
    "player",
    "type",
    "keywords",
    "rage",
    "health",
    "crinos",
    "metis",
    "form",
    "wounds",
    "sustained_rage",
    "frenzy",
    "insight",
    "kailindo",
    "derangements",
    "fights_on",
}
ROUND_FIELDS = {"hunter", "prey", "react", "draw"}
TOP_FIELDS = {"hunter", "prey", "cards", "rounds", "initiative"}
#: Most rounds a combat file may list: a real combat lasts a handful; 15,000 rounds of taps and guards
#: took 49 s to narrate before this cap.
MAX_ROUNDS = 500


@dataclass(frozen=True)
class CombatCard:
    """A Combat card as played: ``kind`` one of attack/defense/flex/counterattack; ``damage``, ``block``,
    ``rage`` (its Rage cost) 0..100; ``speed`` fast/normal/slow; ``reactable`` when its damage lets the
    other side react; ``discard`` extra Combat cards discarded to play it; ``effect`` a Damage Effect text
    (it happens only if the card does damage)."""

    name: str
    kind: str
    damage: int = 0
    block: int = 0
    rage: int = 0
    speed: str = "normal"
    reactable: bool = False
    discard: int = 0
    effect: str = ""


@dataclass
class Combatant:
    """One side of the combat with its printed traits and its running state."""

    role: str
    name: str
    player: str
    type: str
    keywords: list[str]
    rage: int
    health: int
    crinos_rage: int | None
    crinos_health: int | None
    metis: bool
    form: str
    wounds: int
    sustained_rage: int
    frenzy: int
    insight: int
    kailindo: bool
    derangements: list[str]
    fights_on: bool
    spent: int = 0
    gained: int = 0
    hand: int = HAND_SIZE
    drawn: int = 0
    dead: bool = False
    mortal: bool = False
    must_pass_round: int | None = None
    frenzies: int = 0

    @property
    def can_flip(self) -> bool:
        return self.crinos_health is not None and not self.metis and self.form == "breed"

    @property
    def death_health(self) -> int:
        """Wounds that kill: Crinos-form Health for a shapeshifter, else its Health."""
        return self.crinos_health if self.crinos_health is not None else self.health

    @property
    def form_rage(self) -> int:
        return self.crinos_rage if self.form == "crinos" and self.crinos_rage is not None else self.rage

    @property
    def available(self) -> int:
        return max(0, self.form_rage + self.gained - self.spent)

    @property
    def trigger_health(self) -> int:
        return self.crinos_health if self.crinos_health is not None else self.health

    def has(self, word: str) -> bool:
        return word.lower() in {k.lower() for k in self.keywords} or self.type.lower() == word.lower()

    def deranged(self, name: str) -> bool:
        return name.lower() in {d.lower() for d in self.derangements}

    def state(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "form": self.form if (self.crinos_health is not None or self.metis) else None,
            "wounds": self.wounds,
            "rage_available": self.available,
            "rage_spent": self.spent,
            "rage_gained": self.gained,
            "hand": self.hand,
            "dead": self.dead,
            "mortally_wounded": self.mortal,
        }


@dataclass
class Play:
    """A card played in a round, with what it effectively does after eligibility and payment."""

    side: Combatant
    card: CombatCard
    as_kind: str
    damage: int = 0
    block: int = 0
    paid: int = 0
    eligible: bool = True
    wounds_done: int = 0


# --------------------------------------------------------------------------------------------- parsing


CardLookup = Callable[[str], "Card"]


def from_card(card: Card, where: str) -> CombatCard:
    """A Combat card from the card database as played: its kind, Damage, Block, Rage cost and speed.

    Raises DataFileError naming ``where`` when the card is not a Combat Action, or leaves its kind or a
    Damage of X unknown (give them in the file)."""
    if card.type != "Combat Action":
        raise DataFileError(f"{where}: {card.name} is a {card.type or 'card of unknown type'}, not a Combat Action")
    if not card.kind:
        raise DataFileError(
            f"{where}: the card database gives no kind for {card.name}; add kind: attack|defense|flex|counterattack"
        )
    damage, block = card.damage, card.block
    for label, value in (("damage", damage), ("block", block)):
        if isinstance(value, str):
            raise DataFileError(f"{where}: {card.name}'s {label} is {value}; give its {label} for this play")
    return CombatCard(
        name=card.name,
        kind=card.kind,
        damage=int(damage or 0),
        block=int(block or 0),
        rage=card.rage_cost or 0,
        speed=card.speed or Speed.NORMAL.value,
    )


def _database_card(name: str, where: str, lookup: CardLookup | None) -> CombatCard:
    if lookup is None:
        raise DataFileError(f"{where}: card {name!r} is not described in 'cards' (give its kind, damage, block, rage)")
    try:
        card = lookup(name)
    except NotFound as exc:
        raise DataFileError(f"{where}: {exc}") from None
    return from_card(card, where)


def _overrides(f: Fields, where: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in ("damage", "block", "rage", "discard"):
        if f.has(name):
            values[name] = f.integer(name, low=0, high=MAX_STAT)
    if f.has("kind"):
        values["kind"] = _kind(f, where)
    if f.has("speed"):
        values["speed"] = _speed(f, where)
    if f.has("reactable"):
        values["reactable"] = f.flag("reactable")
    if f.has("effect"):
        values["effect"] = f.text("effect")
    return values


def _card(raw: Any, where: str, library: dict[str, CombatCard], lookup: CardLookup | None = None) -> CombatCard | None:
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("pass", "none", "")):
        return None
    if isinstance(raw, str):
        key = raw.strip().lower()
        if key not in library:
            return _database_card(raw.strip(), where, lookup)
        return library[key]
    f = Fields(raw, where, CARD_FIELDS)
    base = None
    if f.has("card"):
        key = f.text("card").lower()
        base = library.get(key) or _database_card(f.text("card"), f"{where}.card", lookup)
    if base is None:
        return _parse_card(f, where, f.text("name"))
    return replace(base, **_overrides(f, where))


def _kind(f: Fields, where: str) -> str:
    kind = f.text("kind").lower().replace("-", "").replace(" ", "")
    kind = {"defence": "defense", "counter": "counterattack"}.get(kind, kind)
    if kind not in KINDS:
        raise DataFileError(f"{where}.kind: {f.text('kind')!r} is not a Combat card kind (allowed: {', '.join(KINDS)})")
    return kind


def _speed(f: Fields, where: str) -> str:
    speed = f.text("speed", "normal").lower()
    if speed not in SPEEDS:
        raise DataFileError(f"{where}.speed: {speed!r} is not a speed (allowed: fast, normal, slow)")
    return speed


def _parse_card(f: Fields, where: str, name: str) -> CombatCard:
    return CombatCard(
        name=name,
        kind=_kind(f, where),
        damage=f.integer("damage", 0, high=MAX_STAT),
        block=f.integer("block", 0, high=MAX_STAT),
        rage=f.integer("rage", 0, high=MAX_STAT),
        speed=_speed(f, where),
        reactable=f.flag("reactable"),
        discard=f.integer("discard", 0, high=MAX_STAT),
        effect=f.text("effect", ""),
    )


def _combatant(raw: Any, role: str, where: str) -> Combatant:
    f = Fields(raw, where, COMBATANT_FIELDS)
    name = f.text("name")
    metis = f.flag("metis")
    crinos_rage = crinos_health = None
    if f.has("crinos"):
        if metis:
            raise DataFileError(f"{where}.crinos: a metis has one form; give only rage and health")
        crinos = Fields(f.data["crinos"], f"{where}.crinos", {"rage", "health"})
        crinos_rage = crinos.integer("rage", low=0, high=MAX_STAT)
        crinos_health = crinos.integer("health", low=1, high=MAX_STAT)
    form = f.text("form", "crinos" if metis else "breed").lower()
    if form not in ("breed", "crinos"):
        raise DataFileError(f"{where}.form: {form!r} is not a form (allowed: breed, crinos)")
    if form == "crinos" and crinos_health is None and not metis:
        raise DataFileError(f"{where}.form: {name} has no Crinos side (add crinos: {{rage: R, health: H}})")
    if metis:
        form = "crinos"
    derangements = f.derangements()
    if form == "crinos" and not metis and Derangement.PERFECTIONIST in derangements:
        raise RuleRefusal(
            f"{where}.form: {name} is Perfectionist and never shifts to Crinos by choice; it starts in its breed "
            "form (it still flips when its wounds force it) (rule abilities.derangements)"
        )
    c = Combatant(
        role=role,
        name=name,
        player=f.text("player", ""),
        type=f.text("type", "Garou"),
        keywords=f.text_list("keywords"),
        rage=f.integer("rage", low=0, high=MAX_STAT),
        health=f.integer("health", low=1, high=MAX_STAT),
        crinos_rage=crinos_rage,
        crinos_health=crinos_health,
        metis=metis,
        form=form,
        wounds=f.integer("wounds", 0, high=MAX_STAT),
        sustained_rage=f.integer("sustained_rage", 0, high=MAX_STAT),
        frenzy=f.integer("frenzy", 0, high=MAX_STAT),
        insight=f.integer("insight", 0, high=MAX_STAT),
        kailindo=f.flag("kailindo"),
        derangements=derangements,
        fights_on=f.flag("fights_on"),
    )
    if c.wounds >= c.death_health:
        raise DataFileError(f"{where}.wounds: {c.wounds} wounds already kill {name} (Health {c.death_health})")
    return c


@dataclass
class CombatSetup:
    """A parsed combat file: the two combatants, who has first initiative, and the rounds as played."""

    hunter: Combatant
    prey: Combatant
    initiative: str
    rounds: list[dict[str, Any]]


def parse_combat(data: dict[str, Any], where: str = "combat", card_lookup: CardLookup | None = None) -> CombatSetup:
    """Check and convert a combat description (the mapping read from a combat YAML file).

    ``card_lookup(name)`` finds a card of the card database (raising NotFound with suggestions): an entry
    of ``cards`` or a play may then name a card (``card: Bite``) instead of giving its numbers, and the
    file's own numbers override the card's. Raises DataFileError naming the place of any unknown field,
    missing value, value out of range or unknown card; RuleRefusal when one player controls both Hunter
    and Prey, or a Perfectionist starts in Crinos by choice."""
    top = Fields(data, where, TOP_FIELDS)
    library: dict[str, CombatCard] = {}
    cards = top.data.get("cards") or {}
    if not isinstance(cards, dict):
        raise DataFileError(f"{where}.cards: must map card names to their numbers")
    for name, raw in cards.items():
        place = f"{where}.cards.{name}"
        entry = Fields(raw, place, CARD_FIELDS - {"name"})
        if entry.has("card"):
            base = _database_card(entry.text("card"), f"{place}.card", card_lookup)
            library[str(name).strip().lower()] = replace(base, name=str(name), **_overrides(entry, place))
        else:
            library[str(name).strip().lower()] = _parse_card(entry, place, str(name))
    hunter = _combatant(top.data.get("hunter"), "hunter", f"{where}.hunter")
    prey = _combatant(top.data.get("prey"), "prey", f"{where}.prey")
    if hunter.player and hunter.player.lower() == prey.player.lower():
        raise RuleRefusal(
            f"player {hunter.player!r} cannot control both the Hunter and the Prey (rule combat.hunter-and-prey)"
        )
    initiative = top.text("initiative", "hunter").lower()
    if initiative not in ROLES:
        raise DataFileError(f"{where}.initiative: {initiative!r} (allowed: hunter, prey)")
    rounds = []
    listed = top.items("rounds", required=True)
    if len(listed) > MAX_ROUNDS:
        raise DataFileError(f"{where}.rounds: {len(listed)} rounds listed; a combat file may list at most {MAX_ROUNDS}")
    for index, raw in enumerate(listed, start=1):
        place = f"{where}.rounds[{index}]"
        if raw is None or (isinstance(raw, str) and raw.strip().lower() == "pass"):
            raw = {}
        r = Fields(raw, place, ROUND_FIELDS)
        draws = {}
        if r.has("draw"):
            d = Fields(r.data["draw"], f"{place}.draw", set(ROLES))
            draws = {role: d.integer(role, 0, high=MAX_STAT) for role in ROLES}
        rounds.append(
            {
                "hunter": _card(r.data.get("hunter"), f"{place}.hunter", library, card_lookup),
                "prey": _card(r.data.get("prey"), f"{place}.prey", library, card_lookup),
                "react": _card(r.data.get("react"), f"{place}.react", library, card_lookup),
                "draw": draws,
                "where": place,
            }
        )
    return CombatSetup(hunter=hunter, prey=prey, initiative=initiative, rounds=rounds)


# ------------------------------------------------------------------------------------------- resolving


class _Combat:
    def __init__(self, setup: CombatSetup) -> None:
        self.side = {"hunter": setup.hunter, "prey": setup.prey}
        self.setup = setup
        self.trail = RuleTrail()
        self.log: list[str] = []
        self.rounds_out: list[dict[str, Any]] = []
        self.ended = False
        self.end_reason = ""
        # the side (role) that passed its attack in the previous round, None if that round had an attack
        self.last_pass: str | None = None

    def say(self, line: str, *rule_ids: str) -> None:
        self.trail.cite(*rule_ids)
        self.log.append(f"{line} [{', '.join(rule_ids)}]" if rule_ids else line)

    def other(self, c: Combatant) -> Combatant:
        return self.side["prey"] if c.role == "hunter" else self.side["hunter"]

    # -- before the first round
    def prepare(self) -> None:
        h, p = self.side["hunter"], self.side["prey"]
        self.say(
            f"Hunter: {h.name}; Prey: {p.name}. Each draws {HAND_SIZE} Combat cards.",
            "combat.hunter-and-prey",
            "combat.prepare",
        )
        for c in (h, p):
            other = self.other(c)
            if c.deranged(Derangement.PARANOID):
                self.say(
                    f"{c.name} is Paranoid: in this combat it treats {other.name} as having the Wyrm keyword "
                    "(a Wyrm opponent, not a Wyrm Enemy).",
                    "abilities.derangements",
                )
            if c.deranged(Derangement.DEMOPHOBIC):
                self.say(
                    f"{c.name} is Demophobic: ignored, as the rules say, until pack attacks and defences exist.",
                    "abilities.derangements",
                )
            if c.metis:
                self.say(f"{c.name} is metis and fights in Crinos form, its breed form.", "combat.prepare")
            elif c.form == "crinos":
                self.say(
                    f"{c.name} starts in Crinos form (its player discarded a Sept card to shift).", "combat.prepare"
                )
            elif c.can_flip and c.wounds >= c.health:
                c.form = "crinos"
                self.say(
                    f"{c.name} already has {counted(c.wounds, 'wound')}, reaching its Breed Health {c.health}: it "
                    "fights in Crinos form.",
                    "combat.crinos-flip",
                    "conflicts.crinos-flip-threshold",
                )
            if c.insight:
                self.say(
                    f"Insight {c.insight}: {c.name}'s player draws {HAND_SIZE + c.insight} and discards back "
                    f"to {HAND_SIZE}.",
                    "combat.insight",
                )
                c.drawn += c.insight
            if c.kailindo:
                self.say(
                    f"{c.name} uses Kailindo before combat: cheaper cards than its opponent's will gain it Rage.",
                    "combat.kailindo",
                )
            if c.sustained_rage:
                self.say(f"{c.name} has Sustained Rage {c.sustained_rage}.", "combat.sustained-rage")

    # -- paying and eligibility
    def _play(self, c: Combatant, card: CombatCard, as_kind: str, rn: int) -> Play:
        play = Play(side=c, card=card, as_kind=as_kind)
        need = 1 + card.discard
        if c.hand < need:
            raise DataFileError(
                f"round {rn}: {c.name} plays {card.name!r} but holds only {counted(c.hand, 'Combat card')} "
                f"(needs {need}); add a 'draw' entry if a card let it draw"
            )
        c.hand -= need
        if card.discard:
            self.say(
                f"{c.name} discards {counted(card.discard, 'Combat card')} to play {card.name}.",
                "combat.attack-or-pass",
            )
        allowed = {
            "attack": ("attack", "flex"),
            "defense": ("defense", "flex", "counterattack"),
            "react": ("defense", "flex"),
        }[as_kind]
        if card.kind not in allowed:
            play.eligible = False
            self.say(
                f"{c.name}'s {card.name} is a {card.kind}, which cannot be played as "
                f"{'an attack' if as_kind == 'attack' else 'a defense' if as_kind == 'defense' else 'a reaction'}: "
                "it counts as 0 but its Rage cost is still paid.",
                "combat.card-kinds",
                "combat.ineligible-card",
                *(("combat.react-to-damage",) if as_kind == "react" else ()),
            )
        cost, available = card.rage, c.available
        if cost <= available:
            play.paid = cost
        elif cost <= c.sustained_rage:
            play.paid = available
            self.say(
                f"{c.name} has {available} Rage left, but Sustained Rage {c.sustained_rage} lets it play the "
                f"Rage {cost} {card.name} (pays {available}).",
                "combat.sustained-rage",
            )
        else:
            play.paid = available
            if play.eligible:
                play.eligible = False
                self.say(
                    f"{c.name} cannot afford {card.name} (Rage {cost}, {available} available): it is played as "
                    f"0 and takes all {available} remaining Rage.",
                    "combat.pay-rage",
                    "combat.ineligible-card",
                )
        c.spent += play.paid
        if play.eligible:
            if as_kind == "attack":
                play.damage = card.damage
            elif card.kind == "counterattack":
                play.damage = card.damage  # Equinox: a counterattack hurts instead of blocking
            else:
                play.block = card.block
                play.damage = card.damage if card.kind == "defense" else 0
        return play

    def describe(self, play: Play) -> str:
        card = play.card
        bits = [f"{card.kind}", f"Rage {card.rage}"]
        if play.as_kind == "attack" or card.kind == "counterattack":
            bits.append(f"Damage {card.damage}")
        else:
            bits.append(f"Block {card.block}")
            if card.kind == "defense" and card.damage:
                bits.append(f"Damage {card.damage}")
        if card.speed != "normal":
            bits.append(card.speed)
        return f"{card.name} ({', '.join(bits)})"

    # -- one round
    def round(self, rn: int, initiative: str, entry: dict[str, Any]) -> None:
        start = len(self.log)
        attacker = self.side[initiative]
        defender = self.other(attacker)
        self.say(f"Round {rn}: {attacker.name} ({attacker.role}) has initiative.", "combat.initiative")
        for role, extra in entry["draw"].items():
            if extra:
                self.side[role].hand += extra
                self.side[role].drawn += extra
                self.say(f"{self.side[role].name} draws {counted(extra, 'Combat card')} from a card effect.")
        wounds_before = {role: self.side[role].wounds for role in ROLES}
        att_card = entry[attacker.role]
        def_card = entry[defender.role]
        react_card = entry["react"]
        for c, side in ((attacker, "att"), (defender, "def")):
            if c.must_pass_round == rn:
                given = att_card if side == "att" else def_card
                self.say(
                    f"{c.name} is Hysterical and would have frenzied last round, so it must pass this round"
                    + (f"; {given.name} is not played." if given else "."),
                    "frenzy.hysterical",
                )
                if side == "att":
                    att_card = None
                else:
                    def_card = None
        if att_card is None:
            self.say(f"{attacker.name} passes: no attack, the round ends.", "combat.attack-or-pass")
            if def_card is not None:
                self.say(f"({defender.name}'s {def_card.name} is not played: there is nothing to defend against.)")
            # Ruling conflicts.combat-end-on-passes: each side has passed its own attack, in consecutive rounds.
            if self.last_pass is not None and self.last_pass != attacker.role:
                self.end(
                    "both players passed their attacks in successive rounds",
                    "combat.end-both-pass",
                    "conflicts.combat-end-on-passes",
                )
            self.last_pass = attacker.role
            self.finish_round(rn, initiative, start, plays=[])
            return
        self.last_pass = None
        a_play = self._play(attacker, att_card, "attack", rn)
        d_play = self._play(defender, def_card, "defense", rn) if def_card is not None else None
        reveal = f"{attacker.name} attacks with {self.describe(a_play)}"
        reveal += (
            f"; {defender.name} answers with {self.describe(d_play)}."
            if d_play
            else f"; {defender.name} plays no card (Block 0)."
        )
        self.say(reveal, "combat.defense-pick" if d_play is None else "combat.pay-rage")
        for play in (a_play, d_play):
            if play and play.card.kind == "flex" and play.eligible:
                self.say(
                    f"{play.card.name} is a flex played as "
                    + (
                        "an attack: only its Damage counts."
                        if play.as_kind == "attack"
                        else "a defense: only its Block counts."
                    ),
                    "combat.flex",
                )
        plays = [a_play] + ([d_play] if d_play else [])
        if d_play:
            ordered = sorted(plays, key=lambda p: (p.card.rage, 0 if p.side is attacker else 1))
            tie = a_play.card.rage == d_play.card.rage
            self.say(
                f"Timing order: {ordered[0].card.name} then {ordered[1].card.name}"
                + (" (same Rage cost: the initiative player's card first)." if tie else " (lowest Rage cost first)."),
                "combat.timing-conflicts",
            )
            for me, them in ((attacker, d_play), (defender, a_play)):
                mine = a_play if me is attacker else d_play
                if me.kailindo and mine.card.rage < them.card.rage:
                    gain = them.card.rage - mine.card.rage
                    me.gained += gain
                    self.say(
                        f"Kailindo: {me.name}'s card costs {gain} less than its opponent's, so it gains {gain} Rage.",
                        "combat.kailindo",
                    )
        else:
            ordered = plays
        # Damage: the attack against the defender's Block, and any damage the defender's card deals back.
        hits: list[tuple[Play, Combatant, int]] = []
        block = d_play.block if d_play else 0
        if d_play and d_play.card.kind == "counterattack" and d_play.eligible and d_play.card.block:
            self.say(
                f"{d_play.card.name}'s Block {d_play.card.block} is not used: a counterattack hurts instead of "
                "blocking.",
                "combat.counterattack",
                "conflicts.counterattack-block",
            )
        to_defender = max(0, a_play.damage - block)
        self.say(
            f"Damage {a_play.damage} against Block {block}: "
            + (f"{counted(to_defender, 'wound')} to {defender.name}." if to_defender else "no wounds."),
            "combat.apply-damage",
        )
        hits.append((a_play, defender, to_defender))
        if d_play and d_play.damage:
            react_block = 0
            if react_card is not None:
                if not d_play.card.reactable:
                    raise DataFileError(
                        f"{entry['where']}.react: {d_play.card.name!r} does not let {attacker.name} react to "
                        "its damage (mark it reactable: true)"
                    )
                r_play = self._play(attacker, react_card, "react", rn)
                react_block = r_play.block
                self.say(
                    f"{attacker.name} reacts to the damage with {self.describe(r_play)}, paying its Rage.",
                    "combat.react-to-damage",
                )
                if r_play.damage:
                    self.say(
                        f"{r_play.card.name} also deals damage; stkit does not chain a further reaction: "
                        "resolve that damage by hand.",
                        "combat.react-to-damage",
                    )
                    r_play.damage = 0
                plays.append(r_play)
            to_attacker = max(0, d_play.damage - react_block)
            kind = "counterattack" if d_play.card.kind == "counterattack" else "damage-causing defense"
            self.say(
                f"The {kind} {d_play.card.name} deals Damage {d_play.damage} against Block {react_block}: "
                f"{counted(to_attacker, 'wound')} to {attacker.name}.",
                "combat.counterattack",
            )
            hits.append((d_play, attacker, to_attacker))
        elif react_card is not None:
            raise DataFileError(
                f"{entry['where']}.react: nothing damaged {attacker.name} this round, so there is nothing to react to"
            )
        self.apply_hits(hits)
        for play in ordered:
            if play.card.effect:
                if play.wounds_done:
                    self.say(
                        f"Damage Effect of {play.card.name}: {play.card.effect} (apply it by hand).",
                        "combat.damage-effects",
                    )
                else:
                    self.say(
                        f"{play.card.name} did no damage, so its Damage Effect is ignored.", "combat.damage-effects"
                    )
        self.after_damage(rn, wounds_before)
        self.finish_round(rn, initiative, start, plays)

    def apply_hits(self, hits: list[tuple[Play, Combatant, int]]) -> None:
        live = [h for h in hits if h[2] > 0]
        if not live:
            return
        total = {role: self.side[role].wounds for role in ROLES}
        for _, target, wounds in live:
            total[target.role] += wounds
        at_stake = any(total[role] >= self.side[role].death_health for role in ROLES)
        speeds = {play.card.speed for play, _, _ in live}
        if at_stake and len(live) > 1 and len(speeds) > 1:
            self.say(
                "A death is at stake, so fast cards strike before normal ones and slow cards after.", "combat.fast-slow"
            )
            groups: list[int | None] = [*sorted({SPEEDS[s] for s in speeds})]
        else:
            if at_stake and len(live) > 1:
                self.say(
                    "A death is at stake but both cards have the same speed: the damage is simultaneous.",
                    "combat.fast-slow",
                )
            groups = [None]
        for group in groups:
            batch = [h for h in live if group is None or SPEEDS[h[0].card.speed] == group]
            for play, target, wounds in batch:
                if play.side.dead:
                    self.say(
                        f"{play.side.name} died before its {play.card.speed} {play.card.name} could strike: no damage.",
                        "combat.fast-slow",
                    )
                    continue
                target.wounds += wounds
                play.wounds_done = wounds
            for role in ROLES:
                c = self.side[role]
                if not c.dead and not c.mortal and c.wounds >= c.death_health:
                    if c.fights_on:
                        c.mortal = True
                        self.say(
                            f"{c.name} has taken mortal wounds ({c.wounds} of {c.death_health}) but a card "
                            "keeps it fighting until combat ends.",
                            "combat.fights-on",
                        )
                    else:
                        c.dead = True

    def after_damage(self, rn: int, wounds_before: dict[str, int]) -> None:
        for role in ROLES:
            c = self.side[role]
            if c.dead:
                self.say(
                    f"{c.name} has {counted(c.wounds, 'wound')}, at least its Health {c.death_health}: it is killed.",
                    "combat.end-death",
                )
                continue
            if c.can_flip and c.wounds >= c.health:
                c.form = "crinos"
                self.say(
                    f"{c.name} has {counted(c.wounds, 'wound')}, reaching its Breed Health {c.health}: "
                    "it flips to Crinos "
                    f"(Health {c.crinos_health}); Rage already spent counts against its Crinos Rage {c.crinos_rage}.",
                    "combat.crinos-flip",
                    "conflicts.crinos-flip-threshold",
                )
        for role in ROLES:
            c = self.side[role]
            taken = c.wounds - wounds_before[role]
            if c.dead or not c.frenzy or taken <= 0:
                continue
            threshold = frenzy_threshold(c.trigger_health)
            if taken < threshold:
                continue
            if c.deranged("melancholic"):
                self.say(
                    f"{c.name} took {counted(taken, 'wound')} (Trigger Damage {threshold}) but is Melancholic and "
                    "cannot frenzy.",
                    "frenzy.melancholic",
                )
            elif c.deranged("hysterical"):
                c.must_pass_round = rn + 1
                self.say(
                    f"{c.name} took {counted(taken, 'wound')} (Trigger Damage {threshold}); being Hysterical it must "
                    "pass next round instead of frenzying.",
                    "frenzy.hysterical",
                )
            else:
                c.hand += c.frenzy
                c.drawn += c.frenzy
                c.frenzies += 1
                self.say(
                    f"{c.name} took {counted(taken, 'wound')} this round, at least its Trigger Damage {threshold}: it "
                    f"frenzies and draws {counted(c.frenzy, 'Combat card')}.",
                    "frenzy.frenzy-trait",
                    "frenzy.trigger-damage",
                )
        if any(self.side[r].dead for r in ROLES):
            self.end("a combatant was killed", "combat.end-death")
        elif self.side["hunter"].hand == 0 and self.side["prey"].hand == 0:
            self.end("both sides ran out of Combat cards", "combat.end-out-of-cards")

    def end(self, reason: str, *rule_ids: str) -> None:
        if not self.ended:
            self.ended = True
            self.end_reason = reason
            self.say(f"Combat ends: {reason}.", *rule_ids)

    def finish_round(self, rn: int, initiative: str, start: int, plays: list[Play]) -> None:
        if not self.ended and self.side["hunter"].hand == 0 and self.side["prey"].hand == 0:
            self.end("both sides ran out of Combat cards", "combat.end-out-of-cards")
        self.rounds_out.append(
            {
                "round": rn,
                "initiative": initiative,
                "cards": {
                    p.side.role if p.as_kind != "react" else f"{p.side.role}_react": {
                        "name": p.card.name,
                        "kind": p.card.kind,
                        "played_as": p.as_kind,
                        "rage_cost": p.card.rage,
                        "rage_paid": p.paid,
                        "eligible": p.eligible,
                        "wounds_done": p.wounds_done,
                    }
                    for p in plays
                },
                "log": self.log[start:],
                "state": {role: self.side[role].state() for role in ROLES},
                "ended": self.ended,
            }
        )

    def aftermath(self) -> dict[str, Any]:
        deaths = []
        umbra = 0
        for role in ROLES:
            c = self.side[role]
            if c.mortal and self.ended:
                c.dead = True
                self.say(f"Combat is over and {c.name}, mortally wounded, now dies.", "combat.fights-on")
            if not c.dead:
                continue
            killer = self.other(c)
            if killer.type.lower() in NO_VICTORY_PILE:
                where = "removed from play (killed by an Enemy, Victim or Battlefield defender)"
            else:
                owner = killer.player or killer.name
                where = f"goes to {owner}'s Victory Pile"
            self.say(
                f"{c.name} is dead and {where}; its attached cards go to its owner's discard pile.",
                "combat.after-death",
            )
            scored = killer.type.lower() not in NO_VICTORY_PILE and not killer.deranged(Derangement.MULTIPLE_PERSONA)
            if killer.type.lower() not in NO_VICTORY_PILE and not scored:
                self.say(
                    f"{killer.name} is Multiple-Persona: its kills score no Renown, so {c.name} counts for nothing.",
                    "abilities.derangements",
                )
            deaths.append(
                {
                    "name": c.name,
                    "role": role,
                    "killed_by": killer.name,
                    "to": "removed" if killer.type.lower() in NO_VICTORY_PILE else "victory_pile",
                    "renown_scored": scored,
                }
            )
            if c.type.lower() == "enemy" and c.has("wyrm"):
                umbra -= 1
                self.say("A Wyrm Enemy was killed: the Umbra moves down 1 point.", "umbra.down-one-point")
            elif (c.type.lower() == "garou" or c.has("garou")) and not c.has("wyrm"):
                umbra += 1
                self.say("A non-Wyrm Garou was killed: the Umbra moves up 1 point.", "umbra.up-one-point")
            elif c.has("spirit") and not (c.has("wyrm") or c.has("corrupt")):
                umbra += 1
                self.say("A non-corrupt Spirit was killed: the Umbra moves up 1 point.", "umbra.up-one-point")
        if self.ended:
            self.say(
                "Both players discard their Combat cards; all Rage spent in this combat comes back.",
                "combat.rage-replenishes",
            )
        return {"deaths": deaths, "umbra_change": umbra}


def resolve_combat(setup: CombatSetup) -> Resolution:
    """Resolve a combat round by round.

    ``setup`` comes from :func:`parse_combat` (or :func:`load_combat`). Rounds alternate initiative
    (Hunter first unless ``initiative: prey``). Rounds listed after the combat has ended are ignored and
    said so; if the rounds run out first, the combat is reported as unfinished.

    Answer: ``{"hunter", "prey", "rounds": [{"round", "initiative", "cards", "log", "state", "ended"}],
    "ended": bool, "end_reason": str, "deaths": [...], "winner": name|None, "umbra_change": int,
    "final": {role: state}, "log": [...]}``.
    Raises DataFileError when a side plays more Combat cards than it holds or reacts without cause.
    Source: Equinox Update, "Combat" (every step) with "Frenzy", "Kailindo", "Insight", "Sustained Rage".
    """
    combat = _Combat(setup)
    combat.prepare()
    combat.trail.cite("combat.initiative")
    initiative = setup.initiative
    if initiative == "prey":
        combat.say("A card gives the Prey initiative in the first round.", "combat.initiative")
    for rn, entry in enumerate(setup.rounds, start=1):
        if combat.ended:
            combat.say(f"Rounds {rn} to {len(setup.rounds)} in the file come after the end of combat and are ignored.")
            break
        combat.round(rn, initiative, entry)
        initiative = "prey" if initiative == "hunter" else "hunter"
    if not combat.ended:
        combat.say("The file describes no more rounds: the combat is not over yet.")
    after = combat.aftermath()
    dead_roles = {d["role"] for d in after["deaths"]}
    winner = None
    if len(dead_roles) == 1:
        winner = combat.side["prey" if "hunter" in dead_roles else "hunter"].name
    h, p = combat.side["hunter"], combat.side["prey"]
    answer = {
        "hunter": h.name,
        "prey": p.name,
        "rounds": combat.rounds_out,
        "ended": combat.ended,
        "end_reason": combat.end_reason,
        "deaths": after["deaths"],
        "winner": winner,
        "umbra_change": after["umbra_change"],
        "final": {"hunter": h.state(), "prey": p.state()},
        "log": combat.log,
    }
    return Resolution(answer=answer, rules=tuple(combat.trail.rules), explanation=list(combat.log))


def load_combat(path: str | Path, card_lookup: CardLookup | None = None) -> CombatSetup:
    """Read and check a combat YAML file (format in ``docs/tcg-resolvers.md``); errors name the file.
    ``card_lookup``: see :func:`parse_combat`."""
    return parse_combat(load_yaml_mapping(path), str(path), card_lookup)
