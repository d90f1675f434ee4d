"""The phone page as players meet it, in headless Chromium: what it shows at the end of
a game and after the table closed, the log of the last round, a Rams round with a lone
player, the join screen's messages, the layout's header. Each test plays a real table
(``HeadlessTable``) through the page's own taps, or with scripted phones at the other
seats (``tests/phone_helpers.py``).

Needs Debian's ``chromium`` (``.ci/run`` installs it); skipped without it outside CI.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from game.net.host import HeadlessTable
from tests.phone_helpers import Line, page_of, phone_session, running, token_of, ws_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from chromium import Chromium, find_browser  # noqa: E402

pytestmark = pytest.mark.skipif(
    find_browser() is None and not os.environ.get("CI"),
    reason="no Chromium here (apt-get install chromium); CI always has it")

#: The page's first control a player can tap now: a legal card (twice) or a button.
CONTROL = ("(() => { const c = document.querySelector('#hand .card.legal:not(:disabled)');"
           " if (c) return 'card'; const b = document.querySelector("
           "'#moves button:not(:disabled)'); return b ? 'button' : null; })()")


def text(selector: str) -> str:
    return f"document.querySelector({json.dumps(selector)}).textContent"


async def play_seat(browser: Chromium, table: HeadlessTable, seat: int) -> None:
    """Tap the first legal card or button whenever ``seat`` has the move, until the
    game is over."""
    while not table.game.finished:
        p = table.game.to_move()
        if p is None or p.seat != seat:
            await asyncio.sleep(0.02)
            continue
        await play_first(browser, table)


async def play_first(browser: Chromium, table: HeadlessTable) -> None:
    """The page's seat has the move: tap its first legal card (twice: arm, confirm)
    or its first button, and wait until the table applied the move."""
    n = len(table.game.moves)
    if await browser.wait_for(CONTROL) == "card":
        await browser.tap("#hand .card.legal")
        await browser.tap("#hand .card.armed")
    else:
        await browser.tap("#moves button")
    while len(table.game.moves) == n and not table.game.finished:
        await asyncio.sleep(0.02)


async def until(condition: Any, timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds (the timeout only ends a test that would hang)."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), timeout)


def run_page(table: HeadlessTable, body: Any, **size: int) -> None:
    async def main() -> None:
        async with Chromium(**size) as browser:
            await body(browser)
            assert await browser.problems() == []

    with running(table):
        asyncio.run(main())


def test_the_result_stays_on_the_phone_after_the_table_closed():
    """``stammtisch host`` stops once every phone has the end: the phone kept only
    "The table has closed" (who won and the last round were gone) and its line said
    "reconnecting…" though it never would. Under the result the hand said "No cards in
    this round." """
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                          keep_records=False, names=["Anna", "Ben", "Carl"], linger=30)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await play_seat(browser, table, 0)
        await browser.wait_for("!document.getElementById('ended').hidden")
        assert not await browser.eval("document.getElementById('game').hidden")
        assert await browser.eval("document.getElementById('gone').hidden")
        winner = table.game.winner
        expected = "You win!" if winner == 0 else f"{table.names[winner]} wins!"
        assert await browser.eval(text("#status")) == expected
        assert await browser.eval(text("#ended")) == "The table has closed. Thanks for playing!"
        assert await browser.eval(text("#line")) == "not connected"
        assert await browser.eval("document.querySelectorAll('#moves button').length") == 0
        # no "No cards in this round." under the result: there is no round any more
        assert await browser.eval(text("#hand")) == ""

    run_page(table, body, width=360, height=640)


def test_the_page_keeps_its_seat_by_its_own_address_once_the_link_opened_it():
    """A seat's link on the table's screen opens the seat once; the page takes the
    token `welcome` gives it into its address, so a reload keeps the seat, while the
    address on the screen no longer opens it from another device."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                          keep_records=False, names=["Anna", "Ben", "Carl"])

    async def body(browser: Chromium) -> None:
        shown = table.server.link(0)
        assert shown is not None
        await browser.goto(shown + "?lang=en")
        await browser.wait_for("location.pathname !== " +
                               json.dumps("/p/" + shown.rsplit("/", 1)[1]))
        mine = token_of(table, 0)
        assert mine not in shown and table.server.link(0) is None
        assert await browser.eval("location.pathname") == "/p/" + mine
        await browser.eval("window.beforeReload = true; location.reload()")
        await browser.wait_for("!window.beforeReload && document.readyState === 'complete'"
                               " && !document.getElementById('game').hidden"
                               " && document.querySelector('#hand img') !== null")
        assert await browser.eval("location.pathname") == "/p/" + mine
        await until(lambda: 0 in table.server.connected())

    run_page(table, body, width=360, height=640)


def test_the_last_round_is_told_once_at_the_end_with_what_it_cost():
    """At the end the round just played is the history's last and still the view's
    events: the log told it twice ("Runde 7 … Runde 7 …") and, with four events or
    more, without who lost the last life. The phone's own seat is "you", as the window
    says it to the one person at its screen: "Du verlierst ein Leben.", not "Anna
    verliert ein Leben"."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=8, bot_seed=8,
                          keep_records=False, names=["Anna", "Ben", "Carl"], linger=30)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=de")
        await play_seat(browser, table, 0)
        await browser.wait_for("!document.getElementById('ended').hidden")
        lines = await browser.eval("[...document.querySelectorAll('#log li')]"
                                   ".map(li => li.textContent)")
        rounds = [x for x in lines if x.startswith("Runde ")]
        assert len(rounds) == len(set(rounds)) == 1, lines
        last = table.game.rounds[-1]
        losers = [int(s) for s, n in last["lost"].items() if n > 0]
        assert not any(table.names[0] in line for line in lines), lines   # "you" instead
        lives = table.game.view(0)["lives"]
        told = []
        for s in losers:                # each loss, and who went out with it
            told.append("Du verlierst ein Leben." if s == 0
                        else f"{table.names[s]} verliert ein Leben")
            if lives[s] <= 0:
                told.append("Du bist raus." if s == 0 else f"{table.names[s]} ist raus.")
        assert losers and lines[-len(told):] == told, lines

    run_page(table, body, width=360, height=640)


async def _declarations(browser: Chromium, table: HeadlessTable, session: Any, me: int,
                        move_of: Any, mine: str = "drop") -> dict[int, Line]:
    """A Rams round of three phones' declarations: the browser opens seat ``me``'s page
    and taps ``mine`` (drop out), each other seat joins on a line of its own and sends
    ``move_of(pending)``. The other seats' lines, for the rest of the test."""
    lines: dict[int, Line] = {}
    for s in (0, 1, 2):
        if s != me:
            lines[s] = await Line(session, ws_url(table)).open()
            await lines[s].send({"type": "hello", "token": token_of(table, s)})
    await browser.goto(page_of(table, me) + "?lang=en")
    await until(lambda: table.link.connected == {0, 1, 2})
    # the choice by its word (the first text of the button: odds may follow it), once
    # the page shows it; a tap read before the buttons came reached none, and the
    # round waited for it for ever
    find = ("[...document.querySelectorAll('#moves button')].findIndex(b => "
            f"b.firstChild && b.firstChild.textContent === STAMMTISCH_TEXTS.en.m_{mine})")
    while (p := table.game.to_move()).decision == "declare":
        n = len(table.game.moves)
        if p.seat == me:
            await browser.wait_for(find + " >= 0")
            i = await browser.eval(find)
            await browser.tap(f"#moves button:nth-child({i + 1})")
        else:
            await lines[p.seat].send({"type": "move", "id": f"d{n}", "step": n,
                                      "move": move_of(p)})
        await until(lambda n=n: len(table.game.moves) > n)
    return lines


