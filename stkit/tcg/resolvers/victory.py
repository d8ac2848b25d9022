"""Who has won: Victory Piles against the game's Renown level.

Source: earlier rulebook, "Victory" (reaching the level, Victims worth nothing, ties); Equinox Update,
"Winning the Game", "Sept Draw Phase" (the level drops when nobody can draw) and "Resolution Phase"
(players with no characters are removed but can still win).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stkit.errors import DataFileError
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.tcg.resolvers.files import Fields, load_yaml_mapping
from stkit.text import counted

LEVELS = (15, 20, 25)


def parse_victory(data: dict[str, Any], where: str = "victory") -> dict[str, Any]:
    """Check a victory description: ``renown_level`` (15, 20 or 25; default 20), ``nobody_drew`` (Sept
    Draw Phases in which no player could draw, default 0) and ``players`` (name, removed, victory_pile of
    cards with name, renown, type). Raises DataFileError naming the place."""
    top = Fields(data, where, {"renown_level", "nobody_drew", "players"})
    level = top.integer("renown_level", 20, low=1, high=100)
    if level not in LEVELS:
        raise DataFileError(f"{where}.renown_level: {level} is not a game Renown level (allowed: 15, 20, 25)")
    players = []
    names: set[str] = set()
    for i, raw in enumerate(top.items("players"), start=1):
        place = f"{where}.players[{i}]"
        f = Fields(raw, place, {"name", "removed", "victory_pile"})
        name = f.text("name")
        if name.lower() in names:
            raise DataFileError(f"{place}.name: {name!r} is listed twice")
        names.add(name.lower())
        pile = []
        for j, craw in enumerate(f.items("victory_pile", required=False), start=1):
            cf = Fields(craw, f"{place}.victory_pile[{j}]", {"name", "renown", "type"})
            pile.append(
                {
                    "name": cf.text("name"),
                    "renown": cf.integer("renown", low=0, high=100),
                    "type": cf.text("type", "Garou"),
                }
            )
        players.append({"name": name, "removed": f.flag("removed"), "victory_pile": pile})
    if not players:
        raise DataFileError(f"{where}.players: list at least one player")
    return {"renown_level": level, "nobody_drew": top.integer("nobody_drew", 0, high=100), "players": players}


def resolve_victory(game: dict[str, Any]) -> Resolution:
    """Score each Victory Pile (Victims count 0) against the Renown level, lowered by one for every Sept
    Draw Phase in which nobody could draw. A player at or above the level wins; of several, the highest
    total; a tie at the top means nobody has won yet. If every player has been removed, the most Renown wins.

    Answer: ``{"renown_level": effective level, "scores": {player: n}, "winner": name|None,
    "tied": [names], "game_over": bool}``.
    Source: earlier rulebook, "Victory"; Equinox Update, "Winning the Game", "Sept Draw Phase".
    """
    trail = RuleTrail()
    level = max(0, game["renown_level"] - game["nobody_drew"])
    if game["nobody_drew"]:
        trail.say(
            f"Nobody could draw in {counted(game['nobody_drew'], 'Sept Draw Phase')}: the Renown level drops from "
            f"{game['renown_level']} to {level}, for good.",
            "victory.level-drops",
            "conflicts.renown-level-drop-phase",
        )
    else:
        trail.say(f"The game's Renown level is {level}.", "victory.reach-level")
    scores: dict[str, int] = {}
    for p in game["players"]:
        total = 0
        for card in p["victory_pile"]:
            if card["type"].lower() == "victim":
                trail.say(
                    f"{p['name']}: the Victim {card['name']} is worth nothing in a Victory Pile.",
                    "victory.victims-worthless",
                )
                continue
            total += card["renown"]
        scores[p["name"]] = total
    trail.say("Victory Piles: " + ", ".join(f"{n} {s}" for n, s in scores.items()) + ".", "victory.reach-level")
    answer: dict[str, Any] = {"renown_level": level, "scores": scores, "winner": None, "tied": [], "game_over": False}
    if all(p["removed"] for p in game["players"]):
        best = max(scores.values())
        top = [n for n, s in scores.items() if s == best]
        trail.say(
            "Every player has been removed from the game: the most Renown in a Victory Pile wins.",
            "victory.all-removed",
        )
        if len(top) == 1:
            answer.update(winner=top[0], game_over=True)
            trail.say(f"{top[0]} wins with {best}.", "victory.all-removed")
        else:
            answer["tied"] = top
            trail.say(f"{', '.join(top)} tie on {best}.", "victory.all-removed")
        return trail.resolution(answer)
    reached = {n: s for n, s in scores.items() if s >= level}
    trail.cite("conflicts.victory-reach-or-exceed")
    if not reached:
        trail.say(f"Nobody has reached {level}: the game goes on.", "victory.reach-level")
        return trail.resolution(answer)
    best = max(reached.values())
    top = [n for n, s in reached.items() if s == best]
    if len(reached) > 1:
        trail.say(f"{', '.join(reached)} are all at or above {level}: the highest total wins.", "victory.simultaneous")
    if len(top) == 1:
        answer.update(winner=top[0], game_over=True)
        trail.say(
            f"{top[0]} wins with {best} Renown (level {level}); a player with no characters left can still win.",
            "victory.reach-level",
        )
    else:
        answer["tied"] = top
        trail.say(
            f"{', '.join(top)} tie on {best}: play goes on until one of them has more (or a third player passes both).",
            "victory.simultaneous",
        )
    return trail.resolution(answer)


def load_victory(path: str | Path) -> dict[str, Any]:
    """Read and check a victory YAML file (format in ``docs/tcg-resolvers.md``)."""
    return parse_victory(load_yaml_mapping(path), str(path))
