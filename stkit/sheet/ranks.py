"""Garou Rank: the Renown each auspice's Ranks need and the title of each Rank, read from the packaged
character rules (:func:`rules`, parsed once). Apart from :mod:`stkit.sheet.lifebook` (which re-exports
these names) so that showing a sheet's next Rank does not load character creation and experience.

Rules source: the Rank tables by auspice in ``stkit/sheet/data/character_rules.yaml``, which names the
public restatement they come from.
"""

from __future__ import annotations

import functools
from typing import Any

from stkit.sheet import traits as T
from stkit.sheet.sheet import Sheet
from stkit.yamlsafe import load_packaged


@functools.cache
def rules() -> dict[str, Any]:
    """The parsed data file (cached). Raises DataFileError if the packaged file is damaged."""
    data = load_packaged("stkit.sheet", "character_rules.yaml")
    assert isinstance(data, dict)
    return data


def rank_table(sheet: Sheet) -> dict[int, dict[str, int]] | None:
    """{rank: requirement} for the sheet's auspice ({'any': n} for the Ragabash), or None (no Garou auspice)."""
    if sheet.fera != "Garou" or sheet.creature != "shapeshifter":
        return None
    table = rules()["ranks"].get(sheet.auspice)
    return {int(k): {str(r): int(n) for r, n in v.items()} for k, v in table.items()} if table else None


def meets(sheet: Sheet, need: dict[str, int]) -> bool:
    perm = {r: sheet.renown[r].permanent for r in T.RENOWN}
    if "any" in need:
        return sum(perm.values()) >= need["any"]
    return all(perm[r] >= n for r, n in need.items())


def qualifying_rank(sheet: Sheet) -> int | None:
    """The highest Rank whose Renown (and every lower Rank's) the sheet's permanent Renown meets, or None
    when the sheet has no Rank table."""
    table = rank_table(sheet)
    if table is None:
        return None
    best = 0
    for rank in sorted(table):
        if not meets(sheet, table[rank]):
            break
        best = rank
    return best


def rank_name(rank: int) -> str:
    return str(rules()["rank_names"].get(rank, rank))


def next_rank(sheet: Sheet) -> dict | None:
    """The next Rank above the sheet's: {'rank', 'title', 'needs' {renown: n} or {'any': n}, 'has', 'text'},
    or None (no table, or the top of it)."""
    table = rank_table(sheet)
    if table is None or sheet.rank + 1 not in table:
        return None
    need = table[sheet.rank + 1]
    has = {r: sheet.renown[r].permanent for r in T.RENOWN}
    if "any" in need:
        text = f"{need['any']} Renown in any combination (has {sum(has.values())})"
    else:
        text = ", ".join(f"{r} {n} (has {has[r]})" for r, n in need.items() if n)
    return {"rank": sheet.rank + 1, "title": rank_name(sheet.rank + 1), "needs": need, "has": has, "text": text}
