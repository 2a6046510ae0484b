"""The Python examples of the README and of the book (docs/src) run as written.

Each document's ```python blocks run in order in one namespace (a later block may use what an
earlier one made), from a fresh folder holding a link to the fixtures, as a reader would run
them from the repository's root. A whole-line comment `# …` in a block is output the example
shows: it must be a line the document's blocks print. Prose comments go at the end of a code
line.
"""

import os
import re

import pytest

from conftest import FIXTURES, ROOT

DOCUMENTS = [ROOT / "README.md"] + sorted((ROOT / "docs" / "src").rglob("*.md"))


def python_blocks(path):
    return re.findall(r"^```python\n(.*?)^```", path.read_text(), flags=re.S | re.M)


WITH_PYTHON = [p for p in DOCUMENTS if python_blocks(p)]


def test_the_documents_have_python_examples():
    names = {p.relative_to(ROOT).as_posix() for p in WITH_PYTHON}
    # The README's 30-second example and the book's getting-started chapter at least.
    assert "README.md" in names, names
    assert "docs/src/start/python.md" in names, names


@pytest.mark.parametrize("path", WITH_PYTHON, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_document_python_examples_run(path, tmp_path, capsys):
    (tmp_path / "fixtures").symlink_to(FIXTURES)
    blocks = python_blocks(path)
    name = path.relative_to(ROOT).as_posix()
    namespace = {"__name__": "__main__"}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for i, block in enumerate(blocks):
            exec(compile(block, f"{name} (python block {i + 1})", "exec"), namespace)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out.splitlines()
    shown = [
        line[2:]
        for block in blocks
        for line in block.splitlines()
        if line.startswith("# ")
    ]
    for line in shown:
        assert line in out, f"{name} shows {line!r}; its examples printed {out!r}"


def test_tour_example_runs(tmp_path, capsys):
    script = ROOT / "bindings" / "python" / "examples" / "tour.py"
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(script.read_text(), str(script), "exec"), {"__name__": "__main__"})
    finally:
        os.chdir(cwd)
    assert "tour done" in capsys.readouterr().out
