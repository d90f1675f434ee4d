"""Settings: language, animation speed, thinking pause, sound, card back, four-colour
deck, table colour, fullscreen. Saved when leaving the scene."""

from __future__ import annotations

from typing import Any

import pygame

from game import i18n
from game.i18n import percent, t
from game.scenes.base import Scene
from game.settings import (
    ANIM_SPEEDS,
    CARD_BACKS,
    REVEAL_HOLDS,
    TABLE_COLOURS,
    THINK_PAUSES,
)
from game.view import backdrop, widgets
from game.view.widgets import Button, FocusList, Form, Row

LANG_CHOICES = (None, "de", "en")
VOLUMES = tuple(round(i / 10, 1) for i in range(11))


def _cycle(values: tuple, cur: Any, d: int) -> Any:
    i = values.index(cur) if cur in values else 0
    return values[(i + d) % len(values)]


class SettingsScene(Scene):
    name = "settings"

    def __init__(self, app) -> None:
        super().__init__(app)
        s = app.settings
        self.form = Form([
            Row(lambda: t("settings.lang"), self._lang_text, self._lang, name="lang"),
            Row(lambda: t("settings.speed"), lambda: t(f"settings.speed.{s['anim_speed']}"),
                lambda d: self._set("anim_speed", _cycle(ANIM_SPEEDS, s["anim_speed"], d)),
                name="anim_speed"),
            Row(lambda: t("settings.think"), lambda: t("settings.seconds", n=_num(
                s["think_pause"])), lambda d: self._set(
                "think_pause", _cycle(THINK_PAUSES, s["think_pause"], d)), name="think_pause"),
            Row(lambda: t("settings.reveal"), self._reveal_text,
                lambda d: self._set("reveal_hold", _cycle(REVEAL_HOLDS, s["reveal_hold"], d)),
                name="reveal_hold"),
            Row(lambda: t("settings.volume"), lambda: percent(s['volume']),
                lambda d: self._set("volume", _cycle(VOLUMES, round(s["volume"], 1), d)),
                name="volume"),
            Row(lambda: t("settings.mute"), lambda: t("common.on") if s["muted"]
                else t("common.off"), lambda d: self._set("muted", not s["muted"]),
                name="muted"),
            Row(lambda: t("settings.back"), lambda: t("settings.back.n", n=s["card_back"] + 1),
                lambda d: self._set("card_back", _cycle(CARD_BACKS, s["card_back"], d)),
                name="card_back"),
            Row(lambda: t("settings.four"), lambda: t("common.on") if s["four_colour"]
                else t("common.off"), lambda d: self._set("four_colour", not s["four_colour"]),
                name="four_colour"),
            Row(lambda: t("settings.table"), lambda: t(f"settings.table.{s['table_colour']}"),
                lambda d: self._set("table_colour",
                                    _cycle(TABLE_COLOURS, s["table_colour"], d)),
                name="table_colour"),
            Row(lambda: t("settings.fullscreen"), lambda: t("common.on") if app.fullscreen
                else t("common.off"), lambda d: self.app.toggle_fullscreen(),
                name="fullscreen"),
            Row(lambda: t("settings.tips"), lambda: t("common.on") if s["tips"]
                else t("common.off"), lambda d: self._tips(not s["tips"]), name="tips"),
        ], with_help=False, row_scale=1.3)
        self.buttons = FocusList([Button(lambda: t("common.back"), self.back, name="back",
                                          hint="Esc")])
        self.zone = 0

    def _reveal_text(self) -> str:
        hold = self.app.settings["reveal_hold"]
        if hold is None:
            return t("settings.reveal.wait")
        return t("settings.reveal.after", n=_num(hold))

    def _lang_text(self) -> str:
        """The language in force: the one ``--lang`` forces, or the setting (with the
        system's language when the setting follows the system)."""
        forced = getattr(self.app.opts, "lang", None)
        if forced:
            return t("settings.lang.forced", lang=t(f"settings.lang.{forced}"))
        choice = self.app.settings["lang"]
        if choice is None:
            return t("settings.lang.auto_is", lang=t(f"settings.lang.{i18n.get_lang()}"))
        return t(f"settings.lang.{choice}")

    def _lang(self, d: int) -> None:
        """Choose the language; this also ends a language forced by ``--lang`` for the
        rest of the session, so what the row says is what the game speaks."""
        s = self.app.settings
        forced = getattr(self.app.opts, "lang", None)
        if forced:
            self.app.opts.lang = None
        s["lang"] = _cycle(LANG_CHOICES, forced or s["lang"], d)
        self.app.set_lang(s["lang"])
        self.app.play("click")

    def _tips(self, on: bool) -> None:
        """Tips on again: every situation is explained afresh."""
        if on:
            self.app.settings["tips_seen"] = []
        self._set("tips", on)

    def _set(self, key: str, value: Any) -> None:
        self.app.settings[key] = value
        if key in ("volume", "muted"):
            self.app.apply_audio_settings()
        if key == "table_colour":
            backdrop.clear()
            for sc in self.app.stack:
                sc._size = (0, 0)
        self.app.play("click")

    def back(self) -> None:
        self.app.save_settings()
        self.app.play("click")
        self.app.pop()

    def _zone(self, zone: int) -> None:
        self.zone = zone
        self.form.active = zone == 0

    def _arrow_between(self, key: int) -> bool:
        """Up and Down go round the rows and Back as through one list (Back last, as
        on the menu screens): Down from the last row to Back, on to the first row;
        Up the other way. Whether ``key`` did."""
        rows = len(self.form.focusable())
        if self.zone == 1 and key in (pygame.K_UP, pygame.K_DOWN):
            self.form.focus = rows - 1 if key == pygame.K_UP else 0
            self._zone(0)
            self.form.ensure_visible()
            return True
        last = self.form.focus == (0 if key == pygame.K_UP else rows - 1)
        if self.zone == 0 and key in (pygame.K_UP, pygame.K_DOWN) and last:
            self._zone(1)
            return True
        return False

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bh = int(max(28, 50 * u))
        top = int(76 * u)
        fw = int(min(w * 0.62, 720 * u))
        rect = pygame.Rect(int(w * 0.05), top, fw, h - top - bh - int(40 * u))
        self.form.layout(rect, u)
        widgets.layout_row(self.buttons.buttons, w // 2, h - int(14 * u) - bh // 2,
                           int(min(w * 0.5, 260 * u)), bh, 0)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.back()
                return True
            if ev.key == pygame.K_TAB:
                self._zone(1 - self.zone)
                return True
            if self._arrow_between(ev.key):
                return True
            if self.zone == 1:
                return self.buttons.handle_event(ev)
            return self.form.handle_event(ev)
        if self.buttons.handle_event(ev):
            return True
        if ev.type == pygame.MOUSEMOTION:
            return False
        return self.form.handle_event(ev)

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t("settings.title")
        widgets.title(surf, title, int(48 * u), int(14 * u))
        widgets.panel(surf, self.form.rect.inflate(int(14 * u), int(14 * u)), u, 205)
        self.form.draw(surf)
        # preview: the chosen back and a card in the chosen colours
        px = self.form.rect.right + int(30 * u)
        avail = w - px - int(20 * u)
        if avail > 60:
            ch = int(min(avail / 1.5, self.form.rect.height * 0.42, 200 * u))
            cw = int(ch * 0.7)
            art = self.app.art
            s = self.app.settings
            back = art.back(s["card_back"], size=(cw, ch))
            face = art.face("TD", s["four_colour"], i18n.get_lang(), size=(cw, ch))
            club = art.face("QC", s["four_colour"], i18n.get_lang(), size=(cw, ch))
            cx = px + avail // 2
            top = self.form.rect.top + int(10 * u)
            surf.blit(back, back.get_rect(midtop=(cx, top)))
            surf.blit(face, face.get_rect(topright=(cx - int(4 * u), top + ch + int(14 * u))))
            surf.blit(club, club.get_rect(topleft=(cx + int(4 * u), top + ch + int(14 * u))))
        self.buttons.draw(surf, u, show_focus=self.zone == 1)


def _num(x: float) -> str:
    s = f"{x:g}"
    return s.replace(".", ",") if i18n.get_lang() == "de" else s