def test_a_lone_player_and_the_defenders_are_named():
    """Rams: one seat plays, the others drop out and then play the tricks as
    defenders. The page still called them "drops" and never said that somebody plays
    alone; now the players' chips say "alone" and "defends", the log "Rams! … plays
    alone." after the declarations, as the window's plates and log do."""
    table = HeadlessTable("rams", ["phone", "phone", "phone"], seed=6, keep_records=False,
                          names=["Anna", "Ben", "Carl"])

    async def body(browser: Chromium) -> None:
        me = table.game.view(0)["dealer"]          # the dealer declares last
        first = table.game.to_move().seat
        async with phone_session() as session:
            lines = await _declarations(browser, table, session, me,
                                        lambda p: "play" if p.seat == first else "drop")
            assert table.game.view(me)["lone"] == first
            other = 3 - me - first
            await browser.wait_for(f"document.body.innerText.includes("
                                   f"'Rams! {table.names[first]} plays alone.')")
            chips = await browser.eval("[...document.querySelectorAll('#players .seat')]"
                                       ".map(s => s.querySelector('.tag').textContent)")
            assert "alone" in chips[first] and "defends" in chips[other], chips
            assert "defends" in chips[me] and "drops" not in " ".join(chips), chips
            log = await browser.eval("[...document.querySelectorAll('#log li')]"
                                     ".map(li => li.textContent)")
            rams = log.index(f"Rams! {table.names[first]} plays alone.")
            assert log[rams - 1] == "You drop out.", log      # "Anna drops" before
            assert not any(table.names[me] in line for line in log), log
            for line in lines.values():
                await line.close()

    run_page(table, body, width=360, height=640)


async def type_into(browser: Chromium, selector: str, value: str) -> None:
    await browser.eval(f"document.querySelector({json.dumps(selector)}).value = "
                       f"{json.dumps(value)}")


def test_the_join_screen_says_only_what_is_still_true():
    """A wrong join code's "Wrong join code." stayed under the free seats the right
    code then showed, and a refused name's "Another player has this name." came along
    to the game screen once the guest sat down under another name. "Sit down" without
    a name did nothing at all; it now says that a name is needed."""
    table = HeadlessTable("chase", ["phone", "phone", "medium"], seed=3, keep_records=False)
    joinmsg, toast = text("#joinmsg"), text("#toast")

    async def body(browser: Chromium) -> None:
        await browser.goto(table.server.base_url + "/?lang=en")
        await browser.wait_for("document.getElementById('line').textContent === 'connected'")
        await type_into(browser, "#code", "wrong1")
        await browser.tap("#look")
        await browser.wait_for(f"{joinmsg} === 'Wrong join code.'")
        await type_into(browser, "#code", table.server.access.code)
        await browser.tap("#look")
        await browser.wait_for("document.querySelector('#free button') !== null")
        assert await browser.eval(joinmsg) == ""
        await browser.tap("#free button")
        await type_into(browser, "#name", "   ")       # no name: the tap did nothing
        await browser.tap("#sit")
        await browser.wait_for(f"{joinmsg} === 'Type your name first: the table shows "
                               "it at your seat.'")
        await type_into(browser, "#name", table.names[1])
        await browser.tap("#sit")
        await browser.wait_for(f"{joinmsg} === 'Another player has this name.'")
        await type_into(browser, "#name", "Zoë")
        await browser.tap("#sit")
        await browser.wait_for("!document.getElementById('game').hidden && "
                               "document.querySelector('#hand img') !== null")
        assert await browser.eval(toast) == ""

    run_page(table, body, width=360, height=640)


def test_the_header_hides_what_scrolls_under_it_and_counters_keep_together():
    """The header stays at the top while the page scrolls: it was a quarter black over
    the felt, so cards and chips scrolling under it showed through and its name sat on
    top of theirs. A chip's "20 counters" broke after the number in landscape."""
    table = HeadlessTable("rams", ["phone", "medium", "medium"], seed=5, bot_seed=5,
                          keep_records=False,
                          names=["Anna-Lena Müller", "Ben Okonkwo-Smith", "Carl"])

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await browser.wait_for("document.querySelectorAll('#players .lives').length === 3")
        colour = await browser.eval("getComputedStyle(document.getElementById('bar'))"
                                    ".backgroundColor")
        assert colour.startswith("rgb("), colour       # rgba(…, 0.25) before
        rows = await browser.eval("[...document.querySelectorAll('#players .lives')]"
                                  ".map(e => e.getClientRects().length)")
        assert rows == [1, 1, 1]

    run_page(table, body, width=640, height=360)


