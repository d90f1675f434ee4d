"""The phone page in real browsers: at a phone's viewport it opens a seat's join link,
shows the hand, and a tap on a decision reaches the engine. Twice: in headless
Chromium (Chrome and most Android phones) and in WebKitGTK (WebKit, the engine of
Safari and of every browser on iPhones and iPads).

Needs Debian's ``chromium`` and ``webkit2gtk-driver`` with ``xvfb`` (``.ci/run``
installs them). Screenshots of the page in both languages go to ``out/phone/`` for a
person to look at (``tools/phone_screens.py`` makes the full set).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from game.net.host import HeadlessTable
from tests.phone_helpers import page_of, running

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from chromium import Chromium, find_browser  # noqa: E402
from webkit import WebKit, find_driver  # noqa: E402

OUT = ROOT / "out" / "phone"
IN_CI = bool(os.environ.get("CI"))

BROWSERS = [
    pytest.param(Chromium, id="chromium", marks=pytest.mark.skipif(
        find_browser() is None and not IN_CI,
        reason="no Chromium here (apt-get install chromium); CI always has it")),
    pytest.param(WebKit, id="webkit", marks=pytest.mark.skipif(
        find_driver() is None and not IN_CI,
        reason="no WebKitWebDriver here (apt-get install webkit2gtk-driver xvfb); CI "
               "always has it")),
]


def _table(game_id: str, seed: int) -> HeadlessTable:
    return HeadlessTable(game_id, ["phone", "phone", "phone"], seed=seed, keep_records=False)


HAND_SHOWN = ("(() => { const i = [...document.querySelectorAll('#hand img')]; "
              "return i.length > 0 && i.every(x => x.complete && x.naturalWidth > 0); })()")


@pytest.mark.parametrize("browser_type", BROWSERS)
@pytest.mark.parametrize("lang,word", [("en", "Your turn!"), ("de", "Du bist dran!")])
def test_a_tap_on_the_phone_reaches_the_engine(browser_type, lang, word):
    table = _table("chase", 21)

    async def main() -> None:
        p = table.game.to_move()
        async with browser_type(width=390, height=844) as browser:
            await browser.goto(page_of(table, p.seat) + f"?lang={lang}")
            await browser.wait_for(HAND_SHOWN)
            status = await browser.wait_for(
                f"document.getElementById('status').textContent === {word!r}")
            assert status
            hand = await browser.eval("[...document.querySelectorAll('#hand img')]"
                                      ".map(i => i.getAttribute('src'))")
            assert hand == [f"/cards/classic/{c}.png" for c in table.game.view(p.seat)["hand"]]
            # the browser answers the ping after each state by itself, with its payload:
            # the table learns the phone has the state (the end of a game waits for it)
            await asyncio.wait_for(_heard(table, p.seat, 0), 20)
            OUT.mkdir(parents=True, exist_ok=True)
            await browser.screenshot(OUT / _shot(f"test_turn_{lang}", browser))
            labels = await browser.eval("[...document.querySelectorAll('#moves button')]"
                                        ".map(b => b.textContent)")
            assert len(labels) == len(p.legal)
            await browser.tap("#moves button:last-child")
            # the tap shows at once, and the engine gets the move
            await browser.wait_for("document.querySelector('#moves button.sent') !== null"
                                   " || document.querySelectorAll('#moves button').length === 0")
            await asyncio.wait_for(_moved(table, 0), 20)
            await browser.wait_for(f"document.getElementById('status').textContent !== {word!r}")
            await asyncio.wait_for(_heard(table, p.seat, 1), 20)
            assert await browser.problems() == []
            assert table.game.moves[0] == (p.seat, sorted(p.legal)[-1]), labels

    with running(table):
        asyncio.run(main())


async def _moved(table: HeadlessTable, n: int) -> None:
    while len(table.game.moves) <= n:
        await asyncio.sleep(0.02)


async def _heard(table: HeadlessTable, seat: int, step: int) -> None:
    while table.server.heard_step(seat) < step:
        await asyncio.sleep(0.02)


def _shot(name: str, browser: object) -> str:
    return f"{name}.png" if isinstance(browser, Chromium) else f"{name}_webkit.png"


@pytest.mark.parametrize("browser_type", BROWSERS)
def test_a_card_is_played_with_two_taps_in_landscape(browser_type):
    table = _table("rams", 5)

    async def main() -> tuple[int, str]:
        async with browser_type(width=844, height=390) as browser:
            # play until this seat has a card to play in a trick
            while True:
                p = table.game.to_move()
                if p.decision == "trick":
                    break
                await browser.goto(page_of(table, p.seat) + "?lang=en")
                await browser.wait_for(HAND_SHOWN)
                n = len(table.game.moves)
                await browser.tap("#moves button:last-child")        # "Play"
                await asyncio.wait_for(_moved(table, n), 20)
            p = table.game.to_move()
            await browser.goto(page_of(table, p.seat) + "?lang=en")
            await browser.wait_for(HAND_SHOWN)
            await browser.wait_for("document.querySelector('#hand .card.legal') !== null")
            OUT.mkdir(parents=True, exist_ok=True)
            n = len(table.game.moves)
            await browser.tap("#hand .card.legal")
            await browser.wait_for("document.querySelector('#hand .card.armed') !== null")
            assert len(table.game.moves) == n          # one tap only lifts the card
            await browser.screenshot(OUT / _shot("test_trick_landscape_en", browser))
            card = await browser.eval(
                "document.querySelector('#hand .card.armed img').getAttribute('src')")
            await browser.tap("#hand .card.armed")
            await asyncio.wait_for(_moved(table, n), 20)
            assert await browser.problems() == []
            return p.seat, card.rsplit("/", 1)[1][:-4]

    with running(table):
        seat, card = asyncio.run(main())
        assert (seat, card) in table.game.moves


def test_a_browser_that_fails_to_start_leaves_nothing_behind(tmp_path, monkeypatch):
    """``async with`` a driver whose browser exits at once: the error says so, and the
    fresh profile folder the start made is gone again (no browser needed)."""
    import tempfile

    from browser_page import BrowserError

    monkeypatch.setenv("STAMMTISCH_CHROMIUM", "/bin/true")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    async def main() -> None:
        async with Chromium(timeout=10):
            pass

    with pytest.raises(BrowserError, match="exited before it listened"):
        asyncio.run(main())
    assert list(tmp_path.iterdir()) == []
