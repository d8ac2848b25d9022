"""A shapeshifter downed past Incapacitated: the same damage gives the same result however it is split
(docs/combat.md, "Wounds past Incapacitated": once the Incapacitated level holds lethal or worse, the first
level with nowhere to go kills)."""

from __future__ import annotations

import pytest

from stkit.sheet.sheet import Sheet


def _garou() -> Sheet:
    s = Sheet(name="Mari", creature="shapeshifter", breed="homid")
    s.form = "Crinos"
    return s


@pytest.mark.parametrize("kind", ["aggravated", "lethal"])
@pytest.mark.parametrize("split", [(9,), (7, 2), (7, 1, 1), (8, 1), (3, 4, 2)])
def test_nine_levels_kill_however_split(kind, split):
    """Seven levels fill the track (7 = Incapacitated, held by lethal or worse); the eighth has nowhere to
    go and kills. 9 at once left her alive ('2 more had nowhere to go'), while 7 then 1 killed."""
    s = _garou()
    killed = False
    for n in split:
        killed = s.take_damage(n, kind).killed or killed
    assert killed


def test_bashing_past_the_track_turns_to_lethal_and_does_not_kill():
    """9 bashing: 7 fill the track, the 8th and 9th turn two bashing levels lethal; nothing kills."""
    for split in ((9,), (7, 2)):
        s = _garou()
        assert not any(s.take_damage(n, "bashing").killed for n in split)
        assert (s.health["bashing"], s.health["lethal"]) == (5, 2)
