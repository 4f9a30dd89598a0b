"""Check that every DVC stage declares what its flow uses: each project module and data file of the flow's
import closure is under one of the stage's deps, and each params.yaml key the flow's params parameters are
built from is under one of its params (`charp` covers `charp.seed`). Also: no project module reads
params.yaml except through the flow's parameters, so the parameters are all a flow can read.

Usage: python -m tasks.pipeline.stage_deps           one line per problem; exit status 1 when there are some
       python -m tasks.pipeline.stage_deps --write   first rewrite each stage's code deps and params in dvc.yaml
                                                     from its flow (data deps, outs and the rest stay as they are)
"""
from __future__ import annotations

import ast
import importlib
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from tasks.errors import PipelineError
from tasks.io import atomic_path
from tasks.params import ROOT
from tasks.params_schema import as_dict, flow_keys, flow_params
from tasks.pipeline.imports import closure_paths, import_closure, module_path

PARAMS_READERS = {"tasks.params", "tasks.params_schema"}  # the only modules that may call load_params


@dataclass(frozen=True)
class Stage:
    name: str  # as dvc names it: fetch, dialogue@begin, charp_train@smollm2-full
    module: str  # the flow module its cmd runs
    args: tuple[str, ...]  # the flow's command-line arguments
    deps: tuple[str, ...]  # repo-relative paths
    params: tuple[str, ...]  # dotted params.yaml keys


def dvc_stages(root: Path = ROOT) -> list[Stage]:
    """Every stage of dvc.yaml, foreach and matrix stages resolved, with the flow module its cmd runs."""
    from dvc.repo import Repo

    stages = []
    with Repo(str(root)) as repo:
        for s in repo.index.stages:
            cmd = shlex.split(s.cmd if isinstance(s.cmd, str) else " && ".join(s.cmd))
            if cmd[:2] != ["python", "-m"] or not cmd[2].startswith("flows."):
                raise ValueError(f"dvc.yaml stage {s.addressing}: cmd {s.cmd!r} is not `python -m flows.<flow> ...`")
            deps, params = [], []
            for d in s.deps:
                if type(d).__name__ == "ParamsDependency":
                    params += list(d.params)
                else:
                    deps.append(Path(d.def_path).as_posix())
            stages.append(Stage(s.addressing, cmd[2], tuple(cmd[3:]), tuple(deps), tuple(params)))
    return stages


def covered(path: str, deps: tuple[str, ...]) -> bool:
    """A dep covers itself and, when a folder, everything below it."""
    return any(path == d or path.startswith(d.rstrip("/") + "/") for d in deps)


def key_covered(key: str, params: tuple[str, ...]) -> bool:
    return any(key == p or key.startswith(p + ".") for p in params)


def flow_of(module: str):
    """The Prefect flow defined in ``module``."""
    from prefect import Flow

    mod = importlib.import_module(module)
    flows = [v for v in vars(mod).values() if isinstance(v, Flow) and v.fn.__module__ == module]
    if len(flows) != 1:
        raise ValueError(f"{module}: expected one Prefect flow, found {len(flows)}")
    return flows[0]


def params_readers(module: str, root: Path = ROOT) -> list[str]:
    """Modules of the closure, other than PARAMS_READERS, that call load_params outside `__main__` blocks."""
    out = []
    for name in import_closure(module, root)[0]:
        if name in PARAMS_READERS:
            continue
        tree = ast.parse(module_path(name, root).read_text(encoding="utf-8"))
        body = [n for n in tree.body if not (isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))]
        calls = [n for top in body for n in ast.walk(top) if isinstance(n, ast.Call)]
        if any(ast.unparse(c.func).split(".")[-1] == "load_params" for c in calls):
            out.append(name)
    return out


