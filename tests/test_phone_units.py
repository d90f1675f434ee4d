"""The phone table's parts on their own: message checks, tokens and limits, addresses,
the files served, and the table link's answers (with a stand-in server, no sockets)."""

from __future__ import annotations

import json
import queue
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import games
from game.net import access, addresses, lines, page, protocol
from game.net.access import Attempts, RateLimit, SeatAccess
from game.net.link import PhoneLink
from game.net.protocol import Refused
from game.net.server import Inbound
from game.turn.sources import Decision
from tests.phone_helpers import ManualClock

# --------------------------------------------------------------------------- protocol


def test_parse_keeps_only_the_checked_fields():
    m = protocol.parse('{"type": "move", "id": "a-1", "step": 3, "move": "QS", "seat": 4}')
    assert m == {"type": "move", "id": "a-1", "step": 3, "move": "QS"}
    assert protocol.parse('{"type": "hello", "token": "abc", "lang": "xx"}')["lang"] is None
    assert protocol.parse('{"type": "claim", "code": "c", "seat": 1, "name": " Ann\\u0007 "}'
                          )["name"] == "Ann"


@pytest.mark.parametrize("text,code", [
    ("nope", "malformed"), ("[]", "malformed"), ("null", "malformed"),
    ('{"type": 5}', "unknown_type"), ('{"kind": "move"}', "unknown_type"),
    ('{"type": "move", "id": "a b", "step": 1, "move": "keep"}', "bad_field"),
    ('{"type": "move", "id": "a", "step": true, "move": "keep"}', "bad_field"),
    ('{"type": "move", "id": "a", "step": 1, "move": "<script>"}', "bad_field"),
    ('{"type": "hello", "token": ""}', "bad_field"),
    ('{"type": "claim", "code": "c", "seat": 1, "name": "   "}', "bad_field"),
    ('{"type": "claim", "code": "c", "seat": -1, "name": "A"}', "bad_field"),
    ('{"type": "ping", "x": "' + "y" * protocol.MAX_MESSAGE + '"}', "too_big"),
])
def test_parse_refuses_bad_messages(text, code):
    with pytest.raises(Refused) as e:
        protocol.parse(text)
    assert e.value.code == code
    assert e.value.as_message()["type"] == "refused"


# --------------------------------------------------------------------------- access


def test_tokens_are_distinct_secret_and_typed_case_insensitively():
    a = SeatAccess.new([0, 2, 5])
    assert len(set(a.tokens.values())) == 3
    assert all(re.fullmatch(f"[{access.ALPHABET}]{{{access.TOKEN_LEN}}}", t)
               for t in a.tokens.values())
    assert a.seat_of(a.tokens[2].upper()) == 2
    assert a.seat_of(a.tokens[2][:-1]) is None and a.seat_of("") is None
    assert a.code_ok(a.code.upper()[:3] + "-" + a.code[3:]) and not a.code_ok("zzzzzz")
    a.claimed.add(0)
    assert a.free(connected={5}) == [2]


def test_wrong_tries_lock_an_address_for_a_while():
    clock = ManualClock()
    at = Attempts(limit=3, window=60, clock=clock)
    for _ in range(3):
        assert not at.locked("10.0.0.7")
        at.failed("10.0.0.7")
    assert at.locked("10.0.0.7") and not at.locked("10.0.0.8")
    clock.now += 61
    assert not at.locked("10.0.0.7")


def test_rate_limit_allows_a_burst_then_the_rate():
    clock = ManualClock()
    r = RateLimit(rate=2, burst=4, clock=clock)
    assert [r.take() for _ in range(6)] == [True] * 4 + [False] * 2
    assert r.over == 2
    clock.now += 1.0
    assert [r.take() for _ in range(3)] == [True, True, False]


# --------------------------------------------------------------------------- receipts


@pytest.mark.parametrize("payload", [
    b"", b"step", b"step ", b"step -1", b"step +3", b"step 3 ", b" step 3", b"step 03",
    b"step 3x", b"STEP 3", b"step \xd9\xa3", b"step \xff", b"step 1e3", b"step 3.0",
    b"step 1234567890", b"step " + b"9" * 200, b"\x00" * 125, "step 3", 3, None,
])
def test_a_pong_that_is_not_the_servers_confirms_nothing(payload):
    assert lines.ponged_step(payload, 10**9) is None


@given(st.binary(max_size=140), st.integers(-1, 10**6))
def test_no_pong_claims_a_step_it_was_not_pinged_for(payload, pinged):
    step = lines.ponged_step(payload, pinged)
    assert step is None or 0 <= step <= pinged
    assert step is None or lines.ping_for(step) == payload     # only the server's spelling


