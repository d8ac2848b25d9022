"""The order of alpha actions in the Alpha Phase, and cards that move an alpha to the front.

Source: Equinox Update, "Alpha Phase" (Renown, then Tribe Fury) and "Ground Rules: Basics" (timing
conflicts, the Dave and Sarah example); earlier rulebook, "Setting Up" (tied Tribe Fury broken at seating).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, RuleRefusal
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.tcg.resolvers.files import Fields, load_yaml_mapping
from stkit.tcg.vocab import Derangement

EFFECTS = ("first", "before-anybody")
#: What a derangement requires of an alpha's action (Equinox Update, "Special Abilities: Derangements").
_ALPHA_DUTIES = {
    Derangement.POWERMAD: "its alpha action must be an attack on the most renowned opponent it can reach.",
    Derangement.VENGEFUL: "if attacked before its action this turn, its action must attack one who attacked it.",
    Derangement.OBSESSIVE: "it names its alpha action now, when chosen, and passes if that target is dead by its turn.",
}


def parse_alphas(data: dict[str, Any], where: str = "alpha-order") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Check an alpha-order description: ``alphas`` (name, player, renown, tribe_fury, regenerating,
    derangements, alpha_last_turn) and optional ``effects`` in the order played (player, effect: first |
    before-anybody). Returns (alphas, effects); raises DataFileError naming the place (a misspelt
    derangement included) and RuleRefusal for a Manic-Depressive alpha who was alpha last turn."""
    top = Fields(data, where, {"alphas", "effects"})
    alphas = []
    players: set[str] = set()
    for i, raw in enumerate(top.items("alphas"), start=1):
        place = f"{where}.alphas[{i}]"
        f = Fields(
            raw, place, {"name", "player", "renown", "tribe_fury", "regenerating", "derangements", "alpha_last_turn"}
        )
        a: dict[str, Any] = {
            "name": f.text("name"),
            "player": f.text("player", f.text("name")),
            "renown": f.integer("renown", low=0, high=100),
            "tribe_fury": f.integer("tribe_fury", low=0, high=100),
            "regenerating": f.flag("regenerating"),
            "derangements": f.derangements(),
            "alpha_last_turn": f.flag("alpha_last_turn"),
        }
        if Derangement.MANIC_DEPRESSIVE in a["derangements"] and a["alpha_last_turn"]:
            raise RuleRefusal(
                f"{place}: {a['name']} is Manic-Depressive and was its pack's alpha last turn; it cannot be alpha "
                "two turns running (rule abilities.derangements)"
            )
        if a["player"].lower() in players:
            raise DataFileError(f"{place}.player: {a['player']!r} already has an alpha (one alpha per pack)")
        players.add(a["player"].lower())
        alphas.append(a)
    effects = []
    for i, raw in enumerate(top.items("effects", required=False), start=1):
        place = f"{where}.effects[{i}]"
        f = Fields(raw, place, {"player", "effect", "card"})
        player = f.text("player")
        if player.lower() not in players:
            raise DataFileError(f"{place}.player: {player!r} has no alpha in 'alphas'")
        effect = f.text("effect").lower().replace(" ", "-").replace("_", "-")
        if effect not in EFFECTS:
            raise DataFileError(f"{place}.effect: {effect!r} (allowed: first, before-anybody)")
        effects.append({"player": player, "effect": effect, "card": f.text("card", "")})
    return alphas, effects


def resolve_alpha_order(alphas: list[dict[str, Any]], effects: Sequence[dict[str, Any]] = ()) -> Resolution:
    """Order of alpha actions: highest Renown first, ties to the higher Tribe Fury; then the cards
    played to act first, in the order played (each ``first`` card moves its player to the front, so the
    later one ends up ahead; of several ``before-anybody`` cards only the last played stands).

    Answer: ``{"order": [{"name", "player", "renown", "tribe_fury"}], "cancelled": [effects]}``.
    Raises DataFileError when two alphas tie on both Renown and Tribe Fury (a Fury tie is broken at
    seating, so give the winner the higher number).
    Source: Equinox Update, "Alpha Phase" and "Ground Rules: Basics"; earlier rulebook, "Setting Up".
    """
    trail = RuleTrail()
    order = sorted(alphas, key=lambda a: (-a["renown"], -a["tribe_fury"]))
    for a, b in itertools.pairwise(order):
        if (a["renown"], a["tribe_fury"]) == (b["renown"], b["tribe_fury"]):
            raise DataFileError(
                f"alphas {a['name']!r} and {b['name']!r} tie on Renown {a['renown']} and Tribe Fury {a['tribe_fury']}; "
                "tied Fury is decided at random when seating, so give the winner the higher tribe_fury (rule "
                "alpha.fury-ties)"
            )
    trail.say(
        "By Renown, highest first, ties to the higher Tribe Fury: "
        + ", ".join(f"{a['name']} (Renown {a['renown']}, Fury {a['tribe_fury']})" for a in order)
        + ".",
        "alpha.order",
    )
    for a in order:
        if a["regenerating"]:
            trail.say(
                f"{a['name']} is regenerating: it can be alpha only when there is no other choice, and then it "
                "is turned upright, keeping its wounds.",
                "alpha.regenerating",
            )
    for a in order:
        for derangement, duty in _ALPHA_DUTIES.items():
            if derangement in a.get("derangements", ()):
                trail.say(f"{a['name']} is {derangement.value.title()}: {duty}", "abilities.derangements")
        if Derangement.DEMOPHOBIC in a.get("derangements", ()):
            trail.say(
                f"{a['name']} is Demophobic: ignored, as the rules say, until pack attacks and defences exist.",
                "abilities.derangements",
            )
    by_player = {a["player"].lower(): a for a in order}
    cancelled = []
    last_exclusive = None
    for e in effects:
        a = by_player[e["player"].lower()]
        label = f"{e['player']}'s {e['card'] or 'card'}"
        if e["effect"] == "first":
            order.remove(a)
            order.insert(0, a)
            trail.say(
                f"{label} moves {a['name']} to the front (cards apply in the order played).", "alpha.first-action-cards"
            )
        else:
            if last_exclusive is not None:
                cancelled.append(last_exclusive)
                trail.say(
                    f"{label} also acts before anybody else: both cannot apply, so the earlier "
                    f"{last_exclusive['player']}'s card is cancelled.",
                    "alpha.first-action-cards",
                )
            last_exclusive = e
    if last_exclusive is not None:
        a = by_player[last_exclusive["player"].lower()]
        order.remove(a)
        order.insert(0, a)
        trail.say(f"{a['name']} acts before anybody else.", "alpha.first-action-cards")
    trail.say("Order of alpha actions: " + ", ".join(a["name"] for a in order) + ".")
    return trail.resolution(
        {
            "order": [{k: a[k] for k in ("name", "player", "renown", "tribe_fury")} for a in order],
            "cancelled": cancelled,
        }
    )


def load_alphas(path: str | Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Read and check an alpha-order YAML file (format in ``docs/tcg-resolvers.md``)."""
    return parse_alphas(load_yaml_mapping(path), str(path))
