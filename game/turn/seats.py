"""A table's seats: names from the setup screen, and the move source of every seat.

A seat is a dict ``{"name", "human", "level"}`` (``level``: a player name of the
game, e.g. ``hard``, or ``bot:PATH`` for a user bot).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game import i18n
from game.drawable import drawable_name
from game.i18n import t
from game.turn.sources import BotSource, HumanSource, LevelSource, MoveSource
from game.turn.workers import Worker


def seats_from_setup(setup: dict[str, Any], lang: str | None = None) -> list[dict[str, Any]]:
    """The seats of a setup (``players``, ``seats``): default names in ``lang`` for
    empty ones (also for a name of characters the table cannot draw, emoji say, kept
    in the settings), every name unique so the log stays readable."""
    out = []
    n = setup["players"]
    for i in range(n):
        s = setup["seats"][i]
        default, role = default_name(setup, i, lang)
        name = drawable_name(s.get("name") or "")[:16].strip()   # what the table draws
        seat = {"name": name or default, "human": bool(s.get("human")),
                "level": s.get("level", "medium")}
        if not name and role:
            seat["role"] = role
        if s.get("phone") and s.get("human"):
            seat["phone"] = True             # a person holding the cards on a phone
            if not name:                     # its phone may choose the name (once)
                seat["open_name"] = True
        out.append(seat)
    seen: dict[str, int] = {}
    for s in out:
        k = s["name"]
        if k in seen:
            seen[k] += 1
            s["name"] = f"{k} {seen[k]}"
        else:
            seen[k] = 1
    return out


def default_name(setup: dict[str, Any], i: int, lang: str | None = None
                 ) -> tuple[str, str | None]:
    """The name seat ``i`` of a setup has when none is typed (in ``lang``), and its
    role: the first seat, a person, is "You" alone at the screen and "Player 1" among
    several people, kept as a role (game.records.ROLES) so that it follows the language."""
    from game.settings import DEFAULT_NAMES

    names = DEFAULT_NAMES.get(lang or i18n.get_lang(), DEFAULT_NAMES["en"])
    s = setup["seats"][i]
    if i or not s.get("human"):
        return (names[i] if i else "Otto"), None
    people = sum(1 for x in setup["seats"][:setup["players"]] if x.get("human"))
    if people > 1:
        return t("setup.player_n", n=1), "player"
    return names[0], "you"


def demo_seats(players: int, levels: Sequence[str]) -> list[dict[str, Any]]:
    """Computers only, every level in turn (the attract mode)."""
    from game.settings import DEFAULT_NAMES

    names = DEFAULT_NAMES["en"][1:] + ["Otto"]
    return [{"name": names[i], "human": False, "level": levels[i % len(levels)]}
            for i in range(players)]


def sources_for(game_id: str, seats: Sequence[dict[str, Any]],
                worker: Worker, given: Mapping[int, MoveSource] | None = None
                ) -> dict[int, MoveSource]:
    """A move source for every seat: a person at this screen, a level, or a user bot
    (``bot:PATH``), all thinking in ``worker``; ``given`` names sources made elsewhere
    (a phone seat's). An unknown player name raises ``ValueError``; a bot file that
    does not load raises ``game.ai.bots.BotError``."""
    from game.ai.registry import make_player

    out: dict[int, MoveSource] = {}
    for i, s in enumerate(seats):
        if given is not None and i in given:
            out[i] = given[i]
            continue
        if s.get("human"):
            out[i] = HumanSource()
            continue
        level = str(s.get("level", "medium"))
        player = make_player(game_id, level)
        cls = BotSource if level.startswith("bot:") else LevelSource
        out[i] = cls(player, worker, name=level)
    return out
