"""stkit.yamlsafe: the one hardened YAML reader (duplicate keys, alias bombs, deep nesting, huge numbers)."""

import re

import pytest

from stkit.errors import DataFileError
from stkit.yamlsafe import load


def test_plain_data_loads():
    assert load("a: 1\nb: [x, {c: true}]\n", "f.yaml") == {"a": 1, "b": ["x", {"c": True}]}


def test_duplicate_keys_name_both_lines():
    with pytest.raises(
        DataFileError, match=r"f\.yaml: malformed YAML at line 3, column 1: duplicate key 'a' \(first given at line 1\)"
    ):
        load("a: 1\nb: 2\na: 3\n", "f.yaml")
    with pytest.raises(DataFileError, match="duplicate key 'x'"):
        load("- {x: 1, x: 2}\n", "f.yaml")


def test_merge_keys_are_not_duplicates():
    assert load("base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n", "f.yaml")["other"] == {"x": 1, "y": 2}


def test_alias_bomb_is_refused_quickly():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n"
    for i, name in enumerate("bcdefghij"):
        prev = "abcdefghij"[i]
        bomb += f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
    with pytest.raises(DataFileError, match="holds more than 200000 values once its YAML aliases"):
        load(bomb, "bomb.yaml")
    with pytest.raises(DataFileError, match="more than 10 values"):
        load("a: &a [1, 2, 3]\nb: [*a, *a, *a, *a]\n", "small.yaml", max_nodes=10)


def test_deep_nesting_is_refused():
    with pytest.raises(DataFileError, match="nested more than 50 levels deep"):
        load("[" * 60 + "]" * 60, "deep.yaml")
    # far past the limit the parser itself may give up (libyaml's depth limit, or Python's recursion limit):
    # the message is the same either way
    with pytest.raises(DataFileError, match=r"nested more than 50 levels deep; allowed: 50$"):
        load("[" * 5000 + "]" * 5000, "deeper.yaml")


def test_a_huge_integer_is_one_line():
    with pytest.raises(DataFileError, match="a value cannot be read"):
        load("n: " + "9" * 5000 + "\n", "big.yaml")


def test_no_python_objects():
    with pytest.raises(DataFileError, match="malformed YAML"):
        load("!!python/object/apply:os.system ['true']\n", "evil.yaml")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("!!binary aGVsbG8=", "!!binary"),
        ("!!set {a, b}", "!!set"),
        ("!!omap [a: 1]", "!!omap"),
        ("!!pairs [a: 1]", "!!pairs"),
        ("!!python/tuple [1, 2]", "!!python/tuple"),
        ("!!python/name:os.system", "!!python/name"),
        ("!SECRET x", "(a tag that is not shown)"),
    ],
)
def test_tags_other_than_plain_data_are_one_line(value, shown):
    with pytest.raises(DataFileError) as info:
        load(f"a: 1\nx: {value}\n", "t.yaml")
    assert str(info.value) == (
        f"t.yaml: malformed YAML at line 2, column 4: the YAML tag {shown} is not allowed; allowed: plain text,"
        " numbers, true/false, dates, lists and mappings"
    )


def test_plain_tags_still_load():
    data = load("a: !!str 1\nb: !!int '2'\nc: !!float '1.5'\nd: !!null ''\ne: !!bool 'true'\nf: 2024-05-01\n", "t.yaml")
    assert data["a"] == "1" and data["b"] == 2 and data["c"] == 1.5 and data["d"] is None and data["e"] is True
    assert data["f"].isoformat() == "2024-05-01"


def test_a_merge_bomb_is_refused_before_it_is_built():
    # each level merges the one before twice: 2**40 entries if PyYAML were let to copy them
    # (PyYAML 6.0.4 and later no longer copy a mapping merged twice: there the file is small and loads)
    lines = ["a0: &a0 {k: 1}"] + [f"a{i}: &a{i} {{<<: [*a{i - 1}, *a{i - 1}]}}" for i in range(1, 41)]
    try:
        data = load("\n".join(lines) + "\n", "merge.yaml")
    except DataFileError as exc:
        assert re.search(r"merge keys \(<<\) copy more than 10000 entries into one mapping", str(exc)), exc
    else:
        assert data["a40"] == {"k": 1} and len(data) == 41


def test_a_large_plain_mapping_is_not_a_merge_bomb():
    text = "\n".join(f"k{i}: {i}" for i in range(12_000)) + "\n"
    assert len(load(text, "big.yaml")) == 12_000
    merged = "base: &b {x: 1}\nother:\n  <<: *b\n" + "\n".join(f"  k{i}: {i}" for i in range(12_000)) + "\n"
    with pytest.raises(DataFileError, match=r"merge keys \(<<\) copy more than 10000 entries"):
        load(merged, "merged.yaml")


def test_nesting_deep_enough_to_crash_libyaml_is_refused_in_a_subprocess():
    """libyaml's composer recurses in C: 100,000 levels overflowed the C stack (a crash, exit -11). Run in a
    child process so that a crash fails this test instead of ending the test run."""
    import subprocess
    import sys

    code = (
        "from stkit.errors import DataFileError\n"
        "from stkit.yamlsafe import load\n"
        "for text in ('[' * 100_000 + ']' * 100_000, '- ' * 100_000 + 'x', '{a: ' * 100_000 + '1' + '}' * 100_000):\n"
        "    try:\n"
        "        load(text, 'deep.yaml')\n"
        "    except DataFileError as exc:\n"
        "        print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    assert done.stdout.splitlines() == ["deep.yaml: nested more than 50 levels deep; allowed: 50"] * 3