def test_a_phone_that_won_is_told_so_in_its_words():
    """The winner's own phone read "you wins!" ("du gewinnt!"): the name's text with
    "you" put in for the name."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=15, bot_seed=15,
                          keep_records=False, linger=30)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=de")
        await play_seat(browser, table, 0)
        assert table.game.winner == 0            # the first button every time wins here
        await browser.wait_for(f"{text('#status')} === 'Du gewinnst!'")
        await browser.tap("#lang")
        assert await browser.eval(text("#status")) == "You win!"

    run_page(table, body, width=768, height=1024)


async def rams_choices_at(browser: Chromium, table: HeadlessTable, width: int, height: int,
                          lang: str) -> None:
    """Seat 0's page on a phone of ``width`` x ``height`` in ``lang``, once its three
    Rams choices show."""
    await browser.send("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    await browser.goto(page_of(table, 0) + "?lang=" + lang)
    await browser.wait_for("document.querySelectorAll('#moves button').length === 3")


async def odds_shown(browser: Chromium) -> None:
    """Tap *Odds* and wait for the figures on the choices. Once, in a full test run, they
    never came (120 s); what the page showed then is in the failure."""
    await browser.tap("#odds")
    try:
        await browser.wait_for("document.querySelector('#moves .odds') !== null", 120)
    except asyncio.TimeoutError:
        seen = await browser.eval(
            "['oddsnote', 'line', 'status', 'toast'].map(i => i + ': ' + "
            "document.getElementById(i).textContent).join(' | ')")
        raise AssertionError(f"no odds on the choices after 120 s; the page: {seen}") from None


def test_in_landscape_the_choices_are_on_the_screen_without_scrolling():
    """A phone held sideways (640x360): the chips and the trump card sat in the rows of
    the hand and the decision, and pushed the buttons down below the screen's edge
    (Rams' first button from 327 to 391 px of 360). Now they have a column of their
    own. A chip's tags break onto a line of their own rather than run out of it, and
    a hand is as wide as its column at any width (at 1024x768 the fifth card wrapped:
    the column's 501.66 px were read as 502). Rams' three choices stand in one row in
    landscape in both languages: in German "Spielen" wrapped onto a second row, half
    below a 640x360 screen."""
    table = HeadlessTable("rams", ["phone", "medium", "medium", "medium"], seed=5,
                          bot_seed=5, keep_records=False,
                          names=["Anna-Lena Müller", "Ben Okonkwo-Smith", "Carl", "Dora"])
    buttons = ("[...document.querySelectorAll('#moves button')]"
               ".map(b => b.getBoundingClientRect().bottom)")
    # every button inside the screen's width, its words inside the button
    inside = ("[...document.querySelectorAll('#moves button')].every(b => "
              "b.getBoundingClientRect().left >= 0 && b.getBoundingClientRect().right <= "
              "innerWidth && b.scrollWidth <= b.clientWidth)")
    rows = "new Set([...document.querySelectorAll('#moves button')].map(b => b.offsetTop)).size"
    chips = ("[...document.querySelectorAll('#players .seat')].every(s => [...s.children]"
             ".every(c => c.getBoundingClientRect().right <= s.getBoundingClientRect().right))")
    cards = "new Set([...document.querySelectorAll('#hand .card')].map(c => c.offsetTop)).size"

    async def body(browser: Chromium) -> None:
        while (p := table.game.to_move()) is None or p.seat != 0:
            await asyncio.sleep(0.02)
        for lang in ("de", "en"):
            for width, height in ((640, 360), (844, 390), (1024, 768), (360, 640)):
                await rams_choices_at(browser, table, width, height, lang)
                where = (lang, width, height)
                bottoms = await browser.eval(buttons)
                assert max(bottoms) <= height, (*where, bottoms)
                assert await browser.eval(inside), where
                if width > height:       # German's "Spielen" wrapped below 640x360
                    assert await browser.eval(rows) == 1, where
                assert await browser.eval(chips), where
                assert await browser.eval(cards) == 1, where

    run_page(table, body)


def test_a_paused_table_keeps_the_choices_on_the_screen_in_landscape():
    """The note that the table is paused stood above the hand in landscape and pushed
    the choices below the screen's edge (German, 844x390: below 390 px). It stands at
    the top of the right-hand column there; in portrait it is still under the status."""
    table = HeadlessTable("rams", ["phone", "medium", "medium", "medium"], seed=5,
                          bot_seed=5, keep_records=False, names=["Anna", "Ben", "Carl", "Dora"])
    bottoms = ("[...document.querySelectorAll('#moves button')]"
               ".map(b => b.getBoundingClientRect().bottom)")
    note = "document.getElementById('paused').getBoundingClientRect()"
    status = "document.getElementById('status').getBoundingClientRect()"

    async def body(browser: Chromium) -> None:
        while (p := table.game.to_move()) is None or p.seat != 0:
            await asyncio.sleep(0.02)
        table.link.pause(True)
        for lang in ("de", "en"):
            for width, height in ((640, 360), (844, 390), (390, 844)):
                await rams_choices_at(browser, table, width, height, lang)
                await browser.wait_for("!document.getElementById('paused').hidden")
                where = (lang, width, height)
                assert max(await browser.eval(bottoms)) <= height, where
                shown = await browser.eval(f"[{note}.top, {note}.bottom, {note}.left, "
                                           f"{note}.right, {status}.bottom]")
                top, bottom, left, right, under = shown
                assert 0 <= top < bottom <= height and 0 <= left < right <= width, where
                if width < height:       # portrait: right under the status line
                    assert top >= under, (where, shown)

    run_page(table, body)


#: every tag of a chip ("dealer", "drops out", "tricks: 2") on one line of its own,
#: and a separator on the line of the tag before it (a line never starts with "·"):
#: each tag with the separator after it, measured as a range, has a single top
TAGS_WHOLE = """(() => [...document.querySelectorAll('#players .seat .tag')].every(tag => {
  const walk = document.createTreeWalker(tag, NodeFilter.SHOW_TEXT), nodes = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) nodes.push(n);
  const text = nodes.map(n => n.data).join('');
  const at = (i) => { for (const n of nodes) { if (i <= n.data.length) return [n, i];
                                              i -= n.data.length; } };
  let from = 0;
  return text.split(/(?<=·) /).every(part => {
    const start = text.indexOf(part, from), r = document.createRange();
    from = start + part.length;
    r.setStart(...at(start)); r.setEnd(...at(from));
    const tops = [...r.getClientRects()].filter(q => q.width > 0).map(q => Math.round(q.top));
    return new Set(tops).size === 1;
  });
}))()"""


def test_a_chips_tags_break_between_them_never_inside_one():
    """In landscape a German chip read "20 Zähler steigt" with "aus" alone on the next
    line. A chip's tags may go onto a line of their own, and break between each other,
    but a tag's words stay together, and the "·" between two tags stays at the end of
    a line (a line began "· 1 Stich")."""
    table = HeadlessTable("rams", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                          keep_records=False, names=["Anna", "Ben", "Carl"])
    tags = "[...document.querySelectorAll('#players .seat .tag')].map(t => t.textContent)"

    async def body(browser: Chromium) -> None:
        while (p := table.game.to_move()) is None or p.seat != 0:
            await asyncio.sleep(0.02)
        for lang, dropped in (("de", "steigt aus"), ("en", "drops")):
            for width, height in ((844, 390), (640, 360), (360, 640), (390, 844)):
                await rams_choices_at(browser, table, width, height, lang)
                shown = await browser.eval(tags)
                assert any(dropped in x for x in shown), shown     # the case in question
                assert await browser.eval(TAGS_WHOLE), (lang, width, height, shown)

    run_page(table, body)


def test_no_line_of_a_chip_starts_with_the_separator():
    """Chips of three tags in the tricks ("dealer · plays · tricks: 1"): at some widths
    (English, 452 to 592 px) the line broke before the "·", and the chip's next line
    began "· tricks: 1". The "·" now stays at the end of the line before."""
    table = HeadlessTable("rams", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                          keep_records=False, names=["Anna", "Ben", "Carl"])
    tags = "[...document.querySelectorAll('#players .seat .tag')].map(t => t.textContent)"

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        while max((x.count("·") for x in await browser.eval(tags)), default=0) < 2:
            while (p := table.game.to_move()) is None or p.seat != 0:
                await asyncio.sleep(0.02)
            await play_first(browser, table)
        for lang in ("en", "de"):
            if lang == "de":
                await browser.tap("#lang")
            for width in range(440, 600, 8):
                for height in (360, 640):
                    await browser.send("Emulation.setDeviceMetricsOverride", {
                        "width": width, "height": height, "deviceScaleFactor": 1,
                        "mobile": True})
                    shown = await browser.eval(tags)
                    assert await browser.eval(TAGS_WHOLE), (lang, width, height, shown)

    run_page(table, body)


def test_a_phone_back_from_sleep_checks_its_line(monkeypatch):
    """A phone that slept may hold a line the table gave up on while its Wi-Fi was
    off: no close ever reached it, the page went on saying "connected" and showed the
    state from before the sleep until the player tapped something. Back on screen it
    now pings the table and, when no answer comes, opens a new line (here the table
    answers no ping: the line is as dead as such a line is)."""
    from game.net.server import PhoneServer

    handle = PhoneServer._handle

    async def deaf(self: PhoneServer, line: Any, msg: dict[str, Any]) -> None:
        if msg["type"] != "ping":
            await handle(self, line, msg)

    monkeypatch.setattr(PhoneServer, "_handle", deaf)
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=3, keep_records=False)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await browser.wait_for("document.querySelector('#hand img') !== null")
        assert table.link.arrivals[0] == 1
        await browser.eval("document.dispatchEvent(new Event('visibilitychange'))")
        await until(lambda: table.link.arrivals[0] == 2)     # a new line said hello
        await browser.wait_for(f"{text('#line')} === 'connected'")
        assert await browser.eval("document.getElementById('gone').hidden")

    run_page(table, body, width=360, height=640)


def test_a_card_that_may_not_be_played_says_why_when_tapped():
    """In a trick the cards that may not be played are dimmed: a tap on one did
    nothing, and nothing told the player why (the window says "You must follow ♥.").
    It now asks the table, which refuses with the engine's reason, shown at once;
    nothing is played and the decision stays."""
    table = HeadlessTable("rams", ["phone", "medium", "medium", "medium"], seed=5,
                          bot_seed=5, keep_records=False)
    play = ("[...document.querySelectorAll('#moves button')].findIndex(b => b.textContent"
            " === STAMMTISCH_TEXTS.en.m_play)")

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        while True:
            while (p := table.game.to_move()) is None or p.seat != 0:
                assert not table.game.finished, "no card was ever dimmed"
                await asyncio.sleep(0.02)
            n = len(table.game.moves)
            await browser.wait_for(CONTROL)
            if p.decision != "trick":
                await browser.tap(f"#moves button:nth-child({await browser.eval(play) + 1})")
            elif await browser.eval("document.querySelector('#hand .card.dim') !== null"):
                break
            else:
                await browser.tap("#hand .card.legal")
                await browser.tap("#hand .card.armed")
            await until(lambda n=n: len(table.game.moves) > n)
        card = await browser.eval("document.querySelector('#hand .card.dim img')"
                                  ".getAttribute('src')")
        why = table.game.why_illegal(0, card.rsplit("/", 1)[1][:-4])
        assert why is not None and why.code == "follow_suit"
        suit = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[why.detail["suit"]]
        await browser.tap("#hand .card.dim")
        await browser.wait_for(f"{text('#toast')} === 'You must follow {suit}.'")
        assert len(table.game.moves) == n and table.game.to_move().seat == 0
        await browser.wait_for("document.querySelector('#hand .card.legal:not(:disabled)')"
                               " !== null")                 # the decision is still open
        assert await browser.eval(text("#status")) == "Your turn!"

    run_page(table, body, width=360, height=640)


def test_a_choice_between_words_says_what_is_asked():
    """Chase: the phone offered "Keep" and "Swap" without saying with whom the swap
    would be (the window asks "Keep your card or swap with Ben?"); a Queen's choice
    did not say who asks, and a dealer who must play in Rams was offered "Play" alone
    without a word why dropping out was gone. The page now asks as the window does."""
    chase = HeadlessTable("chase", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                          keep_records=False, names=["Anna", "Ben", "Carl"])

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(chase, 0) + "?lang=en")
        while True:
            await until(lambda: (p := chase.game.to_move()) is not None and p.seat == 0)
            if chase.game.to_move().decision == "turn":
                break
            n = len(chase.game.moves)                  # the dealer's choice: keep
            await browser.wait_for(CONTROL)
            await browser.tap("#moves button")
            await until(lambda n=n: len(chase.game.moves) > n)
        view = chase.game.view(0)
        order = view["active"]
        other = chase.names[order[(order.index(0) + 1) % len(order)]]
        await browser.wait_for(f"{text('#prompt')} === "
                               f"'Keep your card or swap with {other}?'")

    run_page(chase, body, width=360, height=640)


def test_a_dealer_who_must_play_is_told_why():
    rams = HeadlessTable("rams", ["phone", "phone", "phone"], seed=6, keep_records=False,
                         names=["Anna", "Ben", "Carl"])

    async def body(browser: Chromium) -> None:
        me = rams.game.view(0)["dealer"]
        async with phone_session() as session:
            lines = {}
            for s in (0, 1, 2):
                if s != me:
                    lines[s] = await Line(session, ws_url(rams)).open()
                    await lines[s].send({"type": "hello", "token": token_of(rams, s)})
            await browser.goto(page_of(rams, me) + "?lang=de")
            while (p := rams.game.to_move()).seat != me:
                n = len(rams.game.moves)
                await lines[p.seat].send({"type": "move", "id": f"d{n}", "step": n,
                                          "move": "drop"})
                await until(lambda n=n: len(rams.game.moves) > n)
            assert "drop" not in p.legal
            await browser.wait_for(f"{text('#prompt')} === 'Alle vor dir sind ausgestiegen: "
                                   "Als Geber musst du spielen.'")
            for line in lines.values():
                await line.close()

    run_page(rams, body, width=360, height=640)


def test_no_odds_button_before_the_game_shows(monkeypatch):
    """While the page connected (or could not), the empty screen under "Connecting…"
    showed the lone "Odds" button; a tap asked the coach about nothing. It shows with
    a decision only. (The table here never answers the hello.)"""
    from game.net.server import PhoneServer

    async def mute(self: PhoneServer, line: Any, msg: dict[str, Any]) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(PhoneServer, "_hello", mute)
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=3, keep_records=False)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await browser.wait_for("document.readyState === 'complete' && "
                               f"{text('#status')} === 'Connecting…'")
        assert await browser.eval("document.getElementById('odds').offsetParent") is None

    run_page(table, body, width=360, height=640)


def test_the_odds_of_choices_between_words_are_explained():
    """With only words to choose from (Chase's keep or swap, Rams' declaration) the
    coach's figures stand on the buttons, and the note under them read "Risk of losing
    a life:" with nothing after the colon."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                          keep_records=False)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await until(lambda: (p := table.game.to_move()) is not None and p.seat == 0)
        await browser.wait_for("!document.getElementById('odds').hidden")
        await odds_shown(browser)
        assert await browser.eval(text("#oddsnote")) == (
            "The figure under each choice: the risk of losing a life.")

    run_page(table, body, width=360, height=640)


