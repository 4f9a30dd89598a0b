"""The layers of the code base, bottom to top, and the imports that break them. A module may import from its
own package or from a lower layer, never from its layer's other packages nor from above: tasks/detectors may
import tasks/edits, while an import of tasks/hallucigen from tasks/detectors is upward.

    python -m tasks.pipeline.layers   # one line per upward import; exit status 1 if there is any
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

from tasks.params import ROOT

# Bottom first. "tasks" is the modules directly under tasks/ (io, schemas, errors, stats, params*, text, rows, ...).
LAYERS: list[tuple[str, ...]] = [
    ("tasks",),
    ("models", "scoring", "share"),
    ("fetch",),
    ("edits", "dialogue"),
    ("detectors", "pawsx"),
    ("hallucigen", "charp"),
    ("site", "ops", "pipeline"),
    ("flows",),
]
RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}


def package_of(module: str, root: Path = ROOT) -> str | None:
    """The layer package of a project module: 'tasks.edits.tense' -> 'edits', 'tasks.io' -> 'tasks',
    'flows.detect' -> 'flows'; None outside the project."""
    parts = module.split(".")
    if parts[0] == "flows":
        return "flows"
    if parts[0] != "tasks" or len(parts) == 1:
        return None if parts[0] != "tasks" else "tasks"
    return parts[1] if len(parts) > 2 or (root / "tasks" / parts[1]).is_dir() else "tasks"


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, module) of every absolute project import in the file, at module level or inside a function."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(node.lineno, node.module)] + [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return [(line, module) for line, module in found if package_of(module, root) is not None]


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def upward_imports(root: Path = ROOT) -> list[str]:
    """One line per import that breaks the layers: 'tasks/detectors/x.py:12 imports tasks.hallucigen.y
    (detectors may not import hallucigen)'. A package missing from LAYERS is named too."""
    problems = []
    for path in sorted([*root.glob("tasks/**/*.py"), *root.glob("flows/**/*.py")]):
        mine = package_of(_module_name(path, root), root)
        if mine not in RANK:
            problems.append(f"tasks/{mine}: package {mine!r} is in no layer of LAYERS")
            continue
        for line, module in imports_of(path, root):
            theirs = package_of(module, root)
            if theirs != mine and (theirs not in RANK or RANK[theirs] >= RANK[mine]):
                if (root / module.replace(".", "/")).with_suffix(".py").is_file() or \
                        (root / module.replace(".", "/") / "__init__.py").is_file():
                    problems.append(f"{path.relative_to(root)}:{line} imports {module} "
                                    f"({mine} may not import {theirs})")
    return sorted(set(problems))


if __name__ == "__main__":
    found = upward_imports()
    print("\n".join(found) or "no upward import")
    sys.exit(1 if found else 0)
