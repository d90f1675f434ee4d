"""Code-quality gates that belong to the test command: ruff, and the engine's purity."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean():
    ruff = shutil.which("ruff")
    cmd = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    result = subprocess.run([*cmd, "check", "game", "tests", "tools"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_package_never_imports_pygame_in_source():
    for path in (ROOT / "game" / "rules").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import pygame" not in text and "from pygame" not in text, path