def test_a_long_name_is_cut_short_but_not_the_you_after_it():
    """The player's own chip reads "name (you)"; with a long name the ellipsis cut
    the "(you)" off at 360 px ("Anna-Lena Müll…")."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=3, keep_records=False,
                          names=["Anna-Lena Müller-Lüd", "Ben", "Carl"])

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await browser.wait_for("document.querySelectorAll('#players .seat').length === 3")
        me = "document.querySelector('#players .seat.me')"
        assert await browser.eval(f"{me}.querySelector('b').textContent") == (
            "Anna-Lena Müller-Lüd(you)")                   # a gap, not a space, between
        inside = await browser.eval(
            f"(() => {{ const b = {me}.querySelector('b').getBoundingClientRect(); "
            f"const y = {me}.querySelector('.you').getBoundingClientRect(); "
            "return y.width > 0 && y.left >= b.left && y.right <= b.right; })()")
        assert inside
        assert await browser.eval(f"{me}.querySelector('.name').scrollWidth > "
                                  f"{me}.querySelector('.name').clientWidth")   # cut short

    run_page(table, body, width=360, height=640)


def test_the_log_always_names_the_round_its_lines_belong_to():
    """The log shows its last eight lines: in a Rams round (declarations, then four
    cards a trick) the "Round 1" above them fell off the top after a few cards, and
    a line like "Carl: 9♥" stood with no round."""
    table = HeadlessTable("rams", ["phone", "medium", "medium", "medium"], seed=5,
                          bot_seed=5, keep_records=False, names=["Anna", "Ben", "Carl", "Dora"])
    play = ("[...document.querySelectorAll('#moves button')].findIndex(b => b.textContent"
            " === STAMMTISCH_TEXTS.en.m_play)")

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        while len(table.game.view(0)["events"]) < 12:
            await until(lambda: (p := table.game.to_move()) is not None and p.seat == 0)
            n = len(table.game.moves)
            await browser.wait_for(CONTROL)
            if table.game.to_move().decision == "trick":
                await browser.tap("#hand .card.legal")
                await browser.tap("#hand .card.armed")
            else:
                await browser.tap(f"#moves button:nth-child({await browser.eval(play) + 1})")
            await until(lambda n=n: len(table.game.moves) > n)
        await browser.wait_for("document.querySelectorAll('#log li').length === 8")
        lines = await browser.eval("[...document.querySelectorAll('#log li')]"
                                   ".map(li => li.textContent)")
        assert lines[0] == "Round 1", lines

    run_page(table, body, width=360, height=640)


def test_sudden_death_is_announced():
    """Chase: when everyone left would go out together, the tied players play sudden
    death with no lives left. The window's log says "Final tie: …" and its banner
    "Sudden death"; the phone said nothing, and its chips struck the tied players
    through as "out", its own player too, while they were still playing."""
    from game import games

    rules = {"lives": 1}
    game = games.entry("chase").new_game(rules, 3, seed=55, bot_seed=1)
    game.start()
    moves: list[tuple[int, str]] = []
    while not game.sudden_death:                 # the first move offered, every time
        p = game.to_move()
        moves.append((p.seat, game.legal_moves()[0]))
        game.apply(*moves[-1])
    assert game.view(0)["active"] == [0, 1] and game.to_move().seat == 0
    table = HeadlessTable("chase", ["phone", "medium", "medium"], rules=rules, seed=55,
                          bot_seed=1, keep_records=False, names=["Anna", "Ben", "Carl"])
    table.flow.start(resume=moves)               # the table deals into sudden death

    async def body(browser: Chromium) -> None:
        for lang, sudden, tie, head in (
                ("en", "Sudden death", "Final tie: You, Ben.", "Sudden death – round 3"),
                ("de", "Stechen", "Gleichstand im Finale: Du, Ben.", "Stechen – Runde 3")):
            await browser.goto(page_of(table, 0) + "?lang=" + lang)
            await browser.wait_for("document.querySelectorAll('#log li').length > 1")
            log = await browser.eval("[...document.querySelectorAll('#log li')]"
                                     ".map(li => li.textContent)")
            assert log[-2:] == [tie, head], log
            chips = await browser.eval("[...document.querySelectorAll('#players .seat')]"
                                       ".map(s => [s.className, s.querySelector('.tag')"
                                       ".textContent])")
            assert [c[0] for c in chips] == ["seat me turn", "seat", "seat out"], chips
            assert [sudden in c[1] for c in chips] == [True, True, False], chips

    run_page(table, body, width=360, height=640)


def test_sudden_death_among_three_says_who_went_out():
    """Chase: three players tied in the final and play sudden death. A sudden-death
    round costs no lives, so the phone's log of the round named nobody: the player
    holding the lowest card was struck through with no word why, while the other two
    played on. The log says who went out, as the window's does ("Anna is out.")."""
    from game import games

    rules = {"lives": 1}
    game = games.entry("chase").new_game(rules, 3, seed=8, bot_seed=1)
    game.start()
    moves: list[tuple[int, str]] = []
    while len(game.rounds) < 2:                  # the first move offered, every time
        p = game.to_move()
        moves.append((p.seat, game.legal_moves()[0]))
        game.apply(*moves[-1])
    assert len(game.rounds[0]["lost"]) == 3 and game.rounds[0]["final_tie"] == "sudden_death"
    assert game.rounds[1]["out"] == [0] and not game.finished
    table = HeadlessTable("chase", ["phone", "phone", "medium"], rules=rules, seed=8,
                          bot_seed=1, keep_records=False, names=["Anna", "Ben", "Carl"])
    table.flow.start(resume=moves)
    log = "[...document.querySelectorAll('#log li')].map(li => li.textContent)"

    async def body(browser: Chromium) -> None:
        for seat, lang, out, head in ((1, "en", "Anna is out.", "Sudden death – round 3"),
                                      (0, "de", "Du bist raus.", "Stechen – Runde 3")):
            await browser.goto(page_of(table, seat) + "?lang=" + lang)
            await browser.wait_for("document.querySelectorAll('#log li').length > 1")
            lines = await browser.eval(log)
            assert lines[-2:] == [out, head], lines

    run_page(table, body, width=360, height=640)


