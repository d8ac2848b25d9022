"""Battlefield Defence: the self-defending Battlefield's stats after its Keywords are chosen.

Source: Battlefields supplement, "Attacking the Battlefield", "Battlefield Defence", "Keywords", the two
worked examples and the FAQ.
"""

from __future__ import annotations

import functools

from stkit.errors import InvalidValue, RuleRefusal
from stkit.tcg.cardfiles import load_builtin_cards
from stkit.tcg.cards import KEYWORD_NAMES
from stkit.tcg.common import fold_name as _key
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.text import counted

MAX_RENOWN = 100
FORBIDDEN = ("faststriking", "unique", "restricted", "constrained")  # folded by fold_name
# Words players ask for that are not Keywords at all, with the FAQ ruling that says so.
NOT_KEYWORDS = {
    "umbral": "battlefield-faq.umbral-not-keyword",
    "undodgeable": "battlefield-faq.undodgeable-unblockable",
    "unblockable": "battlefield-faq.undodgeable-unblockable",
}
ALIGNMENTS = ("gaia", "wyrm")
# Keywords whose built-in effect the supplement spells out.
EFFECTS = {
    "garou": "lets the defenders play Crinos-form Combat Actions",
    "monster": "lets the defenders play Crinos-form Combat Actions",
    "spirit": "puts the defenders in both worlds (keeps Umbral escapers in the fight)",
}


@functools.lru_cache(maxsize=1)
def _known_keys() -> dict[str, str]:
    """Folded Keyword -> its name: the Keywords the rules name (KEYWORD_NAMES) and those on stkit's
    built-in cards, the card data a purchase is checked against."""

    names = [*KEYWORD_NAMES, *(k for card in load_builtin_cards() for k in card.keywords)]
    return {_key(n): n for n in reversed(names)}


def _display(word: str) -> str:
    word = " ".join(word.strip().split())
    return word if any(ch.isupper() for ch in word) else word.title()


