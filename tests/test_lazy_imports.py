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


_PROBE = r"""
import importlib, json, sys
module, wants = sys.argv[1], json.loads(sys.argv[2])
importlib.import_module(module)
loaded = []
for where, pkg, name in wants:
    mod = sys.modules.get(pkg)
    if name is None:
        parts = pkg.split(".")
        hit = all(".".join(parts[: i + 1]) in sys.modules for i in range(len(parts)))
    else:
        hit = mod is not None and (f"{pkg}.{name}" in sys.modules or (name in vars(mod) and not isinstance(vars(mod)[name], type(sys))))
    if hit:
        loaded.append(where)
print(json.dumps(loaded))
"""


def _start_up_imports(path: pathlib.Path) -> list[tuple[str, str, str | None]]:
    """(line, module, name) of each unconditional ``start-up`` import inside a function of ``path`` (the
    imports marked for a plain roll's path are checked by the start-up tests instead)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found: list[tuple[str, str, str | None]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, True)
            elif in_function and isinstance(child, ast.Import | ast.ImportFrom):
                text = " ".join(lines[child.lineno - 1 : child.end_lineno or child.lineno])
                if "plain roll" in text or "--json" in text or "logs nothing" in text:
                    continue
                where = f"{child.lineno}: {ast.unparse(child)}"
                if isinstance(child, ast.Import):
                    found.extend((where, a.name, None) for a in child.names)
                elif child.level == 0 and child.module:
                    found.extend((where, child.module, a.name) for a in child.names)
            elif not (in_function and isinstance(child, ast.Try | ast.If | ast.With | ast.For | ast.While)):
                visit(child, in_function)

    visit(ast.parse(source), False)
    return found


@pytest.mark.slow
def test_no_import_inside_a_function_names_what_its_module_already_loads():
    """An import inside a function saves start-up only when importing its module alone does not already
    load what it names; otherwise it belongs at the top of the module."""
    import json
    import subprocess
    import sys

    offenders = []
    for path in sorted((ROOT / "stkit").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if str(rel) in ("stkit/__main__.py", "stkit/cli/launch.py"):  # run before the collector is off
            continue
        wants = _start_up_imports(path)
        if not wants:
            continue
        parts = list(rel.with_suffix("").parts)
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, module, json.dumps(wants)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr
        offenders += [f"{rel}:{where}" for where in json.loads(done.stdout)]
    assert offenders == []