def test_the_cards_left_at_the_end_are_small():
    """Rams: a game decided before the round's last trick left the phone's unplayed
    cards in the hand at full size under the result, as if there were still something
    to play. After the end they are small."""
    from game import games

    game = games.entry("rams").new_game(None, 3, seed=18, bot_seed=1)
    game.start()
    moves: list[tuple[int, str]] = []
    while not game.finished:                     # the first move offered, every time
        p = game.to_move()
        moves.append((p.seat, game.legal_moves()[0]))
        game.apply(*moves[-1])
    assert len(game.view(0)["hand"]) == 4
    table = HeadlessTable("rams", ["phone", "medium", "medium"], seed=18, bot_seed=1,
                          keep_records=False, linger=30)
    table.flow.start(resume=moves)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await browser.wait_for("document.querySelectorAll('#hand .card').length === 4 && "
                               f"{text('#status')} !== 'Connecting…'")
        widths = await browser.eval("[...document.querySelectorAll('#hand .card')]"
                                    ".map(c => c.getBoundingClientRect().width)")
        assert max(widths) <= 60, widths                 # 80 px each before, at 360x640

    run_page(table, body, width=360, height=640)


async def closed_early(browser: Chromium, table: HeadlessTable, lang: str) -> str:
    """Open seat 0's page in ``lang``, close the table once the hand shows, and return
    what the phone then says."""
    await browser.goto(page_of(table, 0) + f"?lang={lang}")
    await browser.wait_for("document.querySelector('#hand img') !== null")
    table.stop()
    await browser.wait_for("!document.getElementById('gone').hidden")
    return await browser.eval(text("#gonemsg"))


