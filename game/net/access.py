"""Who may act for which seat: per-seat tokens, the guests' join code, and the limits
that keep a device from guessing them or flooding the table.

A phone seat's token is the secret in its join link (``/p/<token>``): whoever holds
it plays that seat, and nobody else can. Tokens are drawn from the operating system's
secure random source (:mod:`secrets`), 12 characters of an alphabet without look-alike
letters (about 59 bits: short enough to type from the table's screen, far too many
to guess when every wrong try counts against the device, see :class:`Attempts`). The
join code lets a guest pick a free phone seat and type a name.
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
    a guest may only claim a seat nobody has taken. Owned by the server's thread once
    the server runs; the tokens never change.
    """

    tokens: dict[int, str]
    code: str
    claimed: set[int] = field(default_factory=set)

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


class Attempts:
    """Wrong tokens and join codes per device address: after ``limit`` wrong tries
    within ``window`` seconds the address is locked until the oldest try expires."""

    def __init__(self, limit: int = 20, window: float = 60.0,
                 clock: Clock = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._fails: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        now = self.clock()
        q = self._fails.setdefault(address, deque())
        while q and now - q[0] > self.window:
            q.popleft()
        if not q:
            self._fails.pop(address, None)
        return q

    def locked(self, address: str) -> bool:
        return len(self._recent(address)) >= self.limit

    def failed(self, address: str) -> None:
        self._recent(address)
        self._fails.setdefault(address, deque()).append(self.clock())


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
