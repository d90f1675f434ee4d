"""The phone server's limits on their own: deep messages, the connection gate, the
lockout, the one-line log, the exact Host, the choice of address, and the files and
tables read before anybody can use up the file descriptors (no sockets here;
``tests/test_phone_abuse.py`` tries the same through real ones)."""

from __future__ import annotations

import builtins
import errno
import io
import logging
import pathlib
import random
from typing import Any

import pytest

from game.net import addresses, gate, page, protocol
from game.net.access import Attempts, SeatAccess, same_name
from game.net.addresses import Interface
from game.net.gate import GUEST, PENDING, SEAT, Gate, Limits
from game.net.http import HostNames, page_csp
from game.net.protocol import Refused
from game.net.quiet import OneLineFilter, Quiet, one_line
from tests.phone_helpers import ManualClock

# --------------------------------------------------------------------------- messages


@pytest.mark.parametrize("text", ["[" * 4096, "{" * 4000, '{"a":' * 800,
                                  "[" * 9 + "]" * 9, '{"type": "ping", "x": [[[[[[[[[1]]]]]]]]]}'])
def test_deep_messages_are_refused_with_a_code(text):
    with pytest.raises(Refused) as e:
        protocol.parse(text)
    assert e.value.code == "too_deep"
    assert e.value.as_message()["detail"] == {"limit": protocol.MAX_DEPTH}


def test_brackets_inside_strings_do_not_count():
    msg = protocol.parse('{"type": "claim", "code": "abc", "seat": 1, "name": "[[[[[[[[[[\\"{{{{{{{{{"}')
    assert msg["name"].startswith("[[[[")
    assert protocol.depth('{"a": "\\\\", "b": [[1]]}') == 3


def test_random_text_is_refused_with_a_code_never_an_exception():
    rng = random.Random(27)
    alphabet = '[]{}",:\\ \x00aé1e-.tnufl'
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 300)))
        try:
            protocol.parse(text)
        except Refused as r:
            assert r.code in protocol.CODES
    # a bracket flood of every size up to the message limit
    for n in (10, 100, 1000, 4096):
        for opener in "[{":
            with pytest.raises(Refused):
                protocol.parse(opener * n)


# --------------------------------------------------------------------------- the gate


