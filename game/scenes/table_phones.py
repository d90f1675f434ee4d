"""The phone room at the table scene: the join panel with the seats' codes, the
"Phones" button (F2), the prompt for a phone that went away, and the room itself
(:class:`game.net.room.PhoneRoom`: its server started with the table, pumped every
frame, closed when the table goes).

The table scene holds one :class:`TablePhones` and asks it; at a table without phone
seats it holds one with no room, and every answer is "nothing to do". While another
screen covers the table (the pause menu, the settings or rules opened from it, the
privacy screen) the phones are still served (:class:`ServedWhileCovered`), and while
the pause menu is among those screens they are told that the table is paused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from game import fileio
from game.i18n import t
from game.turn.hooks import Hooks
from game.turn.workers import Worker
from game.view.phones import AwayPrompt, JoinPanel
from game.view.widgets import Button

if TYPE_CHECKING:
    from game.net.room import PhoneRoom

#: The computer level that plays for an away phone when the table is told so.
STAND_IN = "medium"
#: The screen that pauses the table (``game.scenes.pause.PauseScene.name``); the
#: settings and rules opened from it lie over it, so it stays in the stack.
PAUSE = "pause"


class CannotListen(ValueError):
    """The phone seats' server could not open its port; the message is the player's,
    in their language, ready for a notice."""


def start_room(game: Any, seats: Sequence[dict[str, Any]], hooks: Hooks, *,
               bind: str | None, on_name: Callable[[int, str], None],
               saving: Callable[[], bool] | None = None) -> PhoneRoom:
    """The phone seats' server, listening; a port it cannot open is a
    :class:`CannotListen` (the setup screen shows it as a toast)."""
    from game.net.room import PhoneRoom  # aiohttp only for a phone table

    try:
        return PhoneRoom(game, seats, hooks, bind=bind, on_name=on_name,
                         saving=saving).start()
    except OSError as exc:
        raise CannotListen(t("phones.cannot_listen", error=fileio.explain(exc))) from exc


class TablePhones:
    """What a table with phone seats adds to the screen; ``room`` is None at a table
    without them. ``play`` sounds a cue; a phone that stays away may be played by the
    level :data:`STAND_IN` of ``game_id``, thinking in ``worker``."""

    def __init__(self, room: PhoneRoom | None, play: Callable[[str], None], game_id: str,
                 worker: Worker) -> None:
        self.room = room
        self._play = play
        self._game_id = game_id
        self._worker = worker
        self.showing = room is not None     # the join panel, at first
        self._seen = False
        self.away_seat: int | None = None   # a phone seat the table asks about
        self._due: Callable[[], None] | None = None   # waits for the table to be clear
        self.join_panel = JoinPanel(self._hide, self._renew)
        self.away_prompt = AwayPrompt(self._wait, self._stand_in, STAND_IN)
        self.button = Button(lambda: t("phones.button"), self.show,
                             name="phones", hotkey=pygame.K_F2, hint="F2")

    @property
    def sources(self) -> dict[int, Any] | None:
        """The phone seats' move sources for the turn flow (None: no phone seats)."""
        return self.room.sources if self.room is not None else None

    def covering(self) -> bool:
        """The join panel or the away prompt lies over the table."""
        return self.showing or self.away_seat is not None

    def away(self, seat: int) -> bool:
        """``seat`` is a phone seat whose phone is not connected now (closed, asleep,
        out of battery): its plate says so at once, not only when its turn comes."""
        room = self.room
        return room is not None and seat in room.sources and seat not in room.link.connected

    def tag(self, seat: int) -> str:
        """The plate's note for a phone seat: "phone", or away, or a computer playing."""
        assert self.room is not None
        if not self.away(seat):
            return t("table.phone")
        return t("table.phone_stand_in" if self.room.sources[seat].standing_in
                 else "table.phone_away")

    def when_clear(self, then: Callable[[], None]) -> None:
        """Run ``then`` (open the privacy screen) now, or once nothing of the phones
        covers the table: at a table with people at the screen and phones, the privacy
        screen would hide the join codes the phones' players are scanning."""
        if self.covering():
            self._due = then
        else:
            then()

    # ------------------------------------------------------------------ the buttons

    def show(self) -> None:
        if self.room is not None:
            self._play("click")
            self.showing = True

    def _hide(self) -> None:
        self._play("click")
        self.showing = False

    def _renew(self, seat: int) -> None:
        if self.room is not None:
            self._play("click")
            self.room.renew(seat)

    def _wait(self) -> None:
        if self.room is not None and self.away_seat is not None:
            self.room.link.keep_waiting(self.away_seat)
        self.away_seat = None

    def _stand_in(self) -> None:
        from game.ai.registry import make_player
        from game.turn.sources import LevelSource

        seat = self.away_seat
        self.away_seat = None
        if self.room is None or seat is None:
            return
        self.room.link.stand_in(seat, LevelSource(make_player(self._game_id, STAND_IN),
                                                  self._worker, name=STAND_IN))

    # ------------------------------------------------------------------ every frame

    def update(self, held: bool = False) -> None:
        """Every frame the table is on top; ``held``: it holds a round's reveal."""
        room = self.room
        if room is None:
            return
        room.link.pause(False)               # the table is on top: nothing pauses it
        room.link.hold(held)
        room.pump()
        if self.showing and room.all_connected() and not self._seen:
            self._seen = True                # everybody is in: the table comes forward
            self.showing = False
        if self.away_seat is None and not self.showing:
            self.away_seat = room.link.overdue()
            if self.away_seat is not None:
                self.away_prompt.list.focus = 0     # a new question: Wait first
        elif self.away_seat is not None and self.away_seat in room.link.connected:
            self.away_seat = None            # back before anybody answered
        if self._due is not None and not self.covering():
            then, self._due = self._due, None
            then()

    def tend(self, paused: bool = False) -> bool:
        """The table is covered (:class:`ServedWhileCovered`): serve the phones all the
        same -- a phone that (re)connects gets its state, a name is taken, the coach
        asked -- and a move the engine will accept waits in its seat's source for the
        turn flow, which takes it when the table runs again (docs/phone.md#a-covered-table).
        The join panel and the away question wait for the table; True when a phone
        said something. ``paused``: the pause menu is among the screens over the
        table, and the phones' state says so (``table.paused``); the privacy screen
        alone is another person's turn, not a pause."""
        if self.room is None:
            return False
        self.room.link.pause(paused)         # first: a phone arriving now is told
        return self.room.pump() > 0

    def layout(self, menu: pygame.Rect, hint: pygame.Rect, u: float) -> None:
        """The button beside the menu's; it comes first in the top bar, so the hint
        button (``hint``, moved in place) follows it."""
        self.button.rect = menu.move(menu.width + int(12 * u), 0)
        if self.room is not None:
            hint.left = self.button.rect.right + int(10 * u)

    def handle(self, ev: pygame.event.Event) -> bool | None:
        """Whether the phones took ``ev``; None lets it through to the table. The
        prompt and the panel hold every event while they are up."""
        if self.room is None:
            return None
        if self.away_seat is not None:
            return self.away_prompt.handle(ev) or ev.type in (pygame.MOUSEBUTTONDOWN,
                                                              pygame.KEYDOWN)
        if self.showing:
            return self.join_panel.handle(ev)
        if self.button.pressed(ev):
            self.show()
            return True
        return None

    def draw(self, surf: pygame.Surface, u: float, name: Callable[[int], str]) -> None:
        room = self.room
        if room is None:
            return
        self.button.draw(surf, u, False)
        if self.showing:
            self.join_panel.draw(surf, u, room.seat_links(), room.base, room.code,
                                 local_only=room.base.startswith("127."))
        elif self.away_seat is not None:
            self.away_prompt.draw(surf, u, name(self.away_seat))

    def close(self) -> None:
        if self.room is not None:
            self.room.close()

    def hand_over(self) -> PhoneRoom | None:
        """The room, for the next game at the same seats (*Play again*); this table
        then no longer has it, and closing the table leaves it open."""
        room, self.room = self.room, None
        return room.hand_over() if room is not None else None


class ServedWhileCovered:
    """The table scene's :meth:`game.scenes.base.Scene.tend`: while a screen lies over
    the table, only that screen updates, and the game stands still (no animation, no
    computer thinking, no move applied), but the phones do not wait for it to close:
    a pause may last minutes, and a phone whose messages go unanswered looks broken."""

    phone_room: TablePhones
    app: Any

    def tend(self) -> bool:
        return self.phone_room.tend(
            paused=any(s.name == PAUSE for s in self.app.stack))
