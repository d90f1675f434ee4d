"""After a game: its story. Who won, the ranking (who went out in which round, lives
left), everyone's lives over the rounds, the pot, and the people's running record
against these opponents; then the main menu, export or play again. Each button
shows its key (a letter of the language, as at the table); Esc is the main menu too.

"Play again" has the focus, and for a moment after the screen appears Enter and Space
do nothing: a key meant for the table (continue after the last showdown) never starts
a new game by accident.
"""

from __future__ import annotations

import pygame

from game import games
from game.i18n import percent, scored_key, t, tn
from game.rules.rams_rules import counters_of
from game.scenes.base import Scene
from game.scenes.files import export_table
from game.turn.bookkeeping import table_record
from game.turn.options import TableOptions
from game.turn.story import tell
from game.turn.texts import winner_text
from game.view import text, widgets
from game.view.charts import lives_chart
from game.view.keys import key_buttons
from game.view.widgets import Button, FocusList

#: seconds after the screen appears in which Enter, Space and the buttons' letters are
#: ignored (a move's letter at the table may be a button's here: German A is
#: "Aussteigen" at the table and "Analyse" here)
KEY_GUARD = 1.0
#: a press this soon after the previous such press is ignored too: someone
#: tapping Space through the computers' showdowns (every second or two) would
#: otherwise start the next game with a tap that lands just after the guard
KEY_RHYTHM = 2.0
LINE_COLOURS = [(220, 70, 60), (90, 140, 230), (70, 180, 100), (235, 190, 60),
                (200, 120, 220), (240, 240, 240), (240, 140, 60), (80, 200, 200),
                (170, 120, 80), (150, 150, 150)]


