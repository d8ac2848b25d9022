"""Moot voting: Equinox Update, "Resolution Phase", "Derangements", "Other Shapeshifters"."""

from pathlib import Path

import pytest

from stkit.errors import DataFileError, RuleRefusal
from stkit.tcg.resolvers.moot import load_moots, parse_moots, resolve_moots

FIXTURES = Path(__file__).parent / "resolver_fixtures"

CHARACTERS = [
    {"name": "Janus", "player": "Ann", "renown": 3},
    {"name": "Grey Fang", "player": "Bob", "renown": 4},
    {"name": "Sleeper", "player": "Bob", "renown": 5, "regenerating": True},
    {"name": "Walker", "player": "Cy", "renown": 6, "umbra": True},
    {"name": "Forgetful", "player": "Cy", "renown": 2, "derangements": ["Amnesiac"]},
    {"name": "Rat Spirit", "player": "Ann", "type": "Spirit", "renown": 2},
    {"name": "Kinfolk", "player": "Ann", "type": "Ally", "renown": 1},
    {"name": "Hellcat", "player": "Cy", "renown": 4, "alternate": True},
    {"name": "Elder", "player": "Cy", "renown": 2},
]


def vote(moots):
    chars, parsed = parse_moots({"characters": CHARACTERS, "moots": moots})
    return resolve_moots(chars, parsed)


