"""The package's layers import only downward, with no import circles.

From the bottom: core (cards, evaluator, combinatorics, rule sets, holds, results, execution) -> models (hand
patterns, draw policies) -> sim (sampling, equity, ranges) -> engine -> points games -> analyses
-> render -> charts -> cli. A module may import its own layer or any layer below it; imports inside
functions count too, and only the CLI may defer an import of the package's own modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "drawodds"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("drawodds.cards", "drawodds.evaluate", "drawodds.combinatorics", "drawodds.rules", "drawodds.holds",
     "drawodds.results", "drawodds.execution", "drawodds.errors", "drawodds.paths"),
    ("drawodds.patterns", "drawodds.policies", "drawodds.handrange"),
    ("drawodds.sim",),
    ("drawodds.engine",),
    ("drawodds.points",),
    ("drawodds.analyses",),
    ("drawodds.render",),
    ("drawodds.charts",),
    ("drawodds.cli", "drawodds.__main__"),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int | None:
    """The layer index of a package module; None for the package root, which re-exports the API."""
    for index, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return index
    return None


def imports(module: str) -> list[tuple[str, int, bool]]:
    """(imported package module, line, inside a function) for every import of the package's own code."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                found.extend((a.name, child.lineno, in_function) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in child.names:
                    candidate = f"{base}.{alias.name}"
                    found.append((candidate if candidate in MODULES else base, child.lineno, in_function))
            visit(child, nested)

    visit(tree, False)
    return [(name, line, inner) for name, line, inner in found if name.split(".")[0] == "drawodds"]


def test_every_module_belongs_to_a_layer() -> None:
    stray = [m for m in MODULES if m != "drawodds" and layer_of(m) is None]
    assert not stray, f"modules outside every layer: {stray}"


def test_imports_go_only_downward() -> None:
    upward = []
    for module in MODULES:
        here = layer_of(module)
        for target, line, _ in imports(module):
            there = layer_of(target)
            if here is None:
                continue
            if there is None and target == "drawodds" and LAYERS[here][0] != "drawodds.cli":
                upward.append(f"{module}:{line} imports the package root")
            elif there is not None and there > here:
                upward.append(f"{module}:{line} imports {target} (a higher layer)")
    assert not upward, "\n".join(upward)


def test_the_package_imports_itself_at_module_level() -> None:
    deferred = [f"{module}:{line} defers importing {target}"
                for module in MODULES if layer_of(module) != len(LAYERS) - 1
                for target, line, inner in imports(module) if inner]
    assert not deferred, "\n".join(deferred)


def test_no_import_circles() -> None:
    graph = {m: {t for t, _, _ in imports(m) if t in MODULES and t != m} for m in MODULES}
    # A package's __init__ that re-exports its submodules is a parent, not a circle partner.
    for m in graph:
        graph[m] = {t for t in graph[m] if not m.startswith(t + ".")}
    state: dict[str, int] = {}
    circles = []

    def walk(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join([*trail[trail.index(nxt):], nxt]))
            elif nxt not in state:
                walk(nxt, [*trail, nxt])
        state[node] = 2

    for m in sorted(graph):
        if m not in state:
            walk(m, [m])
    assert not circles, "\n".join(circles)
