"""Replays: watch a record on the normal table, and the list of games to watch.

:class:`ReplayScene` owns a table scene built from the record (every seat driven by
the record's moves, the table's own animations) and shows play / pause / step /
speed / restart controls over its bottom bar. It never passes input to the table, so
nothing can be decided by hand; the table still decides nothing itself either: each
recorded move goes through the engine exactly as in a real game.

:class:`ReplayListScene` lists the last finished games (statistics database) and the
record files in ``saves_dir()/exports`` and ``saves_dir()``; a file dropped on the
window opens too. ``open_table`` builds the right table for a record (Continue uses it).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pygame

from game import paths, store
from game.i18n import t
from game.records import Record, RecordError, load, new_engine, rebuild
from game.scenes.base import Scene
from game.view import text, widgets
from game.view.anim import Animator
from game.view.widgets import Button, FocusList

SPEEDS = (0.5, 1.0, 2.0, 4.0)
THINK = 0.45   # seconds between recorded moves at speed 1


TABLES = {"chase": ("game.scenes.table_chase", "ChaseTableScene"),
          "rams": ("game.scenes.table_rams", "RamsTableScene")}


class CatchUpAnimator(Animator):
    """The animator of a resumed table: no animation (and no sound) until the events
    of the saved moves are shown, then the player's own speed again."""

    def __init__(self, table: Any, speed: str) -> None:
        self.table = table
        self.catching_up = True
        super().__init__(speed)

    @property
    def speed(self) -> str:  # type: ignore[override]
        if self.catching_up and self.table.started and not self.table.queue:
            self.catching_up = False
        return "off" if self.catching_up else self._speed

    @speed.setter
    def speed(self, value: str) -> None:
        self._speed = value


def open_table(app, record: Record, saved_session: dict[str, Any] | None = None,
               keep: bool = True) -> Scene:
    """The table scene for ``record``: resumed where it stopped (``saved_session``: the
    autosave's session data), or at its start; ``keep=False``: no autosave and no
    statistics (replays)."""
    if record.game not in TABLES:
        raise RecordError(f"no table for game {record.game!r}", "bad_format")
    mod_name, cls_name = TABLES[record.game]
    cls = getattr(importlib.import_module(mod_name), cls_name)
    table = cls(app, store.seats_from_record(record), dict(record.rules),
                seed=record.seed if record.seed is not None else 0)
    table.game = new_engine(record)      # same rules and seats; the record's seed/deals
    table.keep_records = keep
    if keep and saved_session is not None:
        store.attach_session(table, record, saved_session)
        table.anim = CatchUpAnimator(table, app.settings["anim_speed"])
    return table


def open_replay_file(app, path: str | Path) -> bool:
    """Push a replay of the file at ``path``; a bad file is reported in a toast."""
    try:
        record = load(path)
        rebuild(record)
    except RecordError as exc:
        app.notify(t("replay.bad", error=f"{exc.kind}: {exc.message}"))
        return False
    app.push(ReplayScene(app, record, title=Path(path).name))
    return True


class RecordPlayer:
    """A 'computer player' that plays the record's next move."""

    def __init__(self, record: Record, game: Any) -> None:
        self.moves = record.moves
        self.game = game

    def choose(self, view: Any) -> str:
        k = len(self.game.moves)
        return self.moves[k][1] if k < len(self.moves) else view["legal"][0]


class ReplayScene(Scene):
    name = "replay"

    def __init__(self, app, record: Record, title: str = "") -> None:
        super().__init__(app)
        self.record = record
        self.title = title
        self.error: str | None = None
        self.playing = True
        self.speed_i = 1
        self.step_target: int | None = None
        self.table: Any = None
        self.list = FocusList([
            Button(self._play_label, self.toggle, name="play", hotkey=pygame.K_SPACE),
            Button(lambda: t("replay.step"), self.step, name="step", hotkey=pygame.K_RIGHT,
                   hint=">"),
            Button(lambda: t("replay.speed", x=self._speed_text()), self.faster,
                   name="speed", hotkey=pygame.K_f, hint="F"),
            Button(lambda: t("replay.restart"), self.restart, name="restart",
                   hotkey=pygame.K_r, hint="R"),
        ], horizontal=True)
        self.back_button = Button(lambda: t("replay.back"), self.back, name="back")
        self.restart()

    # ------------------------------------------------------------------ the table

    def restart(self) -> None:
        try:
            rebuild(self.record)
            table = open_table(self.app, self.record, keep=False)
        except (RecordError, ImportError, AttributeError) as exc:
            self.error = str(getattr(exc, "message", exc))
            self.table = None
            return
        n = len(self.record.seats)
        humans = [i for i, s in enumerate(self.record.seats) if s.type == "human"]
        table.players = {i: RecordPlayer(self.record, table.game) for i in range(n)}
        table.humans = []
        if hasattr(table, "viewer"):
            table.viewer = humans[0] if len(humans) == 1 else None
        table._finish_game = self._at_end          # no results screen, no demo restart
        table.plate_tag = lambda s: t("setup.human") if s in humans else None
        think = table._think

        def gated_think(dt: float, think=think) -> None:
            if self._gate():
                think(dt)

        table._think = gated_think
        table.open_pause = self.back
        table.menu_button = Button(lambda: t("replay.back"), self.back, name="menu",
                                   hint="Esc")
        old = self.table
        self.table = table
        if old is not None:
            old.exit()
        table._size = (0, 0)
        with self._replay_settings():
            table.enter()
        self.playing = True
        self.step_target = None
        self._size = (0, 0)

    def _at_end(self) -> None:
        if self.table is not None:
            self.table.state = "done"
        self.playing = False

    @contextmanager
    def _replay_settings(self) -> Iterator[None]:
        """The table reads animation speed and thinking pause from the settings: a
        replay always animates (its own speed control scales time instead)."""
        st = self.app.settings
        old = st["anim_speed"], st["think_pause"]
        st["anim_speed"] = "off" if old[0] == "off" and self.app.ai_sync else "normal"
        st["think_pause"] = 0.0 if self.step_target is not None else THINK
        try:
            yield
        finally:
            st["anim_speed"], st["think_pause"] = old

    @property
    def done_moves(self) -> int:
        return len(self.table.game.moves) if self.table is not None else 0

    @property
    def finished(self) -> bool:
        tb = self.table
        return tb is None or (self.done_moves >= len(self.record.moves) and not tb.queue
                              and not tb.anim.busy)

    def _gate(self) -> bool:
        """May the table apply its next (recorded) move now?"""
        if self.done_moves >= len(self.record.moves):
            return False      # a record of a game in progress ends here
        return self.step_target is None or self.done_moves < self.step_target

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
        if self.table.state == "thinking":
            self.table.think_left = 0.0

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
        with self._replay_settings():
            if self.step_target is not None and tb.state == "thinking":
                tb.think_left = 0.0
            tb.update(dt * SPEEDS[self.speed_i])
        if self.step_target is not None and self.done_moves >= self.step_target \
                and not tb.queue and not tb.anim.busy:
            self.step_target = None
            self.playing = False
        if self.finished and tb.state in ("over", "done") and not tb.anim.moving:
            self.playing = False

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        if self.table is not None:
            self.table.ensure_layout(size)
            g = self.table.geo
            bh = int(max(26, 40 * u))
            height = bh + int(max(30, 46 * u))
            hp, lp = g.get("hand_panel"), g.get("log_panel")
            if isinstance(hp, pygame.Rect) and isinstance(lp, pygame.Rect) \
                    and lp.left - hp.right > 300 * u:
                left, right = hp.right + int(12 * u), lp.left - int(12 * u)
                bottom = hp.bottom
            else:   # a table without Chase's bottom panels: the bottom centre
                pw = int(min(w * 0.7, 820 * u))
                left, right, bottom = (w - pw) // 2, (w + pw) // 2, h - int(10 * u)
            self.panel = pygame.Rect(left, bottom - height, right - left, height)
        else:
            self.panel = pygame.Rect(0, 0, int(min(w * 0.8, 700 * u)), int(200 * u))
            self.panel.center = (w // 2, h // 2)
        n = len(self.list.buttons)
        gap = int(8 * u)
        bw = int(min(190 * u, (self.panel.width - int(16 * u) - (n - 1) * gap) / n))
        bh = int(max(26, 40 * u)) if self.table is not None else int(max(26, 46 * u))
        widgets.layout_row(self.list.buttons, self.panel.centerx,
                           self.panel.bottom - int(8 * u) - bh // 2, bw, bh, gap)
        self.back_button.rect = pygame.Rect(0, 0, int(min(w * 0.5, 240 * u)), bh)
        self.back_button.rect.midbottom = (w // 2, self.panel.bottom - int(16 * u))

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
            msg = t("replay.bad", error=self.error or "?")
            fs = max(12, int(24 * u))
            lines = text.wrap(msg, fs, self.panel.width - int(40 * u))
            for i, line in enumerate(lines[:5]):
                text.blit(surf, line, fs, (self.panel.centerx,
                                           self.panel.top + int(20 * u) + i * int(fs * 1.15)),
                          widgets.CREAM, "midtop")
            self.back_button.draw(surf, u, True)
            return
        self.table.draw(surf)
        widgets.panel(surf, self.panel, u, 215)
        total = len(self.record.moves)
        done = self.done_moves
        label = t("replay.move", n=done, total=total)
        if self.finished and self.table.state in ("over", "done"):
            label += "  ·  " + t("replay.end")
        head = t("replay.banner") + (f": {self.title}" if self.title else "")
        avail = self.panel.width - int(24 * u)
        fs = max(11, int(20 * u))
        y = self.panel.top + int(6 * u)
        lw = text.size_of(label, fs)[0]
        text.blit(surf, label, fs, (self.panel.right - int(12 * u), y), widgets.CREAM,
                  "topright")
        hw = max(10, avail - lw - int(16 * u))
        text.blit(surf, text.ellipsize(head, fs, hw, True), fs,
                  (self.panel.left + int(12 * u), y), widgets.GOLD, "topleft", True)
        y += fs + int(3 * u)
        bar = pygame.Rect(self.panel.left + int(12 * u), y, self.panel.width - int(24 * u),
                          max(3, int(6 * u)))
        if bar.bottom < self.list.buttons[0].rect.top:
            pygame.draw.rect(surf, (40, 52, 46), bar, border_radius=bar.height // 2)
            fill = bar.copy()
            fill.width = int(bar.width * done / max(1, total))
            if fill.width:
                pygame.draw.rect(surf, widgets.GOLD, fill, border_radius=bar.height // 2)
        self.list.draw(surf, u)


# ----------------------------------------------------------------- the list


def _names(seats: list[dict[str, Any]]) -> str:
    return ", ".join(s.get("name", "?") for s in seats)


def _winner_names(row: store.GameRow) -> str:
    w = row.winner
    ws = [w] if isinstance(w, int) else list(w or [])
    names = [row.seats[i].get("name", "?") for i in ws if 0 <= i < len(row.seats)]
    return t("replay.won", names=", ".join(names)) if names else t("replay.nobody")


class ReplayListScene(Scene):
    name = "replays"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.list = FocusList()
        self.scroll = 0
        self.visible = 0
        self.headings: dict[int, str] = {}
        self.heading_pos: list[tuple[str, int]] = []
        self.area = pygame.Rect(0, 0, 0, 0)
        self.row_h, self.gap = 30, 4
        self.back_button = Button(lambda: t("replay.back"), self.back, name="back")
        self.reload()

    def reload(self) -> None:
        try:
            rows = store.recent_games(40)
        except Exception:
            rows = []
        files = store.record_files()[:40]
        buttons: list[Button] = []
        self.headings = {}
        if rows:
            self.headings[0] = t("replay.recent")
        for r in rows:
            date = time.strftime("%d.%m.%Y %H:%M", time.localtime(r.finished))

            def label(r=r, date=date) -> str:
                return (t("replay.row", date=date, game=t("game." + r.game),
                          names=_names(r.seats)) + "  —  " + _winner_names(r))

            buttons.append(Button(label, lambda i=r.id: self.watch_db(i),
                                  name=f"game_{r.id}"))
        if files:
            self.headings[len(buttons)] = t("replay.files")
        for p in files:
            buttons.append(Button(p.name, lambda p=p: self.watch_file(p),
                                  name="file_" + p.name))
        self.list.set(buttons)
        self._size = (0, 0)

    def watch_db(self, row_id: int) -> None:
        self.app.play("click")
        try:
            record = store.game_record(row_id)
            rebuild(record)
        except (RecordError, Exception) as exc:
            self.app.notify(t("replay.bad", error=str(getattr(exc, "message", exc))))
            return
        self.app.push(ReplayScene(self.app, record))

    def watch_file(self, path: Path) -> None:
        self.app.play("click")
        open_replay_file(self.app, path)

    def back(self) -> None:
        self.app.play("click")
        self.app.pop()

    def resume(self) -> None:
        super().resume()

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        self.title_h = int(80 * u)
        bh = int(max(26, 42 * u))
        self.back_button.rect = pygame.Rect(0, 0, int(min(w * 0.5, 260 * u)), bh)
        self.back_button.rect.midbottom = (w // 2, h - int(16 * u))
        self.area = pygame.Rect(0, self.title_h, int(min(w * 0.9, 1000 * u)), 0)
        self.area.centerx = w // 2
        self.area.height = self.back_button.rect.top - int(50 * u) - self.title_h
        self.row_h = bh
        self.gap = int(6 * u)
        self._place()

    def _place(self) -> None:
        u = self.u
        buttons = self.list.buttons
        y = self.area.top
        self.heading_pos: list[tuple[str, int]] = []
        self.visible = 0
        for i, b in enumerate(buttons):
            if i < self.scroll:
                b.rect = pygame.Rect(0, 0, 0, 0)
                continue
            hy = 0
            if i in self.headings:
                hy = int(self.row_h * 0.9)
            if y + hy + self.row_h > self.area.bottom:
                b.rect = pygame.Rect(0, 0, 0, 0)
                continue
            if hy:
                self.heading_pos.append((self.headings[i], y + hy - int(6 * u)))
                y += hy
            b.rect = pygame.Rect(self.area.left, y, self.area.width, self.row_h)
            y += self.row_h + self.gap
            self.visible += 1

    def _keep_focus_visible(self) -> None:
        f = self.list.focus
        if f < self.scroll:
            self.scroll = f
        while f >= self.scroll + max(1, self.visible) and self.scroll < f:
            self.scroll += 1
            self._place()
        self._place()

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.DROPFILE:
            open_replay_file(self.app, ev.file)
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self.back_button.rect.collidepoint(ev.pos):
            self.back()
            return True
        if ev.type == pygame.MOUSEWHEEL:
            n = len(self.list.buttons)
            self.scroll = max(0, min(max(0, n - 1), self.scroll - int(ev.y)))
            self._place()
            return True
        used = self.list.handle_event(ev)
        if ev.type == pygame.KEYDOWN:
            self._keep_focus_visible()
        return used

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t("replay.title")
        text.blit(surf, title, text.fit(title, int(56 * u), int(w * 0.9), True),
                  (w // 2, int(16 * u)), widgets.GOLD, "midtop", True, shadow=True)
        for label, y in self.heading_pos:
            text.blit(surf, label, max(12, int(24 * u)), (self.area.left + int(4 * u), y),
                      widgets.GOLD, "bottomleft", True)
        if not self.list.buttons:
            box = self.area.inflate(0, -self.area.height // 2)
            widgets.panel(surf, box, u, 200)
            text.blit(surf, t("replay.none"), text.fit(t("replay.none"), int(26 * u),
                                                        box.width - int(30 * u)),
                      box.center, widgets.CREAM, "center")
        for i, b in enumerate(self.list.buttons):
            if b.rect.width:
                b.draw(surf, u, i == self.list.focus, i == self.list.hover)
        n = len(self.list.buttons)
        if n > self.visible > 0:
            track = pygame.Rect(self.area.right + int(6 * u), self.area.top, max(3, int(5 * u)),
                                self.area.height)
            bar_h = max(16, track.height * self.visible // n)
            track.top += (track.height - bar_h) * self.scroll // max(1, n - self.visible)
            track.height = bar_h
            pygame.draw.rect(surf, widgets.GOLD, track, border_radius=3)
        hint = t("replay.drop", path=str(paths.saves_dir(create=False) / store.EXPORTS))
        hs = max(11, int(17 * u))
        lines = text.wrap(hint, hs, int(w * 0.9))
        y0 = self.back_button.rect.top - int(8 * u) - len(lines) * int(hs * 1.1)
        for i, line in enumerate(lines):
            text.blit(surf, line, hs, (w // 2, y0 + i * int(hs * 1.1)), widgets.DIM, "midtop")
        self.back_button.draw(surf, u, False)


def export_game(app, table: Any) -> Path | None:
    """Write the table's game as a record file to ``saves_dir()/exports`` and say where
    (results screen, pause overlay). Any table with a ``session`` or a ``game`` works."""
    try:
        session = getattr(table, "session", None)
        if session is not None:
            path = session.export()
        else:
            seats = store.seats_to_record(table.seats)
            game = table.game
            rec = store.records.record_of(game, seats, seed=getattr(game, "seed", None),
                                          bot_seed=getattr(game, "bot_seed", 0))
            path = store.export_record(rec)
    except (OSError, ValueError) as exc:
        app.notify(t("store.export_failed", error=str(exc)))
        return None
    app.notify(t("store.exported", path=str(path)))
    return path
