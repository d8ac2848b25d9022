"""Hostile edits of real exported files, for the formats' hostile tests: every place in a Foundry actor,
that actor with values (or keys) changed there, and text made into a Grapevine attribute value."""

from __future__ import annotations

import copy
from collections.abc import Iterable


def paths(doc: object, prefix: tuple = ()) -> list[tuple]:
    """Every place below ``doc`` (a parsed JSON document) as the tuple of keys and list indexes leading to
    it, the document itself left out."""
    out = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += [(*prefix, key), *paths(value, (*prefix, key))]
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += [(*prefix, i), *paths(value, (*prefix, i))]
    return out


def changed(doc: dict, changes: Iterable[tuple]) -> dict:
    """A deep copy of ``doc`` with each change made in turn: ``(path, value)`` sets the place at ``path`` to
    ``value``; ``(path, value, True)`` renames its key to ``value`` instead, where its parent is a mapping.
    A change whose place an earlier one replaced is passed over."""
    data = copy.deepcopy(doc)
    for path, value, *as_key in changes:
        target = data
        try:
            for key in path[:-1]:
                target = target[key]
            if as_key and as_key[0] and isinstance(target, dict):
                target[value] = target.pop(path[-1])
            else:
                target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return data


def xml_attr(value: str) -> bytes:
    """``value`` escaped for a double-quoted XML attribute, UTF-8 encoded."""
    # XML 1.0 cannot hold C0 characters even as references: those become U+FFFD; C1, DEL and bidi can
    text = "".join(ch if ch >= " " else "\ufffd" for ch in value)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;").encode()
