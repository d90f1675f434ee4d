"""Every screen of the game at the smallest window, in German and English, held to the
promises that concern all of them: it fits, its buttons' letters are letters of their
labels and press them, a button that another key presses shows that key, and *Back*
shows Esc everywhere.

The screens are the tour's (``tests/screens_tour.py``: menu, setup, settings, rules,
chart, statistics, replays, unfinished games, both tables at their decisions without
and with the hint, a held reveal, the last trick, a tip, the pause menu, the privacy
screen, the end, the review, the phones' codes and more). Walking it costs about as
much as all the checks together, so it is walked once per language (the ``walk``
fixture) and each promise is its own test over what the walk saw. The checks
themselves live beside their other tests: ``tests/test_screens_fit.py`` (what fits),
``tests/test_key_letters.py`` (letters) and ``tests/test_key_badges.py`` (other keys);
the screens' keys are the same at every size (the walk at 1280x720 checks the same
82 letters and 71 keys)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pygame
import pytest

from game import i18n, winsize
from game.view.keys import key_name
from tests import test_key_badges as badges
from tests import test_key_letters as letters
from tests.screen_check import problems as find_problems
from tests.screen_check import recording
from tests.screens_tour import tour


@dataclass(repr=False)
class Walk:
    """What one walk through every screen saw."""

    lang: str
    seen: list[str] = field(default_factory=list)
    stopped: str = ""                 # the tour's own checks failed after this screen
    sizes: list[str] = field(default_factory=list)       # a screen not at the window's size
    blank: list[str] = field(default_factory=list)       # a screen that drew no text
    unfit: list[str] = field(default_factory=list)       # cut off, covered, cut short
    letters: list[str] = field(default_factory=list)     # letters' findings
    keyed: list[str] = field(default_factory=list)       # screens with lettered buttons
    badges: list[str] = field(default_factory=list)      # keys their buttons don't show
    pressed: list[str] = field(default_factory=list)     # keys found doing a button's job
    backs: dict[str, str] = field(default_factory=dict)  # screen -> its Back's badge
    lone: dict[str, str] = field(default_factory=dict)   # screen -> its one button's badge
    servers_left: int = 0             # phone servers still running after the walk

    def __repr__(self) -> str:       # a failed assertion names the walk, not all of it
        return f"Walk({self.lang}, {len(self.seen)} screens)"

    def look(self, name: str, app) -> None:
        """Every check on the screen on top, the drawing first (the key checks press
        keys and click, putting back what they change)."""
        self.seen.append(name)
        with recording(app) as frame:
            app.draw()
        if app.screen.get_size() != winsize.MIN_SIZE:
            self.sizes.append(f"{name}: {app.screen.get_size()}")
        if not frame.texts:
            self.blank.append(name)
        self.unfit += find_problems(frame, name)
        found, n = letters.check_screen(app, name)
        self.letters += found
        if n:
            self.keyed.append(name)
        wrong, pressed = badges.check_screen(app, name)
        self.badges += wrong
        self.pressed += pressed
        shown = [b for b in letters.shown_buttons(app) if b.enabled]
        for b in shown:
            if b.name == "back":
                self.backs[name] = b.hint
        if len(shown) == 1:
            self.lone[name] = shown[0].hint


def _phone_servers() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "phone-server" and t.is_alive()}


@pytest.fixture(scope="module", params=["de", "en"])
def walk(request, tmp_path_factory) -> Iterator[Walk]:
    lang = request.param
    seen = Walk(lang)
    name = "(none yet)"
    running = _phone_servers()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("STAMMTISCH_HOME", str(tmp_path_factory.mktemp(f"home-{lang}")))
        try:
            for name, app in tour(winsize.MIN_SIZE, lang):
                seen.look(name, app)
        except AssertionError as exc:   # the tour's own checks: a key did more than press
            seen.stopped = f"the tour stopped after {name}: {exc!r}"
        finally:
            pygame.quit()
            i18n.set_lang("en")
    seen.servers_left = len(_phone_servers() - running)
    yield seen


def test_every_screen_fits_the_smallest_window(walk):
    assert not walk.stopped, walk.stopped
    assert len(walk.seen) >= 49, walk.seen
    assert not walk.sizes, walk.sizes
    assert not walk.blank, walk.blank
    assert not walk.unfit, "\n".join(walk.unfit)


def test_every_buttons_letter_is_in_its_label_and_presses_it(walk):
    assert not walk.stopped, walk.stopped
    assert not walk.letters, "\n".join(walk.letters)
    # the screens with letters on their buttons were all seen (the check is not empty)
    for name in ("menu_continue", "setup_chase", "rules_chase", "chart", "chase_turn",
                 "chase_turn_hint", "rams_declare", "rams_trick", "chase_results",
                 "chase_review", "stats", "replays", "replay_chase"):
        assert name in walk.keyed, (name, walk.keyed)


def test_a_button_that_a_key_presses_shows_the_key(walk):
    assert not walk.stopped, walk.stopped
    assert not walk.badges, "\n".join(walk.badges)
    # the check is not empty: these were seen (the replay's Space, the setup's F5, Esc
    # for Back, → for the review's filter)
    i18n.set_lang(walk.lang)
    space = key_name(pygame.K_SPACE)
    for seen in (f"replay_chase: {space} play", "setup_chase: F5 start",
                 "rules_chase: Esc back", "chase_pause: Esc resume",
                 "chase_review: > filter"):
        assert seen in walk.pressed, (seen, walk.pressed)


def test_every_back_button_shows_esc(walk):
    """*Back* reads the same on every screen: Esc, the key that goes back everywhere
    (the statistics' once showed its letter, B / Z, where every other *Back* showed
    Esc)."""
    assert not walk.stopped, walk.stopped
    assert "stats" in walk.backs and "setup_chase" in walk.backs, walk.backs
    assert {name: hint for name, hint in walk.backs.items() if hint != "Esc"} == {}


def test_a_screens_only_button_shows_its_key(walk):
    """A screen with one button (the privacy screen's *I am Anna: show my hand*, the
    phones' codes' *Play*) shows the key that presses it, Enter where it has no other:
    the privacy screen's showed none, though Enter pressed it."""
    assert not walk.stopped, walk.stopped
    assert "chase_privacy" in walk.lone, walk.lone
    assert {name: hint for name, hint in walk.lone.items() if not hint} == {}


def test_the_walk_leaves_no_phone_server_running(walk):
    """The key checks click the setup's *Start* and put the screen back; the table it
    made was never shown and never closed, and its phones' server went on listening
    (8 per walk, for the rest of the test run)."""
    assert not walk.stopped, walk.stopped
    assert "setup_phones" in walk.seen
    assert walk.servers_left == 0