class ResultsScene(Scene):
    name = "results"
    toast_anchor = "bottom"      # a toast (record exported) never covers the title

    def __init__(self, app, table) -> None:
        super().__init__(app)
        self.table = table
        g = table.game
        m = table.model
        self.winner = g.winner
        winners = [g.winner] if isinstance(g.winner, int) else list(g.winner or [])
        self.winners = winners
        rest = [s for s in reversed(m.out_order) if s not in winners]
        # those still in at the end (a game decided by points, or by Rams' last round):
        # the best score first (fewest counters, most lives), equal scores share a place
        counting = counters_of(g.rules)
        others = sorted((s for s in range(table.n) if s not in winners and s not in rest),
                        key=lambda s: g.lives[s] if counting else -g.lives[s])
        self.ranking = [(1, s) for s in winners]
        place = len(winners) + 1
        for i, s in enumerate(others):
            tied = i > 0 and g.lives[s] == g.lives[others[i - 1]]
            self.ranking.append((self.ranking[-1][0] if tied else place, s))
            place += 1
        # those out, the last out first; out in the same round, they share a place
        for i, s in enumerate(rest):
            tied = i > 0 and m.out_round.get(s) == m.out_round.get(rest[i - 1])
            self.ranking.append((self.ranking[-1][0] if tied else place, s))
            place += 1
        self.rounds = m.rounds_played
        self.story = tell(g, table.seats, m.out_round,
                          with_record=table.options.keep_records and not table.demo)
        self.age = 0.0
        self.list = FocusList([
            Button(lambda: t("results.menu"), self.menu, name="menu"),
            Button(lambda: t("store.export"), self.export, name="export"),
            Button(lambda: t("results.again"), self.again, name="again"),
            Button(lambda: t("review.button"), self.review, name="review"),
        ], horizontal=True)
        self.rekey()
        self.list.focus = 2          # "Play again": Enter plays on with the same table
        # the review starts now, behind this screen (tests start it when they ask)
        self.record = table_record(table.game, table.seats, table.session)
        self.review_key = table.session.game_id if table.session is not None else None
        if not app.ai_sync:
            app.reviews().start(self.record, self.review_key)

    def rekey(self) -> None:
        """Each button's key, shown on it as the table's buttons show theirs: a letter
        of the language (``key.results.<button>``: A is Analyse in German, Again in
        English)."""
        key_buttons(self.list.buttons, "key.results.")

    def review(self) -> None:
        """The game review: where the lives went, and what the cards decided."""
        self.app.play("click")
        self.app.open("review", record=self.record, key=self.review_key)
        self.left = self.right = pygame.Rect(0, 0, 10, 10)

    def export(self) -> None:
        self.app.play("click")
        export_table(self.app, self.table)

    def again(self) -> None:
        """The same seats and rules again, a new deal."""
        self.app.play("click")
        tb = self.table
        # the phones stay at their seats, with the same links (docs/phone.md)
        room = tb.phone_room.hand_over()
        self.app.pop()   # results
        try:
            self.app.open("table", how="replace", game_id=tb.game_id, seats=tb.seats,
                          rules=tb.rules_given, seed=None, demo=tb.demo,
                          options=TableOptions(phone_room=room) if room is not None else None)
        except BaseException:
            if room is not None:
                room.close()
            raise

    def menu(self) -> None:
        self.app.play("click")
        self.app.open("menu", how="reset")

    def update(self, dt: float) -> None:
        self.age += dt

    def busy(self) -> bool:
        # the loop keeps time (frames, not idle waits) while a guard can still matter
        return self.age < KEY_GUARD or self.app.confirm_rest < KEY_RHYTHM

    def still_tapping(self) -> bool:
        """Is an Enter or Space press being handled one still meant for the table?"""
        return self.age < KEY_GUARD or self.app.confirm_gap < KEY_RHYTHM

    # ------------------------------------------------------------------ layout & input

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bh = int(max(28, 52 * u))
        n = len(self.list.buttons)
        widgets.layout_row(self.list.buttons, w // 2, h - int(20 * u) - bh // 2,
                           int(min((w * 0.94 - (n - 1) * 20 * u) / n, 300 * u)), bh,
                           int(20 * u))
        self.title_size = min(int(60 * u), max(18, int(h * 0.075)))
        top = int(18 * u) + self.title_size + int(46 * u)
        bottom = self.list.buttons[0].rect.top - int(20 * u) - self._record_h()
        margin = int(max(12, 30 * u))
        gap = int(24 * u)
        inner = w - 2 * margin - gap
        self.left = pygame.Rect(margin, top, int(inner * 0.46), bottom - top)
        self.right = pygame.Rect(self.left.right + gap, top, inner - self.left.width,
                                 bottom - top)

    def _record_h(self) -> int:
        return int(max(16, 30 * self.u)) if self.story.record is not None else 0

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.menu()
            return True
        if widgets.tapped(ev) and self.still_tapping():
            return True          # a key still meant for the table (A: "Aussteigen" there)
        return self.list.handle_event(ev)

    # ------------------------------------------------------------------ drawing

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        tb = self.table
        key, names = winner_text(self.winner, tb.names)
        title = t(key, names=names)
        ts = widgets.title(surf, title, self.title_size, int(18 * u))
        sub = t("results.sub", rounds=tn("count.rounds", self.rounds))
        st = self.story
        if st.stake > 0:
            sub += "  ·  " + t("results.pot", pot=st.pot, names=names or "–")
        text.blit(surf, sub, text.fit(sub, int(24 * u), int(w * 0.9)),
                  (w // 2, int(18 * u) + ts + int(8 * u)), widgets.CREAM, "midtop")
        self._ranking(surf)
        self._chart(surf)
        if st.record is not None:
            r = st.record
            line = t("results.record", level=t("level." + r.level),
                     game=t(games.title_key(tb.game_id)),
                     games=tn("count.games", r.games), wins=r.wins,
                     rate=percent(r.rate))
            fs = text.fit(line, int(22 * u), int(w * 0.92))
            text.blit(surf, line, fs, (w // 2, self.left.bottom + int(10 * u)), widgets.CREAM,
                      "midtop", shadow=True)
        self.list.draw(surf, u)

    def _ranking(self, surf: pygame.Surface) -> None:
        u = self.u
        tb = self.table
        box = self.left
        widgets.panel(surf, box, u, 200)
        n = len(self.ranking)
        pad = int(12 * u)
        row_h = max(14, min(int(40 * u), (box.height - 2 * pad) // max(1, n)))
        fs = max(11, int(row_h * 0.52))
        small = max(10, int(fs * 0.82))
        for i, (place, s) in enumerate(self.ranking):
            y = box.top + pad + i * row_h + row_h // 2
            col = widgets.GOLD if place == 1 else widgets.CREAM
            pygame.draw.circle(surf, LINE_COLOURS[s % len(LINE_COLOURS)],
                               (box.left + int(14 * u), y), max(3, int(5 * u)))
            text.blit(surf, f"{place}.", fs, (box.left + int(26 * u), y), col, "midleft", True)
            name_x = box.left + int(26 * u) + text.size_of("10.", fs, True)[0] + int(8 * u)
            info = self._info(s)
            kind = t("setup.human") if s in tb.humans else t("level." + tb.seats[s]["level"])
            right = text.ellipsize(f"{info}  ·  {kind}" if info else kind, small,
                                   int(box.width * 0.5))
            rw = text.size_of(right, small)[0]
            text.blit(surf, right, small, (box.right - pad, y), (200, 192, 175), "midright")
            room = box.right - pad - rw - int(10 * u) - name_x
            text.blit(surf, text.ellipsize(tb.seat_name(s), fs, max(20, room), True), fs,
                      (name_x, y), col, "midleft", True)
        top = box.top + pad + n * row_h + int(8 * u)
        self._losses(surf, pygame.Rect(box.left + pad, top, box.width - 2 * pad,
                                       box.bottom - pad - top))

    def _losses(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        """Who lost lives (took the penalty, under counters) in which round, as many
        rounds as there is room for (the last ones when not all fit); that nobody did,
        when nobody did (a short Rams game under counters)."""
        u = self.u
        fs = max(10, int(17 * u))
        lh = int(fs * 1.3)
        if area.height < 3 * lh:
            return
        head = t(self._scored("results.losses"))
        text.blit(surf, head, fs, area.topleft, widgets.GOLD, "topleft", True)
        pygame.draw.line(surf, (90, 80, 60), (area.left, area.top + lh),
                         (area.right, area.top + lh), 1)
        tb = self.table
        lines = []
        for i, lost in enumerate(self.story.losses):
            if lost:
                who = ", ".join(t(self._scored("results.loss"), name=tb.seat_name(s), n=k)
                                for s, k in sorted(lost.items()))
                lines.append(t("results.round_losses", n=i + 1, who=who))
        if not lines:      # a heading over nothing reads as a screen not finished
            lines.append(t(self._scored("results.losses_none")))
        cols = 2 if area.width > 420 * u else 1
        per_col = max(1, (area.height - lh - int(4 * u)) // lh)
        room = per_col * cols
        if len(lines) > room:
            lines = lines[-room:]
        cw = area.width // cols
        for k, line in enumerate(lines):
            c, r = divmod(k, per_col)
            text.blit(surf, text.ellipsize(line, fs, cw - int(10 * u)), fs,
                      (area.left + c * cw, area.top + lh + int(4 * u) + r * lh),
                      (200, 192, 175))

    def _scored(self, key: str) -> str:
        """``key``, or its counters form when the game counted counters (Rams)."""
        return scored_key(key, counters_of(self.table.game.rules))

    def _info(self, s: int) -> str:
        st = self.story
        if s in st.out_round:
            return t("results.out_in", n=st.out_round[s])
        lives = self.table.game.lives[s]
        if counters_of(self.table.game.rules):            # Rams' counters: down to zero
            return tn("results.counters_left", lives) if lives else t("results.counters_none")
        if lives == 1:
            return t("results.life_left")
        if lives > 1:
            return t("results.lives_left", n=lives)
        return ""

    def _chart(self, surf: pygame.Surface) -> None:
        u = self.u
        box = self.right
        widgets.panel(surf, box, u, 200)
        head = t(self._scored("results.chart"))
        hs = text.fit(head, int(22 * u), box.width - int(20 * u), True)
        text.blit(surf, head, hs, (box.left + int(12 * u), box.top + int(8 * u)), widgets.GOLD,
                  "topleft", True)
        plot = pygame.Rect(box.left, box.top + hs + int(14 * u), box.width,
                           box.height - hs - int(20 * u))
        lives_chart(surf, plot, self.story.lives, LINE_COLOURS, u, t("stats.round_axis"),
                    highlight=self.winners)
