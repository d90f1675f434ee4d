"""Notices for the player from code that has no screen: a save that failed, a folder
the game cannot use, statistics that are not recorded.

Anything (settings, the store, a game session) calls :func:`post` with a locale key
and its parameters; the window (``game.app``) drains the queue every frame and shows
each notice translated, over whatever scene is on top. A notice with a ``once`` tag
is shown only the first time that tag is posted (``"save:<game id>"``: one notice per
game, not one per move). Nothing here imports pygame; posting is thread-safe.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

#: Notices nobody drained are dropped oldest first beyond this many.
MAX_PENDING = 32


@dataclass(frozen=True)
class Notice:
    """A message for the player: a locale key and the values it is formatted with."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


_lock = threading.Lock()
_pending: deque[Notice] = deque(maxlen=MAX_PENDING)
_seen: set[str] = set()


def post(key: str, *, once: str | None = None, covers: Iterable[str] = (),
         **params: Any) -> bool:
    """Queue a notice; False (and nothing queued) if its ``once`` tag was seen before.

    ``covers`` are further tags this notice already speaks for (a folder that cannot
    be used covers the ``save`` and ``stats`` failures that follow from it).
    """
    with _lock:
        if once is not None:
            if once in _seen:
                return False
            _seen.add(once)
        _seen.update(covers)
        _pending.append(Notice(key, dict(params)))
    return True


def seen(tag: str) -> bool:
    """True once a notice with this ``once`` (or ``covers``) tag was posted."""
    with _lock:
        return tag in _seen


def drain() -> list[Notice]:
    """Every notice posted since the last call, oldest first."""
    with _lock:
        out = list(_pending)
        _pending.clear()
    return out


def pending() -> list[Notice]:
    """The queued notices, without taking them (tests)."""
    with _lock:
        return list(_pending)


def reset() -> None:
    """Forget queued notices and ``once`` tags (a new window; tests)."""
    with _lock:
        _pending.clear()
        _seen.clear()


__all__ = ["Notice", "drain", "pending", "post", "reset", "seen"]
