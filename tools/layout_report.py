"""Print the package layout's figures: lines and modules per package, the deepest chain of imports inside
the store, and the imports inside functions with and without a ``# lazy:`` reason.

Usage: ``python tools/layout_report.py [ROOT]`` (ROOT defaults to the repository's ``stkit`` folder).
Lines are physical lines of ``.py`` files; a package's figures count its own files, not its subpackages'.
The import graph reads every ``import``/``from`` statement anywhere in a module (top level or not).
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(tree: ast.AST, name: str, is_package: bool) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = name.split(".") if is_package else name.split(".")[:-1]
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join([*pkg, base] if base else pkg)
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return out


def function_imports(tree: ast.AST) -> list[ast.stmt]:
    found: list[ast.stmt] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                found.append(child)
            visit(child, inside)

    visit(tree, False)
    return found


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "stkit"
    lines: dict[str, int] = defaultdict(int)
    modules: dict[str, int] = defaultdict(int)
    graph: dict[str, set[str]] = {}
    lazy_total = lazy_reasoned = 0
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = module_name(root, path)
        package = module_name(root, path.parent / "__init__.py")
        lines[package] += len(text.splitlines())
        modules[package] += 1
        tree = ast.parse(text)
        graph[name] = imports_of(tree, name, path.name == "__init__.py")
        source = text.splitlines()
        for node in function_imports(tree):
            lazy_total += 1
            if any("# lazy:" in line for line in source[node.lineno - 1 : node.end_lineno or node.lineno]):
                lazy_reasoned += 1
    total = sum(lines.values())
    print(f"{'package':<28} {'modules':>7} {'lines':>7} {'share':>6}")
    for package in sorted(lines):
        print(f"{package:<28} {modules[package]:>7} {lines[package]:>7} {lines[package] / total:>6.1%}")
    print(f"{'total':<28} {sum(modules.values()):>7} {total:>7}")

    store = {m for m in graph if m.startswith("stkit.store")}
    edges = {m: {d for d in graph[m] if d in store and d != m} for m in store}

    @cache
    def depth(m: str, seen: frozenset[str] = frozenset()) -> tuple[int, tuple[str, ...]]:
        best: tuple[int, tuple[str, ...]] = (1, (m,))
        for d in edges[m]:
            if d in seen:
                continue
            n, chain = depth(d, seen | {m})
            if n + 1 > best[0]:
                best = (n + 1, (m, *chain))
        return best

    n, chain = max((depth(m) for m in store), key=lambda t: t[0])
    names = " -> ".join(c.removeprefix("stkit.") for c in chain)
    print(f"deepest import chain inside stkit.store: {n} modules: {names}")
    print(f"imports inside functions: {lazy_total} ({lazy_reasoned} with a '# lazy:' reason)")


if __name__ == "__main__":
    main()
