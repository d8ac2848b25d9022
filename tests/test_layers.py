"""Dependency direction: the dice engine and card game load no framework; a plain roll loads no database."""

import subprocess
import sys

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

    names = sorted(p.stem for p in (pathlib.Path(__file__).resolve().parents[1] / "stkit" / "dice").glob("*.py"))
    body = "\n".join(f"import stkit.dice.{n}" for n in names if n != "__init__")
    assert "stkit.dice.odds" in body and "stkit.dice.contest" in body
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
    assert not {"sqlmodel", "sqlalchemy", "typer", "rich"} & set(_heavy_modules("import stkit.tcg"))


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
