"""The replay viewer: a record played on the normal table, with play / pause / step /
speed / restart controls over its bottom bar.

The table is the game's own table scene, built like any other (``app.scene("table",
...)``) with options: every seat's move source is the record
(:class:`game.turn.sources.RecordSource`, gated by the pause and step buttons), the
pacing is the viewer's (a pause between moves, none while stepping; its speed button
scales time), no records are kept and the finished game stays on the table. Each
recorded move goes through the engine exactly as in a real game. The viewer never
passes input to the table, so nothing can be decided by hand.

Opened with ``at`` (a move's index) it starts paused just before that move, caught up
quietly, and with ``viewer`` it shows that seat's cards as that seat saw them (the
game review's jump to a decision).

The heading ("Replay: " and the title, such as the review's decision) shares its row
with the move count; a heading too long for it goes on in the rows below (the panel
grows upwards) rather than being cut short.
"""

from __future__ import annotations

from typing import Any

import pygame

from game import store
from game.i18n import t
from game.records import Record, RecordError, new_engine
from game.replaying import rebuild_light
from game.rules.base import GameError
from game.scenes.base import Scene
from game.turn.flow import Pacing
from game.turn.options import STAY, TableOptions
from game.turn.sources import RecordSource
from game.view import text, timing, widgets
from game.view.keys import key_buttons, key_name
from game.view.widgets import Button, FocusList

SPEEDS = (0.5, 1.0, 2.0, 4.0)
#: rows the heading may take (the first beside the move count) before it is shortened
HEAD_ROWS = 3