def test_a_table_closed_before_the_end_says_the_game_goes_on_later(home):
    """The table closed in the middle of a game (the window went back to its menu, the
    host stopped): the phone said "The table has closed. Thanks for playing!" though
    the game is saved and continues at the computer."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=3)

    async def body(browser: Chromium) -> None:
        assert await closed_early(browser, table, "de") == (
            "Der Tisch wurde vor dem Ende des Spiels geschlossen. Das Spiel ist "
            "gespeichert: Am Computer geht es weiter (Weiterspielen).")
        await browser.tap("#lang")
        assert await browser.eval(text("#gonemsg")) == (
            "The table closed before the end of the game. The game is saved: it can be "
            "continued at the computer (Continue).")

    run_page(table, body, width=360, height=640)


def test_a_table_that_does_not_save_never_says_the_game_is_saved(home):
    """A table whose game is not autosaved (here one that keeps no records; in the
    window, a session whose autosave is off) closed early: the phone still said "The
    game is saved: it can be continued at the computer". It says it is not."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=3, keep_records=False)

    async def body(browser: Chromium) -> None:
        assert await closed_early(browser, table, "en") == (
            "The table closed before the end of the game. It is not saved and cannot be "
            "continued.")

    run_page(table, body, width=360, height=640)


def test_a_seat_opened_by_its_link_asks_once_for_the_players_name():
    """``stammtisch host`` called the players who opened their seat's link "Phone 1",
    "Phone 2" -- in English on a German page too -- and only guests could give a
    name. A seat with the table's default name (here a German table's "Handy 1") asks
    for the name above the game, refuses what a guest could not take, and once the
    table has the name it is the page's title and the question is gone."""
    table = HeadlessTable("chase", ["phone", "phone", "medium"], seed=3, keep_records=False,
                          lang="de")
    toast = text("#toast")
    shown = "!document.getElementById('naming').hidden"

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=de")
        await browser.wait_for(f"{shown} && document.querySelector('#hand img') !== null")
        assert await browser.eval(text("#title")) == "Handy 1"
        assert await browser.eval(text("#namehint")) == "Am Tisch heißt du Handy 1. Dein Name:"
        await type_into(browser, "#myname", "  ")
        await browser.tap("#nameok")
        await browser.wait_for(f"{toast} === 'Gib zuerst deinen Namen ein: Der Tisch zeigt "
                               "ihn an deinem Platz.'")
        await type_into(browser, "#myname", "handy 2")
        await browser.tap("#nameok")
        await browser.wait_for(f"{toast} === 'Diesen Namen hat schon jemand.'")
        await type_into(browser, "#myname", "Lena")
        await browser.tap("#nameok")
        await browser.wait_for(f"!({shown}) && {text('#title')} === 'Lena'")
        assert table.names[0] == "Lena"
        await browser.tap("#lang")                  # the question does not come back
        assert await browser.eval(shown) is False

    run_page(table, body, width=360, height=640)


def test_a_phone_is_called_what_the_table_can_draw():
    """A name with an emoji ("Jörg 🍺") was the page's title with the mug while the
    table's window drew a box for it; a name of emoji alone said "Abgelehnt:
    bad_field". The page names its player as the table has it ("Jörg"), and an emoji
    alone is refused in words, in German by a seat's link and in English by a guest."""
    table = HeadlessTable("chase", ["phone", "phone", "medium"], seed=3, keep_records=False,
                          lang="de")
    shown = "!document.getElementById('naming').hidden"
    beer = "\U0001F37A"

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=de")
        await browser.wait_for(f"{shown} && document.querySelector('#hand img') !== null")
        await type_into(browser, "#myname", beer + beer)
        await browser.tap("#nameok")
        await browser.wait_for(f"{text('#toast')} === 'Diesen Namen kann der Tisch nicht "
                               "zeigen: Nimm lateinische Buchstaben, keine Emojis.'")
        await type_into(browser, "#myname", f"Jörg {beer}")
        await browser.tap("#nameok")
        await browser.wait_for(f"!({shown}) && {text('#title')} === 'Jörg'")
        assert table.names[0] == "Jörg"
        # a guest with the join code, on an English page
        joinmsg = text("#joinmsg")
        await browser.goto(table.server.base_url + "/?lang=en")
        await browser.wait_for("document.getElementById('line').textContent === 'connected'")
        await type_into(browser, "#code", table.server.access.code)
        await browser.tap("#look")
        await browser.wait_for("document.querySelector('#free button') !== null")
        await browser.tap("#free button")
        await type_into(browser, "#name", f" {beer} ")
        await browser.tap("#sit")
        await browser.wait_for(f"{joinmsg} === 'The table cannot show this name: use "
                               "Latin letters, not emoji.'")
        await type_into(browser, "#name", f"Zoë {beer}")
        await browser.tap("#sit")
        await browser.wait_for(f"{text('#title')} === 'Zoë' && "
                               "[...document.querySelectorAll('#players .name')]"
                               ".map(e => e.textContent).includes('Jörg')")
        assert table.names[:2] == ["Jörg", "Zoë"]

    run_page(table, body, width=360, height=640)


def test_default_names_are_said_in_the_pages_language():
    """A German ``stammtisch host`` table called its unnamed seats "Handy 1" and
    "Mittel 3" on an English page too. The page says the table's default names in
    its own language, and again in the other when the player switches."""
    table = HeadlessTable("chase", ["phone", "phone", "medium"], seed=3, keep_records=False,
                          lang="de", names=[None, "Jo"])
    chips = "[...document.querySelectorAll('#players .seat .name')].map(n => n.textContent)"

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=en")
        await browser.wait_for("document.querySelector('#hand img') !== null")
        assert await browser.eval(text("#title")) == "Phone 1"
        assert await browser.eval(chips) == ["Phone 1", "Jo", "Medium 3"]
        await browser.tap("#lang")
        assert await browser.eval(text("#title")) == "Handy 1"
        assert await browser.eval(chips) == ["Handy 1", "Jo", "Mittel 3"]

    run_page(table, body, width=360, height=640)


