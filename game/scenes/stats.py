"""The statistics screen: per game and opponent level (games, wins, win rate, win
streaks now and best), the lives (or Rams' counters) of every seat over the rounds of
the last game, the win rate over time, and each player's accuracy over the reviewed
games (``game.review.history``). Reads ``game.store.summarize()`` once when opened (four
small columns per game, so 10,000 games cost a few milliseconds) and draws on the felt
with the game's own panels and buttons; the accuracy figures are read again whenever
one of the window's reviews, computed in the background, finishes.
"""

from __future__ import annotations

from functools import partial

import pygame

from game import games, i18n, notices, store
from game.i18n import percent, scored_key, t, tn
from game.scenes.base import Scene
from game.turn.texts import seat_name
from game.view import text, widgets
from game.view.charts import round_ticks, step_line
from game.view.keys import key_buttons
from game.view.widgets import Button, FocusList

LINE_COLOURS = [(220, 70, 60), (90, 140, 230), (70, 180, 100), (235, 190, 60),
                (200, 120, 220), (240, 240, 240), (240, 140, 60), (80, 200, 200),
                (170, 120, 80), (150, 150, 150)]
ROLLING_COLOUR = (120, 190, 150)
#: the accuracy chart's line: the mean of this many games of a player
ACCURACY_MEAN = 5