class ReplayScene(Scene):
    name = "replay"

    def __init__(self, app, record: Record, title: str = "", at: int | None = None,
                 viewer: int | None = None) -> None:
        super().__init__(app)
        self.record = record
        self.title = title
        self.at = at if at is not None and 0 <= at <= len(record.moves) else None
        self.viewer = viewer if viewer is not None and 0 <= viewer < len(record.seats) \
            else None
        self.error: str | None = None
        self.playing = True
        self.speed_i = 1
        self.step_target: int | None = None
        self.table: Any = None
        self.grid = False       # the controls in two rows (where the hand lies below)
        self.head_lines: list[str] = []   # the heading, wrapped (laid out with the panel)
        self.list = FocusList([
            Button(self._play_label, self.toggle, name="play", hotkey=pygame.K_SPACE),
            Button(lambda: t("replay.step"), self.step, name="step", hotkey=pygame.K_RIGHT,
                   hint=key_name(pygame.K_RIGHT)),
            Button(lambda: t("replay.speed", x=self._speed_text()), self.faster,
                   name="speed"),
            Button(lambda: t("replay.restart"), self.restart, name="restart"),
        ], horizontal=True)
        self.rekey()
        self.back_button = Button(lambda: t("replay.back"), self.back, name="back",
                                  hint="Esc")
        self.restart()

    def rekey(self) -> None:
        """Speed and restart keyed by a letter of their labels in the language
        (``key.replay.<button>``: S *Speed* and R *Restart*, German T *Tempo* and V
        *Von vorn*); play and step keep Space and →, Space shown by its name in the
        language (German *Leer*)."""
        key_buttons([b for b in self.list.buttons if b.name in ("speed", "restart")],
                    "key.replay.")
        for b in self.list.buttons:
            if b.name == "play":
                b.hint = key_name(pygame.K_SPACE)

    # ------------------------------------------------------------------ the table

    def _make_table(self) -> Any:
        rec = self.record
        humans = [i for i, s in enumerate(rec.seats) if s.type == "human"]
        viewer = self.viewer if self.viewer is not None else (
            humans[0] if len(humans) == 1 else None)
        start = None
        if self.at:      # caught up quietly to just before move ``at``
            start = (Record(rec.game, rec.seats, rec.rules, rec.dealer, rec.seed,
                            rec.bot_seed, rec.deals, rec.moves[:self.at]), {})
        options = TableOptions(
            keep_records=False, resume=start,
            sources={i: RecordSource(rec.moves, self._gate) for i in range(len(rec.seats))},
            viewer=viewer,
            bottom=viewer if viewer is not None else (humans[0] if humans else 0),
            pacing=self._pacing, anim_speed=self._anim_speed, after_game=STAY,
            menu_key="replay.back", fast_forward=False, tips=False)
        return self.app.scene("table", game_id=rec.game, seats=store.seats_from_record(rec),
                              rules=dict(rec.rules),
                              seed=rec.seed if rec.seed is not None else 0,
                              game=new_engine(rec), options=options)

    def restart(self) -> None:
        try:
            rebuild_light(self.record)      # checked, without holding every round
            table = self._make_table()
        except (RecordError, GameError, ValueError) as exc:
            self.error = str(getattr(exc, "message", exc))
            self.table = None
            return
        old = self.table
        self.table = table
        if old is not None:
            old.exit()
        self.playing = True
        self.step_target = self.at     # a jump plays up to that move, then pauses
        self.at = None                 # Restart starts from the beginning
        table.enter()
        self._size = (0, 0)

    def _anim_speed(self) -> str:
        """A replay always animates (its own speed button scales time instead); tests
        that switch animations off see it all at once."""
        off = self.app.settings["anim_speed"] == "off" and self.app.ai_sync
        return "off" if off else "normal"

    def _pacing(self) -> Pacing:
        return Pacing(think=0.0 if self.step_target is not None else timing.REPLAY_THINK,
                      over_hold=timing.END_HOLD, instant=self._anim_speed() == "off")

    @property
    def done_moves(self) -> int:
        return len(self.table.game.moves) if self.table is not None else 0

    @property
    def finished(self) -> bool:
        tb = self.table
        return tb is None or (self.done_moves >= len(self.record.moves) and not tb.queue
                              and not tb.anim.busy)

    def _gate(self, step: int) -> bool:
        """May the recorded move at ``step`` be played now?"""
        return self.step_target is None or step < self.step_target

    # ------------------------------------------------------------------ controls

    def _play_label(self) -> str:
        return t("replay.pause") if self.playing and not self.finished else t("replay.play")

    def _speed_text(self) -> str:
        x = SPEEDS[self.speed_i]
        return f"{x:g}×"

    def toggle(self) -> None:
        self.app.play("click")
        if self.finished:
            self.restart()
            return
        self.playing = not self.playing
        self.step_target = None

    def step(self) -> None:
        if self.table is None or self.done_moves >= len(self.record.moves):
            return
        self.step_target = self.done_moves + 1
        self.playing = True

    def faster(self) -> None:
        self.speed_i = (self.speed_i + 1) % len(SPEEDS)

    def back(self) -> None:
        self.app.play("click")
        if self.app.top is self:
            self.app.pop()

    # ------------------------------------------------------------------ scene

    def exit(self) -> None:
        if self.table is not None:
            self.table.exit()

    def busy(self) -> bool:
        return self.table is not None and self.playing and not self.finished

    def update(self, dt: float) -> None:
        tb = self.table
        if tb is None or not self.playing:
            return
        tb.update(dt * SPEEDS[self.speed_i])
        if self.step_target is not None and self.done_moves >= self.step_target \
                and not tb.queue and not tb.anim.busy:
            self.step_target = None
            self.playing = False
        if self.finished and tb.state in ("over", "done") and not tb.anim.moving:
            self.playing = False

    def count_label(self) -> str:
        """The move count: while it plays, the moves made ("Move 16 of 30"); paused
        with a move still to come, that move ("Before move 17 of 30"), the number the
        game review gives the decision a jump opens at, counted from 1 like it."""
        total = len(self.record.moves)
        done = self.done_moves
        tb = self.table
        if not self.playing and done < total and tb is not None and not tb.queue \
                and not tb.anim.busy:
            return t("replay.before", n=done + 1, total=total)
        return t("replay.move", n=done, total=total)

    def _head_size(self) -> int:
        return max(11, int(20 * self.u))

    def _wrap_head(self, panel_w: int) -> list[str]:
        """The heading in rows: the first beside the move count (as wide as the count
        gets: the last move, the end; empty where not even a word fits there, as in
        the narrow panel of a Rams table), the rest below it across the panel. A
        heading is carried on to the next row rather than cut short; only one longer
        than ``HEAD_ROWS`` rows is."""
        u, fs = self.u, self._head_size()
        head = t("replay.banner") + (f": {self.title}" if self.title else "")
        total = len(self.record.moves)
        widest = max(t("replay.move", n=total, total=total) + "  ·  " + t("replay.end"),
                     t("replay.before", n=total, total=total),
                     key=lambda s: text.size_of(s, fs)[0])
        avail = max(10, panel_w - int(24 * u))
        beside = avail - text.size_of(widest, fs)[0] - int(16 * u)
        words = head.split(" ")
        k = 0
        while k < len(words) and text.size_of(" ".join(words[:k + 1]), fs, True)[0] <= beside:
            k += 1
        rest = " ".join(words[k:])
        lines = [" ".join(words[:k])] + (text.wrap(rest, fs, avail, True) if rest else [])
        return text.clamp(lines, fs, avail, HEAD_ROWS, True)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        # the buttons' height: the replay's controls, or the message's Back
        bh = int(max(26, 40 * u)) if self.table is not None else int(max(26, 46 * u))
        if self.table is not None:
            self.table.ensure_layout(size)
            g = self.table.table_layout.geo
            height = bh + int(max(30, 46 * u))
            hp, lp = g.hand_panel, g.log_panel
            moves_area = getattr(g, "actions", None)
            self.grid = False
            if hp is not None and lp.left - hp.right > 300 * u:
                left, right = hp.right + int(12 * u), lp.left - int(12 * u)
                bottom = hp.bottom
            elif moves_area is not None:
                # a table whose hand lies in the bottom centre (Rams): the controls
                # take the place of the move buttons, which a replay never offers
                self.grid = True
                height += bh + int(8 * u)
                left, right, bottom = moves_area.left, moves_area.right, moves_area.bottom
            else:   # neither: the bottom centre
                pw = int(min(w * 0.7, 820 * u))
                left, right, bottom = (w - pw) // 2, (w + pw) // 2, h - int(10 * u)
            self.head_lines = self._wrap_head(right - left)
            height += (len(self.head_lines) - 1) * (self._head_size() + int(3 * u))
            self.panel = pygame.Rect(left, bottom - height, right - left, height)
        else:
            # the message's panel grows with the message, up to the window's height
            self.grid = False
            pw = int(min(w * 0.8, 700 * u))
            lh = self._error_font()[1]
            lines = len(self._error_lines(pw))
            need = int(20 * u) + lines * lh + int(16 * u) + bh + int(16 * u)
            self.panel = pygame.Rect(0, 0, pw, max(int(200 * u), min(need, h - int(20 * u))))
            self.panel.center = (w // 2, h // 2)
        buttons = self.list.buttons
        gap = int(8 * u)
        rows = [buttons[:2], buttons[2:]] if self.grid else [buttons]
        per_row = max(len(r) for r in rows)
        bw = int(min(190 * u, (self.panel.width - int(16 * u) - (per_row - 1) * gap)
                     / per_row))
        for i, row in enumerate(reversed(rows)):
            widgets.layout_row(row, self.panel.centerx,
                               self.panel.bottom - int(8 * u) - bh // 2 - i * (bh + gap),
                               bw, bh, gap)
        if self.grid:
            # Play's label and its key's name (*Abspielen* and *Leer*) want more room
            # than Step and its ">"
            play, step = rows[0]
            more = int(bw * 0.2)
            play.rect.width += more
            step.rect.left += more
            step.rect.width -= more
        self.back_button.rect = pygame.Rect(0, 0, int(min(w * 0.5, 240 * u)), bh)
        self.back_button.rect.midbottom = (w // 2, self.panel.bottom - int(16 * u))

    def _error_font(self) -> tuple[int, int]:
        """The size and line height of the message about a record that cannot be
        replayed."""
        fs = max(12, int(24 * self.u))
        return fs, int(fs * 1.15)

    def _error_lines(self, panel_width: int) -> list[str]:
        """That message, wrapped to a panel ``panel_width`` wide."""
        return text.wrap(t("replay.bad", error=self.error or "?"), self._error_font()[0],
                         panel_width - int(40 * self.u))

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
            return True
        if self.table is None:
            if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                    self.back_button.rect.collidepoint(ev.pos):
                self.back()
            elif ev.type == pygame.KEYDOWN and ev.key in widgets.ACTIVATE:
                self.back()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self.table.menu_button.rect.collidepoint(ev.pos):
            self.back()
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RIGHT, pygame.K_PERIOD):
            self.step()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_SPACE:
            self.toggle()
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_LEFT, pygame.K_UP,
                                                    pygame.K_DOWN, pygame.K_TAB):
            return self.list.handle_event(ev)
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self.list.activate(self.list.focus)
        self.list.handle_event(ev)
        return True

    def draw(self, surf: pygame.Surface) -> None:
        u = self.u
        w, h = surf.get_size()
        if self.table is None:
            surf.blit(self.app.background(), (0, 0))
            widgets.panel(surf, self.panel, u)
            fs, lh = self._error_font()
            top = self.panel.top + int(20 * u)
            room = (self.back_button.rect.top - int(12 * u) - top) // lh
            lines = text.clamp(self._error_lines(self.panel.width), fs,
                               self.panel.width - int(40 * u), room)
            for i, line in enumerate(lines):
                text.blit(surf, line, fs, (self.panel.centerx, top + i * lh), widgets.CREAM,
                          "midtop")
            self.back_button.draw(surf, u, True)
            return
        self.table.draw(surf)
        widgets.panel(surf, self.panel, u, 255)    # opaque: nothing of the table shows through
        total = len(self.record.moves)
        done = self.done_moves
        label = self.count_label()
        if self.finished and self.table.state in ("over", "done"):
            label += "  ·  " + t("replay.end")
        fs = self._head_size()
        y = self.panel.top + int(6 * u)
        text.blit(surf, label, fs, (self.panel.right - int(12 * u), y), widgets.CREAM,
                  "topright")
        for line in self.head_lines:
            if line:
                text.blit(surf, line, fs, (self.panel.left + int(12 * u), y), widgets.GOLD,
                          "topleft", True)
            y += fs + int(3 * u)
        bar = pygame.Rect(self.panel.left + int(12 * u), y, self.panel.width - int(24 * u),
                          max(3, int(6 * u)))
        if bar.bottom < min(b.rect.top for b in self.list.buttons):
            pygame.draw.rect(surf, (40, 52, 46), bar, border_radius=bar.height // 2)
            fill = bar.copy()
            fill.width = int(bar.width * done / max(1, total))
            if fill.width:
                pygame.draw.rect(surf, widgets.GOLD, fill, border_radius=bar.height // 2)
        self.list.draw(surf, u)