class Closed:
    """What the gate closed, and why."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []

    def __call__(self, name: str) -> Any:
        return lambda reason: self.log.append((name, reason))


def test_one_address_keeps_its_newest_connections_and_never_a_seat():
    clock = ManualClock()
    g = Gate(Limits(per_address=3, total=100, grace=1.0), clock)
    closed = Closed()
    seat = g.opened("10.0.0.5", closed("seat"))
    g.become(seat, PENDING)
    g.become(seat, SEAT)
    c = [g.opened("10.0.0.5", closed(f"c{i}")) for i in range(3)]
    clock.now += 2
    g.opened("10.0.0.5", closed("new"))
    # the oldest idle one gave way; the seat is not counted and never closed
    assert closed.log == [("c0", gate.EVICTED)]
    assert g.of_address("10.0.0.5") == 3 and g.count(SEAT) == 1
    # an idle request goes first, then a WebSocket waiting for hello, then a busy
    # request; one younger than the grace never ("new" had no time to send anything)
    g.become(c[1], PENDING)
    g.begin(c[2])
    g.opened("10.0.0.5", closed("n2"))
    assert closed.log[-1] == ("c1", gate.EVICTED)
    clock.now += 2
    g.opened("10.0.0.5", closed("n3"))
    g.opened("10.0.0.5", closed("n4"))
    g.opened("10.0.0.5", closed("n5"))
    assert closed.log[-3:] == [("new", gate.EVICTED), ("n2", gate.EVICTED),
                               ("c2", gate.EVICTED)]
    assert not seat.closed and g.of_address("10.0.0.5") == 3


def test_a_flood_of_new_connections_is_refused_not_the_ones_that_had_no_time_yet():
    clock = ManualClock()
    g = Gate(Limits(per_address=4, total=100, grace=1.0), clock)
    closed = Closed()
    phone = g.opened("10.0.0.5", closed("phone"))       # has not sent its request yet
    for i in range(50):
        g.opened("10.0.0.5", closed(f"flood{i}"))
    assert not phone.closed
    refused = [n for n, r in closed.log if r == gate.REFUSED]
    assert len(refused) == 47 and g.of_address("10.0.0.5") == 4
    assert g.closed == {gate.REFUSED: 47}


def test_a_connection_that_said_nothing_gives_way_sooner():
    clock = ManualClock()
    g = Gate(Limits(per_address=2, total=100, grace=1.0, silent_grace=0.25), clock)
    closed = Closed()
    talker = g.opened("10.0.0.5", closed("talker"))
    talker.spoke = True                  # its request is on its way
    g.opened("10.0.0.5", closed("silent"))
    clock.now += 0.5
    g.opened("10.0.0.5", closed("phone"))
    assert closed.log == [("silent", gate.EVICTED)] and not talker.closed


def test_all_addresses_together_stay_under_the_total():
    clock = ManualClock()
    g = Gate(Limits(per_address=8, total=10, grace=0.0, silent_grace=0.0), clock)
    closed = Closed()
    for i in range(40):            # a device that changes its address every time
        g.opened(f"10.1.{i // 4}.{i % 4 + 1}", closed(f"rot{i}"))
    assert g.count() == 10
    for i in range(3):
        g.opened("192.168.1.20", closed(f"phone{i}"))
    # the oldest give way: the phone keeps all three
    assert g.count() == 10 and g.of_address("192.168.1.20") == 3
    assert [n for n, _ in closed.log[-3:]] == ["rot30", "rot31", "rot32"]


def test_deadlines_close_what_waits_too_long():
    clock = ManualClock()
    lim = Limits(http_idle=15, request_deadline=30, hello_deadline=10, guest_deadline=300)
    g = Gate(lim, clock)
    closed = Closed()
    idle = g.opened("10.0.0.5", closed("idle"))
    busy = g.opened("10.0.0.5", closed("busy"))
    g.begin(busy)
    ws = g.opened("10.0.0.6", closed("ws"))
    g.become(ws, PENDING)
    guest = g.opened("10.0.0.7", closed("guest"))
    g.become(guest, PENDING)
    g.become(guest, GUEST)
    seat = g.opened("10.0.0.8", closed("seat"))
    g.become(seat, SEAT)
    clock.now += 9
    assert g.sweep() == 0
    clock.now += 2
    assert g.sweep() == 1 and closed.log == [("ws", gate.IDLE)]
    clock.now += 5
    g.sweep()
    assert ("idle", gate.IDLE) in closed.log and idle.closed and not busy.closed
    clock.now += 20
    g.sweep()
    assert ("busy", gate.IDLE) in closed.log and not guest.closed
    clock.now += 300
    g.sweep()
    assert ("guest", gate.IDLE) in closed.log and not seat.closed
    assert g.count() == 1


def test_guests_are_bounded_the_oldest_goes():
    clock = ManualClock()
    g = Gate(Limits(guests=3, guests_per_address=2), clock)
    closed = Closed()
    for i in range(3):
        c = g.opened("10.0.0.5", closed(f"a{i}"))
        g.become(c, GUEST)
    assert closed.log == [("a0", gate.GUESTS)]
    for i in range(2):
        c = g.opened(f"10.0.0.{6 + i}", closed(f"b{i}"))
        g.become(c, GUEST)
    assert g.count(GUEST) == 3 and closed.log[-1] == ("a1", gate.GUESTS)


def test_the_budget_follows_the_descriptor_limit(monkeypatch):
    resource = pytest.importorskip("resource")
    monkeypatch.setattr(resource, "getrlimit", lambda which: (256, 4096))
    monkeypatch.setattr(gate, "open_descriptors", lambda: 20)
    b = gate.connection_budget(keep=4)
    # what remains after those open, the reserve, the seats and four accept batches
    assert b.backlog == 29 and b.total == 256 - 20 - gate.RESERVE - 4 - 4 * 29
    monkeypatch.setattr(resource, "getrlimit", lambda which: (100_000, 100_000))
    assert gate.connection_budget().total == gate.MAX_TOTAL


# --------------------------------------------------------------------------- lockout


def test_wrong_codes_lock_an_address_and_then_everybody():
    clock = ManualClock()
    at = Attempts(limit=3, window=60, overall=10, clock=clock)
    for _ in range(3):
        assert not at.locked("10.0.0.7")
        at.failed("10.0.0.7", "code")
    assert at.locked("10.0.0.7") and not at.locked("10.0.0.8")
    for i in range(7):                    # a device that changes its address each time
        at.failed(f"10.9.0.{i}", "code")
    assert at.locked("10.0.0.8") and at.locked("192.168.1.2")
    clock.now += 61
    assert not at.locked("10.0.0.7") and not at.locked("10.0.0.8")


def test_wrong_tokens_only_slow_down_and_never_lock():
    clock = ManualClock()
    at = Attempts(limit=3, window=60, overall=10, clock=clock)
    for _ in range(50):
        at.failed("10.0.0.7", "token")
    assert at.slowed("10.0.0.7") and not at.locked("10.0.0.7")
    assert at.slowed("10.0.0.8")          # 50 > overall: everybody's wrong tokens wait
    clock.now += 61
    assert not at.slowed("10.0.0.7")


def test_a_claimed_seat_gets_a_token_of_its_own():
    a = SeatAccess.new([0, 1, 2])
    link = a.tokens[1]
    token = a.claim(1)
    assert token != link and a.seat_of(token) == 1 and a.seat_of(link) is None
    assert 1 in a.claimed and a.free() == [0, 2]


@pytest.mark.parametrize("a,b,same", [("Phone 1", "phone 1", True), ("Mia", " mia ", True),
                                      ("Anna  Lena", "anna lena", True), ("Mia", "Mio", False)])
def test_names_that_look_the_same_are_the_same(a, b, same):
    assert same_name(a, b) is same


# --------------------------------------------------------------------------- the log


def test_quiet_lets_a_few_lines_through_and_counts_the_rest():
    clock = ManualClock()
    lines: list[str] = []

    class Sink(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    logger = logging.getLogger("test.quiet")
    logger.propagate = False
    logger.addHandler(Sink())
    q = Quiet(logger, burst=3, window=60, clock=clock)
    for _ in range(1000):
        q.say("http", "bad request", ValueError("x\ny"))
    assert lines == ["bad request: ValueError: x y"] * 3
    clock.now += 61
    q.say("http", "bad request")
    assert lines[-1] == "bad request (997 more like this held back)"
    assert len(one_line("x" * 1000)) == 200


def test_the_one_line_filter_drops_the_traceback():
    clock = ManualClock()
    logger = logging.getLogger("test.oneline")
    logger.propagate = False
    got: list[logging.LogRecord] = []

    class Sink(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            got.append(record)

    logger.addHandler(Sink())
    logger.addFilter(OneLineFilter(Quiet(logger, burst=2, clock=clock)))
    for _ in range(10):
        try:
            raise RuntimeError("boom\nwith a second line")
        except RuntimeError:
            logger.exception("Error handling request from %s", "10.0.0.1")
    assert len(got) == 2
    for r in got:
        assert r.exc_info is None and "\n" not in r.getMessage()
        assert r.getMessage() == ("phone server: Error handling request from 10.0.0.1: "
                                  "RuntimeError: boom with a second line")


# --------------------------------------------------------------------------- Host


def test_the_host_must_be_exactly_ours_port_included():
    names = HostNames(["127.0.0.1", "192.168.1.5"], 8765)
    assert names.match("127.0.0.1:8765") == "127.0.0.1:8765"
    assert names.match("192.168.1.5:8765") == "192.168.1.5:8765"
    assert names.match("LOCALHOST:8765") == "localhost:8765"
    for junk in ("127.0.0.1", "127.0.0.1:80", "127.0.0.1:8766", "192.168.1.6:8765",
                 "localhost", "evil.example:8765", "127.0.0.1:8765 *", "127.0.0.1:8765;",
                 "[::1]:8765", "", None, "127.0.0.1:8765" + " " * 100):
        assert names.match(junk) is None, junk
    assert HostNames(["::1"], 80).match("[::1]") == "[::1]:80"
    csp = page_csp("127.0.0.1:8765")
    assert "ws://127.0.0.1:8765;" in csp and "*" not in csp


# --------------------------------------------------------------------------- addresses


def _fake_linux(tmp_path: pathlib.Path) -> pathlib.Path:
    net = tmp_path / "sys" / "class" / "net"
    for name, hardware in (("lo", False), ("wlan0", True), ("eth0", True), ("tun0", False),
                           ("docker0", False), ("veth1", False)):
        (net / name).mkdir(parents=True)
        if hardware:
            (net / name / "device").mkdir()
    (tmp_path / "proc" / "net").mkdir(parents=True)
    (tmp_path / "proc" / "net" / "route").write_text(
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        # the VPN takes the main route (two halves and a default at metric 50)
        "tun0\t00000000\t0100080A\t0003\t0\t0\t50\t00000000\t0\t0\t0\n"
        "wlan0\t00000000\t01B2A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
        "wlan0\t00B2A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n"
        "docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n")
    return tmp_path


ADDRS = {"lo": "127.0.0.1", "wlan0": "192.168.178.23", "eth0": None, "tun0": "10.8.0.2",
         "docker0": "172.17.0.1", "veth1": None}


def test_the_main_address_is_the_network_cards_not_the_vpns(tmp_path):
    found = addresses.linux_interfaces(_fake_linux(tmp_path), ADDRS.get)
    assert {i.name: (i.address, i.physical, i.route) for i in found} == {
        "lo": ("127.0.0.1", False, None), "wlan0": ("192.168.178.23", True, 600),
        "tun0": ("10.8.0.2", False, 50), "docker0": ("172.17.0.1", False, None)}
    choices = addresses.lan_choices(found)
    assert [i.address for i in choices] == ["192.168.178.23", "10.8.0.2", "172.17.0.1"]
    assert choices[0].label() == "192.168.178.23 (wlan0)"


def test_by_default_the_server_listens_on_loopback_and_the_main_address_only(monkeypatch):
    monkeypatch.setattr(addresses, "interfaces", lambda: [
        Interface("10.8.0.2", "tun0", False, 50), Interface("172.17.0.1", "docker0", False),
        Interface("192.168.178.23", "wlan0", True, 600), Interface("127.0.0.1", "lo", False)])
    hosts = addresses.listen_hosts()
    assert hosts == ["127.0.0.1", "192.168.178.23"]
    assert addresses.public_host(hosts) == "192.168.178.23"     # the QR codes' address
    assert addresses.lan_addresses() == ["192.168.178.23", "10.8.0.2", "172.17.0.1"]
    assert addresses.listen_hosts("10.8.0.2") == ["10.8.0.2"]   # the others when asked


def test_without_a_description_of_the_devices_the_main_route_comes_first(monkeypatch):
    found = [Interface("192.168.0.4", route=0), Interface("10.0.0.9")]
    assert [i.address for i in addresses.lan_choices(found)] == ["192.168.0.4", "10.0.0.9"]


# --------------------------------------------------------------------------- no files later


def _no_more_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on every file open fails as when the descriptors ran out."""
    def emfile(*a: Any, **k: Any) -> Any:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(builtins, "open", emfile)
    monkeypatch.setattr(io, "open", emfile)
    monkeypatch.setattr(pathlib.Path, "read_text", emfile)
    monkeypatch.setattr(pathlib.Path, "read_bytes", emfile)


