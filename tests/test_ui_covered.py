"""A phone table covered by another screen (the pause menu, the privacy screen): the
phones are still served through the real server -- a phone connects, asks the coach,
names itself and is answered -- while the game stands still; a phone's move made
during the pause waits and is played, and answered, when the pause ends
(docs/phone.md#a-covered-table)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pygame

from game.scenes import testing as T
from game.turn import flow
from game.turn.options import TableOptions
from tests.phone_helpers import Line, phone_session

LOOPBACK = TableOptions(phone_bind="127.0.0.1")


class Phone:
    """One scripted phone at ``seat``, running ``script(line)`` in its own thread and
    event loop; ``error`` keeps what went wrong there for the test to raise."""

    def __init__(self, table: Any, seat: int,
                 script: Callable[[Line], Awaitable[None]]) -> None:
        self.table, self.seat, self.script = table, seat, script
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            server = self.table.phones.server
            async with phone_session() as session:
                line = await Line(session, f"http://127.0.0.1:{server.port}/ws").open()
                await line.send({"type": "hello", "token": server.access.tokens[self.seat]})
                await line.until(lambda m: m["type"] == "welcome")
                try:
                    await self.script(line)
                finally:
                    await line.close()

        try:
            asyncio.run(main())
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            self.error = exc

    def start(self) -> Phone:
        self.thread.start()
        return self

    def done(self) -> bool:
        return not self.thread.is_alive()

    def check(self) -> None:
        self.thread.join(30)
        if self.error is not None:
            raise self.error


def _frames_until(app, until: Callable[[], bool], what: str, patience: float = 60.0,
                  covered_by: str | None = None) -> None:
    """Frames of the window until ``until()``; the phone answers in its own thread, so
    the loop waits for it without spending the game (only a hang nears ``patience``).
    ``covered_by``: the screen that must stay on top all along."""
    give_up = time.monotonic() + patience
    while not until():
        assert time.monotonic() < give_up, f"never: {what}"
        if covered_by is not None:
            assert app.top.name == covered_by
        time.sleep(0.002)
        T.frame(app)


def _alive(phone: Phone) -> None:
    """A phone whose script ended early raises what ended it."""
    if phone.done():
        phone.check()


def test_phones_are_served_under_the_pause_menu_and_a_move_waits_for_its_end():
    app = T.make_app((1280, 720))
    seats = [{"name": "P0", "human": True, "phone": True, "open_name": True},
             {"name": "P1", "human": True},
             {"name": "P2", "human": False, "level": "easy"}]
    table = app.open("table", game_id="chase", seats=seats, seed=5, options=LOOPBACK)
    link = table.phones.link
    try:
        T.key(app, pygame.K_RETURN)                     # close the join panel
        assert not table.show_phones
        # play on (the screen's person at random) until it is the phone's decision
        for _ in range(20000):
            if (table.state == flow.THINKING and table.pending.seat == 0
                    and not table.anim.moving and not table.flow.queue):
                break
            if table.state == "human":
                table.human_move(table.pending.legal[0])
            T.frame(app)
        else:
            raise AssertionError("the phone never had a decision")
        T.key(app, pygame.K_ESCAPE)
        assert app.top.name == "pause"
        step = len(table.game.moves)
        legal = list(table.pending.legal)
        got: dict[str, Any] = {}
        sent = threading.Event()

        async def script(line: Line) -> None:
            got["state"] = await line.until(lambda m: m["type"] == "state")
            await line.send({"type": "advice", "step": step})
            got["advice"] = await line.until(lambda m: m["type"] in ("advice", "refused"))
            await line.send({"type": "name", "name": "Lena"})
            got["named"] = await line.until(
                lambda m: m["type"] == "state" and m["table"]["names"][0] == "Lena")
            await line.send({"type": "move", "id": "bad", "step": step, "move": "nonsense"})
            got["refused"] = await line.until(lambda m: m["type"] == "refused")
            sent.set()       # before the send: the table may hold the move before
            # this thread runs on after it
            await line.send({"type": "move", "id": "m1", "step": step, "move": legal[0]})
            got["ack"] = await line.until(lambda m: m["type"] == "ack", timeout=60)

        phone = Phone(table, 0, script).start()
        # under the pause menu: connected, advised, named, the bad move refused
        _frames_until(app, lambda: 0 in link.waiting or phone.done(),
                      "the phone's move reached the table", covered_by="pause")
        if phone.done():
            phone.check()
        assert 0 in link.connected and got["state"]["seat"] == 0
        assert got["advice"]["type"] == "advice" and got["advice"]["step"] == step
        assert set(got["advice"]["options"]) == set(legal)
        assert table.names.name(0) == "Lena" and table.seats[0]["name"] == "Lena"
        assert got["refused"]["id"] == "bad" and got["refused"]["code"] != "stale"
        assert sent.is_set()
        # the game stands still while the menu is up: the move waits, unanswered
        for _ in range(30):
            T.frame(app)
        assert app.top.name == "pause" and len(table.game.moves) == step
        assert "ack" not in got and table.state == flow.THINKING
        T.key(app, pygame.K_ESCAPE)                     # the pause ends
        assert app.top is table
        _frames_until(app, phone.done, "the phone's move was answered")
        phone.check()
        assert table.game.moves[step] == (0, legal[0])
        assert got["ack"] == {"type": "ack", "id": "m1", "step": step, "move": legal[0]}
        # and the game goes on from there: the next decision is offered
        _frames_until(app, lambda: table.game.finished or (
            table.state in (flow.THINKING, "human") and table.decision is not None
            and table.decision.step > step),
            "the next decision")
    finally:
        table.exit()


def _mixed_table():
    """A Chase table of two people at the screen and one phone: the app and the table."""
    app = T.make_app((1280, 720))
    seats = [{"name": "P0", "human": True},
             {"name": "P1", "human": True},
             {"name": "P2", "human": True, "phone": True, "open_name": True}]
    return app, app.open("table", game_id="chase", seats=seats, seed=3, options=LOOPBACK)


def _to_the_privacy_screen(app) -> None:
    """Close the join codes and play on until the privacy screen of the first person."""
    T.key(app, pygame.K_RETURN)
    for _ in range(200):
        if app.top.name == "handoff":
            break
        T.frame(app)
    assert app.top.name == "handoff"


def test_a_phone_is_served_under_the_privacy_screen_of_a_mixed_table():
    app, table = _mixed_table()
    try:
        _to_the_privacy_screen(app)
        step = len(table.game.moves)
        got: dict[str, Any] = {}

        async def script(line: Line) -> None:
            await line.send({"type": "name", "name": "Mia"})
            got["named"] = await line.until(
                lambda m: m["type"] == "state" and m["table"]["names"][2] == "Mia")

        phone = Phone(table, 2, script).start()
        _frames_until(app, phone.done, "the phone was answered", covered_by="handoff")
        phone.check()
        assert table.names.name(2) == "Mia" and got["named"]["table"]["connected"] == [2]
        # its state is its own seat's: the screen's players' cards stay theirs
        view = got["named"]["view"]
        assert got["named"]["seat"] == 2 and view["seat"] == 2
        assert len(table.game.moves) == step
    finally:
        table.exit()


def test_the_phones_are_told_of_the_pause_menu_and_not_of_the_privacy_screen():
    """``table.paused`` in every phone's state: true while the pause menu is open (over
    the privacy screen or the table, the settings opened from it too), false under
    the privacy screen alone (another person's turn) and again after Esc."""
    app, table = _mixed_table()
    link = table.phones.link
    got: list[dict[str, Any]] = []          # the states the phone read, one per phase

    def state(paused: bool) -> Callable[[dict[str, Any]], bool]:
        return lambda m: m["type"] == "state" and m["table"]["paused"] is paused

    phases = [state(False), state(True), state(False), state(True), state(False)]

    async def script(line: Line) -> None:
        for pred in phases:
            got.append(await line.until(pred, timeout=60))

    try:
        _to_the_privacy_screen(app)
        phone = Phone(table, 2, script).start()
        # under the privacy screen: served, and not paused
        _frames_until(app, lambda: len(got) >= 1 or phone.done(), "the first state",
                      covered_by="handoff")
        _alive(phone)
        assert not got[0]["table"]["paused"] and not link.paused
        T.key(app, pygame.K_ESCAPE)                     # the menu over the privacy screen
        assert app.top.name == "pause"
        _frames_until(app, lambda: len(got) >= 2 or phone.done(), "paused",
                      covered_by="pause")
        _alive(phone)
        assert got[1]["table"]["paused"] is True
        app.top.settings()                              # the settings, from the menu
        assert app.top.name == "settings"
        for _ in range(10):
            T.frame(app)
        assert link.table_facts()["paused"] is True and len(got) == 2
        app.pop()
        T.key(app, pygame.K_ESCAPE)                     # the menu closes: the privacy
        assert app.top.name == "handoff"                # screen is no pause
        _frames_until(app, lambda: len(got) >= 3 or phone.done(), "not paused",
                      covered_by="handoff")
        _alive(phone)
        assert got[2]["table"]["paused"] is False
        T.key(app, pygame.K_RETURN)                     # the screen's player is ready
        for _ in range(200):
            if app.top is table and table.state == "human":
                break
            T.frame(app)
        assert app.top is table and table.state == "human"
        T.key(app, pygame.K_ESCAPE)                     # the menu over the table
        assert app.top.name == "pause"
        _frames_until(app, lambda: len(got) >= 4 or phone.done(), "paused again",
                      covered_by="pause")
        _alive(phone)
        T.key(app, pygame.K_ESCAPE)
        assert app.top is table
        _frames_until(app, phone.done, "play resumed")
        phone.check()
        assert [m["table"]["paused"] for m in got] == [False, True, False, True, False]
        assert not link.paused
    finally:
        table.exit()


def test_the_phones_are_told_while_the_window_holds_a_rounds_reveal():
    """A person at the screen continues after a round's result (Space), and until then
    the game, dealt on into the next round, waits: every phone's state says so
    (``table.held``), else its page said that the next round's first player decides
    for as long as the result stayed up. Told once the hold begins, and again once the
    person went on."""
    app = T.make_app((1280, 720), reveal_hold=None)
    seats = [{"name": "P0", "human": True, "phone": True},
             {"name": "P1", "human": True},
             {"name": "P2", "human": False, "level": "easy"}]
    table = app.open("table", game_id="chase", seats=seats, seed=5, options=LOOPBACK)
    link = table.phones.link
    held: list[bool] = []                   # table.held in the phone's states, as it changed

    async def script(line: Line) -> None:
        moved: set[int] = set()
        while held[-2:] != [True, False]:
            m = await line.until(lambda m: m["type"] == "state", timeout=60)
            if not held or held[-1] != m["table"]["held"]:
                held.append(m["table"]["held"])
            legal, step = m["view"]["legal"], m["step"]
            if legal and not m["table"]["finished"] and step not in moved:
                moved.add(step)
                await line.send({"type": "move", "id": f"m{step}", "step": step,
                                 "move": legal[0]})

    try:
        T.key(app, pygame.K_RETURN)                     # close the join panel
        phone = Phone(table, 0, script).start()
        give_up = time.monotonic() + 60
        while table.state != flow.HOLD:
            assert time.monotonic() < give_up and not table.game.finished, "no hold"
            _alive(phone)
            if table.state == "human" and app.top is table:
                table.human_move(table.pending.legal[0])
            elif app.top is not table:
                T.key(app, pygame.K_RETURN)             # the privacy screen
            time.sleep(0.002)
            T.frame(app)
        _frames_until(app, lambda: held[-1:] == [True] or phone.done(), "told of the hold")
        _alive(phone)
        assert link.table_facts()["held"] is True and table.state == flow.HOLD
        T.key(app, pygame.K_SPACE)                      # the person goes on
        _frames_until(app, phone.done, "told that the hold ended")
        phone.check()
        assert held[-2:] == [True, False] and not link.held
    finally:
        table.exit()
