"""Code-quality gates that belong to the test command: ruff, and the engine's purity."""

from __future__ import annotations

import os
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


def test_every_test_process_keeps_its_files_in_a_folder_of_its_own(tmp_path):
    """A parallel worker inherits the environment of the process that started it,
    STAMMTISCH_HOME included: the test set-up gives every process a fresh, empty
    folder, so no worker sees another's autosave (and no test the player's files)."""
    inherited = tmp_path / "inherited"
    inherited.mkdir()
    (inherited / "autosave.json").write_text("{}")
    code = ("import os, tests.conftest; h = os.environ['STAMMTISCH_HOME']; "
            "print(h); print(sorted(os.listdir(h)))")
    env = {**os.environ, "STAMMTISCH_HOME": str(inherited)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] != str(inherited) and Path(out[0]).is_dir()
    assert out[1] == "[]"
