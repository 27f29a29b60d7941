"""Import directions between the project's packages, and no import cycle between files.

Read from the source with :mod:`ast`; nothing is imported. The rooms (docs/architecture.md):
engine imports nothing of the project; vision only engine; devices nothing; models engine and
vision; tilesight engine, vision and devices, and models only inside functions of the commands
and the demo (never at module level, so the service never loads models).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "vision", "devices", "tilesight", "models")
MAY_IMPORT = {
    "engine": set(),
    "vision": {"engine"},
    "devices": set(),
    "models": {"engine", "vision"},
    "tilesight": {"engine", "vision", "devices"},
}
LAZY_MODELS_IN = ("tilesight/commands/", "tilesight/demo/")  # the commands that evaluate

# Known violations, as (file, imported package): keep it short, ideally empty.
ALLOWED: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Import:
    file: str  # relative to the repository, with forward slashes
    line: int
    target: str  # the project module imported, resolved to a file's module name
    where: str  # "module", "type_checking" or "function"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: imports {self.target} ({self.where} level)"


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The longest project module ``name`` starts with (``engine.tiles.Tile`` -> engine.tiles)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the module's package, one level up per extra dot
            parts = module.split(".") if is_package else module.split(".")[:-1]
            parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        # ``from pkg import sub`` depends on pkg.sub when that is a module, else on pkg
        names = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
            for alias in node.names
        ]
    targets = dict.fromkeys(t for t in map(_resolve, names) if t is not None and t != module)
    return list(targets)


def _imports(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    file = path.relative_to(REPO).as_posix()
    out: list[Import] = []

    def walk(nodes: list[ast.AST], where: str) -> None:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                is_package = path.name == "__init__.py"
                targets = _targets(node, module, is_package)
                out.extend(Import(file, node.lineno, t, where) for t in targets)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                walk(list(ast.iter_child_nodes(node)), "function")
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                walk(list(node.body), "type_checking" if where == "module" else where)
                walk(list(node.orelse), where)
            else:
                walk(list(ast.iter_child_nodes(node)), where)

    walk(list(tree.body), "module")
    return out


IMPORTS = {module: _imports(module, path) for module, path in MODULES.items()}


def _breaks_direction(imp: Import) -> bool:
    own, other = imp.file.split("/")[0], imp.target.split(".")[0]
    if own == other or other in MAY_IMPORT[own]:
        return False
    lazy = imp.where in ("function", "type_checking")
    return not (
        own == "tilesight" and other == "models" and lazy and imp.file.startswith(LAZY_MODELS_IN)
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_follow_the_rooms(package: str) -> None:
    wrong = [
        imp
        for module, imports in IMPORTS.items()
        if module.split(".")[0] == package
        for imp in imports
        if _breaks_direction(imp) and (imp.file, imp.target.split(".")[0]) not in ALLOWED
    ]
    assert not wrong, f"{package} may import only {sorted(MAY_IMPORT[package])}:\n" + "\n".join(
        map(str, wrong)
    )


def test_allow_list_is_still_needed() -> None:
    """An entry fixed since is taken off the list, so the list only shrinks."""
    still = {
        (imp.file, imp.target.split(".")[0])
        for imports in IMPORTS.values()
        for imp in imports
        if _breaks_direction(imp)
    }
    assert still >= ALLOWED, f"no longer needed, remove from ALLOWED: {sorted(ALLOWED - still)}"


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _cycle_report(where: tuple[str, ...]) -> tuple[list[list[str]], str]:
    """The import cycles between files over imports made at ``where`` levels, and their lines."""
    edges = {
        module: {imp.target for imp in imports if imp.where in where}
        for module, imports in IMPORTS.items()
    }
    cycles = _cycles(edges)
    lines = []
    for cycle in cycles:
        members = set(cycle)
        lines += [
            str(imp)
            for module in cycle
            for imp in IMPORTS[module]
            if imp.where in where and imp.target in members
        ]
    return cycles, "import cycles:\n" + "\n".join(lines)


def test_no_import_cycle_between_files() -> None:
    """Module-level imports: ``if TYPE_CHECKING:`` blocks and function bodies never run while a
    module loads."""
    cycles, report = _cycle_report(("module",))
    assert not cycles, report


def test_no_import_cycle_between_files_through_type_hints() -> None:
    """Nor through imports made only for type hints (``if TYPE_CHECKING:``): two modules that
    name each other's types are one concept in two files, or share a type that belongs in a
    third (a protocol, or the data both use)."""
    cycles, report = _cycle_report(("module", "type_checking"))
    assert not cycles, report


def test_the_checker_sees_a_cycle_and_a_lazy_import() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges) == [["a", "b", "c"]]
    hinted = IMPORTS["tilesight.camera_feed"]  # names TableService for its type hints only
    assert any(i.target == "tilesight.service" and i.where == "type_checking" for i in hinted)
    lazy = Import("tilesight/demo/x.py", 3, "models.drawn.camera", "function")
    assert not _breaks_direction(lazy)
    assert _breaks_direction(Import("tilesight/service.py", 3, "models.drawn.camera", "function"))
    assert _breaks_direction(Import("tilesight/demo/x.py", 3, "models.drawn.camera", "module"))
    assert _breaks_direction(Import("models/x.py", 9, "tilesight.config", "function"))
