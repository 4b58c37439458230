"""The layers read one way and no module imports itself back (issue 12's architecture note, docs/architecture.md).

Reference: the import statements of the source itself, read with ``ast`` (module level and
inside functions alike, since an import inside a function is still a dependency):

* domain (generator/*.py) imports no api, site, runtime, build, announce or deploy module;
* the domain's packages (issue 29) read one way too: each imports only the packages before it in
  `DOMAIN_ORDER` (and the shared modules generator.errors, generator.query, generator.tables), and
  no domain module stands outside a package but those and generator.all_tables (which builds the tables);
* api (generator/api/) imports no site, runtime, build or announce module;
* site (generator/site/) imports no runtime, build or announce module;
* the graph of imports between the project's modules has no cycle.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("generator", "runtime", "deploy", "bench")
TOP_MODULES = ("build", "announce")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    found.update({name: ROOT / f"{name}.py" for name in TOP_MODULES})
    return found


def _imports(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """Return the project modules ``path`` imports (``from pkg import sub`` counts as pkg.sub when sub is a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {m for m in out if m in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, name, modules) - {name} for name, path in modules.items()}


def _layer(name: str) -> str:
    if name.startswith("generator.api"):
        return "api"
    if name.startswith("generator.site"):
        return "site"
    if name.startswith("generator"):
        return "domain"
    return name.split(".")[0]


FORBIDDEN = {
    "domain": {"api", "site", "runtime", "build", "announce", "deploy", "bench"},
    "api": {"site", "runtime", "build", "announce", "deploy", "bench"},
    "site": {"runtime", "build", "announce", "deploy", "bench"},
}


def test_no_module_imports_a_higher_layer():
    upward = [(name, target) for name, targets in _graph().items() for target in targets
              if _layer(target) in FORBIDDEN.get(_layer(name), set())]
    assert not upward, upward


def test_the_import_graph_has_no_cycle():
    graph, state, cycles = _graph(), {}, []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                cycles.append(stack[stack.index(target):] + [target])
            elif target not in state:
                visit(target, stack + [target])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, cycles[:5]


def test_the_checks_can_fail(tmp_path):
    """A planted domain module importing the site inside a function, and relatively, is seen as upward."""
    planted = tmp_path / "planted.py"
    planted.write_text("def f():\n    from generator.site import routes\n    from .api import params\n")
    modules = _modules()
    found = _imports(planted, "generator.planted", modules)
    assert found == {"generator.site.routes", "generator.api.params"}
    assert all(_layer(target) in FORBIDDEN[_layer("generator.planted")] for target in found)


# Issue 29: the domain's packages, lowest first (docs/architecture.md "The domain's packages").
DOMAIN_ORDER = ("places", "words", "astronomy", "calendars", "prayer", "output")
SHARED = ("generator.errors", "generator.query", "generator.tables")
TOP_OF_DOMAIN = ("generator.all_tables",)  # builds every generated table, so it stands above the packages


def _package(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "generator" and parts[1] in DOMAIN_ORDER else None


def test_the_domains_packages_import_only_those_below_them():
    wrong = [(name, target) for name, targets in _graph().items() if _package(name)
             for target in targets if _package(target) and _package(target) != _package(name)
             and DOMAIN_ORDER.index(_package(target)) > DOMAIN_ORDER.index(_package(name))]
    assert not wrong, wrong
    upward = [(name, target) for name, targets in _graph().items() if _package(name) or name in SHARED
              for target in targets if target in TOP_OF_DOMAIN]
    assert not upward, upward


def test_every_domain_module_is_in_its_package():
    loose = sorted(name for name in _modules() if name.startswith("generator.") and name.count(".") == 1
                   and name not in (*SHARED, *TOP_OF_DOMAIN, "generator.api", "generator.site", *(
                       f"generator.{p}" for p in DOMAIN_ORDER)))
    assert loose == [], loose
