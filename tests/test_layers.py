"""The package's layers import only downward, with no import circles.

From the bottom: core (cards, evaluator, combinatorics, rule sets, holds, results, execution, kinds of
hands) -> models (hand patterns, draw policies) -> sim (sampling, equity, ranges) -> engine -> points games
-> solver (the heads-up equilibrium, its store and the players built on it) -> analyses -> trainer (drills
built on the keep and read analyses) -> render -> charts -> the front doors (cli, and web: the local web
page). A module may import its own layer or any
layer below it; imports inside functions count too, and only the CLI may defer an import of the package's
own modules.

The package root loads its public names at first use (a table of name -> module): a lower layer
that reached a higher one through the root, or through ``importlib``, would hide an upward import
from the source scan, so those are refused too, and a fresh interpreter checks what importing
each layer really loads.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "drawodds"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("drawodds.cards", "drawodds.evaluate", "drawodds.combinatorics", "drawodds.rules", "drawodds.holds",
     "drawodds.results", "drawodds.execution", "drawodds.errors", "drawodds.paths", "drawodds.kinds",
     "drawodds.i18n"),
    ("drawodds.patterns", "drawodds.policies", "drawodds.handrange"),
    ("drawodds.sim",),
    ("drawodds.engine",),
    ("drawodds.points",),
    ("drawodds.solver",),
    ("drawodds.analyses",),
    ("drawodds.trainer",),
    ("drawodds.render",),
    ("drawodds.charts",),
    ("drawodds.cli", "drawodds.__main__", "drawodds.web"),   # the front doors: the command line and the web page
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


def test_no_module_imports_by_name_at_run_time() -> None:
    """``importlib.import_module`` or ``__import__`` would hide an import from the scan above; only the
    package root's table of lazy names uses it."""
    found = []
    for module, path in MODULES.items():
        if module == "drawodds":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name in ("importlib.import_module", "import_module", "__import__"):
                    found.append(f"{module}:{node.lineno} calls {name}")
    assert not found, "\n".join(found)


def test_the_root_table_names_real_modules() -> None:
    import drawodds

    lazy = drawodds._LAZY
    assert set(drawodds.__all__) == {*lazy, "__version__"}
    for name, (module, _) in lazy.items():
        assert module in MODULES, f"{name}: no module {module}"


_LOADED = """
import importlib, json, sys
loaded = {}
for layer in json.loads(sys.argv[1]):
    for module in layer:
        importlib.import_module(module)
    loaded[layer[0]] = sorted(m for m in sys.modules if m.startswith("drawodds."))
print(json.dumps(loaded))
"""


def test_importing_each_layer_loads_nothing_above_it(fresh_python) -> None:
    """Layer by layer from the bottom, in one fresh interpreter: after importing a layer's modules,
    no module of a higher layer is loaded (however it was reached)."""
    ordered = [[m for m in MODULES if layer_of(m) == i and m != "drawodds.__main__"] for i in range(len(LAYERS))]
    ordered = [layer for layer in ordered if layer]
    loaded = json.loads(fresh_python(_LOADED, json.dumps(ordered)))
    upward = []
    for layer in ordered:
        here = layer_of(layer[0])
        assert here is not None
        upward += [f"after layer {here} ({layer[0]}): {m} is loaded"
                   for m in loaded[layer[0]] if (layer_of(m) or 0) > here]
    assert not upward, "\n".join(upward)


_HEAVY = ("pandas", "polars", "matplotlib", "dask", "drawodds.solver", "drawodds.analyses", "drawodds.trainer",
          "drawodds.engine", "drawodds.charts")


def test_import_drawodds_and_the_command_line_load_no_analysis(fresh_python) -> None:
    """Start-up: ``import drawodds`` loads no module of the package, ``import drawodds.cli`` no
    analysis, engine, chart, table or cluster library (each command loads what it needs)."""
    check = ("import sys, json; import {0}; print(json.dumps(sorted(m for m in sys.modules "
             "if m.split('.')[0] in ('drawodds', 'pandas', 'polars', 'matplotlib', 'dask'))))")
    for module, allowed in (("drawodds", ()), ("drawodds.cli", None)):
        loaded = [m for m in json.loads(fresh_python(check.format(module))) if m != "drawodds"]
        if allowed is not None:
            assert loaded == list(allowed), f"import {module} loads {loaded}"
        heavy = [m for m in loaded if m.startswith(_HEAVY)]
        assert not heavy, f"import {module} loads {heavy}"


def test_every_public_name_of_the_root_loads() -> None:
    import drawodds

    names: dict[str, object] = {}
    exec("from drawodds import *", names)
    assert set(drawodds.__all__) <= set(names)
    for name in drawodds.__all__:
        assert getattr(drawodds, name) is names[name] is not None, name
    assert drawodds.strategy is drawodds.strategy_report and drawodds.read is drawodds.read_draw
    assert "keep" in dir(drawodds)
    try:
        drawodds.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name must raise AttributeError")


def test_the_main_job_loads_no_table_chart_cluster_or_solver_library(fresh_python) -> None:
    """`drawodds keep HAND` loads what it needs and no more: no pandas, polars, matplotlib, dask or solver."""
    code = ("import sys, json, contextlib, io\nfrom drawodds.cli import run\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    run(['keep', 'AsAhKs7s3s', '--trials', '2000'])\n"
            "print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(fresh_python(code, NO_COLOR="1").strip().splitlines()[-1])
    heavy = [m for m in loaded if m.split(".")[0] in ("pandas", "polars", "matplotlib", "dask")
             or m.startswith(("drawodds.solver", "drawodds.charts"))]
    assert not heavy, f"keep loads {heavy}"


def test_every_public_name_is_itself_after_every_module_is_loaded() -> None:
    """``drawodds.evaluate`` stays the function even once the module of the same name has been imported."""
    code = (
        "import importlib, json, drawodds\n"
        f"names = {sorted(m for m in MODULES if not m.endswith('__main__'))!r}\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "wrong = [n for n, (module, attr) in drawodds._LAZY.items()\n"
        "         if getattr(drawodds, n) is not getattr(importlib.import_module(module), attr)]\n"
        "print(json.dumps(wrong))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []
