"""Phone seats at the window's table: the join panel with QR codes, phones mixed with
a person at the screen and computers, the big screen never showing a phone player's
card, no privacy screen with phones only, and the question when a phone stays away."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable

import pygame

import game.view.phones as phones_view
from game.i18n import t
from game.scenes import testing as T
from game.turn import flow
from game.turn.options import TableOptions
from game.view.phones import qr_matrix
from tests.phone_helpers import Line, Player, phone_session

LOOPBACK = TableOptions(phone_bind="127.0.0.1")


def _seats(kinds: list[str]) -> list[dict]:
    return [{"name": f"P{i}", "human": k in ("human", "phone"), "phone": k == "phone",
             "level": k if k not in ("human", "phone") else "medium"}
            for i, k in enumerate(kinds)]


class _InThread:
    """Phones that run ``_run`` in their own thread and event loop while the ``with``
    block lasts (``done`` tells them to stop)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    async def _run(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join(30)


class Phones(_InThread):
    """Scripted phones for the given seats, playing in their own thread."""

    def __init__(self, table, seats: list[int], seed: int = 1) -> None:
        super().__init__()
        self.table, self.seats, self.seed = table, seats, seed
        self.players: list[Player] = []

    async def _run(self) -> None:
        room = self.table.phones
        url = f"http://127.0.0.1:{room.server.port}/ws"
        async with phone_session() as session:
            self.players = [Player(session, url, room.server.access.tokens[s], self.seed + s)
                            for s in self.seats]
            await asyncio.gather(*(p.play(self.done) for p in self.players))


def _no_phone_card_shown(table, phones: list[int]) -> None:
    """Chase: a card in front of a seat; Rams: a hand. Face up only for the viewer
    (never a phone seat) or when the engine made it public."""
    m = table.model
    hands = {s: [sp] for s, sp in m.hand.items()} if hasattr(m, "hand") else m.hands
    for seat, cards in hands.items():
        for sp in cards:
            if sp.code is not None and seat not in getattr(m, "public_up", ()):
                assert seat not in phones, f"phone seat {seat}'s card is face up"
                assert seat == table.viewer


def _play(app, table, phones: list[int], rng: random.Random, frames: int = 60000,
          patience: float = 120.0, until: Callable[[], bool] | None = None) -> None:
    """Play the table to its end (or until ``until()``): ``frames`` frames of the
    table's own work; while a phone (another thread) has the move, wait for it without
    spending frames, up to ``patience`` seconds in all (only a hang ever gets near
    that)."""
    give_up = time.monotonic() + patience
    while frames > 0 and time.monotonic() < give_up:
        if until is not None and until():
            return
        p = table.pending
        if (p is not None and p.seat in phones and table.state == flow.THINKING
                and not table.anim.moving and not table.flow.queue):
            time.sleep(0.002)
            T.frame(app)
            continue
        frames -= 1
        top = app.top
        if top.name == "results" or table.game.finished and not table.busy():
            return
        assert top.name != "handoff" or any(not s.get("phone") for s in table.seats
                                            if s["human"]), "a privacy screen for phones"
        if top.name == "handoff":
            T.click_button(app, top.list.buttons[0])
            continue
        _no_phone_card_shown(table, phones)
        if table.state == "human":
            table.human_move(rng.choice(table.pending.legal))
        T.frame(app)
    raise AssertionError("the game did not end")


def test_phones_a_person_and_a_computer_play_a_whole_game():
    app = T.make_app((1280, 720))
    seats = _seats(["phone", "human", "phone", "medium"])
    table = app.open("table", game_id="chase", seats=seats, seed=5, options=LOOPBACK)
    # the person at the screen; their card lies face down until they ask (test_ui_peek)
    assert table.humans == [1] and table.flow.viewer == 1 and table.viewer is None
    T.frame(app)
    assert table.show_phones                      # the join panel is up at first
    names = [b.name for b in [table.join_panel.close_button, table.phones_button]]
    assert names == ["phones_close", "phones"]
    with Phones(table, [0, 2]):
        _play(app, table, [0, 2], random.Random(3))
    assert table.game.finished
    assert not table.show_phones                  # it went away once all phones were in
    moves = {s for s, _ in table.game.moves}
    assert {0, 1, 2, 3} <= moves
    app.pop() if app.top.name == "results" else None
    table.exit()
    assert table.phones.server.stopped


def test_with_phones_only_nobody_is_at_the_screen():
    app = T.make_app((960, 600), lang="de")
    seats = _seats(["phone", "phone", "phone"])
    table = app.open("table", game_id="rams", seats=seats, seed=8, options=LOOPBACK)
    assert table.humans == [] and table.viewer is None
    with Phones(table, [0, 1, 2]):
        _play(app, table, [0, 1, 2], random.Random(4))
    assert table.game.finished
    table.exit()


def test_an_away_phone_brings_up_the_question_and_a_computer_can_stand_in():
    app = T.make_app((1280, 720))
    seats = _seats(["phone", "medium", "medium"])
    table = app.open("table", game_id="chase", seats=seats, seed=2, options=LOOPBACK)
    table.phones.link.away_after = 0.0            # nobody ever connects
    T.key(app, pygame.K_RETURN)                   # close the join panel
    assert not table.show_phones
    for _ in range(2000):
        T.frame(app)
        if table.away_seat is not None:
            break
    assert table.away_seat == 0
    T.click_button(app, table.away_prompt.buttons[1])     # "Computer plays"
    assert table.phones.sources[0].standing_in
    for _ in range(20000):
        if table.game.finished:
            break
        T.frame(app)
    assert table.game.finished and any(s == 0 for s, _ in table.game.moves)
    table.exit()


def test_qr_codes_hold_the_links():
    rows = qr_matrix("http://192.168.1.20:8765/p/abcdefgh2345")
    assert len(rows) == len(rows[0]) >= 21
    # the three finder patterns: dark 7x7 rings in three corners
    for y0, x0 in ((0, 0), (0, len(rows) - 7), (len(rows) - 7, 0)):
        assert all(rows[y0][x0 + i] and rows[y0 + 6][x0 + i] for i in range(7))


def test_the_setup_offers_phone_seats_and_starts_a_phone_table():
    app = T.make_app((1280, 720))
    setup = app.open("setup", game_id="chase")
    row = setup.seat_form.rows[3]                 # the second seat
    seat = setup.setup["seats"][1]
    assert not seat["human"]
    labels = []
    for _ in range(6):
        row.step(1)
        labels.append(row.value())
    assert "Phone" in labels
    while not seat.get("phone"):
        row.step(1)
    assert seat["human"] and row.value() == "Phone"
    setup.start()
    table = T.table_of(app)
    try:
        assert table is not None and table.phones is not None
        assert table.phones.phones == [1] and table.humans == [0]
        assert table.seat_tag(1) == "phone away"
    finally:
        table.exit()



def test_a_phone_table_that_cannot_listen_says_why_in_the_players_language(monkeypatch):
    """The chosen address left the computer between the setup and the start: the setup
    stays, with the reason in German, not the OS's '[Errno 99] Cannot assign ...'."""
    import errno

    from game.net.room import PhoneRoom

    def cannot(self):
        raise OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")

    monkeypatch.setattr(PhoneRoom, "start", cannot)
    app = T.make_app((1280, 720), "de")
    setup = app.open("setup", game_id="chase")
    setup.setup["seats"][1].update(human=True, phone=True)
    setup.start()
    assert app.top is setup and T.table_of(app) is None
    assert app.toast is not None and "Errno" not in app.toast[0], app.toast
    assert app.toast[0] == ("Der Handy-Tisch kann nicht starten: die Adresse gehört nicht "
                            "mehr zu diesem Computer"), app.toast      # not 'these rules'

def test_a_saved_phone_game_resumes_with_its_phone_seats(tmp_path, monkeypatch):
    """Continue after closing a phone table: the phone seats are phones again (new
    links to scan), not people at the screen; the person at the screen stays one."""
    from game import store

    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    app = T.make_app((1280, 720))
    seats = _seats(["phone", "human", "phone", "medium"])
    table = app.open("table", game_id="chase", seats=seats, seed=5, options=LOOPBACK)
    old_links = [table.phones.server.link(s) for s in (0, 2)]
    with Phones(table, [0, 2]):
        _play(app, table, [0, 2], random.Random(3),
              until=lambda: len(table.game.moves) >= 6)
        table.exit()                    # the phones hear the table close
    saved, problem = store.read_autosave()
    assert problem is None and saved is not None and not saved.finished
    assert saved.session["phones"] == [0, 2]
    assert [s.type for s in saved.record.seats] == ["human", "human", "human", "ai"]

    app2 = T.make_app((1280, 720))
    resumed = app2.scene("continue", record=saved.record, saved=saved.session)
    app2.push(resumed)
    try:
        assert resumed.phones is not None and resumed.humans == [1]
        assert sorted(resumed.phones.sources) == [0, 2]
        new_links = [resumed.phones.server.link(s) for s in (0, 2)]
        assert not set(new_links) & set(old_links)      # fresh tokens
        assert resumed.game.moves[:len(saved.record.moves)] == saved.record.moves
    finally:
        resumed.exit()
    assert store.table_seats(saved.record, {"phones": [3, 1, "x", True, 99]}) == [
        {**s, **({"phone": True} if i == 1 else {})}
        for i, s in enumerate(store.seats_from_record(saved.record))]


def codes_drawn(monkeypatch) -> list[str]:
    """What every QR code the window draws from now on holds, in order."""
    drawn: list[str] = []
    real = phones_view.qr_surface
    monkeypatch.setattr(phones_view, "qr_surface",
                        lambda data, size: drawn.append(data) or real(data, size))
    return drawn


def test_the_join_panel_never_shows_the_code_of_a_seat_a_guest_took(monkeypatch):
    """A guest who took a seat with the join code got a token of their own; the panel
    shows the seat as taken instead of a QR code that would hand the seat to anyone
    who scans the screen."""
    app = T.make_app((960, 600), lang="en")
    table = app.open("table", game_id="chase", seats=_seats(["phone", "phone", "medium"]),
                     seed=5, options=LOOPBACK)
    room = table.phones
    before = {s.seat: s.url for s in room.seat_links()}
    guest_token = room.server.access.claim(1)        # what the server does for a guest
    links = {s.seat: s for s in room.seat_links()}
    assert links[0].url == before[0] and links[1].url is None and links[1].short == ""
    drawn = codes_drawn(monkeypatch)
    table.show_phones = True
    T.frame(app)
    assert drawn == [before[0]] and guest_token not in drawn[0]
    table.exit()


def test_a_joined_seat_shows_no_code_and_a_lost_phone_gets_a_new_one(monkeypatch):
    """Once a phone opened its seat's link, the panel shows the seat as joined, never
    its code (the screen is everybody's). While that phone is away the tile offers a
    new code (its seat's number on the keyboard, or a click); the new code is drawn,
    and it is not the old link."""
    app = T.make_app((960, 600), lang="en")
    table = app.open("table", game_id="chase", seats=_seats(["phone", "phone", "medium"]),
                     seed=5, options=LOOPBACK)
    room = table.phones
    first = {s.seat: s.url for s in room.seat_links()}
    phone_token = room.server.access.join(0, "127.0.0.1")   # what a phone's hello does
    drawn = codes_drawn(monkeypatch)
    table.show_phones = True
    T.frame(app)
    assert drawn == [first[1]]                      # seat 0: no code, old or new
    panel = table.join_panel
    assert list(panel.renew_buttons) == [0]         # away: a new code may be asked for
    assert panel.renew_buttons[0].text() == t("phones.renew")
    T.key(app, pygame.K_2)                          # seat 2 is not joined: nothing
    T.key(app, pygame.K_1)
    deadline = time.monotonic() + 10
    while room.server.link(0) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    new = room.server.link(0)
    assert new is not None and new != first[0] and phone_token not in new
    assert room.server.link(1) == first[1]
    drawn.clear()
    T.frame(app)
    assert new in drawn and panel.renew_buttons == {}
    table.exit()


class StayingPhone(_InThread):
    """One phone that keeps its line for as long as the test runs, across games: it
    plays the first legal move of every decision and keeps every message it reads."""

    def __init__(self, port: int, token: str) -> None:
        super().__init__()
        self.url, self.token = f"http://127.0.0.1:{port}/ws", token
        self.got: list[dict] = []

    async def _run(self) -> None:
        async with phone_session() as session:
            line = await Line(session, self.url).open()
            await line.send({"type": "hello", "token": self.token})
            decided: set[tuple[int, int]] = set()
            while not self.done.is_set():
                try:
                    m = await line.next(0.1)
                except asyncio.TimeoutError:
                    continue
                if m is None:
                    return
                self.got.append(m)
                games = sum(1 for x in self.got if x["type"] == "state"
                            and x["table"]["finished"])
                if m["type"] == "state" and m["view"]["legal"] and not m["table"]["finished"] \
                        and (games, m["step"]) not in decided:
                    decided.add((games, m["step"]))
                    await line.send({"type": "move", "id": f"g{games}s{m['step']}",
                                     "step": m["step"], "move": m["view"]["legal"][0]})
            await line.close()


def test_play_again_keeps_the_phones_at_their_seats():
    """*Play again* after a phone game: the table used to close the phones' server and
    open a new one, on another port with new tokens, so every phone was told "The table
    has closed" and everybody had to scan a new code. The next game now takes the
    room: the phones keep their line and link and get the new deal."""
    app = T.make_app((960, 600))
    table = app.open("table", game_id="chase", seats=_seats(["phone", "medium", "medium"]),
                     seed=5, options=LOOPBACK)
    server = table.phones.server
    with StayingPhone(server.port, server.access.tokens[0]) as phone:
        _play(app, table, [0], random.Random(1))
        mine = server.access.tokens[0]           # the phone's own since it said hello
        while app.top.name != "results":
            T.frame(app)
        app.top.again()
        again = T.table_of(app)
        assert again is not table and again.phones.server is server
        assert server.access.tokens[0] == mine and not server.stopped
        assert again.phones.server.link(0) is None       # still no code to scan
        _play(app, again, [0], random.Random(2))
        assert any(s == 0 for s, _ in again.game.moves)
        assert again.game.finished
    kinds = [m["type"] for m in phone.got]
    assert "bye" not in kinds and kinds.count("welcome") == 1
    finished = [i for i, m in enumerate(phone.got) if m["type"] == "state"
                and m["table"]["finished"]]
    news = [m for m in phone.got[finished[0]:] if m["type"] == "history"]
    assert news and news[0] == {"type": "history", "from": 0, "rounds": []}
    if app.top.name == "results":
        app.pop()
    again.exit()
    assert server.stopped


def test_a_phone_seat_left_unnamed_in_the_setup_names_itself_at_the_table():
    """The setup's default for a phone seat ("Player 1" among several people) is the
    table's word, not the player's name: the phone asks once, and the name replaces
    the default everywhere, its role too (which would follow the language over it)."""
    from game.turn.seats import seats_from_setup

    app = T.make_app((960, 600), lang="en")
    setup = {"players": 3, "seats": [{"name": "", "human": True, "phone": True},
                                     {"name": "", "human": True},
                                     {"name": "", "human": False, "level": "easy"}]}
    seats = seats_from_setup(setup, "en")
    assert seats[0]["role"] == "player" and seats[0]["open_name"]
    table = app.open("table", game_id="chase", seats=seats, seed=5, options=LOOPBACK)
    room = table.phones
    assert table.names.name(0) == "Player 1"

    async def name_it() -> None:
        async with phone_session() as session:
            line = await Line(session, f"http://127.0.0.1:{room.server.port}/ws").open()
            await line.send({"type": "hello", "token": room.server.access.tokens[0]})
            assert (await line.until(lambda m: m["type"] == "welcome"))["rename"] is True
            await line.send({"type": "name", "name": "Lena"})
            await line.until(lambda m: m["type"] == "named")
            await line.close()

    try:
        asyncio.run(name_it())
        for _ in range(20):              # the name is in the table's inbox already
            T.frame(app)
        assert table.names.name(0) == "Lena" and "role" not in table.seats[0]
        assert room.seat_links()[0].name == "Lena"
        if table.session is not None:
            assert table.session.seats[0].name == "Lena" and table.session.seats[0].role is None
    finally:
        table.exit()


def test_a_name_given_on_a_phone_is_there_when_the_game_continues(tmp_path, monkeypatch):
    """A phone named its seat, then the table closed before the next move: the
    autosave still held the setup's default ("Player 1"), and the continued game
    called the seat so again. The name is saved at once."""
    from game import store
    from game.turn.seats import seats_from_setup

    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    app = T.make_app((960, 600), lang="en")
    setup = {"players": 3, "seats": [{"name": "", "human": True, "phone": True},
                                     {"name": "", "human": True},
                                     {"name": "", "human": True}]}   # nobody moves
    table = app.open("table", game_id="chase", seats=seats_from_setup(setup, "en"), seed=5,
                     options=LOOPBACK)
    room = table.phones
    assert table.session is not None and table.session.autosave
    moves = len(table.game.moves)

    async def name_it() -> None:
        async with phone_session() as session:
            line = await Line(session, f"http://127.0.0.1:{room.server.port}/ws").open()
            await line.send({"type": "hello", "token": room.server.access.tokens[0]})
            await line.until(lambda m: m["type"] == "welcome")
            await line.send({"type": "name", "name": "Lena"})
            await line.until(lambda m: m["type"] == "named")
            await line.close()

    try:
        asyncio.run(name_it())
        for _ in range(20):
            T.frame(app)
        assert table.names.name(0) == "Lena" and len(table.game.moves) == moves
    finally:
        table.exit()
    saved, problem = store.read_autosave()
    assert problem is None and saved is not None
    assert (saved.record.seats[0].name, saved.record.seats[0].role) == ("Lena", None)
    resumed = T.make_app((960, 600), lang="en").scene("continue", record=saved.record,
                                                     saved=saved.session)
    try:
        assert resumed.names.name(0) == "Lena"
    finally:
        resumed.exit()


class _Holding(_InThread):
    """A phone that connects at ``seat`` and holds its line, deciding nothing, until
    the ``with`` block ends: then the line closes (the phone is gone again)."""

    def __init__(self, table, seat: int) -> None:
        super().__init__()
        self.table, self.seat = table, seat

    async def _run(self) -> None:
        room = self.table.phones
        async with phone_session() as session:
            line = await Line(session, f"http://127.0.0.1:{room.server.port}/ws").open()
            await line.send({"type": "hello", "token": room.server.access.tokens[self.seat]})
            while not self.done.is_set():
                await asyncio.sleep(0.02)
            await line.close()


def _plate_texts(app, table, seat: int) -> list[str]:
    """The texts drawn on ``seat``'s plate in one frame."""
    from tests.screen_check import recording

    plate = table.table_layout.plate_rect(seat)
    with recording(app) as frame:
        app.draw()
    return [frame.shortened.get(s, s) for s, r in frame.texts if plate.contains(r)]


def _frames_until(app, done: Callable[[], bool], frames: int = 20000) -> None:
    for _ in range(frames):
        if done():
            return
        T.frame(app)
    raise AssertionError("never came")


def test_a_phone_that_is_gone_is_said_on_its_plate_at_once():
    """Rams' plates show a playing seat's tricks where a phone seat's note says the
    phone is away: a phone gone during the tricks was not seen to be gone until its
    turn came and the table asked. Now the plate says so at once, in amber, and stops
    the moment the phone is back."""
    app = T.make_app((1280, 720))
    seats = _seats(["phone", "medium", "medium"])
    table = app.open("table", game_id="rams", seats=seats, seed=3, options=LOOPBACK)
    try:
        link, m = table.phones.link, table.model
        link.away_after = 0.0                     # nobody connects: a computer stands in
        T.key(app, pygame.K_RETURN)               # close the join panel
        _frames_until(app, lambda: table.away_seat == 0)
        T.click_button(app, table.away_prompt.buttons[1])     # "Computer plays"
        # until the phone's seat plays a round's tricks (its plate counts them)
        _frames_until(app, lambda: 0 in m.players and 0 in m.tricks)
        link.away_after = 3600.0
        assert t("table.phone_stand_in") in _plate_texts(app, table, 0)
        with _Holding(table, 0):                  # the phone is back
            _frames_until(app, lambda: 0 in link.connected)
            T.frame(app)
            shown = _plate_texts(app, table, 0)
            tricks = t("rams.tricks", n=m.tricks[0])
            assert tricks in shown and not {t("table.phone_away"),
                                            t("table.phone_stand_in")} & set(shown), shown
        _frames_until(app, lambda: 0 not in link.connected)     # and gone again
        shown = _plate_texts(app, table, 0)
        assert t("table.phone_away") in shown, shown
    finally:
        table.exit()
