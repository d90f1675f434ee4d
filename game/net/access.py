"""Who may act for which seat: per-seat tokens, the guests' join code, and the limits
that keep a device from guessing them or flooding the table.

A phone seat's token is the secret in its join link (``/p/<token>``): whoever holds
it plays that seat, and nobody else can. Tokens are drawn from the operating system's
secure random source (:mod:`secrets`), 12 characters of an alphabet without look-alike
letters (about 59 bits: short enough to type from the table's screen, far too many
to guess: a million guesses a second would need 9,000 years on average). The join
code lets a guest pick a free phone seat and type a name; a seat a guest claims gets
a new token that only the guest's phone learns (the seat's link on the table's screen
stops working), so the seat is the guest's alone. The same holds for a seat's owner:
the link on the screen opens the seat once, and the phone that opened it gets a new
token of its own (:meth:`SeatAccess.join`). The screen shows every seat's link at
once, so a link that kept working would let anyone at the table type in another
seat's address, see its hand and play for it. A player whose phone is lost for good
gets a new link on the screen (:meth:`SeatAccess.renew`).

The join code is short (6 characters, about 30 bits), so wrong codes lock: see
:class:`Attempts`. Wrong tokens only slow the device down; the right token is never
locked out, so a phone is never kept from its seat by another device that shares its
address (a guest network, a hotspot) and guesses.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

#: Lower case (phones type it that way), no 0/o, 1/i/l.
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
TOKEN_LEN = 12
CODE_LEN = 6

Clock = Callable[[], float]


def new_secret(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalise(text: str) -> str:
    """A typed token or code as stored: lower case, without spaces or dashes."""
    return text.strip().lower().replace("-", "").replace(" ", "")


@dataclass
class SeatAccess:
    """The phone seats of one table: ``tokens[seat]`` and the join ``code``.

    ``claimed`` holds the seats a device has taken (by their link or the join code);
    a guest may only claim a seat nobody has taken, and the link of a claimed seat
    works no more: its token is the device's alone. Owned by the server's thread once
    the server runs.
    """

    tokens: dict[int, str]
    code: str
    claimed: set[int] = field(default_factory=set)
    #: seats a guest claimed with the join code (their link tokens no longer work)
    by_guest: set[int] = field(default_factory=set)
    #: seat -> (its link's token, the address that opened it): that phone may not have
    #: heard its new token (the line fell before ``welcome`` came), so the link still
    #: opens the seat from that address, and from no other
    opened: dict[int, tuple[str, str]] = field(default_factory=dict)

    @classmethod
    def new(cls, seats: Iterable[int]) -> SeatAccess:
        tokens: dict[int, str] = {}
        used: set[str] = set()
        for seat in seats:
            token = new_secret(TOKEN_LEN)
            while token in used:  # pragma: no cover - 59 bits make this theoretical
                token = new_secret(TOKEN_LEN)
            used.add(token)
            tokens[seat] = token
        return cls(tokens, new_secret(CODE_LEN))

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is (compared in constant time), else ``None``."""
        given = normalise(token).encode()
        found = None
        for seat, mine in self.tokens.items():
            if hmac.compare_digest(given, mine.encode()):
                found = seat
        return found

    def code_ok(self, code: str) -> bool:
        return hmac.compare_digest(normalise(code).encode(), self.code.encode())

    def free(self, connected: Iterable[int] = ()) -> list[int]:
        """Phone seats nobody has taken yet."""
        busy = self.claimed | set(connected)
        return [s for s in sorted(self.tokens) if s not in busy]

    def claim(self, seat: int) -> str:
        """A guest takes ``seat``: a new token, the guest's alone, replaces the seat's
        link token (whoever scans the seat's code on the screen now is refused)."""
        token = self._new_token(seat)
        self.claimed.add(seat)
        self.by_guest.add(seat)
        return token

    def join(self, seat: int, address: str) -> str:
        """The seat's owner opened its link from ``address``: a new token, that
        phone's alone, replaces the one the screen shows (whoever types the seat's
        address in now is refused, unless from ``address``: :meth:`reopened`)."""
        self.opened[seat] = (self.tokens[seat], address)
        token = self._new_token(seat)
        self.claimed.add(seat)
        return token

    def reopened(self, token: str, address: str) -> int | None:
        """The seat whose link this was, opened before from ``address``, else None."""
        given = normalise(token).encode()
        found = None
        for seat, (link, where) in self.opened.items():
            if hmac.compare_digest(given, link.encode()) and where == address:
                found = seat
        return found

    def renew(self, seat: int) -> str:
        """A new link for ``seat`` (its phone was lost): the token of the device that
        held the seat works no more, and the screen may show the new one until a
        phone opens it."""
        token = self._new_token(seat)
        self.claimed.discard(seat)
        self.by_guest.discard(seat)
        self.opened.pop(seat, None)
        return token

    def _new_token(self, seat: int) -> str:
        token = new_secret(TOKEN_LEN)
        while token in self.tokens.values():  # pragma: no cover - 59 bits
            token = new_secret(TOKEN_LEN)
        self.tokens[seat] = token
        return token


