"""Moot voting in the Resolution Phase: who may vote, how many votes, and whether each Moot passes.

Source: Equinox Update, "Resolution Phase", "Derangements" (Amnesiac), "Other Shapeshifters", "The Umbra";
earlier rulebook, "Moots" (the caller must be a Garou).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stkit.errors import DataFileError, RuleRefusal
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.tcg.resolvers.files import Fields, load_yaml_mapping
from stkit.text import counted

CHARACTER_FIELDS = {"name", "player", "type", "renown", "alternate", "regenerating", "umbra", "derangements"}
MOOT_FIELDS = {"name", "caller", "votes"}
VOTE_FIELDS = {"voter", "vote"}


def _not_voter(c: dict[str, Any], voted_on: dict[str, str], moot: str) -> tuple[str, str] | None:
    """Why ``c`` cannot vote on ``moot`` (reason, rule id), or None if it can."""
    if c["alternate"]:
        return "an alternate shapeshifter cannot vote on Moots", "moot.who-votes"
    if c["type"].lower() != "garou":
        return f"only Garou vote ({c['type']} cannot)", "moot.who-votes"
    if c["regenerating"]:
        return "a regenerating Garou cannot vote", "moot.who-votes"
    if c["umbra"]:
        return "a Garou in the Umbra cannot vote", "moot.who-votes"
    if "amnesiac" in c["derangements"]:
        return "an Amnesiac Garou cannot vote on Moots", "moot.amnesiac"
    key = c["name"].lower()
    if key in voted_on and voted_on[key] != moot:
        return (
            f"it already voted on {voted_on[key]!r} this turn (one Moot per Garou per turn)",
            "moot.one-vote-per-turn",
        )
    return None


def parse_moots(data: dict[str, Any], where: str = "moot") -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Check a moot description: ``characters`` (name, player, type, renown, flags) and ``moots`` in the order
    played (name, caller, votes). Returns (characters by lower-case name, moots). Raises DataFileError."""
    top = Fields(data, where, {"characters", "moots"})
    characters: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(top.items("characters"), start=1):
        place = f"{where}.characters[{i}]"
        f = Fields(raw, place, CHARACTER_FIELDS)
        c: dict[str, Any] = {
            "name": f.text("name"),
            "player": f.text("player", ""),
            "type": f.text("type", "Garou"),
            "renown": f.integer("renown", low=0, high=100),
            "alternate": f.flag("alternate"),
            "regenerating": f.flag("regenerating"),
            "umbra": f.flag("umbra"),
            "derangements": f.derangements(),
        }
        if c["name"].lower() in characters:
            raise DataFileError(f"{place}.name: {c['name']!r} is listed twice")
        characters[c["name"].lower()] = c
    moots = []
    for i, raw in enumerate(top.items("moots"), start=1):
        place = f"{where}.moots[{i}]"
        f = Fields(raw, place, MOOT_FIELDS)
        caller = f.text("caller")
        if caller.lower() not in characters:
            raise DataFileError(f"{place}.caller: {caller!r} is not in 'characters'")
        votes = []
        for j, vraw in enumerate(f.items("votes", required=False), start=1):
            vplace = f"{place}.votes[{j}]"
            v = Fields(vraw, vplace, VOTE_FIELDS)
            voter = v.text("voter")
            if voter.lower() not in characters:
                raise DataFileError(f"{vplace}.voter: {voter!r} is not in 'characters'")
            choice = v.text("vote").lower()
            if choice not in ("for", "against"):
                raise DataFileError(f"{vplace}.vote: {choice!r} (allowed: for, against)")
            votes.append({"voter": characters[voter.lower()]["name"], "vote": choice})
        moots.append(
            {"name": f.text("name", f"Moot {i}"), "caller": characters[caller.lower()]["name"], "votes": votes}
        )
    return characters, moots


