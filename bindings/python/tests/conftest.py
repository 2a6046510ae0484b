"""Shared helpers of the bdtree Python tests: the repository's fixtures and the CLI."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
SCENES = sorted((FIXTURES / "scenes").glob("*.json"))


def cli_path() -> Path:
    """The `bdtree` CLI: $BDTREE_CLI, else target/{release,debug}/bdtree, else on PATH."""
    env = os.environ.get("BDTREE_CLI")
    if env:
        return Path(env)
    for profile in ("release", "debug"):
        p = ROOT / "target" / profile / "bdtree"
        if p.exists():
            return p
    found = shutil.which("bdtree")
    if found:
        return Path(found)
    raise RuntimeError(
        "the bdtree CLI was not found: `cargo build --bin bdtree` or set BDTREE_CLI"
    )


def cli_collide(scene: Path, precision: str, self_pairs: bool) -> list:
    """`bdtree collide SCENE --json --precision P [--self]`: one dict per frame."""
    args = [str(cli_path()), "collide", str(scene), "--json", "--precision", precision]
    if self_pairs:
        args.append("--self")
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def cli():
    return cli_path()