def test_rams_three_choices_fit_a_small_phone_in_portrait():
    """Rams' declaration with General Rams offers three buttons. In portrait they
    stood in two columns, the third under the others: on a 360x640 phone, below five
    cards, the trump and the name box, it lay below the screen's edge. They share one
    row, each label inside its button, in German and English."""
    table = HeadlessTable("rams", ["phone", "medium", "phone", "medium"], seed=5, bot_seed=5,
                          keep_records=False)
    boxes = ("[...document.querySelectorAll('#moves button')].map(b => { const r = "
             "b.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, "
             "b.scrollWidth - b.clientWidth]; })")

    async def body(browser: Chromium) -> None:
        assert table.game.to_move().seat == 0 and table.game.legal_moves() == [
            "drop", "play", "general"]
        for lang in ("de", "en"):
            await browser.goto(page_of(table, 0) + "?lang=" + lang)
            await browser.wait_for("document.querySelectorAll('#moves button').length === 3")
            await browser.wait_for("[...document.querySelectorAll('#hand img')]"
                                   ".every(i => i.complete)")
            shown = await browser.eval(boxes)
            width, height = await browser.eval("[innerWidth, innerHeight]")
            assert len({round(b[1]) for b in shown}) == 1, (lang, shown)    # one row
            for left, _top, right, bottom, spill in shown:
                assert 0 <= left and right <= width and bottom <= height, (lang, shown)
                assert spill <= 0, (lang, shown)        # the label inside its button
            assert await browser.eval("document.documentElement.scrollWidth") <= width

    run_page(table, body, width=360, height=640)


def test_a_guest_sees_the_free_seats_default_names_in_the_pages_language():
    """The guests' list of free seats at a German table said "Handy 1", "Handy 2" on
    an English page. It says the default names in the page's language."""
    table = HeadlessTable("chase", ["phone", "phone", "medium"], seed=3, keep_records=False,
                          lang="de")
    free = "[...document.querySelectorAll('#free button')].map(b => b.textContent)"

    async def body(browser: Chromium) -> None:
        await browser.goto(table.server.base_url + "/?lang=en")
        await browser.wait_for("document.getElementById('line').textContent === 'connected'")
        await type_into(browser, "#code", table.server.access.code)
        await browser.tap("#look")
        await browser.wait_for("document.querySelector('#free button') !== null")
        assert await browser.eval(free) == ["Phone 1", "Phone 2"]

    run_page(table, body, width=360, height=640)


def _chase_with_a_phone() -> HeadlessTable:
    return HeadlessTable("chase", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                         keep_records=False, names=["Anna", "Ben", "Carl"])


async def _at_own_turn(browser: Chromium, table: HeadlessTable, lang: str) -> None:
    """Seat 0's page open in ``lang``, at its own decision, its choices shown."""
    await browser.goto(page_of(table, 0) + f"?lang={lang}")
    await until(lambda: (p := table.game.to_move()) is not None and p.seat == 0)
    await browser.wait_for(CONTROL)


def test_a_paused_table_says_so_until_play_goes_on():
    """The person at the window opened the table's menu (``table.paused``): the phone
    said only "Your turn!" and nothing moved. It says the table is paused, in its
    language, and the line goes when the menu closes."""
    table = _chase_with_a_phone()

    async def body(browser: Chromium) -> None:
        # the phone's own decision: the table waits for it and its game stands still
        await _at_own_turn(browser, table, "de")
        paused = "!document.getElementById('paused').hidden"
        assert not await browser.eval(paused)
        table.link.pause(True)
        await browser.wait_for(paused)
        assert await browser.eval(text("#paused")) == (
            "Der Tisch macht Pause: Es geht weiter, sobald das Menü am Bildschirm "
            "geschlossen ist.")
        table.link.pause(False)
        await browser.wait_for("document.getElementById('paused').hidden")

    run_page(table, body, width=360, height=640)


def test_after_general_rams_the_seats_that_dropped_play():
    """General Rams makes everybody play, the ones who dropped out before it too: the
    window's plates say "plays"; the phone's chips still said "drops" while those
    players played their cards to the tricks."""
    table = HeadlessTable("rams", ["phone", "phone", "phone"], seed=6, keep_records=False,
                          names=["Anna", "Ben", "Carl"])

    async def body(browser: Chromium) -> None:
        me = table.game.to_move().seat              # declares first: drops out
        async with phone_session() as session:
            lines = await _declarations(browser, table, session, me,
                                        lambda p: "general" if "general" in p.legal else "play")
            view = table.game.view(me)
            general = view["general"]
            assert general is not None and general != me and view["declared"][str(me)] == "drop"
            await browser.wait_for("document.querySelectorAll('#hand .card.legal').length"
                                   " > 0 || document.getElementById('status').textContent"
                                   ".endsWith('decides…')")
            chips = await browser.eval("[...document.querySelectorAll('#players .seat')]"
                                       ".map(s => s.querySelector('.tag').textContent)")
            assert "General Rams" in chips[general], chips
            assert "plays" in chips[me] and "drops" not in " ".join(chips), chips
            for line in lines.values():
                await line.close()

    run_page(table, body, width=360, height=640)


def test_a_choice_made_says_the_table_has_not_answered_yet():
    """After a tap on a choice the page waits for the table's answer (a paused table
    keeps it waiting until its menu closes; a phone offline sends it when back): its
    button showed "…" but the status still said "Your turn!" until the table's next
    message, the "Waiting for the table…" it has for this never showing."""
    table = _chase_with_a_phone()

    async def body(browser: Chromium) -> None:
        await _at_own_turn(browser, table, "en")
        assert await browser.eval(text("#status")) == "Your turn!"
        # the table does not answer: the move is not delivered
        await browser.eval("WebSocket.prototype.send = function () {}")
        await browser.tap("#moves button")
        await browser.wait_for("document.querySelector('#moves button.sent') !== null")
        assert await browser.eval(text("#status")) == "Waiting for the table…"

    run_page(table, body, width=360, height=640)


def test_a_held_reveal_is_not_said_to_be_the_next_players_decision():
    """The window holds a round's result until its person goes on (``table.held``):
    the game has dealt the next round already, and the phones said "Clara decides…"
    of its first player, a computer that does not decide before the screen goes on,
    for as long as nobody at the screen pressed Space. They say that the round's
    result is on the screen."""
    table = HeadlessTable("chase", ["phone", "medium", "medium"], seed=4, bot_seed=4,
                          keep_records=False, names=["Anna", "Ben", "Carl"], think=30)

    async def body(browser: Chromium) -> None:
        await browser.goto(page_of(table, 0) + "?lang=de")
        await until(lambda: (p := table.game.to_move()) is not None and p.seat != 0)
        who = table.names[table.game.to_move().seat]
        await browser.wait_for(f"{text('#status')} === '{who} entscheidet…'")
        table.link.hold(True)
        await browser.wait_for(f"{text('#status')} === 'Am Bildschirm steht das Ergebnis "
                               "der Runde…'")
        table.link.hold(False)
        await browser.wait_for(f"{text('#status')} === '{who} entscheidet…'")

    run_page(table, body, width=360, height=640)


