"""Pushing a built dataset folder to a Hugging Face Hub dataset repository. The token comes from the
environment only (HF_TOKEN); HF_ENDPOINT picks the Hub (a local server in the tests).
Usage: python -m tasks.share.publish <user>/<name> <folder>"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from tasks.errors import PipelineError
from tasks.share.croissant import CROISSANT_FILE

TOKEN_ENV = "HF_TOKEN"


def check_folder(folder: Path) -> None:
    """A folder is publishable when it holds the card with its front matter and the Croissant file."""
    card = folder / "README.md"
    if not folder.is_dir():
        raise PipelineError(f"{folder}: no such folder (build it with dvc repro first)")
    for needed in (card, folder / CROISSANT_FILE):
        if not needed.is_file():
            raise PipelineError(f"{folder}: {needed.name} is missing (rebuild the folder with dvc repro)")
    if not card.read_text(encoding="utf-8").startswith("---\n"):
        raise PipelineError(f"{card}: the card has no YAML front matter (rebuild the folder with dvc repro)")


def publish(repo_id: str, folder: Path, private: bool = False) -> str:
    """Create the dataset repo if needed and upload the folder in one commit; return the commit URL."""
    from huggingface_hub import HfApi

    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise PipelineError(f"REPO must be <user>/<name> (got {repo_id!r})")
    check_folder(folder)
    token = os.environ.get(TOKEN_ENV)
    if not token:
        raise PipelineError(f"set the environment variable {TOKEN_ENV} to a Hub token with write access")
    api = HfApi(endpoint=os.environ.get("HF_ENDPOINT"), token=token)
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    info = api.upload_folder(repo_id=repo_id, repo_type="dataset", folder_path=folder,
                             commit_message=f"Upload {folder.name} built by halluci-bench")
    return info.commit_url


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        print(publish(argv[0], Path(argv[1])))
    except PipelineError as exc:
        print(f"ERROR publish: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
