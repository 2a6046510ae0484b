"""The README's Python example runs as written (from a folder holding the fixtures)."""

import os
import re

from conftest import FIXTURES, ROOT


def readme_python_example():
    text = (ROOT / "README.md").read_text()
    section = text.split("## From Python", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "README.md has no Python example under '## From Python'"
    return blocks[0]


def test_readme_python_example_runs(tmp_path, capsys):
    (tmp_path / "fixtures").symlink_to(FIXTURES)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(readme_python_example(), "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert (tmp_path / "ring.bdt").exists()
    out = capsys.readouterr().out
    assert "pairs;" in out
    # The output the README shows (its whole-line comments) is the output the example prints.
    shown = [line[2:] for line in readme_python_example().splitlines() if line.startswith("# ")]
    assert shown, "the README example shows no output"
    for line in shown:
        assert line in out.splitlines(), f"README shows {line!r}; the example printed {out!r}"


def test_tour_example_runs(tmp_path, capsys):
    script = ROOT / "bindings" / "python" / "examples" / "tour.py"
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(script.read_text(), str(script), "exec"), {"__name__": "__main__"})
    finally:
        os.chdir(cwd)
    assert "tour done" in capsys.readouterr().out