@given(st.integers(0, 10**6), st.integers(-1, 10**6))
def test_a_pong_confirms_the_step_its_ping_carried(step, pinged):
    payload = lines.ping_for(step)
    assert len(payload) <= 125                      # a control frame's payload
    for kind in (bytes, bytearray, memoryview):
        assert lines.ponged_step(kind(payload), pinged) == (step if step <= pinged else None)


def test_receipts_keep_each_seats_highest_confirmed_step():
    r = lines.Receipts()
    line = lines.Line(1, None, "10.0.0.2", RateLimit(1, 1))   # type: ignore[arg-type]
    line.pinged = 5
    r.pong(line, lines.ping_for(5))                 # not seated: nobody's receipt
    assert r.step(0) == -1
    line.seat = 0
    for payload in (lines.ping_for(6), b"", b"step 99", lines.ping_for(4)):
        r.pong(line, payload)                       # a step not sent yet, garbage, a low one
    assert r.step(0) == 4
    r.pong(line, lines.ping_for(5))
    r.pong(line, lines.ping_for(2))                 # a late pong takes nothing back
    assert r.step(0) == 5 and r.step(1) == -1


# --------------------------------------------------------------------------- addresses


@pytest.mark.parametrize("addr,ok", [
    ("127.0.0.1", True), ("10.2.3.4", True), ("172.20.1.1", True), ("192.168.178.23", True),
    ("169.254.10.1", True), ("::1", True), ("fe80::1%eth0", True), ("fd12::5", True),
    ("::ffff:192.168.0.9", True), ("8.8.8.8", False), ("172.32.0.1", False),
    ("100.64.0.1", False), ("192.0.2.1", False), ("0.0.0.0", False), ("2001:db8::1", False),
    ("", False), ("localhost", False),
])
def test_only_local_network_addresses_count(addr, ok):
    assert addresses.allowed_peer(addr) is ok


def test_listening_on_a_public_address_is_refused():
    with pytest.raises(ValueError):
        addresses.listen_hosts("8.8.8.8")
    with pytest.raises(ValueError):
        addresses.listen_hosts("0.0.0.0")
    assert addresses.listen_hosts("127.0.0.1") == ["127.0.0.1"]
    hosts = addresses.listen_hosts()
    assert hosts[0] == "127.0.0.1" and all(addresses.is_local(h) for h in hosts)


# --------------------------------------------------------------------------- files


def test_the_page_is_small_and_only_known_files_are_served():
    assert page.page() is not None
    size = page.page_size()
    assert 0 < size < 200 * 1024, size
    assert page.page_file("phone.js") is not None
    for name in ("../pyproject.toml", "index.html", "phone.py", "", "%2e%2e"):
        assert page.page_file(name) is None
    assert page.card_image("classic", "AS").content_type == "image/png"
    assert page.card_image("cuckoo", "Fool") is not None
    for s, n in (("classic", "Fool"), ("cuckoo", "AS"), ("../cards", "AS"),
                 ("classic", "../../README")):
        assert page.card_image(s, n) is None
    assert page.back_image("back_1") is not None and page.back_image("felt") is None


# --------------------------------------------------------------------------- the link


class FakeServer:
    """What the link needs of the server: an inbox, and what it would send."""

    def __init__(self) -> None:
        self.inbox: queue.SimpleQueue[Inbound] = queue.SimpleQueue()
        self.out: list[tuple[int, dict[str, Any]]] = []
        self.history: list[Any] = []
        self.names: list[str] = []

    def send(self, seat: int, message: dict[str, Any], *, state: bool = False) -> None:
        self.out.append((seat, json.loads(json.dumps(message))))

    def send_history(self, first: int, rounds: list[Any]) -> None:
        del self.history[first:]
        self.history += rounds

    def set_names(self, names: list[str], defaults: Any = None) -> None:
        self.names = list(names)

    def said(self, seat: int, kind: str) -> list[dict[str, Any]]:
        return [m for s, m in self.out if s == seat and m["type"] == kind]


def _link(clock: ManualClock | None = None, **kw: Any) -> tuple[Any, PhoneLink, FakeServer]:
    game = games.new_game("chase", None, 3, seed=9)
    game.start()
    srv = FakeServer()
    link = PhoneLink(game, [0, 1, 2], ["A", "B", "C"], srv,  # type: ignore[arg-type]
                     clock=clock or ManualClock(), **kw)
    return game, link, srv


def _apply_from_source(game: Any, link: PhoneLink) -> str | None:
    p = game.to_move()
    src = link.sources[p.seat]
    src.begin(Decision(p.seat, p, game.view(p.seat), len(game.moves)))
    move = src.poll()
    if move is not None:
        game.apply(p.seat, move)
        link.applied(p.seat, move)
    return move


def test_a_move_is_checked_answered_once_and_repeats_get_the_same_answer():
    game, link, srv = _link()
    p = game.to_move()
    move = {"type": "move", "id": "t1", "step": 0, "move": p.legal[0]}
    srv.inbox.put(Inbound("move", p.seat, move))
    srv.inbox.put(Inbound("move", p.seat, move))            # sent twice before the answer
    link.pump()
    assert srv.said(p.seat, "ack") == []                    # not applied yet: no answer
    assert _apply_from_source(game, link) == p.legal[0]
    srv.inbox.put(Inbound("move", p.seat, move))            # and again after it
    link.pump()
    acks = srv.said(p.seat, "ack")
    assert len(acks) == 2 and acks[0] == acks[1] and len(game.moves) == 1
    assert game.to_move().seat != p.seat or game.moves[-1] == (p.seat, p.legal[0])


def test_phones_coming_and_going_send_the_others_a_few_states_not_one_each():
    """Whoever holds one seat's token could open and close lines as fast as the
    network allows: each hello and each close sent every other phone a state, built
    in the table's loop (the audit counted 433 a second). The states that tell only of
    connections now go out at most every TOLD_EVERY seconds, and the last one tells
    how things stand."""
    from game.net.link import TOLD_EVERY

    clock = ManualClock()
    game, link, srv = _link(clock)
    link.publish()
    before = len(srv.said(1, "state"))
    for _ in range(200):                       # seat 0: 100 lines opened and closed
        srv.inbox.put(Inbound("connected", 0, {}))
        link.pump()
        srv.inbox.put(Inbound("disconnected", 0, {}))
        link.pump()
        clock.now += 0.001                     # 200 pumps in 0.2 s
    told = len(srv.said(1, "state")) - before
    assert 1 <= told <= 0.2 / TOLD_EVERY + 1, told
    srv.inbox.put(Inbound("connected", 0, {}))
    link.pump()
    clock.now += TOLD_EVERY
    link.pump()                                # nothing new: the last change is told
    assert srv.said(1, "state")[-1]["table"]["connected"] == [0]


def test_advice_asked_again_for_the_same_decision_is_not_worked_out_again(monkeypatch):
    """A phone may ask for the odds 20 times a second: each request, once the last was
    answered, set the coach working again on the same decision (a core kept busy by
    one phone). The advice given is sent again instead."""
    from game.ai import coach

    worked: list[int] = []

    def advise_view(view: dict[str, Any], level: str, samples: Any) -> dict[str, Any]:
        worked.append(view["seat"])
        return {"move": view["legal"][0], "options": {m: {"lose_life": 0.5}
                                                      for m in view["legal"]}}

    monkeypatch.setattr(coach, "advise_view", advise_view)
    game, link, srv = _link()
    p = game.to_move()
    for _ in range(3):
        srv.inbox.put(Inbound("advice", p.seat, {"type": "advice", "step": 0}))
        link.pump()
        if link._coach is not None:          # the coach's answer is in before the next
            link._coach.shutdown(wait=True)
            link._coach = None
    given = srv.said(p.seat, "advice")
    assert worked == [p.seat]
    assert len(given) == 3 and given[0] == given[1] == given[2]
    assert given[0]["step"] == 0 and given[0]["move"] == p.legal[0]


def test_refusals_carry_the_engines_reason_and_change_nothing():
    game, link, srv = _link()
    p = game.to_move()
    other = (p.seat + 1) % 3
    before = list(game.moves)
    for seat, mid, step, mv, code in ((other, "a", 0, p.legal[0], "not_your_turn"),
                                      (p.seat, "b", 0, "refuse", "not_offered"),
                                      (p.seat, "c", 0, "QX", "not_offered"),
                                      (p.seat, "d", 4, p.legal[0], "stale")):
        srv.inbox.put(Inbound("move", seat, {"type": "move", "id": mid, "step": step,
                                             "move": mv}))
        link.pump()
        r = srv.said(seat, "refused")[-1]
        assert (r["id"], r["code"]) == (mid, code)
    assert game.moves == before and link.waiting == {}
    assert _apply_from_source(game, link) is None           # nothing reached the source


