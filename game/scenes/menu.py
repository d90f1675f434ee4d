"""The main menu: continue, new game, demo, statistics, replays, settings, rules, quit.

*Continue* shows its key, a letter of its label in the language (``key.menu.continue``:
C in English, W for *Weiterspielen* in German). *Quit* shows ``Esc``: the first Esc puts
the focus on it, the second quits. There is no letter that quits at once: a stray key
press should not close the window.
"""

from __future__ import annotations

import pygame

from game import games
from game.i18n import t, tn
from game.scenes.base import Scene
from game.scenes.files import watch_file
from game.view import text, widgets
from game.view.keys import key_buttons
from game.view.widgets import Button, FocusList


class MenuScene(Scene):
    name = "menu"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.list = FocusList()
        self._build()

    def _build(self, keep_focus: bool = False) -> None:
        buttons = []
        self.saved = self._saved_game()
        if self.saved is not None:
            buttons.append(Button(self._continue_label, self.continue_game, name="continue"))
        for entry in games.entries():
            buttons.append(Button(lambda k=entry.menu_key: t(k),
                                  lambda g=entry.id: self.new_game(g), name="new_" + entry.id))
        buttons += [
            Button(lambda: t("menu.demo"), self.demo, name="demo"),
            Button(lambda: t("menu.stats"), self.stats, name="stats"),
            Button(lambda: t("menu.replays"), self.replays, name="replays"),
            Button(lambda: t("menu.settings"), self.settings, name="settings"),
            Button(lambda: t("menu.rules"), self.rules, name="rules"),
            Button(lambda: t("menu.quit"), self.app.quit, name="quit", hint="Esc"),
        ]
        self.list.set(buttons, keep_focus)
        self.rekey()

    def rekey(self) -> None:
        """*Continue*'s key in the current language, shown on it (as the results
        screen's buttons show theirs)."""
        key_buttons([b for b in self.list.buttons if b.name == "continue"], "key.menu.")

    # ------------------------------------------------------------------ saves (store.py)

    def _saved_game(self):
        """How many unfinished games there are (game.shelf) and the autosave of the
        last one, or None; the autosave of a game that had ended is counted and
        cleared, a damaged one reported. Shelved games are counted as the list of
        unfinished games shows them (a finished one there goes to the statistics)."""
        from game import shelf, store

        saved, problem = store.read_autosave()
        if problem is not None:
            problem.notify()      # once: game.notices, shown by the window
        if saved is not None and saved.finished:
            store.finish_saved(saved)
            saved = None
        count = shelf.shelved_count() + (1 if saved is not None else 0)
        return (count, saved) if count else None

    def _continue_label(self) -> str:
        if not self.saved:
            return t("menu.continue")
        count, last = self.saved
        if count > 1 or last is None:
            return tn("menu.continue.many", count)
        return t("menu.continue.info", game=t(games.title_key(last.record.game)),
                 round=max(0, int(last.summary.get("round", 0))) + 1)

    def continue_game(self) -> None:
        """The unfinished games, to resume one exactly where it stopped (also after a
        crash) or to discard one."""
        self.app.play("click")
        if self.saved:
            self.app.open("unfinished")

    def stats(self) -> None:
        self.app.play("click")
        self.app.open("stats")

    def replays(self) -> None:
        self.app.play("click")
        self.app.open("replays")

    def resume(self) -> None:
        super().resume()
        # a game may have been saved or finished meanwhile; the focus stays on the
        # button that was chosen, so Esc from the statistics (or any screen opened
        # here) and Enter opens it again, as arrows had left it
        self._build(keep_focus=True)

    def escape(self) -> None:
        """Esc goes back everywhere else, so a second Esc meant for the screen just
        closed would close the window: the first one here puts the focus on Quit (the
        way out, said), the next one quits."""
        focused = self.list.buttons[self.list.focus] if self.list.buttons else None
        if focused is None or focused.name == "quit":
            self.app.quit()
            return
        self.list.focus = next(i for i, b in enumerate(self.list.buttons) if b.name == "quit")

    def new_game(self, game_id: str) -> None:
        self.app.play("click")
        self.app.open("setup", game_id=game_id)

    def demo(self) -> None:
        self.app.play("click")
        self.app.open("demo", players=6, seed=None)

    def settings(self) -> None:
        self.app.play("click")
        self.app.open("settings")

    def rules(self) -> None:
        self.app.play("click")
        self.app.open("rules")

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bw, bh = int(min(w * 0.8, 420 * u)), int(max(30, 54 * u))
        gap = int(12 * u)
        rows = self._rows()
        n = len(rows)
        top = int(h * 0.36)
        if top + n * (bh + gap) > h - int(40 * u):
            top = max(int(h * 0.26), h - int(40 * u) - n * (bh + gap))
        for i, row in enumerate(rows):
            half = (bw - gap) // 2 if len(row) == 2 else bw
            y = top + i * (bh + gap)
            for j, b in enumerate(row):
                b.rect = pygame.Rect(0, y, half, bh)
                b.rect.left = w // 2 - bw // 2 + j * (half + gap)
        self._fan = self._build_fan(size)

    PAIRS = (("stats", "replays"), ("settings", "rules"))

    def _rows(self) -> list[list[Button]]:
        """Buttons by row: statistics|replays and settings|rules share one."""
        rows: list[list[Button]] = []
        for b in self.list.buttons:
            if rows and any(rows[-1][-1].name == a and b.name == c for a, c in self.PAIRS):
                rows[-1].append(b)
            else:
                rows.append([b])
        return rows

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.DROPFILE:   # a record file dropped on the window: watch it
            watch_file(self.app, ev.file)
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.escape()
            return True
        return self.list.handle_event(ev)

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        for img, pos in self._fan:
            surf.blit(img, pos)
        top = self.list.buttons[0].rect.top if self.list.buttons else int(h * 0.36)
        title_size = min(int(110 * u), int(top * 0.55))
        text.blit(surf, "Stammtisch", title_size, (w // 2, int(top * 0.12)), widgets.GOLD,
                  "midtop", True, shadow=True)
        sub = t("menu.subtitle")
        ss = text.fit(sub, int(28 * u), int(w * 0.9))
        text.blit(surf, sub, ss, (w // 2, int(top * 0.12) + int(title_size * 0.85)),
                  widgets.CREAM, "midtop", shadow=True)
        self.list.draw(surf, u)
        hint = t("menu.hint")
        hs = text.fit(hint, int(20 * u), int(w * 0.95))
        text.blit(surf, hint, hs, (w // 2, h - int(10 * u)), widgets.DIM, "midbottom")

    def _build_fan(self, size: tuple[int, int]) -> list:
        w, h = size
        u = self.u
        out = []
        ch = int(150 * u)
        cw = int(ch * 0.7)
        art = self.app.art
        cards = ["AS", "KH", "QD", "JC", "TS"]
        for side in (-1, 1):
            for i, code in enumerate(cards if side < 0 else cards[::-1]):
                img = art.face(code, self.app.settings["four_colour"],
                               size=(cw, ch), lang=_lang())
                ang = side * (-20 + i * 10)
                rot = pygame.transform.rotozoom(img, ang, 1.0)
                cx = w // 2 + side * int(min(w * 0.36, 470 * u)) + side * int((i - 2) * 18 * u)
                cy = int(h * 0.62) + abs(i - 2) * int(8 * u)
                out.append((rot, rot.get_rect(center=(cx, cy))))
        return out


def _lang() -> str:
    from game.i18n import get_lang

    return get_lang()