def test_the_page_and_the_images_are_read_before_any_request(monkeypatch):
    from game.net.server import PhoneServer

    page._files.clear()
    PhoneServer(SeatAccess.new([0]), bind="127.0.0.1").start().stop()
    _no_more_files(monkeypatch)
    assert page.page() is not None and page.page_file("phone.js") is not None
    for card_set, cards in page.CARD_SETS.items():
        for c in cards:
            assert page.card_image(card_set, c) is not None, (card_set, c)
    assert page.back_image("back_2") is not None and page.icon() is not None


@pytest.mark.parametrize("game_id,levels", [
    ("chase", ["medium", "hard", "expert", "easy", "medium", "hard"]),
    ("rams", ["medium", "hard", "expert", "easy"])])
def test_computers_play_a_whole_game_without_opening_a_file(monkeypatch, game_id, levels):
    """A level opened the solved table of a table size when that size first came up
    (a seat out, mid-game): with no descriptor left, ``medium`` lost its move."""
    from game import games
    from game.ai import chase_tables
    from game.ai.registry import make_player

    for fn in (chase_tables.load_table, chase_tables.fallback_table, chase_tables.table_n,
               chase_tables.base_threshold, chase_tables._hard_lookup):
        fn.cache_clear()
    players = [make_player(game_id, lv) for lv in levels]
    _no_more_files(monkeypatch)
    game = games.new_game(game_id, {"lives": 2} if game_id == "chase" else {"counters": 8},
                          len(levels), seed=5)
    game.start()
    sizes = set()
    while not game.finished:
        p = game.to_move()
        view = game.view(p.seat)
        sizes.add(len(view.get("active", ())))
        game.apply(p.seat, players[p.seat].choose(view))
    assert game.finished
    if game_id == "chase":
        assert len(sizes) >= 3            # the table got smaller during the game
