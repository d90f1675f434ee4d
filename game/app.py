"""The window, the clock, the scene stack and the main loop.

``run(opts)`` is the entry point ``game.cli`` calls with its argparse Namespace.
The loop ticks at 60 FPS while anything moves and otherwise sleeps in
``pygame.event.wait`` so an idle menu costs next to no CPU.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pygame

from game import fileio, i18n, notices, paths, winsize
from game import settings as settings_mod
from game.scenes.base import Scene
from game.view import backdrop, display, screen, text, timing, widgets
from game.view.cardart import CardArt

DEFAULT_SIZE = winsize.DEFAULT_SIZE
MIN_SIZE = winsize.MIN_SIZE
FPS = 60


class NullAudio:
    """Silence: used when ``game.audio`` is missing or fails."""

    def play(self, name: str) -> None:
        pass

    def set_volume(self, volume: float) -> None:
        pass

    def set_muted(self, muted: bool) -> None:
        pass


def make_audio(volume: float, muted: bool) -> Any:
    try:
        from game.audio import Audio  # type: ignore[import-not-found]

        return Audio(volume, muted)
    except Exception as exc:  # noqa: BLE001 - a boundary: no sound is no reason to stop
        notices.unexpected("audio", exc)
        return NullAudio()


class App:
    def __init__(self, opts: argparse.Namespace | None = None,
                 settings: settings_mod.Settings | None = None) -> None:
        self.opts = opts or argparse.Namespace(
            demo=False, game=None, seed=None, quit_after=None, frame_stats=False,
            smoke_test=False, lang=None, size=None, players=None)
        notices.reset()           # a new window tells everything afresh, once
        # first of all a screen: without one nothing is read, moved or shown (NoScreen)
        display.open_display()
        self.settings = settings or settings_mod.load()
        i18n.set_lang(getattr(self.opts, "lang", None) or self.settings["lang"])
        pygame.font.init()
        text.clear_cache()       # fonts of an earlier pygame.init() are invalid now
        backdrop.clear()
        size = getattr(self.opts, "size", None) or self.settings.get("window_size") \
            or DEFAULT_SIZE
        # never larger than the desktop's usable area (with the window's frame)
        size = screen.fit_window(tuple(size), screen.usable_area(), MIN_SIZE)
        self.windowed_size = tuple(size)
        self.fullscreen = False
        #: F11 went down and has not come up yet: its KEYUP toggles full screen
        self.f11_pressed = False
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        screen.keep_minimum(MIN_SIZE)      # the window cannot be dragged smaller
        pygame.display.set_caption("Stammtisch")
        self._set_icon()
        self.audio = make_audio(self.settings["volume"], self.settings["muted"])
        self.art = CardArt()
        self.stack: list[Scene] = []
        self.running = True
        #: seconds since the last Enter or Space press and, while one is handled, the
        #: seconds between it and the one before: a screen that appears under someone
        #: tapping Space through the computers' turns tells a tap of that rhythm from a
        #: press meant for it (the end screen)
        self.confirm_rest = math.inf
        self.confirm_gap = math.inf
        #: the message over the screen and its seconds left at normal speed
        self.toast: tuple[str, float] | None = None
        #: what the toast says, asked anew when a language is chosen while it shows
        self._toast_says: list[Callable[[], str]] = []
        self._toast_made = ""
        self.ai_sync = False      # tests: computer players decide in the loop's thread
        self._ai_worker: Any = None
        self._reviews: Any = None
        #: each drawn frame's milliseconds, kept only for ``--frame-stats``: a demo
        #: left running grew by them about 0.3 MB a minute
        self.frame_times: list[float] = []
        #: seconds since the loop started, when each measured frame began
        self.frame_starts: list[float] = []
        self.frames = 0
        #: a scene below the top changed what it shows (``Scene.tend``): draw again
        self.stale = False
        self.check_files()
        self.show_notices()

    def check_files(self) -> None:
        """Folders the game cannot use, a log file that is not a regular file, and a
        damaged, unreadable or foreign settings, autosave or statistics file, are
        reported once (``game.paths``, ``game.crash``, ``game.settings``,
        ``game.store``); the game always starts."""
        for f in paths.check_folders():
            # the failures that follow (settings, save, stats) need no notice of their own
            covers = tuple("save" if k == "saves" else k for k in f.keeps)
            notices.post("folder.unusable", once=f"folder:{f.path}", covers=covers,
                         path=str(f.path), reason=f.reason,
                         what=", ".join(i18n.t("folder.keeps." + k) for k in f.keeps))
        from game import crash

        log = crash.log_problem()
        if log is not None:
            notices.post("log.unusable" if log["where"] else "log.unusable_stderr",
                         once=f"log-file:{log['file']}", **log)
        if self.settings.notice is not None:
            n = self.settings.notice
            notices.post(n.key, once="settings-file",
                         covers=() if self.settings.writable else ("settings",), **n.params)
            self.settings.notice = None
        try:
            from game import store

            for p in store.startup_checks():
                p.notify()
        except Exception as exc:  # noqa: BLE001 - a boundary: bookkeeping never stops the game
            logging.getLogger("stammtisch.store").error("start-up checks failed", exc_info=exc)
            notices.post("store.check_failed", reason=fileio.reason(exc) if isinstance(
                exc, OSError) else f"{type(exc).__name__}: {exc}")

    def show_notices(self) -> None:
        """Show what code without a screen posted (``game.notices``), translated, and
        translated anew when a language is chosen while it shows (a notice stayed in
        the language it came in)."""
        for n in notices.drain():
            self.notify(partial(i18n.t, n.key, **n.params))

    def notify(self, message: str | Callable[[], str]) -> None:
        """A toast that adds to the one showing instead of replacing it (and stays
        its full time from now). A message given as a function of no arguments is
        asked again when a language is chosen while it shows (Export, then Settings:
        "Record saved to …" stayed on a German table)."""
        say = message if callable(message) else partial(str, message)
        says = [say]
        if self.toast is not None:
            mine = self.toast[0] == self._toast_made
            says = self._toast_says if mine else [partial(str, self.toast[0])]
            if say() not in self.toast[0]:     # the same message again: its time anew
                says = [*says, say]
        self._put_toast(says)

    def _put_toast(self, says: list[Callable[[], str]], left: float = timing.TOAST) -> None:
        self._toast_says = says
        self._toast_made = "\n".join(say() for say in says)
        self.toast = (self._toast_made, left)

    # ------------------------------------------------------------------ helpers

    def _set_icon(self) -> None:
        from game.view.cardart import sprite

        icon = sprite("icon", "icon_256.png")
        if icon is not None:
            try:
                pygame.display.set_icon(icon)
            except pygame.error:
                pass

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def play(self, name: str) -> None:
        try:
            self.audio.play(name)
        except Exception as exc:  # noqa: BLE001 - a boundary: logged and told, once
            notices.unexpected("audio", exc)

    def apply_audio_settings(self) -> None:
        vol, muted = self.settings["volume"], self.settings["muted"]
        for method, value in (("set_volume", vol), ("set_muted", muted)):
            fn = getattr(self.audio, method, None)
            if fn is not None:
                try:
                    fn(value)
                except Exception as exc:  # noqa: BLE001 - a boundary: logged and told
                    notices.unexpected("audio", exc)

    def set_lang(self, lang: str | None) -> None:
        i18n.set_lang(lang)
        self.art.faces.clear()   # German card indices differ (B, D)
        if self.toast is not None and self.toast[0] == self._toast_made:
            self._put_toast(self._toast_says, self.toast[1])    # its time left stays
        for s in self.stack:
            s._size = (0, 0)

    def ai_worker(self) -> Any:
        """The one worker process of the window's computer players and the coach,
        started on first use and kept until the window closes (game.turn.workers)."""
        if self._ai_worker is None:
            from game.turn.workers import ProcessWorker

            self._ai_worker = ProcessWorker()
            self._ai_worker.start()
        return self._ai_worker

    def reviews(self) -> Any:
        """The window's game reviews (``game.review.job.Reviews``): computed in worker
        processes of their own at a lower priority, started on first use; a finished
        review's figures go to the statistics."""
        if self._reviews is None:
            from game.review.history import keep
            from game.review.job import Reviews
            from game.turn.workers import InlineWorker, ProcessWorker

            def worker() -> Any:
                if self.ai_sync:
                    return InlineWorker()
                return ProcessWorker(processes=min(2, os.cpu_count() or 1),
                                     low_priority=True)

            self._reviews = Reviews(worker, keep)
        return self._reviews

    def close(self) -> None:
        """Stop the worker processes (the window is closing)."""
        if self._reviews is not None:
            self._reviews.close()
            self._reviews = None
        if self._ai_worker is not None:
            self._ai_worker.shutdown()
            self._ai_worker = None

    def show_toast(self, message: str) -> None:
        """Put ``message`` over the screen for :data:`timing.TOAST` seconds of the frame
        clock at normal speed (the speed setting shortens or lengthens it)."""
        self._put_toast([partial(str, message)])

    def background(self) -> pygame.Surface:
        return backdrop.felt(self.size, self.settings["table_colour"])

    def save_settings(self) -> None:
        if not self.settings.save() and self.settings.save_error != "kept":
            notices.post("settings.save_failed", once="settings",
                         reason=self.settings.save_error or "?")

    # ------------------------------------------------------------------ scenes

    @property
    def top(self) -> Scene | None:
        return self.stack[-1] if self.stack else None

    def scene(self, name: str, **kw: Any) -> Scene:
        """The screen called ``name`` (``game.scenes.catalog``), not shown yet."""
        from game.scenes import catalog

        built: Scene = catalog.build(self, name, **kw)
        return built

    def open(self, name: str, how: str = "push", **kw: Any) -> Scene:
        """Show the screen called ``name``: on top (``push``), instead of the top one
        (``replace``) or alone (``reset``). Scenes navigate only this way."""
        scene = self.scene(name, **kw)
        {"push": self.push, "replace": self.replace, "reset": self.reset}[how](scene)
        return scene

    def push(self, scene: Scene) -> None:
        if self.stack:
            self.stack[-1].pause()
        self.stack.append(scene)
        scene.enter()

    def pop(self) -> Scene | None:
        if not self.stack:
            return None
        scene = self.stack.pop()
        scene.exit()
        if self.stack:
            self.stack[-1].resume()
        return scene

    def replace(self, scene: Scene) -> None:
        if self.stack:
            self.stack.pop().exit()
        self.stack.append(scene)
        scene.enter()

    def reset(self, scene: Scene) -> None:
        """Clear the stack and show ``scene`` (e.g. back to the main menu)."""
        while self.stack:
            self.stack.pop().exit()
        self.stack.append(scene)
        scene.enter()

    def quit(self) -> None:
        self.running = False

    # ------------------------------------------------------------------ window

    def set_window_size(self, size: tuple[int, int]) -> None:
        w, h = winsize.clamp(*size)
        if self.screen.get_size() != (w, h):
            flags = pygame.FULLSCREEN if self.fullscreen else pygame.RESIZABLE
            self.screen = pygame.display.set_mode((w, h), flags)
            screen.keep_minimum(MIN_SIZE)
        if not self.fullscreen:
            self.windowed_size = (w, h)
            self.settings["window_size"] = [w, h]

    def toggle_fullscreen(self) -> None:
        try:
            if self.fullscreen:
                self.fullscreen = False
                self.screen = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
            else:
                self.windowed_size = self.screen.get_size()
                sizes = pygame.display.get_desktop_sizes() or [self.windowed_size]
                self.fullscreen = True
                self.screen = pygame.display.set_mode(sizes[0], pygame.FULLSCREEN)
        except pygame.error:
            self.fullscreen = False
            self.screen = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
        self.settings["fullscreen"] = self.fullscreen

    # ------------------------------------------------------------------ one frame

    def handle(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.QUIT:
            self.running = False
            return
        if ev.type == pygame.VIDEORESIZE:
            self.set_window_size((ev.w, ev.h))
            return
        if ev.type == pygame.WINDOWSIZECHANGED:
            surf = pygame.display.get_surface()
            if surf is not None:
                self.screen = surf
            return
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_F11:
            self.f11_pressed = True
            return
        if ev.type == pygame.KEYUP and ev.key == pygame.K_F11:
            # on letting go, not on pressing: changing the mode takes the window's focus
            # away and back, and SDL answers that with a KEYUP and, the key still held,
            # a new KEYDOWN: toggled on KEYDOWN, F11 held a moment longer than the
            # change switched back and forth (without end under an X server's
            # synthetic keys)
            if self.f11_pressed:
                self.f11_pressed = False
                self.toggle_fullscreen()
            return
        if widgets.tapped(ev):
            # the rhythm of a person tapping through the table (Space, Enter, or a
            # move's letter): the end screen takes no press in it (game.scenes.results)
            self.confirm_gap, self.confirm_rest = self.confirm_rest, 0.0
        size = self.screen.get_size()
        for scene in reversed(self.stack):
            # an event can come before a new screen's first frame (a quick double click
            # on the button that opened it): lay it out first, as drawing would
            scene.ensure_layout(size)
            if scene.handle_event(ev):
                return
            if scene.opaque or getattr(scene, "modal", False):
                return

    def busy(self) -> bool:
        if self.toast is not None:
            return True
        return any(s.busy() for s in self.stack[-1:])

    def update(self, dt: float) -> None:
        self.confirm_rest += dt
        self.show_notices()
        if self._reviews is not None:
            self._reviews.poll()      # a review goes on behind any screen
        for below in self.stack[:-1]:
            if below.tend():          # e.g. a phone table's phones, under the pause menu
                self.stale = True
        if self.stack:
            self.stack[-1].update(dt)
        if self.toast is not None:
            left = self.toast[1] - dt * timing.reading_factor(str(self.settings["anim_speed"]))
            self.toast = (self.toast[0], left) if left > 0 else None

    def draw(self) -> None:
        surf = self.screen
        size = surf.get_size()
        start = 0
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].opaque:
                start = i
                break
        for scene in self.stack[start:]:
            scene.ensure_layout(size)
            scene.draw(surf)
        if self.toast is not None:
            self._draw_toast(surf)

    def _draw_toast(self, surf: pygame.Surface) -> None:
        assert self.toast is not None
        u = widgets.unit(surf.get_size())
        size = max(14, int(24 * u))
        lines = text.wrap(self.toast[0], size, int(surf.get_width() * 0.7))
        lh = int(size * 1.1)
        rect = pygame.Rect(0, 0, int(surf.get_width() * 0.74), lh * len(lines) + int(20 * u))
        rect.midtop = (surf.get_width() // 2, int(12 * u))
        if getattr(self.top, "toast_anchor", "top") == "bottom":   # keeps a title free
            rect.midbottom = (surf.get_width() // 2, surf.get_height() - int(90 * u))
        widgets.panel(surf, rect, u, 235)
        for i, line in enumerate(lines):
            text.blit(surf, line, size, (rect.centerx, rect.top + int(10 * u) + i * lh),
                      widgets.CREAM, "midtop")

    # ------------------------------------------------------------------ loop

    def run(self, quit_after: float | None = None) -> None:
        clock = pygame.time.Clock()
        start = time.monotonic()
        measured = bool(getattr(self.opts, "frame_stats", False))
        dirty = True
        last = time.perf_counter()
        while self.running and self.stack:
            if self.busy() or dirty:
                clock.tick(FPS)
                events = pygame.event.get()
            else:
                timeout = 250
                if quit_after is not None:
                    left = quit_after - (time.monotonic() - start)
                    timeout = max(1, min(timeout, int(left * 1000)))
                ev = pygame.event.wait(timeout)
                events = [ev] if ev.type != pygame.NOEVENT else []
                events += pygame.event.get()
            t0 = time.perf_counter()
            dt = min(0.1, t0 - last)
            last = t0
            dirty = False
            for ev in events:
                self.handle(ev)
                if ev.type not in (pygame.NOEVENT,):
                    dirty = True
            if not self.running:
                break
            moving = self.busy()
            self.update(dt)
            if moving or dirty or self.stale or self.busy():
                self.stale = False
                self.draw()
                pygame.display.flip()
                self.frames += 1
                if measured:
                    self.frame_times.append((time.perf_counter() - t0) * 1000)
                    self.frame_starts.append(time.monotonic() - start)
            if quit_after is not None and time.monotonic() - start >= quit_after:
                break
        self.save_settings()

    def frame_stats(self, seconds: float) -> dict[str, Any]:
        """Frame times in ms: percentiles, the worst frame, and the worst frame after
        the first second (start-up work such as the first layout is left out)."""
        ft = sorted(self.frame_times) or [0.0]

        def pct(p: float) -> float:
            k = min(len(ft) - 1, max(0, math.ceil(p / 100 * len(ft)) - 1))
            return round(ft[k], 3)

        late = [ms for ms, at in zip(self.frame_times, self.frame_starts) if at >= 1.0]
        return {"frames": self.frames, "fps": round(self.frames / max(seconds, 1e-9), 2),
                "frame_ms_p50": pct(50), "frame_ms_p95": pct(95), "frame_ms_p99": pct(99),
                "frame_ms_max": round(ft[-1], 3),
                "frame_ms_max_after_1s": round(max(late, default=0.0), 3)}


def run(opts: argparse.Namespace) -> int:
    """Open the window and play; returns the process exit code."""
    os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "1")
    try:
        app = App(opts)
    except display.NoScreen as exc:   # also fails --smoke-test: it proves a window
        return display.refuse(exc)
    if getattr(opts, "smoke_test", False):
        app.open("menu")
        app.draw()
        pygame.display.flip()
        pygame.quit()
        return 0
    if app.settings["fullscreen"] and not opts.size:
        app.toggle_fullscreen()
    app.open("menu")
    if getattr(opts, "demo", False):
        # --game GAME: only that game; without it the demo goes through every game
        app.open("demo", game_id=getattr(opts, "game", None), players=opts.players or 6,
                 seed=opts.seed)
    started = time.monotonic()
    try:
        app.run(opts.quit_after)
    except KeyboardInterrupt:
        pass
    seconds = time.monotonic() - started
    if getattr(opts, "frame_stats", False) and sys.stdout is not None:
        print(json.dumps(app.frame_stats(seconds)))
    app.close()
    pygame.quit()
    return 0


def run_replay(path: str, opts: argparse.Namespace | None = None,
               record: Any = None) -> int:
    """``stammtisch replay FILE``: watch a record on the table (play, pause, step,
    speed). A bad file prints one line ``kind: details`` on stderr and returns 2.
    ``record``: the file's record, already read and checked."""
    from game.records import RecordError, load
    from game.replaying import rebuild_light

    try:
        if record is None:
            record = load(path)
            rebuild_light(record)
    except RecordError as exc:
        if sys.stderr is not None:
            print(f"{exc.kind}: {exc.message}", file=sys.stderr)
        return 2
    os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "1")
    try:
        app = App(opts)
    except display.NoScreen as exc:
        return display.refuse(exc)
    app.open("menu")
    app.open("replay", record=record, title=os.path.basename(path))
    try:
        app.run(getattr(app.opts, "quit_after", None))
    except KeyboardInterrupt:
        pass
    app.close()
    pygame.quit()
    return 0
