"""Dependency direction: the dice engine and card game load no framework; a plain roll loads no database.

Two kinds of check: static ones read every module with ``ast`` (so an import inside a function counts, though
it only runs when the function does), and runtime ones import every module of a layer in a fresh interpreter
and look at ``sys.modules``.
"""

import pathlib
import subprocess
import sys

import pytest

from tests.test_imports import all_modules, imported_names

#: Frameworks neither the dice engine nor the card game may import, nor anything of the store or adapters.
FRAMEWORKS = ("sqlmodel", "sqlalchemy", "alembic", "typer", "rich", "click", "fastapi", "starlette", "psycopg")
ADAPTERS_AND_STORE = ("stkit.store", "stkit.cli", "stkit.web")


def _forbidden_imports(package: str, allowed) -> list[str]:
    """``file:line imports name`` for each import anywhere in ``package`` that ``allowed(name)`` rejects."""
    found = []
    for module, path in all_modules().items():
        if module == package or module.startswith(package + "."):
            for name, line in imported_names(module, path):
                if not allowed(name):
                    found.append(
                        f"{path.relative_to(pathlib.Path(__file__).resolve().parents[1])}:{line} imports {name}"
                    )
    return sorted(set(found))


def _top(name: str) -> str:
    return name.split(".")[0]


def _not_framework_or_store(name: str) -> bool:
    return _top(name) not in FRAMEWORKS and not name.startswith(ADAPTERS_AND_STORE)


def _stdlib_or_dice(name: str) -> bool:
    # the dice engine: standard library, itself, and the shared error and text helpers only
    return (
        _top(name) in sys.stdlib_module_names
        or name.startswith("stkit.dice")
        or name.startswith(("stkit.errors", "stkit.text"))
    )


def test_tcg_imports_no_framework_or_store_statically():
    assert _forbidden_imports("stkit.tcg", _not_framework_or_store) == []


def test_dice_imports_only_the_standard_library_statically():
    assert _forbidden_imports("stkit.dice", _stdlib_or_dice) == []


@pytest.mark.parametrize(
    ("source", "allowed", "caught"),
    [
        ("def f():\n    import sqlalchemy\n", _not_framework_or_store, "sqlalchemy"),
        ("def f():\n    if True:\n        from sqlmodel import Session\n", _not_framework_or_store, "sqlmodel"),
        ("class C:\n    def f(self):\n        from stkit.store import db\n", _not_framework_or_store, "stkit.store"),
        ("try:\n    import rich.console\nexcept ImportError:\n    pass\n", _stdlib_or_dice, "rich.console"),
        ("def f():\n    import yaml\n", _stdlib_or_dice, "yaml"),
    ],
)
def test_the_static_check_catches_hidden_imports(tmp_path, source, allowed, caught):
    path = tmp_path / "mod.py"
    path.write_text(source)
    names = [name for name, _ in imported_names("stkit.tcg.mod", path)]
    assert caught in names and not all(allowed(n) for n in names)


CHECK = """
import sys
{body}
heavy = sorted(
    m
    for m in ("sqlmodel", "sqlalchemy", "alembic", "typer", "rich", "fastapi", "starlette", "uvicorn", "jinja2",
              "sse_starlette", "segno")
    if m in sys.modules
)
print(",".join(heavy))
"""


