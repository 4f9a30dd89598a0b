"""Rendering the report site with Jinja2: plain HTML pages that open from disk, plots copied beside them."""
from __future__ import annotations

import shutil
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES = Path(__file__).resolve().parent / "templates"


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, keep_trailing_newline=True)
    env.filters["num"] = lambda v: "–" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))
    env.filters["probe_colour"] = probe_colour
    return env


def probe_colour(accuracy: float) -> str:
    """A cell's background for the artifact probe's accuracy: white at chance (0.5), full red at 1.0, full blue at
    0.0: probe_colour(0.75) -> 'rgb(255,128,128)'."""
    shade = round(255 * (1 - min(1.0, abs(accuracy - 0.5) * 2)))
    return f"rgb(255,{shade},{shade})" if accuracy >= 0.5 else f"rgb({shade},{shade},255)"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def render_site(content: dict, plots: dict[str, Path], out: Path) -> list[str]:
    """Write every page under out (a fresh folder); return the pages written, relative to out."""
    env = environment()
    pages = {"index.html": env.get_template("index.html").render(**content)}
    for key, page in content["types"].items():
        pages[f"types/{key}.html"] = env.get_template("examples.html").render(page=page)
    for page in content["detectors"]:
        pages[f"detectors/{page['name']}.html"] = env.get_template("detector.html").render(
            page=page, plot=f"img/f1.{page['name']}.png" in plots)
    if content["charp"]:
        pages["charp.html"] = env.get_template("charp.html").render(charp=content["charp"],
                                                                    plot="img/charp.png" in plots)
    for name, text in pages.items():
        _write(out / name, text)
    for name, src in plots.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, out / name)
    return sorted(pages)