def test_votes_equal_renown_and_caller_votes_for():
    r = vote(
        [
            {
                "name": "Call",
                "caller": "Janus",
                "votes": [{"voter": "Grey Fang", "vote": "against"}, {"voter": "Elder", "vote": "for"}],
            }
        ]
    )
    m = r["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (5, 4, True)
    assert m["votes"][0] == {
        "voter": "Janus",
        "vote": "for",
        "renown": 3,
        "counted": True,
        "reason": "the caller votes for its own Moot",
    }


def test_counts_across_voters():
    m = vote(
        [
            {
                "name": "Call",
                "caller": "Janus",
                "votes": [
                    {"voter": "Elder", "vote": "for"},
                    {"voter": "Grey Fang", "vote": "against"},
                    {"voter": "Kinfolk", "vote": "against"},
                ],
            }
        ]
    )["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (5, 4, True)
    m = vote(
        [
            {
                "name": "Call",
                "caller": "Elder",
                "votes": [
                    {"voter": "Janus", "vote": "for"},
                    {"voter": "Grey Fang", "vote": "against"},
                    {"voter": "Hellcat", "vote": "against"},
                ],
            }
        ]
    )["moots"][0]
    assert (m["for"], m["against"]) == (5, 4)
    m = vote(
        [
            {
                "name": "Tie",
                "caller": "Elder",
                "votes": [
                    {"voter": "Janus", "vote": "against"},
                    {"voter": "Grey Fang", "vote": "for"},
                    {"voter": "Janus", "vote": "for"},
                ],
            }
        ]
    )["moots"][0]
    assert m["passed"] is True  # 2 + 4 for, 3 against; Janus's second vote refused
    m = vote(
        [
            {
                "name": "Tie",
                "caller": "Janus",
                "votes": [
                    {"voter": "Elder", "vote": "against"},
                    {"voter": "Kinfolk", "vote": "for"},
                    {"voter": "Forgetful", "vote": "for"},
                    {"voter": "Grey Fang", "vote": "against"},
                ],
            }
        ]
    )["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (3, 6, False)


def test_exact_tie_fails():
    m = vote(
        [
            {
                "name": "Even",
                "caller": "Grey Fang",
                "votes": [
                    {"voter": "Janus", "vote": "against"},
                    {"voter": "Elder", "vote": "against"},
                    {"voter": "Hellcat", "vote": "for"},
                ],
            }
        ]
    )["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (4, 5, False)
    m = vote(
        [
            {
                "name": "Even",
                "caller": "Grey Fang",
                "votes": [
                    {"voter": "Janus", "vote": "against"},
                    {"voter": "Elder", "vote": "for"},
                    {"voter": "Forgetful", "vote": "against"},
                ],
            }
        ]
    )["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (6, 3, True)
    chars = [*CHARACTERS, {"name": "Twin", "player": "Dee", "renown": 4}]
    c, moots = parse_moots(
        {
            "characters": chars,
            "moots": [{"name": "Even", "caller": "Grey Fang", "votes": [{"voter": "Twin", "vote": "against"}]}],
        }
    )
    m = resolve_moots(c, moots)["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (4, 4, False)


@pytest.mark.parametrize(
    "voter,reason",
    [
        ("Sleeper", "regenerating"),
        ("Walker", "in the Umbra"),
        ("Forgetful", "Amnesiac"),
        ("Rat Spirit", "only Garou vote"),
        ("Kinfolk", "only Garou vote"),
        ("Hellcat", "alternate shapeshifter"),
    ],
)
def test_who_cannot_vote(voter, reason):
    m = vote([{"name": "Call", "caller": "Janus", "votes": [{"voter": voter, "vote": "against"}]}])["moots"][0]
    ballot = m["votes"][1]
    assert ballot["counted"] is False and reason in ballot["reason"]
    assert (m["for"], m["against"], m["passed"]) == (3, 0, True)


def test_one_moot_per_garou_per_turn():
    r = vote(
        [
            {"name": "First", "caller": "Janus", "votes": [{"voter": "Elder", "vote": "for"}]},
            {"name": "Second", "caller": "Grey Fang", "votes": [{"voter": "Elder", "vote": "against"}]},
        ]
    )
    second = r["moots"][1]
    assert second["votes"][1]["counted"] is False and "already voted on 'First'" in second["votes"][1]["reason"]
    assert second["passed"] is True
    assert "moot.one-vote-per-turn" in r.rules


def test_caller_cannot_vote_against():
    m = vote([{"name": "Call", "caller": "Janus", "votes": [{"voter": "Janus", "vote": "against"}]}])["moots"][0]
    assert (m["for"], m["against"]) == (3, 0)
    assert m["votes"][1]["reason"] == "the caller must vote for its own Moot"


def test_amnesiac_caller_casts_no_votes():
    m = vote([{"name": "Call", "caller": "Forgetful", "votes": [{"voter": "Elder", "vote": "against"}]}])["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (0, 2, False)


def test_garou_calls_one_moot_per_turn():
    with pytest.raises(RuleRefusal, match=r"moot.one-call-per-turn"):
        vote([{"name": "A", "caller": "Janus"}, {"name": "B", "caller": "Janus"}])


def test_only_garou_call_moots():
    with pytest.raises(RuleRefusal, match="only a Garou can call"):
        vote([{"name": "A", "caller": "Kinfolk"}])


def test_fixture_file():
    chars, moots = load_moots(FIXTURES / "moot.yaml")
    r = resolve_moots(chars, moots)
    assert [(m["name"], m["passed"], m["for"], m["against"]) for m in r["moots"]] == [
        ("Call to Arms", True, 7, 4),
        ("Silence the Galliard", True, 4, 0),
    ]


@pytest.mark.parametrize(
    "data,message",
    [
        ({"characters": CHARACTERS, "moots": [{"caller": "Nobody"}]}, "caller: 'Nobody' is not in 'characters'"),
        (
            {"characters": CHARACTERS, "moots": [{"caller": "Janus", "votes": [{"voter": "Elder", "vote": "maybe"}]}]},
            "vote: 'maybe'",
        ),
        ({"characters": [{"name": "X", "renown": -1}], "moots": []}, r"characters\[1\].renown: -1 is out of range"),
        ({"moots": []}, "missing required list 'characters'"),
    ],
)
def test_bad_files(data, message):
    with pytest.raises(DataFileError, match=message):
        parse_moots(data)


def test_alternate_shapeshifter_may_call_but_not_vote():
    # Other Shapeshifters count as Garou for everything but Moot voting.
    m = vote([{"name": "Cat's Call", "caller": "Hellcat", "votes": [{"voter": "Elder", "vote": "for"}]}])["moots"][0]
    assert (m["for"], m["against"], m["passed"]) == (2, 0, True)
    assert [b["voter"] for b in m["votes"] if b["counted"]] == ["Elder"]