def resolve_moots(characters: dict[str, dict[str, Any]], moots: list[dict[str, Any]]) -> Resolution:
    """Vote the Moots in the order played.

    A Garou casts as many votes as its Renown; only Garou that are not regenerating, not in the Umbra and
    not Amnesiac vote (not Allies, Spirits or alternate shapeshifters); each votes on one Moot per turn;
    the caller votes for its Moot first when it can; more votes for than against passes, a tie fails.
    Votes that break these rules are listed as not counted, with the reason.

    Answer: ``{"moots": [{"name", "caller", "passed", "for", "against", "votes": [{"voter", "vote",
    "renown", "counted", "reason"}]}]}``. Raises RuleRefusal when a Garou calls two Moots in a turn or the
    caller is not a Garou.
    Source: Equinox Update, "Resolution Phase"; earlier rulebook, "Moots".
    """
    trail = RuleTrail()
    voted_on: dict[str, str] = {}
    callers: dict[str, str] = {}
    out = []
    for moot in moots:
        caller = characters[moot["caller"].lower()]
        if caller["type"].lower() != "garou":
            raise RuleRefusal(
                f"{caller['name']} is a {caller['type']}: only a Garou can call a Moot (rule moot.caller)"
            )
        if caller["name"].lower() in callers:
            raise RuleRefusal(
                f"{caller['name']} already called {callers[caller['name'].lower()]!r} this turn: "
                "a Garou calls at most one Moot per turn (rule moot.one-call-per-turn)"
            )
        callers[caller["name"].lower()] = moot["name"]
        trail.say(f"Moot {moot['name']!r}, called by {caller['name']}.", "moot.caller")
        ballots = []
        voted_here: set[str] = set()
        why = _not_voter(caller, voted_on, moot["name"])
        sequence = [{"voter": caller["name"], "vote": "for", "auto": True}] + moot["votes"]
        if why:
            trail.say(
                f"{caller['name']} would vote for its own Moot first, but {why[0]}.", "moot.caller-votes-for", why[1]
            )
            sequence = moot["votes"]
        for vote in sequence:
            c = characters[vote["voter"].lower()]
            key = c["name"].lower()
            ballot = {"voter": c["name"], "vote": vote["vote"], "renown": c["renown"], "counted": False, "reason": ""}
            if vote.get("auto"):
                ballot.update(counted=True, reason="the caller votes for its own Moot")
                trail.say(
                    f"{c['name']} votes for its own Moot with {counted(c['renown'], 'vote')}.",
                    "moot.caller-votes-for",
                    "moot.votes-equal-renown",
                )
            elif key in voted_here:
                if key == caller["name"].lower() and vote["vote"] == "for":
                    continue  # the caller's automatic vote, listed again in the file
                ballot["reason"] = (
                    "it already voted on this Moot"
                    if key != caller["name"].lower()
                    else "the caller must vote for its own Moot"
                )
                trail.say(
                    f"{c['name']}'s {vote['vote']} vote is not counted: {ballot['reason']}.",
                    "moot.caller-votes-for" if key == caller["name"].lower() else "moot.one-vote-per-turn",
                )
            else:
                bad = _not_voter(c, voted_on, moot["name"])
                if bad:
                    ballot["reason"] = bad[0]
                    trail.say(f"{c['name']}'s vote is not counted: {bad[0]}.", bad[1])
                else:
                    ballot["counted"] = True
                    trail.say(
                        f"{c['name']} votes {vote['vote']} with {counted(c['renown'], 'vote')}.",
                        "moot.votes-equal-renown",
                    )
            if ballot["counted"]:
                voted_here.add(key)
                voted_on[key] = moot["name"]
            ballots.append(ballot)
        votes_for = sum(b["renown"] for b in ballots if b["counted"] and b["vote"] == "for")
        votes_against = sum(b["renown"] for b in ballots if b["counted"] and b["vote"] == "against")
        passed = votes_for > votes_against
        verdict = "passes" if passed else ("fails on a tie" if votes_for == votes_against else "fails")
        trail.say(f"{votes_for} for, {votes_against} against: {moot['name']!r} {verdict}.", "moot.result")
        out.append(
            {
                "name": moot["name"],
                "caller": caller["name"],
                "passed": passed,
                "for": votes_for,
                "against": votes_against,
                "votes": ballots,
            }
        )
    return trail.resolution({"moots": out})


def load_moots(path: str | Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Read and check a moot YAML file (format in ``docs/tcg-resolvers.md``)."""
    return parse_moots(load_yaml_mapping(path), str(path))
