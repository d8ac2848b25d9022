"""A library's message about a file keeps its own punctuation and hides the file's content."""

import pytest

from stkit.text import without_quotes


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        # PyYAML on `name: [unclosed`: the pieces pair left to right (this read "',(not shown)](not shown)" before)
        ("expected ',' or ']', but got '<stream end>'", "expected ',' or ']', but got '<stream end>'"),
        ("found unhashable key 'the secret words' at ':'", "found unhashable key (not shown) at ':'"),
        ('a "long quoted" and "ab"', 'a (not shown) and "ab"'),
        ("escape '\\t' stays", "escape '\\t' stays"),
    ],
)
def test_quoted_pieces_pair_left_to_right(message, shown):
    assert without_quotes(message) == shown
