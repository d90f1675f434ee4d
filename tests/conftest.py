"""Test set-up shared by every test module.

Headless: SDL's dummy video and audio drivers are set before anything imports
pygame, and user files go to a temporary STAMMTISCH_HOME.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Every test process its own: the parallel workers inherit the environment of the
# process that starts them, so a folder chosen there would be shared by all of them,
# and one worker's autosave would turn up in another's test. Never the player's own.
os.environ["STAMMTISCH_HOME"] = tempfile.mkdtemp(prefix="stammtisch-test-")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import random  # noqa: E402

import pytest  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "secret_seeds: the test draws its seeds from the system's secure "
        "random source, as the game does (others draw them from a generator seeded "
        "with the test's name, so every run plays the same games)")


@pytest.fixture(autouse=True)
def _repeatable_seeds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game nobody seeded draws its seeds from ``secrets`` (game.seeds); in a test
    they come from a generator seeded with the test's name, so a failure repeats."""
    if request.node.get_closest_marker("secret_seeds") is not None:
        return
    from game import seeds

    rng = random.Random(request.node.nodeid)
    monkeypatch.setattr(seeds, "fresh", lambda: rng.getrandbits(seeds.SEED_BITS))


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A throw-away STAMMTISCH_HOME for one test (settings, saves, statistics); pygame
    is shut down after it. Modules with their own ``home`` keep theirs."""
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    yield tmp_path
    import pygame

    pygame.quit()


@pytest.fixture()
def english_after():
    """The game's language back to English after a test that switched it."""
    yield
    from game import i18n

    i18n.set_lang("en")


@pytest.fixture(autouse=True)
def _no_global_left_behind():
    """What the window keeps once per process -- the language, the notice queue, the
    autosave paths held as unreadable -- is as it was before each test: a test that
    opens a German window or posts a notice leaves nothing for the next one. The
    locks on the saves folders the test used are let go (game.store.owner)."""
    from game import i18n, notices
    from game.store import files, owner

    lang, held = i18n.get_lang(), set(files._held)
    yield
    i18n.set_lang(lang)
    notices.reset()
    owner.release_all()
    files._held.clear()
    files._held.update(held)
