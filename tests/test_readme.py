"""The README's library example runs as printed (it cannot rot silently)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_the_readme_opens_with_the_install_and_the_test_command():
    text = README.read_text(encoding="utf-8")
    assert 'pip install -e . && piquet discard "' in text
    assert 'pip install -e ".[test]" && python -m pytest' in text