def test_states_carry_the_seats_own_view_and_history_travels_once():
    game, link, srv = _link()
    link.publish()
    for seat in range(3):
        st = srv.said(seat, "state")[-1]
        view = game.view(seat)
        # the view but its history (sent apart) and seed (a program's, not a phone's)
        assert st["view"] == {**{k: v for k, v in view.items()
                                 if k not in ("history", "seed")}, "history_len": 0}
        assert st["table"]["names"] == ["A", "B", "C"] and st["table"]["to_move"] == \
            game.to_move().seat
    import random

    rng = random.Random(3)
    while len(game.history) < 2:
        p = game.to_move()
        m = rng.choice(p.legal)
        game.apply(p.seat, m)
        link.applied(p.seat, m)
    assert srv.history == game.view(0)["history"]


def test_an_away_phone_is_asked_about_then_stood_in_for_until_it_returns():
    clock = ManualClock()
    game, link, srv = _link(clock, away_after=30.0)
    p = game.to_move()
    for s in range(3):
        if s != p.seat:
            srv.inbox.put(Inbound("connected", s, {}))
    link.pump()
    assert link.overdue() is None                   # away, but not for long yet
    clock.now += 31
    assert link.overdue() == p.seat
    link.keep_waiting(p.seat)                       # "wait": asked again later
    assert link.overdue() is None
    clock.now += 31
    assert link.overdue() == p.seat

    class Stand:
        kind, name, paced = "level", "easy", True

        def __init__(self) -> None:
            self.begun = 0

        def begin(self, d: Any) -> None:
            self.begun += 1
            self.move = d.pending.legal[-1]

        def poll(self) -> str:
            return self.move

        def cancel(self) -> None:
            pass

    stand = Stand()
    link.stand_in(p.seat, stand)
    assert link.overdue() is None and srv.said(0, "state")[-1]["table"]["stand_in"] == [p.seat]
    assert _apply_from_source(game, link) == p.legal[-1] and stand.begun == 1
    srv.inbox.put(Inbound("connected", p.seat, {}))     # the phone is back
    link.pump()
    assert not link.sources[p.seat].standing_in
    assert srv.said(0, "state")[-1]["table"]["stand_in"] == []


def test_a_guest_name_reaches_the_table():
    heard = []
    game, link, srv = _link(on_name=lambda s, n: heard.append((s, n)))
    srv.inbox.put(Inbound("named", 1, {"name": "Mia"}))
    link.pump()
    assert heard == [(1, "Mia")] and srv.names[1] == "Mia"
    assert srv.said(0, "state")[-1]["table"]["names"][1] == "Mia"


# --------------------------------------------------------------------------- seat names


def test_host_names_the_seats_given_and_the_others_in_its_language():
    from game.net.host import HeadlessTable, parse_names

    kinds = ["phone", "phone", "medium", "phone"]
    assert parse_names("Anna,, Ben", kinds) == ["Anna", None, "Ben", None]
    for bad, why in (("a,b,c,d,e", "5 names for 4 seats"), ("Anna,ANNA ", "given twice"),
                     ("x" * 17, "longer than 16"), ("A\u0007nna", "cannot show")):
        with pytest.raises(ValueError, match=why):
            parse_names(bad, kinds)
    en = HeadlessTable("chase", kinds, names=["Anna"], lang="en", keep_records=False)
    de = HeadlessTable("chase", kinds, names=["Anna"], lang="de", keep_records=False)
    assert en.names == ["Anna", "Phone 2", "Medium 3", "Phone 4"]
    assert de.names == ["Anna", "Handy 2", "Mittel 3", "Handy 4"]
    # only a phone seat nobody named may name itself on its phone
    assert [bool(s.get("open_name")) for s in de.seats] == [False, True, False, True]
    assert de.server._names.renamable == {1, 3}
    # a default that looks like a given name is told apart
    assert HeadlessTable("chase", ["phone", "phone", "easy"], names=[None, "phone 1"],
                         lang="en", keep_records=False).names == ["Phone 1 2", "phone 1",
                                                                  "Easy 3"]


def test_host_refuses_bad_names_before_it_starts(capsys):
    from game.net import host

    assert host.main(["--seats", "phone,random,random", "--names", "Eva,eva"]) == 2
    assert "error: --names: 'eva' is given twice" in capsys.readouterr().err


