"""An import inside a function is allowed only for a stated reason, marked on its line: ``# lazy: <reason>``.

The reasons in use (docs/architecture.md, "Imports inside functions"): ``start-up`` (the CLI builds only the
command named, so a command's store, dice or rich load when it runs; a heavy library loads only where it is
used) and ``a plain roll does not load this`` (the module is on a plain roll's path, which loads no
database). Anything else belongs at the top of the module: an import cycle is broken by moving code, not by
hiding an import in a function.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
REASONS = ("start-up", "a plain roll does not load this")


def unexplained(source: str) -> list[str]:
    """``line: statement`` for each import inside a function whose line has no ``# lazy:`` reason of
    :data:`REASONS`."""
    lines = source.splitlines()
    tree = ast.parse(source)
    found: list[str] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                end = child.end_lineno or child.lineno
                text = " ".join(lines[child.lineno - 1 : end])  # the formatter may move the comment to the first line
                comment = text.partition("# lazy:")[2].strip()
                if not comment.startswith(REASONS):
                    found.append(f"{end}: {ast.unparse(child)}")
            visit(child, inside)

    visit(tree, False)
    return found


def test_every_import_inside_a_function_says_why():
    offenders = []
    for path in sorted((ROOT / "stkit").rglob("*.py")):
        offenders += [f"{path.relative_to(ROOT)}:{hit}" for hit in unexplained(path.read_text(encoding="utf-8"))]
    assert offenders == []


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("def f():\n    import json\n", 1),
        ("def f():\n    import json  # why not\n", 1),
        ("def f():\n    import json  # lazy: because\n", 1),
        ("def f():\n    import json  # lazy: start-up\n", 0),
        ("class C:\n    def f(self):\n        if True:\n            from stkit import text\n", 1),
        ("def f():\n    from stkit.store import (\n        rolling,\n    )  # lazy: start-up (x)\n", 0),
        ("def f():\n    import json  # lazy: cycle (x imports this module)\n", 1),
        ("def f():\n    import json  # lazy: optional\n", 1),
        ("import json\n\ndef f():\n    return json\n", 0),
        ("f = lambda: __import__('json')\n", 0),
    ],
)
def test_the_check_catches_an_unexplained_import(source, caught):
    assert len(unexplained(source)) == caught