def path_values(value) -> list[str]:
    """Strings in a params value that name a file or folder of the project's code or curation data (e.g.
    charp.judge.examples, dialogue.charp_offline.examples), or an artifact under data/ that another stage builds
    (e.g. the critic's model, data/detectors/critic)."""
    if isinstance(value, dict):
        return [p for v in value.values() for p in path_values(v)]
    if isinstance(value, list):
        return [p for v in value for p in path_values(v)]
    if isinstance(value, str) and value.split("/")[0] in ("flows", "tasks", "curation") and (ROOT / value).exists():
        return [value]
    if isinstance(value, str) and value.startswith("data/"):
        return [value.rstrip("/")]
    return []


def params_files(stage: Stage, values: dict) -> set[str]:
    """Project files and data artifacts the stage's params name (e.g. charp.judge.examples)."""
    return {p for v in values.values() if hasattr(v, "model_dump") for p in path_values(as_dict(v))}


def problems(stage: Stage, root: Path = ROOT) -> list[str]:
    """One line per thing the stage's flow uses that the stage does not declare."""
    out = [f"stage {stage.name}: deps miss {path} (the flow imports or reads it)"
           for path in closure_paths(stage.module, root) if not covered(path, stage.deps)]
    out += [f"stage {stage.name}: dep {dep} is a test fixture; data a build reads lives in curation/ or data/"
            for dep in stage.deps if dep.startswith("tests/")]
    out += [f"stage {stage.name}: {name} reads params.yaml itself; take the params as flow parameters"
            for name in params_readers(stage.module, root)]
    flow = flow_of(stage.module)
    try:
        keys, values = flow_keys(flow, *stage.args), flow_params(flow, *stage.args)
    except PipelineError as exc:
        return [*out, f"stage {stage.name}: {exc}"]
    out += [f"stage {stage.name}: params miss {key} (the flow's parameters read it)"
            for key in keys if not key_covered(key, stage.params)]
    out += [f"stage {stage.name}: deps miss {path} (named in its params)"
            for path in sorted(params_files(stage, values)) if not covered(path, stage.deps)]
    return out


def _tree(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def compact(paths: set[str], folder: Path, root: Path = ROOT) -> list[str]:
    """``paths`` under ``folder``, with a sub-folder named whole when every file in it is used (package files
    that hold only a docstring aside)."""
    out = []
    for child in sorted(folder.iterdir()):
        rel = child.relative_to(root).as_posix()
        if child.is_file() and rel in paths:
            out.append(rel)
        elif child.is_dir() and child.name != "__pycache__":
            files = [f.relative_to(root).as_posix() for f in _tree(child)]
            used = [f for f in files if f in paths]
            trivial = [f for f in files if f.endswith("/__init__.py") and f not in paths]
            if used and len(used) + len(trivial) == len(files):
                out.append(rel)
            elif used:
                out += compact(paths, child, root)
    return out


def write_dvc_yaml(root: Path = ROOT) -> None:
    """Rewrite each stage's code deps (under flows/ and tasks/) and its params in dvc.yaml from its flow."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.width = 120
    yaml.indent(mapping=2, sequence=4, offset=2)
    doc = yaml.load((root / "dvc.yaml").read_text(encoding="utf-8"))
    resolved = dvc_stages(root)
    for name, spec in doc["stages"].items():
        body = spec.get("do", spec)
        _, _, module, *args = shlex.split(body["cmd"])
        used = set(closure_paths(module, root))
        for s in (s for s in resolved if s.name.split("@")[0] == name):
            used |= params_files(s, flow_params(flow_of(s.module), *s.args))
        used |= {f.relative_to(root).as_posix() for d in used if (root / d).is_dir() for f in _tree(root / d)}
        code = compact(used, root / "flows", root) + compact(used, root / "tasks", root)
        body["deps"] = [d for d in body["deps"] if not str(d).startswith(("flows/", "tasks/"))] + code
        body["params"] = flow_keys(flow_of(module), *args)
    with atomic_path(root / "dvc.yaml") as tmp, open(tmp, "w", encoding="utf-8") as fh:
        yaml.dump(doc, fh)


def main() -> int:
    if sys.argv[1:] == ["--write"]:
        write_dvc_yaml()
    found = [line for stage in dvc_stages() for line in problems(stage)]
    print("\n".join(found) or "every stage declares the modules, data files and params its flow uses")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