class StatsScene(Scene):
    name = "stats"

    def __init__(self, app) -> None:
        super().__init__(app)
        #: why there is nothing to show (a database from a newer game, locked, unusable)
        self.unavailable: str | None = None
        try:
            self.data = store.summarize()
        except store.STATS_ERRORS as exc:   # whatever the file, the screen opens
            self.data = store.StatsSummary()
            problem = store.check_stats()   # moves a damaged file aside, nothing else
            if problem is not None:
                problem.notify()
            kind, detail = store.stats_error_kind(exc), store.stats_reason(exc)
            if problem is None or (problem.kind == "damaged" and problem.moved_to):
                try:     # the file is fine now, or a fresh one replaced a damaged one
                    self.data = store.summarize()
                    kind = ""
                except store.STATS_ERRORS as again:
                    kind, detail = store.stats_error_kind(again), store.stats_reason(again)
            else:
                kind, detail = problem.kind, problem.detail
            if kind:
                self.unavailable = t(f"stats.unavailable.{kind}", reason=detail)
        self._reviews_seen = self.app.reviews().done()
        self._load_accuracy()
        buttons = [Button(lambda: t("stats.back"), self.back, name="back", hint="Esc")]
        if self.data.last_game is not None:
            buttons.insert(0, Button(lambda: t("stats.replay_last"), self.replay_last,
                                     name="replay_last"))
        self.list = FocusList(buttons, horizontal=True)
        self.list.focus = len(buttons) - 1
        self.rekey()

    def _load_accuracy(self) -> None:
        try:
            from game.review.history import accuracy_history

            self.accuracy = accuracy_history()
        except (*store.STATS_ERRORS, ValueError) as exc:   # the chart is optional
            notices.post("review.failed", once="accuracy-history",
                         error=store.stats_reason(exc))
            from game.review.history import AccuracyHistory

            self.accuracy = AccuracyHistory()

    def update(self, dt: float) -> None:
        """A review finishing in the background while the screen is open (the last
        game's, started at its results) joins the accuracy chart at once."""
        done = self.app.reviews().done()
        if done != self._reviews_seen:
            self._reviews_seen = done
            self._load_accuracy()
            self.app.stale = True

    def rekey(self) -> None:
        """*Watch last game*'s key, shown on it: a letter of its label in the language
        (``key.stats.replay_last``: W in English, L in German). *Back* shows Esc, as on
        every other screen."""
        key_buttons([b for b in self.list.buttons if b.name != "back"], "key.stats.")

    def back(self) -> None:
        self.app.play("click")
        self.app.pop()

    def replay_last(self) -> None:
        self.app.play("click")
        g = self.data.last_game
        if g is None:
            return
        try:
            record = store.game_record(g.id)
        except (*store.STATS_ERRORS, ValueError) as exc:   # a RecordError is a ValueError
            self.app.notify(partial(t, "replay.bad", error=str(getattr(exc, "message", exc))))
            return
        self.app.open("replay", record=record)

    # ------------------------------------------------------------------ layout

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        pad = int(16 * u)
        bh = int(max(28, 46 * u))
        widgets.layout_row(self.list.buttons, w // 2, h - pad - bh // 2,
                           int(min(w * 0.4, 300 * u)), bh, int(16 * u))
        self.title_size = int(52 * u)
        top = pad + self.title_size + int(34 * u)
        bottom = h - 2 * pad - bh
        width = int(min(w - 2 * pad, 1500 * u))
        left = (w - width) // 2
        rows = max(1, len(self.data.by_level))
        self.row_h = max(16, int(30 * u))
        table_h = min(int((bottom - top) * 0.42), self.row_h * (rows + 1) + int(16 * u))
        self.table_rect = pygame.Rect(left, top, width, table_h)
        gap = int(14 * u)
        ctop = self.table_rect.bottom + gap
        cw = (width - 2 * gap) // 3
        self.lives_rect = pygame.Rect(left, ctop, cw, bottom - ctop)
        self.rate_rect = pygame.Rect(left + cw + gap, ctop, cw, bottom - ctop)
        self.accuracy_rect = pygame.Rect(left + 2 * (cw + gap), ctop, cw, bottom - ctop)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
            return True
        return self.list.handle_event(ev)

    # ------------------------------------------------------------------ drawing

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t("stats.title")
        pad = int(16 * u)
        widgets.title(surf, title, self.title_size, pad)
        d = self.data
        if d.total == 0 and d.last_game is None:
            box = pygame.Rect(0, 0, int(min(w * 0.86, 760 * u)), int(150 * u))
            box.center = (w // 2, h // 2)
            fs = max(12, int(26 * u))
            lines = text.wrap(self.unavailable or t("stats.empty"), fs,
                              box.width - int(40 * u))
            box.height = max(box.height, int(fs * 1.15) * len(lines) + int(40 * u))
            box.center = (w // 2, h // 2)
            widgets.panel(surf, box, u, 210)
            y = box.centery - len(lines) * int(fs * 1.15) // 2
            for i, line in enumerate(lines):
                text.blit(surf, line, fs, (box.centerx, y + i * int(fs * 1.15)),
                          widgets.CREAM, "midtop")
            self.list.draw(surf, u)
            return
        sub = t("stats.total", games=tn("count.games", d.total), wins=d.wins,
                rate=t("stats.rate") + " " + percent(d.wins / d.total if d.total else 0))
        ss = text.fit(sub, int(24 * u), int(w * 0.9))
        text.blit(surf, sub, ss, (w // 2, pad + self.title_size + int(2 * u)), widgets.CREAM,
                  "midtop", shadow=True)
        self._draw_table(surf)
        self._draw_lives(surf, self.lives_rect)
        self._draw_rate(surf, self.rate_rect)
        self._draw_accuracy(surf, self.accuracy_rect)
        self.list.draw(surf, u)

    def _draw_table(self, surf: pygame.Surface) -> None:
        u = self.u
        r = self.table_rect
        widgets.panel(surf, r, u, 200)
        cols = [("stats.game", 0.02, "midleft"), ("stats.level", 0.28, "midleft"),
                ("stats.games", 0.55, "midright"), ("stats.wins", 0.66, "midright"),
                ("stats.rate", 0.80, "midright"), ("stats.streak", 0.89, "midright"),
                ("stats.best", 0.98, "midright")]
        rh = self.row_h
        fs = max(11, int(rh * 0.62))
        y = r.top + int(8 * u) + rh // 2
        col_w = int(r.width * 0.1)
        for key, x, anchor in cols:
            label = t(key)
            hs = text.fit(label, fs, col_w if anchor == "midright" else int(r.width * 0.25),
                          True, 9)
            text.blit(surf, label, hs, (r.left + int(r.width * x), y), widgets.GOLD, anchor,
                      True)
        pygame.draw.line(surf, widgets.GOLD, (r.left + int(8 * u), y + rh // 2),
                         (r.right - int(8 * u), y + rh // 2), 1)
        fit_rows = max(0, (r.bottom - int(8 * u) - (y + rh // 2)) // rh)
        for i, s in enumerate(self.data.by_level[:fit_rows]):
            y += rh
            vals = [t(games.title_key(s.game)), t("level." + s.level), str(s.games), str(s.wins),
                    percent(s.rate), str(s.current), str(s.best)]
            for (_key, x, anchor), v in zip(cols, vals, strict=True):
                maxw = col_w if anchor == "midright" else int(r.width * 0.25)
                text.blit(surf, text.ellipsize(v, fs, maxw), fs, (r.left + int(r.width * x), y),
                          widgets.CREAM if i % 2 == 0 else (215, 206, 182), anchor)

    def _chart_frame(self, surf: pygame.Surface, rect: pygame.Rect, title: str,
                     sub: str) -> pygame.Rect:
        """Panel, title and subtitle; returns the plot area (room left for axis labels)."""
        u = self.u
        widgets.panel(surf, rect, u, 200)
        ts = text.fit(title, int(22 * u), rect.width - int(20 * u), True, 10)
        text.blit(surf, title, ts, (rect.left + int(12 * u), rect.top + int(8 * u)),
                  widgets.GOLD, "topleft", True)
        y = rect.top + int(8 * u) + ts
        if sub:
            ss = text.fit(sub, int(17 * u), rect.width - int(20 * u), False, 9)
            text.blit(surf, text.ellipsize(sub, ss, rect.width - int(20 * u)), ss,
                      (rect.left + int(12 * u), y), widgets.DIM, "topleft")
            y += ss
        return pygame.Rect(rect.left + int(44 * u), y + int(10 * u),
                           rect.width - int(60 * u), 0)

    def _axes(self, surf: pygame.Surface, plot: pygame.Rect, ylabels: list[tuple[float, str]],
              xlabels: list[tuple[float, str]]) -> None:
        u = self.u
        fs = self._axis_size()
        for frac, label in ylabels:
            y = plot.bottom - int(plot.height * frac)
            pygame.draw.line(surf, (70, 80, 72), (plot.left, y), (plot.right, y), 1)
            text.blit(surf, label, fs, (plot.left - int(6 * u), y), widgets.DIM, "midright")
        pygame.draw.line(surf, widgets.DIM, plot.bottomleft, plot.bottomright, 1)
        pygame.draw.line(surf, widgets.DIM, plot.bottomleft, plot.topleft, 1)
        for frac, label in xlabels:
            x = plot.left + int(plot.width * frac)
            text.blit(surf, label, fs, (x, plot.bottom + int(3 * u)), widgets.DIM, "midtop")

    def _axis_size(self) -> int:
        """The size of the axes' numbers (:meth:`_axes`)."""
        return max(10, int(15 * self.u))

    @staticmethod
    def _game_axis(total: int, name_key: str) -> list[tuple[float, str]]:
        """The labels of an axis of games 1 to ``total``; a single game sits in the
        middle with one label (not "1" at both ends)."""
        if total <= 1:
            return [(0.5, "1")]
        return [(0.0, "1"), (1.0, str(total)), (0.5, t(name_key))]

    @staticmethod
    def _game_x(plot: pygame.Rect, game: int, total: int) -> float:
        """Where game number ``game`` (1 to ``total``) lies on the x axis."""
        return plot.left + plot.width * ((game - 1) / (total - 1) if total > 1 else 0.5)

    def _legend(self, surf: pygame.Surface, rect: pygame.Rect,
                items: list[tuple[str, tuple[int, int, int], bool]]) -> int:
        """Legend rows at the bottom of ``rect``; returns its top."""
        u = self.u
        fs = max(10, int(16 * u))
        sw = int(16 * u)
        pad = int(12 * u)
        rows: list[list[tuple[str, tuple[int, int, int], bool, int]]] = [[]]
        x = 0
        for label, col, bold in items:
            iw = sw + int(6 * u) + text.size_of(label, fs, bold)[0] + int(14 * u)
            if x + iw > rect.width - 2 * pad and rows[-1]:
                rows.append([])
                x = 0
            rows[-1].append((label, col, bold, x))
            x += iw
        lh = int(fs * 1.25)
        top = rect.bottom - int(8 * u) - lh * len(rows)
        for i, row in enumerate(rows):
            y = top + i * lh + lh // 2
            for label, col, bold, x0 in row:
                x = rect.left + pad + x0
                pygame.draw.line(surf, col, (x, y), (x + sw, y), max(2, int(3 * u)))
                text.blit(surf, label, fs, (x + sw + int(6 * u), y), widgets.CREAM, "midleft",
                          bold)
        return top

    def _draw_lives(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        u = self.u
        d = self.data
        g = d.last_game
        sub = ""
        if g is not None:
            date = i18n.date(g.finished)
            sub = t("stats.lives_sub", game=t(games.title_key(g.game)),
                    rounds=tn("count.rounds", g.rounds), date=date)
        title = t(scored_key("stats.lives_chart", d.last_counting))
        plot = self._chart_frame(surf, rect, title, sub)
        if g is None or not d.last_lives:
            return
        n = len(g.seats)
        items = [(seat_name(s, i), LINE_COLOURS[i % len(LINE_COLOURS)],
                  s.get("type") == "human") for i, s in enumerate(g.seats)]
        ltop = self._legend(surf, rect, items)
        plot.height = ltop - plot.top - int(26 * u)
        if plot.height < 20:
            return
        start = max([d.start_lives] + [max(r) for r in d.last_lives if r])
        series = [[start] * n] + d.last_lives
        rounds = len(series) - 1
        ylabels = [(v / start, str(v)) for v in range(0, start + 1)] if start <= 6 else \
            [(0.0, "0"), (1.0, str(start))]
        fs = self._axis_size()
        ticks = round_ticks(rounds, plot.width, lambda k: text.size_of(str(k), fs)[0],
                            text.size_of("0", fs)[0])
        xlabels = [(k / max(1, rounds), str(k)) for k in ticks]
        self._axes(surf, plot, ylabels, xlabels)
        for s in range(n):
            # seats on the same value are drawn a little apart so every line shows
            off = (s - (n - 1) / 2) * max(1.0, 2 * u)
            pts = step_line(series, s, lambda k, lives, off=off: (
                plot.left + plot.width * k / max(1, rounds),
                plot.bottom - plot.height * lives / start + off))
            col = LINE_COLOURS[s % len(LINE_COLOURS)]
            width = max(2, int((4 if items[s][2] else 2) * u))
            if len(pts) > 1:
                pygame.draw.lines(surf, col, False, pts, width)

    def _draw_rate(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        u = self.u
        d = self.data
        sub = ""
        if d.first_time is not None and d.last_time is not None:
            a, b = i18n.date(d.first_time), i18n.date(d.last_time)
            sub = f"{a} – {b}" if a != b else a
        plot = self._chart_frame(surf, rect, t("stats.rate_chart"), sub)
        curve = d.rate_curve
        ltop = self._legend(surf, rect, [
            (t("stats.overall"), widgets.GOLD, True),
            (t("stats.rolling", n=store.ROLLING), ROLLING_COLOUR, False)])
        plot.height = ltop - plot.top - int(26 * u)
        if plot.height < 20 or not curve:
            return
        total = curve[-1][0]
        self._axes(surf, plot, [(0.0, percent(0.0)), (0.5, percent(0.5)), (1.0, percent(1.0))],
                   self._game_axis(total, "stats.games_axis"))

        def pts(idx: int) -> list[tuple[float, float]]:
            return [(self._game_x(plot, c[0], total), plot.bottom - plot.height * c[idx])
                    for c in curve]

        if len(curve) > 1:
            pygame.draw.lines(surf, ROLLING_COLOUR, False, pts(2), max(1, int(2 * u)))
            pygame.draw.lines(surf, widgets.GOLD, False, pts(1), max(2, int(3 * u)))
        else:
            x, y = pts(1)[0]
            pygame.draw.circle(surf, widgets.GOLD, (int(x), int(y)), max(3, int(5 * u)))

    def _draw_accuracy(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        """Each person's (by name) and each computer level's accuracy per reviewed
        game: a dot per game, the line the mean of the last few."""
        from game.review.history import YOU
        from game.turn.texts import role_name, shown_name

        u = self.u
        acc = self.accuracy
        sub = t("stats.accuracy_sub", games=tn("count.games", acc.games)) if acc.games \
            else ""
        plot = self._chart_frame(surf, rect, t("stats.accuracy_chart"), sub)
        if not acc.lines:
            fs = max(10, int(16 * u))
            lines = text.wrap(t("stats.accuracy_none"), fs, rect.width - int(30 * u))
            for i, line in enumerate(lines):
                text.blit(surf, line, fs, (rect.centerx, plot.top + int(20 * u)
                                           + i * int(fs * 1.2)), widgets.DIM, "midtop")
            return
        items = []
        for i, ln in enumerate(acc.lines):
            if not ln.human:
                label = t("level." + (ln.level or "none"))
            else:
                label = role_name("you", 0) if ln.name == YOU else shown_name(ln.name)
            items.append((label, LINE_COLOURS[i % len(LINE_COLOURS)], ln.human))
        ltop = self._legend(surf, rect, items)
        plot.height = ltop - plot.top - int(26 * u)
        if plot.height < 20:
            return
        total = acc.games
        self._axes(surf, plot, [(0.0, percent(0.0)), (0.5, percent(0.5)), (1.0, percent(1.0))],
                   self._game_axis(total, "stats.reviewed_axis"))

        def at(game: int, value: float) -> tuple[int, int]:
            return int(self._game_x(plot, game, total)), int(plot.bottom - plot.height * value)

        for (_label, col, human), ln in zip(items, acc.lines, strict=True):
            dim = tuple(int(c * 0.6) for c in col)
            for g, v in ln.points:
                pygame.draw.circle(surf, dim, at(g, v), max(2, int(3 * u)))
            mean = []
            for k in range(len(ln.points)):
                last = [v for _g, v in ln.points[max(0, k - ACCURACY_MEAN + 1):k + 1]]
                mean.append(at(ln.points[k][0], sum(last) / len(last)))
            if len(mean) > 1:
                pygame.draw.lines(surf, col, False, mean, max(2, int((3 if human else 2) * u)))
            elif mean:     # one game so far: its mean is its point, shown in the colour
                pygame.draw.circle(surf, col, mean[0], max(3, int(5 * u)))