def test_the_odds_button_keeps_its_word_beside_a_long_note():
    """On a 360 px phone in German the coach's note beside *Chancen* ("Die Zahl unter
    jeder Wahl: das Strafrisiko (fünf Zähler).") squeezed the button narrower than its
    word: its last letter stood outside the button, on the note's first words."""
    table = HeadlessTable("rams", ["phone", "medium", "phone", "medium"], seed=5, bot_seed=5,
                          keep_records=False)

    async def body(browser: Chromium) -> None:
        await rams_choices_at(browser, table, 360, 640, "de")
        await odds_shown(browser)
        odds, note = await browser.eval(
            "['odds', 'oddsnote'].map(i => { const e = document.getElementById(i); "
            "const r = e.getBoundingClientRect(); return [r.left, r.right, "
            "e.scrollWidth - e.clientWidth]; })")
        assert odds[2] <= 0, odds                       # the word inside its button
        assert odds[1] <= note[0], (odds, note)         # and the note beside it

    run_page(table, body, width=360, height=640)


def test_the_dealers_three_choices_fit_a_small_phone_under_the_name_box():
    """The dealer declares last: the chips above carry the others' declarations
    ("steigt aus" on a line of its own) and, with the table's default name, the name
    box stands at the top. In German its button ("Diesen Namen nehmen") took a row
    of its own under the field, and on a 360x640 phone the three choices lay below
    the screen's edge (613 to 669 px). The field and its button share one row."""
    table = HeadlessTable("rams", ["phone", "phone", "phone", "phone"], seed=5,
                          keep_records=False)
    boxes = ("[...document.querySelectorAll('#moves button')].map(b => "
             "b.getBoundingClientRect().bottom)")

    async def body(browser: Chromium) -> None:
        me = table.game.view(0)["dealer"]
        first = table.game.to_move().seat
        async with phone_session() as session:
            lines = {}
            for s in range(4):
                if s != me:
                    lines[s] = await Line(session, ws_url(table)).open()
                    await lines[s].send({"type": "hello", "token": token_of(table, s)})
            while (p := table.game.to_move()).seat != me:
                n = len(table.game.moves)
                await lines[p.seat].send({"type": "move", "id": f"d{n}", "step": n,
                                          "move": "play" if p.seat == first else "drop"})
                await until(lambda n=n: len(table.game.moves) > n)
            assert p.legal == ("drop", "play", "general")
            await browser.send("Emulation.setDeviceMetricsOverride", {
                "width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True})
            for lang in ("de", "en"):
                await browser.goto(page_of(table, me) + "?lang=" + lang)
                await browser.wait_for("document.querySelectorAll('#moves button')"
                                       ".length === 3 && !document.getElementById("
                                       "'naming').hidden")
                await browser.wait_for("[...document.querySelectorAll('#hand img')]"
                                       ".every(i => i.complete)")
                bottoms = await browser.eval(boxes)
                assert max(bottoms) <= 640, (lang, bottoms)
            for line in lines.values():
                await line.close()

    run_page(table, body, width=360, height=640)


def _chase_to_go_out() -> HeadlessTable:
    """A Chase table where the phone's seat (Anna) goes out while the others play on."""
    return HeadlessTable("chase", ["phone", "medium", "medium", "medium"], seed=4,
                         bot_seed=4, keep_records=False, names=["Anna", "Ben", "Carl", "Dora"],
                         think=0.3)


async def _play_until_out(browser: Chromium, table: HeadlessTable) -> None:
    """The phone plays its first choice each turn until its seat is out, the game going
    on; then its page says so."""
    await browser.goto(page_of(table, 0) + "?lang=en")
    while table.game.view(0)["lives"][0] > 0:
        assert not table.game.finished, "seat 0 never went out"
        p = table.game.to_move()
        if p is None or p.seat != 0:
            await asyncio.sleep(0.02)
            continue
        n = len(table.game.moves)
        await browser.tap("#moves button")
        await until(lambda n=n: len(table.game.moves) > n or table.game.finished)
    assert not table.game.finished                  # the others play on
    await browser.wait_for(f"{text('#hand')} === 'You are out.'")


def test_a_player_who_is_out_is_told_so_not_that_the_round_has_no_cards():
    """Out of a Chase game, the phone said "No cards in this round." under the others'
    rounds until the end, as if its player were dealt in again next round. It says
    "You are out.", in the window's words."""
    table = _chase_to_go_out()
    run_page(table, lambda browser: _play_until_out(browser, table), width=360, height=640)


def test_the_log_says_who_went_out_as_the_windows_does():
    """A round that took a player's last life: the window's log says "Anna is out."
    (to its own person "You are out."), the phone's log ended at "You lose a life."
    and only the chips showed it."""
    table = _chase_to_go_out()
    log = "[...document.querySelectorAll('#log li')].map(li => li.textContent)"

    async def body(browser: Chromium) -> None:
        await _play_until_out(browser, table)
        lines = await browser.eval(log)
        lost = lines.index("You lose a life.")
        assert lines[lost + 1] == "You are out.", lines

    run_page(table, body, width=360, height=640)


def test_a_seat_the_computer_plays_for_is_not_said_to_play_twice():
    """A phone gone after it declared "play", the computer standing in: its chip read
    "away · computer plays · plays". "computer plays" says it; a declaration is added
    only where it says more ("drops")."""
    table = HeadlessTable("rams", ["phone", "phone", "phone"], seed=6, keep_records=False,
                          names=["Anna", "Ben", "Carl"], stand_in="random")
    tags = ("[...document.querySelectorAll('#players .seat')].map(s => [...s.querySelectorAll("
            "'.tag > span')].map(t => t.textContent))")

    async def body(browser: Chromium) -> None:
        async with phone_session() as session:
            lines = await _declarations(
                browser, table, session, 0,
                lambda p: "drop" if p.seat == 2 and "drop" in p.legal else "play", "play")
            assert table.game.view(0)["declared"]["1"] == "play"
            await lines[1].close()               # Ben's phone is gone
            table.link.away_after = 0            # and the table asks for a stand-in
            # Anna plays her cards until the computer stands in for Ben; then the
            # table waits for her, the round not over
            while not table.link.sources[1].standing_in or table.game.to_move().seat != 0:
                p = table.game.to_move()
                if p is None or p.seat != 0:
                    await asyncio.sleep(0.02)
                    continue
                await play_first(browser, table)
            assert table.game.view(0)["declared"]["1"] == "play"
            await browser.wait_for("document.querySelectorAll('#players .seat')[1]"
                                   ".textContent.includes(STAMMTISCH_TEXTS.en.computer)")
            ben = (await browser.eval(tags))[1]
            assert ben[:2] == ["away", "computer plays"], ben
            assert "plays" not in ben, ben
            await lines[2].close()

    run_page(table, body, width=360, height=640)