def same_name(a: str, b: str) -> bool:
    """Whether two seat names would look the same at the table."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


class _Window:
    """Times of recent events, forgotten after ``window`` seconds."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def count(self, now: float, window: float) -> int:
        q = self.times
        while q and now - q[0] > window:
            q.popleft()
        return len(q)


class Attempts:
    """Wrong tokens and join codes, per device address and for all addresses together.

    Join codes: after ``limit`` wrong tries from one address within ``window`` seconds
    that address is locked (``locked``) until the oldest try is older than the window;
    after ``overall`` wrong codes from all addresses together (a device that changes its
    address for every try) codes are locked for everybody the same way. Codes are
    not checked while locked, so a lock stops the guessing.

    Tokens are never locked: :meth:`slowed` tells when a wrong one is answered late
    (and its line closed) because its address, or everybody together, sent too many.
    """

    def __init__(self, limit: int = 20, window: float = 60.0, overall: int = 100,
                 clock: Clock = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.overall = overall
        self.clock = clock
        self._codes: dict[str, _Window] = {}
        self._tokens: dict[str, _Window] = {}
        self._all_codes = _Window()
        self._all_tokens = _Window()

    def _count(self, book: dict[str, _Window], address: str) -> int:
        w = book.get(address)
        if w is None:
            return 0
        n = w.count(self.clock(), self.window)
        if not n:
            del book[address]
        return n

    def locked(self, address: str) -> bool:
        """Join codes from ``address`` are not checked now."""
        return (self._count(self._codes, address) >= self.limit
                or self._all_codes.count(self.clock(), self.window) >= self.overall)

    def slowed(self, address: str) -> bool:
        """Wrong tokens from ``address`` are answered late now."""
        return (self._count(self._tokens, address) >= self.limit
                or self._all_tokens.count(self.clock(), self.window) >= self.overall)

    def failed(self, address: str, what: str = "code") -> None:
        """A wrong ``code`` or ``token`` from ``address``."""
        book, everyone = ((self._codes, self._all_codes) if what == "code"
                          else (self._tokens, self._all_tokens))
        self._count(book, address)
        now = self.clock()
        book.setdefault(address, _Window()).times.append(now)
        everyone.times.append(now)
        if len(book) > 4096:         # a flood of addresses: forget the quietest
            for key in [k for k, w in book.items() if len(w.times) <= 1][:1024]:
                del book[key]


class RateLimit:
    """A token bucket for one connection: ``burst`` messages at once, then ``rate``
    a second. :meth:`take` says whether one more message may pass now."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0,
                 clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.level = burst
        self.stamp = clock()
        #: messages refused in a row (a connection that keeps flooding is closed)
        self.over = 0

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1.0:
            self.level -= 1.0
            self.over = 0
            return True
        self.over += 1
        return False