def _heavy_modules(body: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", CHECK.format(body=body)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [m for m in proc.stdout.strip().split(",") if m]


def test_dice_engine_is_pure():
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1] / "stkit"
    names = sorted(
        ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for p in (root / "dice").rglob("*.py")
    )
    body = "\n".join(f"import stkit.{n}" for n in names if n != "dice")
    assert "import stkit.dice.odds\n" in body and "stkit.dice.odds.teamwork" in body and "stkit.dice.contest" in body
    assert _heavy_modules("import stkit.dice\n" + body) == []
    # standard library only: no third-party package at all
    proc = subprocess.run(
        [sys.executable, "-c", body + "\nimport sys\nprint(sorted({m.split('.')[0] for m in sys.modules}))"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    third_party = {"yaml", "rapidfuzz", "pydantic", "numpy", "platformdirs", "psycopg", "click", "typer", "rich"}
    assert not third_party & set(eval(proc.stdout))


def test_tcg_package_loads_no_framework():
    names = sorted(m for m in all_modules() if m.startswith("stkit.tcg"))
    assert "stkit.tcg.rules" in names and "stkit.tcg.resolvers.combat" in names
    body = "\n".join(f"import {n}" for n in names)
    assert not {"sqlmodel", "sqlalchemy", "typer", "rich"} & set(_heavy_modules(body))


def test_plain_roll_does_not_load_the_database_layer():
    body = (
        "from stkit.cli.app import app\n"
        "try:\n    app(['roll', '5', '-d', '6', '--seed', '1'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
    )
    heavy = _heavy_modules(body)
    assert "sqlmodel" not in heavy and "sqlalchemy" not in heavy and "alembic" not in heavy
    # nor the table server's web stack
    assert not {"fastapi", "starlette", "uvicorn", "jinja2", "sse_starlette", "segno"} & set(heavy)


def test_importing_the_web_package_loads_no_framework():
    assert _heavy_modules("import stkit.web") == []


def test_nothing_outside_cli_imports_cli():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[1] / "stkit"
    pattern = re.compile(r"^\s*(from stkit\.cli|import stkit\.cli)", re.M)
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "cli" not in p.relative_to(root).parts and p.name != "__main__.py" and pattern.search(p.read_text())
    ]
    assert offenders == []


def test_nothing_imports_the_web_adapter():
    """stkit.web is started by name (uvicorn loads ``stkit.web.app:create_app``); no module imports it."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[1] / "stkit"
    pattern = re.compile(r"^\s*(from stkit\.web|import stkit\.web)", re.M)
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "web" not in p.relative_to(root).parts and pattern.search(p.read_text())
    ]
    assert offenders == []


def test_sql_only_in_the_store():
    """The adapters reach the database only through store functions: no SQL text, no database driver."""
    import ast
    import re

    root = pathlib.Path(__file__).resolve().parents[1] / "stkit"
    sql = re.compile(
        r"^\s*(SELECT\s.*\bFROM\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|LISTEN\s|PRAGMA\s)", re.S
    )
    drivers = ("sqlite3", "psycopg", "sqlalchemy", "sqlmodel")
    offenders = []
    for layer in ("cli", "web"):
        for path in (root / layer).rglob("*.py"):
            tree = ast.parse(path.read_text(), str(path))
            docstrings = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and node.body
                and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant)
            }
            for node in ast.walk(tree):
                where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                    if sql.match(node.value):
                        offenders.append(f"{where} SQL {node.value[:30]!r}")
                elif isinstance(node, ast.Import | ast.ImportFrom):
                    names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                    offenders += [f"{where} imports {n}" for n in names if n.split(".")[0] in drivers]
    assert offenders == []


@pytest.mark.parametrize(
    "package",
    ["stkit.store", "stkit.store.db", "stkit.store.fight", "stkit.store.table", "stkit.sheet", "stkit.formats"],
)
def test_a_package_docstring_lists_its_modules(package):
    """Each package's ``__init__`` names every module and subpackage it holds, and nothing that is gone."""
    import importlib
    import re

    mod = importlib.import_module(package)
    root = pathlib.Path(mod.__file__).parent
    modules = {p.stem for p in root.glob("*.py") if p.stem != "__init__"}
    modules |= {p.parent.name for p in root.glob("*/__init__.py")}
    named = set(re.findall(r"``(\w+)``", mod.__doc__ or "")) - {"gex", "gw", "__init__"}
    assert named == modules


def _pure_sheet_or_format(name: str) -> bool:
    # the sheet's rules and other tools' files: no store, no adapter, no database or framework
    return _top(name) not in FRAMEWORKS and not name.startswith(ADAPTERS_AND_STORE)


@pytest.mark.parametrize("package", ["stkit.sheet", "stkit.formats"])
def test_sheet_and_formats_import_no_store_adapter_or_database_statically(package):
    assert _forbidden_imports(package, _pure_sheet_or_format) == []


def test_sheet_uses_dice_but_not_formats_and_dice_uses_neither():
    """The direction: dice <- sheet <- formats <- store."""
    assert _forbidden_imports("stkit.sheet", lambda n: not n.startswith("stkit.formats")) == []
    assert _forbidden_imports("stkit.dice", lambda n: not n.startswith(("stkit.sheet", "stkit.formats"))) == []


def test_sheet_and_formats_load_no_framework():
    names = sorted(m for m in all_modules() if m.startswith(("stkit.sheet", "stkit.formats")))
    assert "stkit.sheet.sheet" in names and "stkit.formats.foundry" in names and "stkit.formats.grapevine" in names
    body = "\n".join(f"import {n}" for n in names)
    assert _heavy_modules(body) == []
    proc = subprocess.run(
        [sys.executable, "-c", body + "\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('stkit.')))"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    loaded = eval(proc.stdout)
    assert not [m for m in loaded if m.startswith(("stkit.store", "stkit.cli", "stkit.web"))]
