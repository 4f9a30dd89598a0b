"""Import closure of a flow: the project modules (flows/, tasks/) it imports, directly or through other
project modules, at module level or inside functions, and the data files those modules read next to
themselves (a string literal naming a file or folder beside the module, e.g. "sources.yaml", "lexicon";
packages excluded)."""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from tasks.params import ROOT

PACKAGES = ("flows", "tasks")


def module_path(name: str, root: Path = ROOT) -> Path | None:
    """The file of project module ``name`` (a package's __init__.py), or None outside the project."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_docstring_only(tree: ast.Module) -> bool:
    return all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) for n in tree.body)


def _imported_names(tree: ast.Module, name: str, is_package: bool) -> set[str]:
    """Every module name an import statement anywhere in ``tree`` may load (``from a import b``: a and a.b)."""
    package = name if is_package else name.rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _with_parents(name: str) -> list[str]:
    """Importing a.b.c runs a/__init__, a/b/__init__ and a/b/c."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _data_files(tree: ast.Module, path: Path) -> set[Path]:
    """Files or folders beside ``path`` that a string literal of the module names (not Python sources)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value and "\n" not in node.value:
            try:
                candidate = path.parent / node.value
                exists = candidate.exists()
            except (OSError, ValueError):
                continue
            if exists and candidate.suffix != ".py" and candidate.resolve().parent == path.parent.resolve() \
                    and candidate.name != "__pycache__" and not (candidate / "__init__.py").exists():
                found.add(candidate)
    return found


@lru_cache(maxsize=None)
def _module_info(name: str, root: Path) -> tuple[Path, frozenset[str], frozenset[Path], bool] | None:
    path = module_path(name, root)
    if path is None:
        return None
    tree = _parse(path)
    imports = _imported_names(tree, name, path.name == "__init__.py")
    return path, frozenset(imports), frozenset(_data_files(tree, path)), _is_docstring_only(tree)


def import_closure(module: str, root: Path = ROOT) -> tuple[list[str], list[Path]]:
    """(project modules, data files) that running ``module`` loads, sorted. Modules that hold only a
    docstring (most package __init__ files) are left out: they cannot change a result."""
    seen: set[str] = set()
    todo = _with_parents(module)
    modules, data = set(), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        info = _module_info(name, root)
        if info is None:
            continue
        path, imports, files, trivial = info
        if not trivial:
            modules.add(name)
        data |= files
        for imported in imports:
            todo += [n for n in _with_parents(imported) if n not in seen]
    return sorted(modules), sorted(data)


def closure_paths(module: str, root: Path = ROOT) -> list[str]:
    """The files (repo-relative, posix) a stage running ``module`` depends on: its modules and data files."""
    modules, data = import_closure(module, root)
    paths = {module_path(m, root).relative_to(root).as_posix() for m in modules}
    return sorted(paths | {p.relative_to(root).as_posix() for p in data})
