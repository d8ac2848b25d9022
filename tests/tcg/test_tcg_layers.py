"""The card game's layer: stkit.tcg imports nothing of the store, SQLAlchemy or the CLI (not even lazily,
inside a function), and the tcg command modules form no import cycle."""

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORBIDDEN = ("sqlalchemy", "sqlmodel", "alembic", "psycopg", "typer", "rich", "stkit.store", "stkit.cli", "stkit.web")


def _imports(path: pathlib.Path) -> list[str]:
    """Every module an ``import`` or ``from ... import`` anywhere in the file names (functions included)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]
    return names


def test_no_tcg_module_imports_the_store_sqlalchemy_or_the_cli():
    offenders = []
    for path in sorted((ROOT / "stkit" / "tcg").rglob("*.py")):
        for name in _imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


def test_the_check_catches_a_lazy_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    import sqlalchemy\n    from stkit.store import db\n", encoding="utf-8")
    assert _imports(bad) == ["sqlalchemy", "stkit.store", "stkit.store.db"]


def test_importing_every_tcg_module_loads_no_framework():
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in (ROOT / "stkit" / "tcg").rglob("*.py")
        if p.name != "__init__.py"
    )
    code = "\n".join(f"import {m}" for m in modules) + (
        "\nimport sys\nprint(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'sqlalchemy', 'sqlmodel', 'alembic', 'typer', 'rich', 'psycopg'} or m.startswith('stkit.store')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_tcg_command_modules_form_no_import_cycle():
    package = ROOT / "stkit" / "cli" / "tcg"
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        name = "stkit.cli.tcg" if path.name == "__init__.py" else f"stkit.cli.tcg.{path.stem}"
        graph[name] = {
            m for m in _imports(path) if m.startswith("stkit.cli.tcg") and m in {*graph, *_module_names(package)}
        }
    # a submodule importing the package itself (its __init__) would close a cycle with register()
    for name, deps in graph.items():
        if name != "stkit.cli.tcg":
            assert "stkit.cli.tcg" not in deps, name
    assert graph["stkit.cli.tcg.app"] == set()


def _module_names(package: pathlib.Path) -> set[str]:
    return {"stkit.cli.tcg"} | {f"stkit.cli.tcg.{p.stem}" for p in package.glob("*.py") if p.name != "__init__.py"}