def resolve_battlefield(
    *, renown: int, defender_keywords: list[str] | tuple[str, ...] = (), buy: list[str] | tuple[str, ...] = ()
) -> Resolution:
    """Rage, Gnosis and Health of a Battlefield defending itself (no alpha defends it).

    ``renown`` is the Battlefield's Renown (1..100): its defenders start with that much Rage, Gnosis and
    Health. ``defender_keywords`` are the Keywords on its Defender requirements (automatic, free);
    ``buy`` the Keywords the Defending Player buys, each costing 1 Rage, 1 Gnosis and 1 Health. If neither
    Gaia nor Wyrm is automatic, the first of them bought is the free pick.

    Answer: ``{"rage", "gnosis", "health", "keywords": [...], "automatic": [...], "bought": [...],
    "free": [...]}``. Raises RuleRefusal for a forbidden Keyword (Fast Striking, Unique, Restricted,
    Constrained), a word that is not a Keyword (Umbral, Undodgeable, Unblockable) or purchases that would
    leave the defenders at 0 Health; InvalidValue for a Renown out of range, an empty Keyword or a bought
    word that is no Keyword of the card data (naming the close ones).
    Source: Battlefields supplement, "Battlefield Defence" and "Keywords" (examples: Renown 10 with Kailindo
    and Spirit bought is 8/8/8; Renown 5 with Kailindo and Firearm is 3/3/3).
    """
    trail = RuleTrail()
    if isinstance(renown, bool) or not isinstance(renown, int) or not 1 <= renown <= MAX_RENOWN:
        raise InvalidValue(f"Battlefield Renown {renown!r} is out of range (allowed 1 to {MAX_RENOWN})")
    for word in [*defender_keywords, *buy]:
        if not _key(word):
            raise InvalidValue("an empty Keyword was given (check for doubled commas)")
    trail.say(
        f"Nobody defends it, so its own defenders fight, with Rage, Gnosis and Health of {renown} (its Renown).",
        "battlefield.self-defence",
        "conflicts.battlefield-procedures",
    )
    keywords: list[str] = []
    seen: set[str] = set()
    automatic: list[str] = []
    for word in defender_keywords:
        if _key(word) in seen:
            continue
        seen.add(_key(word))
        automatic.append(_display(word))
    keywords.extend(automatic)
    if automatic:
        trail.say(
            f"Automatic Keywords from the Defender requirements: {', '.join(automatic)}.",
            "battlefield.automatic-keywords",
        )
    free_pick_open = not any(_key(k) in ALIGNMENTS for k in automatic)
    bought: list[str] = []
    free: list[str] = []
    for word in buy:
        key = _key(word)
        if key in FORBIDDEN:
            raise RuleRefusal(
                f"Battlefield defenders can never be given the Keyword {_display(word)!r} "
                f"(Fast Striking, Unique, Restricted and Constrained are barred; rule battlefield.forbidden-keywords)"
            )
        if key in NOT_KEYWORDS:
            raise RuleRefusal(
                f"{_display(word)!r} is not a Keyword, so it cannot be bought "
                f"(ruling {NOT_KEYWORDS[key]}"
                + ("; buy Spirit to keep Umbral escapers in the fight)" if key == "umbral" else ")")
            )
        if key not in _known_keys():
            from rapidfuzz import fuzz, process  # lazy: start-up (heavy library, loaded when needed)

            close = process.extract(key, list(_known_keys()), scorer=fuzz.ratio, limit=3, score_cutoff=70)
            hint = f"; did you mean {', '.join(_known_keys()[c[0]] for c in close)}?" if close else ""
            raise InvalidValue(f"{_display(word)!r} is not a Keyword of the card game{hint}")
        if key in seen:
            trail.say(
                f"{_display(word)} is already a Keyword of the defenders; it is not bought again.",
                "battlefield.buy-keywords",
            )
            continue
        seen.add(key)
        if key in ALIGNMENTS and free_pick_open:
            free_pick_open = False
            free.append(_display(word))
            keywords.append(_display(word))
            trail.say(
                f"{_display(word)} is the free pick: neither Gaia nor Wyrm is on the Defender requirements.",
                "battlefield.free-alignment",
            )
            continue
        bought.append(_display(word))
        keywords.append(_display(word))
    if bought:
        trail.say(
            f"Bought {counted(len(bought), 'Keyword')} ({', '.join(bought)}), "
            "each costing 1 Rage, 1 Gnosis and 1 Health.",
            "battlefield.buy-keywords",
        )
    if free_pick_open:
        trail.say("Gaia or Wyrm could still be picked for free (not taken).", "battlefield.free-alignment")
    for word in keywords:
        if _key(word) in EFFECTS:
            trail.say(f"{word} {EFFECTS[_key(word)]}.", "battlefield.keyword-effects")
    if {_key(w) for w in bought} & {"vampire"}:
        trail.cite("battlefield-faq.vampire-keyword")
    keys = {_key(k) for k in keywords}
    if {"gaia", "wyrm"} <= keys:
        trail.say("Gaia and Wyrm together are allowed: Keywords may conflict.", "battlefield-faq.conflicting-keywords")
    if len(keywords) > 1:
        trail.say(
            "However many Keywords it has, the defenders are fought as a single creature.",
            "battlefield-faq.one-creature",
        )
    stat = renown - len(bought)
    if stat < 1:
        raise RuleRefusal(
            f"buying {counted(len(bought), 'Keyword')} would leave a Renown {renown} Battlefield's defenders at "
            f"{stat} Health; buy at most {renown - 1} (rule battlefield.stat-floor)"
        )
    trail.say(f"Rage {stat}, Gnosis {stat}, Health {stat}.", "battlefield.self-defence")
    return trail.resolution(
        {
            "rage": stat,
            "gnosis": stat,
            "health": stat,
            "keywords": keywords,
            "automatic": automatic,
            "bought": bought,
            "free": free,
        }
    )