def test_host_refuses_a_name_the_table_cannot_show(capsys):
    """``--names "Jörg 🍺"`` was taken, and the window's font drew the mug as a box
    while the phones showed it: such a name is refused before the table starts, as
    a phone's would lose the mug. A name typed decomposed ("o" and a combining
    diaeresis) is the same name composed."""
    from game.net import host

    kinds = ["phone", "phone", "medium"]
    for bad in ("Jörg \U0001F37A", "\U0001F37A", "\u5f20\u4f1f"):
        with pytest.raises(ValueError, match="cannot show"):
            host.parse_names(bad, kinds)
    assert host.parse_names("Jo\u0308rg,Anna  B", kinds) == ["Jörg", "Anna B", None]
    assert host.main(["--seats", "phone,random,random", "--names", "Eva \U0001F37A"]) == 2
    assert "has characters the table cannot show" in capsys.readouterr().err


def test_a_phone_seat_the_setup_left_unnamed_may_name_itself():
    from game.net.room import open_names
    from game.turn.seats import seats_from_setup

    setup = {"players": 3, "seats": [{"name": "", "human": True, "phone": True},
                                     {"name": "Jo", "human": True, "phone": True},
                                     {"name": "", "human": False, "level": "easy"}]}
    assert open_names(seats_from_setup(setup, "en")) == [0]


def test_the_phones_get_the_default_names_in_every_language():
    """The table sent its seats' names in its own language only: a page in English at
    a German table called the seats "Handy 2" and "Mittel 3" (``stammtisch host``) or
    "Spieler 1" (a setup's role), though the window says a role in its language. The
    facts hold every default name in every language; a name of its own has none."""
    from game.net.host import HeadlessTable
    from game.net.room import defaults
    from game.turn.seats import seats_from_setup

    de = HeadlessTable("chase", ["phone", "phone", "medium"], names=["Anna"], lang="de",
                       keep_records=False)
    assert de.names == ["Anna", "Handy 2", "Mittel 3"]
    facts = de.link.table_facts()
    assert facts["defaults"] == {"1": {"de": "Handy 2", "en": "Phone 2"},
                                 "2": {"de": "Mittel 3", "en": "Medium 3"}}
    # the guests' list of free seats says it too
    assert de.server._names.entry(1) == {"seat": 1, "name": "Handy 2",
                                         "local": {"de": "Handy 2", "en": "Phone 2"}}
    de.link.server.inbox.put(Inbound("named", 1, {"name": "Mia"}))
    de.link.pump()
    assert de.link.table_facts()["defaults"] == {"2": {"de": "Mittel 3", "en": "Medium 3"}}
    assert de.server._names.entry(1) == {"seat": 1, "name": "Mia", "local": {}}
    setup = {"players": 3, "seats": [{"name": "", "human": True, "phone": True},
                                     {"name": "", "human": True},
                                     {"name": "Jo", "human": False, "level": "easy"}]}
    assert defaults(seats_from_setup(setup, "de")) == {0: {"de": "Spieler 1",
                                                           "en": "Player 1"}}


def test_the_facts_say_who_went_out_of_a_sudden_death_round():
    """Three players tied in the final: the sudden-death round after it costs no
    lives, so ``last_lost`` is empty and the phones learnt nothing of who went out
    while the other two played on. ``last_out`` names them."""
    game = games.new_game("chase", {"lives": 1}, 3, seed=8, bot_seed=1)
    game.start()
    link = PhoneLink(game, [0, 1, 2], ["A", "B", "C"], FakeServer())  # type: ignore[arg-type]
    after: list[dict[str, Any]] = []             # the facts after each round
    while len(game.rounds) < 2:                  # the first move offered, every time
        p = game.to_move()
        game.apply(p.seat, game.legal_moves()[0])
        if len(game.rounds) > len(after):
            after.append(link.table_facts())
    tie, sudden = after
    assert tie["last_lost"] == {"0": 1, "1": 1, "2": 1} and tie["last_out"] == []
    assert sudden["last_lost"] == {} and sudden["last_out"] == [0] and not sudden["replayed"]
    assert not game.finished


def test_the_facts_say_whether_the_game_is_saved(home):
    """The phones said a game closed early "is saved" whether or not it was: the
    facts say so only while the session autosaves."""
    from game.net.host import HeadlessTable

    kept = HeadlessTable("chase", ["phone", "medium", "medium"], seed=3)
    assert kept.bookkeeper is not None and kept.link.table_facts()["saved"] is True
    kept.bookkeeper.session.autosave_off("the shelf is full")
    assert kept.link.table_facts()["saved"] is False
    assert HeadlessTable("chase", ["phone", "medium", "medium"], seed=3,
                         keep_records=False).link.table_facts()["saved"] is False
