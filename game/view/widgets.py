"""Buttons, focus lists and scrollable forms, all usable by mouse and keyboard.

Positions always come from the event itself (``event.pos``), never from
``pygame.mouse.get_pos()``, so synthetic events drive them exactly like real ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from game.drawable import drawable
from game.view import layers, text

GOLD = (222, 184, 92)
CREAM = (245, 236, 210)
DIM = (170, 165, 150)
PANEL = (18, 24, 22, 225)
BUTTON = (52, 74, 62)
BUTTON_HI = (84, 120, 96)
BUTTON_FOCUS = (196, 150, 60)
DISABLED = (60, 60, 60)

NAV_PREV = (pygame.K_UP, pygame.K_LEFT)
NAV_NEXT = (pygame.K_DOWN, pygame.K_RIGHT)
ACTIVATE = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


def tapped(ev: pygame.event.Event) -> bool:
    """A key a person taps through the table with: Enter, Space, or a letter (a move's
    key). An event made by a program may carry no ``unicode``."""
    return ev.type == pygame.KEYDOWN and (
        ev.key in ACTIVATE or str(getattr(ev, "unicode", "")).isalpha())


def title(surf: pygame.Surface, words: str, size: int, top: int, share: float = 0.9) -> int:
    """Draw a screen's heading: gold, bold and shadowed, centred at ``top``, shrunk to
    fit ``share`` of the window's width and shortened with "…" where even the
    smallest size does not fit. Returns the size it was drawn at (what is laid out
    under it is placed from that)."""
    w = surf.get_width()
    fs = text.fit(words, size, int(w * share), True)
    shown = text.ellipsize(words, fs, int(w * share), True)
    text.blit(surf, shown, fs, (w // 2, top), GOLD, "midtop", True, shadow=True)
    return fs


def unit(size: tuple[int, int]) -> float:
    """The UI scale: 1.0 at 1280×720."""
    return max(0.45, min(size[0] / 1280, size[1] / 720))


def panel(surf: pygame.Surface, rect: pygame.Rect, u: float, alpha: int = 225,
          border=GOLD) -> None:
    """A dark translucent panel with a rounded border (drawn once per size and look,
    see :mod:`game.view.layers`)."""
    r = max(4, int(12 * u))
    box = layers.rounded(rect.size, (*PANEL[:3], alpha), r)
    surf.blit(box, rect)
    if border:
        edge = layers.rounded(rect.size, (0, 0, 0, 0), r, tuple(border),
                              max(1, int(2 * u)))
        surf.blit(edge, rect)


@dataclass
class Button:
    label: Callable[[], str] | str
    action: Callable[[], None]
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    hotkey: int | None = None
    enabled: bool = True
    name: str = ""           # for tests: find a button by name
    hint: str = ""           # key shown on the button, e.g. "K"

    def text(self) -> str:
        return self.label() if callable(self.label) else self.label

    def pressed(self, ev: pygame.event.Event) -> bool:
        """``ev`` is this button's hotkey or a left click on it."""
        if ev.type == pygame.KEYDOWN:
            return self.hotkey is not None and ev.key == self.hotkey
        return (ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1
                and self.rect.collidepoint(ev.pos))

    def draw(self, surf: pygame.Surface, u: float, focused: bool, hover: bool = False) -> None:
        r = max(4, int(10 * u))
        base = DISABLED if not self.enabled else (BUTTON_HI if hover else BUTTON)
        shadow = self.rect.move(0, max(1, int(3 * u)))
        pygame.draw.rect(surf, (10, 14, 12), shadow, border_radius=r)
        pygame.draw.rect(surf, base, self.rect, border_radius=r)
        pygame.draw.rect(surf, BUTTON_FOCUS if focused else (30, 40, 34), self.rect,
                         max(2, int((4 if focused else 2) * u)), border_radius=r)
        label = self.text()
        size = int(self.rect.height * 0.5)
        pad = int(self.rect.height * 0.3)
        hint_w = 0
        if self.hint:
            hs = max(10, int(size * 0.75))
            hw, hh = text.size_of(self.hint, hs, True)
            box = pygame.Rect(0, 0, hw + int(10 * u), hh + int(4 * u))
            box.midright = (self.rect.right - pad // 2, self.rect.centery)
            pygame.draw.rect(surf, (25, 32, 28), box, border_radius=max(2, int(4 * u)))
            text.blit(surf, self.hint, hs, box.center, GOLD, "center", True)
            hint_w = box.width + pad // 2
        avail = self.rect.width - 2 * pad - hint_w
        size = text.fit(label, size, max(10, avail), True)
        colour = CREAM if self.enabled else DIM
        cx = self.rect.centerx - hint_w // 2
        text.blit(surf, text.ellipsize(label, size, max(10, avail), True), size,
                  (cx, self.rect.centery), colour, "center", True)


class FocusList:
    """Buttons with one keyboard focus. Arrows/Tab move it, Enter/Space activate,
    hotkeys activate directly, the mouse hovers and clicks."""

    def __init__(self, buttons: list[Button] | None = None, horizontal: bool = False) -> None:
        self.buttons: list[Button] = buttons or []
        self.focus = 0
        self.hover = -1
        self.horizontal = horizontal

    def set(self, buttons: list[Button], keep_focus: bool = False) -> None:
        old = self.buttons[self.focus].name if keep_focus and self.buttons else None
        self.buttons = buttons
        self.focus = 0
        if old is not None:
            for i, b in enumerate(buttons):
                if b.name == old:
                    self.focus = i
        self.hover = -1

    def move(self, step: int) -> None:
        if not self.buttons:
            return
        n = len(self.buttons)
        for _ in range(n):
            self.focus = (self.focus + step) % n
            if self.buttons[self.focus].enabled:
                break

    def activate(self, i: int) -> bool:
        if 0 <= i < len(self.buttons) and self.buttons[i].enabled:
            self.focus = i
            self.buttons[i].action()
            return True
        return False

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if not self.buttons:
            return False
        if ev.type == pygame.MOUSEMOTION:
            self.hover = -1
            for i, b in enumerate(self.buttons):
                if b.rect.collidepoint(ev.pos) and b.enabled:
                    self.hover = i
                    self.focus = i
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            for i, b in enumerate(self.buttons):
                if b.rect.collidepoint(ev.pos):
                    return self.activate(i)
            return False
        if ev.type == pygame.KEYDOWN:
            prev = (pygame.K_LEFT, pygame.K_UP)
            nxt = (pygame.K_RIGHT, pygame.K_DOWN)
            if ev.key in prev or (ev.key == pygame.K_TAB and ev.mod & pygame.KMOD_SHIFT):
                self.move(-1)
                return True
            if ev.key in nxt or ev.key == pygame.K_TAB:
                self.move(1)
                return True
            if ev.key in ACTIVATE:
                return self.activate(self.focus)
            for i, b in enumerate(self.buttons):
                if b.hotkey is not None and ev.key == b.hotkey:
                    return self.activate(i)
        return False

    def draw(self, surf: pygame.Surface, u: float, show_focus: bool = True) -> None:
        for i, b in enumerate(self.buttons):
            b.draw(surf, u, show_focus and i == self.focus, i == self.hover)

    def by_name(self, name: str) -> Button | None:
        for b in self.buttons:
            if b.name == name:
                return b
        return None


def layout_column(buttons: list[Button], center_x: int, top: int, width: int, height: int,
                  gap: int) -> None:
    for i, b in enumerate(buttons):
        b.rect = pygame.Rect(0, 0, width, height)
        b.rect.midtop = (center_x, top + i * (height + gap))


def layout_row(buttons: list[Button], center_x: int, center_y: int, width: int, height: int,
               gap: int) -> None:
    total = len(buttons) * width + (len(buttons) - 1) * gap
    x = center_x - total // 2
    for b in buttons:
        b.rect = pygame.Rect(x, 0, width, height)
        b.rect.centery = center_y
        x += width + gap


# ----------------------------------------------------------------- forms

@dataclass
class Row:
    """One line of a form: a label, a value that ``step(±1)`` changes, a help line.

    ``kind`` is ``choice`` (arrows), ``text`` (editable name) or ``heading``.
    """

    label: Callable[[], str]
    value: Callable[[], str] = lambda: ""
    step: Callable[[int], None] | None = None
    help: Callable[[], str] = lambda: ""
    kind: str = "choice"
    name: str = ""
    visible: Callable[[], bool] = lambda: True
    # text rows
    get_text: Callable[[], str] | None = None
    set_text: Callable[[str], None] | None = None
    # laid out each frame
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    left: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    right: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    box: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    name_box: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))


class Form:
    """A scrollable list of rows inside ``rect``; one row has the focus.

    Up/Down move the focus, Left/Right change the value, Enter edits a text row;
    the wheel scrolls; clicks on the arrows (or the value) change it.
    """

    def __init__(self, rows: list[Row], with_help: bool = True, row_scale: float = 1.0) -> None:
        self.row_scale = row_scale
        self.all_rows = rows
        self.focus = 0
        self.scroll = 0
        self.rect = pygame.Rect(0, 0, 100, 100)
        self.with_help = with_help
        self.editing: Row | None = None
        self.row_h = 40
        self.u = 1.0
        self.active = True     # draw focus highlight

    @property
    def rows(self) -> list[Row]:
        return [r for r in self.all_rows if r.visible()]

    def focusable(self) -> list[Row]:
        return [r for r in self.rows if r.kind != "heading"]

    def focused(self) -> Row | None:
        rows = self.focusable()
        if not rows:
            return None
        self.focus = max(0, min(self.focus, len(rows) - 1))
        return rows[self.focus]

    def help_size(self) -> int:
        return max(15, int(self.row_h * 0.46))

    def help_lines(self, r: Row) -> list[str]:
        """A row's help, wrapped to the row's width (at most two lines)."""
        if not (self.with_help and r.help()):
            return []
        width = max(40, self.rect.width - int(20 * self.u))
        return text.clamp(text.wrap(r.help(), self.help_size(), width), self.help_size(),
                          width, 2)

    def _row_height(self, r: Row) -> int:
        if r.kind == "heading":
            return int(self.row_h * 0.9)
        n = len(self.help_lines(r))
        if not n:
            return self.row_h
        return self.row_h + int(n * text.size_of("Ag", self.help_size())[1] * 1.02) + \
            int(6 * self.u)

    def layout(self, rect: pygame.Rect, u: float) -> None:
        self.rect = rect
        self.u = u
        self.row_h = max(28, int(40 * u * self.row_scale))
        total = sum(self._row_height(r) for r in self.rows)
        self.scroll = max(0, min(self.scroll, total - rect.height))
        y = rect.top - self.scroll
        aw = max(18, int(self.row_h * 0.8))
        val_w = min(int(rect.width * 0.42), int(300 * u))
        for r in self.rows:
            h = self._row_height(r)
            r.rect = pygame.Rect(rect.left, y, rect.width, h)
            top = pygame.Rect(rect.left, y, rect.width, self.row_h)
            r.right = pygame.Rect(0, 0, aw, int(self.row_h * 0.8))
            r.right.midright = (top.right - int(6 * u), top.centery)
            r.box = pygame.Rect(0, 0, val_w, int(self.row_h * 0.8))
            r.box.midright = (r.right.left - int(4 * u), top.centery)
            r.left = pygame.Rect(0, 0, aw, int(self.row_h * 0.8))
            r.left.midright = (r.box.left - int(4 * u), top.centery)
            r.name_box = pygame.Rect(rect.left + int(6 * u), 0,
                                     max(10, r.left.left - rect.left - int(14 * u)),
                                     int(self.row_h * 0.8))
            r.name_box.centery = top.centery
            y += h

    def ensure_visible(self) -> None:
        r = self.focused()
        if r is None:
            return
        if r.rect.top < self.rect.top:
            self.scroll -= self.rect.top - r.rect.top
        elif r.rect.bottom > self.rect.bottom:
            self.scroll += r.rect.bottom - self.rect.bottom
        self.layout(self.rect, self.u)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if self.editing is not None:
            return self._edit_event(ev)
        rows = self.focusable()
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll -= int(ev.y * self.row_h)
            self.layout(self.rect, self.u)
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (4, 5):
            return False  # pygame 2 also sends MOUSEWHEEL
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if not self.rect.collidepoint(ev.pos):
                return False
            for i, r in enumerate(rows):
                if not r.rect.collidepoint(ev.pos):
                    continue
                self.focus = i
                if r.kind == "text":
                    if r.box.collidepoint(ev.pos) or r.rect.collidepoint(ev.pos):
                        self.start_edit(r)
                elif r.kind == "seat" and r.name_box.collidepoint(ev.pos):
                    self.start_edit(r)
                elif r.step is not None:
                    if r.left.collidepoint(ev.pos):
                        r.step(-1)
                    elif r.right.collidepoint(ev.pos) or r.box.collidepoint(ev.pos):
                        r.step(1)
                self.ensure_visible()
                return True
            return True
        if ev.type == pygame.KEYDOWN and rows:
            r = self.focused()
            if ev.key == pygame.K_UP:
                self.focus = (self.focus - 1) % len(rows)
            elif ev.key == pygame.K_DOWN:
                self.focus = (self.focus + 1) % len(rows)
            elif ev.key == pygame.K_PAGEUP:
                self.focus = max(0, self.focus - 6)
            elif ev.key == pygame.K_PAGEDOWN:
                self.focus = min(len(rows) - 1, self.focus + 6)
            elif ev.key in (pygame.K_LEFT, pygame.K_RIGHT) and r is not None:
                if r.step is not None:
                    r.step(-1 if ev.key == pygame.K_LEFT else 1)
                else:
                    return False
            elif ev.key in ACTIVATE and r is not None:
                if r.kind in ("text", "seat"):
                    self.start_edit(r)
                elif r.step is not None:
                    r.step(1)
            else:
                return False
            self.ensure_visible()
            return True
        return False

    def start_edit(self, r: Row) -> None:
        self.editing = r
        try:
            pygame.key.start_text_input()
        except pygame.error:
            pass

    def stop_edit(self) -> None:
        self.editing = None
        try:
            pygame.key.stop_text_input()
        except pygame.error:
            pass

    def _edit_event(self, ev: pygame.event.Event) -> bool:
        r = self.editing
        assert r is not None and r.get_text is not None and r.set_text is not None
        if ev.type == pygame.TEXTINPUT:    # a name: only what the table can draw (no emoji)
            r.set_text((r.get_text() + drawable(ev.text))[:16])
            return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_BACKSPACE:
                r.set_text(r.get_text()[:-1])
            elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB,
                            pygame.K_UP, pygame.K_DOWN):
                self.stop_edit()
                if ev.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                    return self.handle_event(ev) or True
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN:
            self.stop_edit()
            return self.handle_event(ev)
        return False

    def _draw_field(self, surf: pygame.Surface, r: Row, box: pygame.Rect, fs: int) -> None:
        u = self.u
        editing = self.editing is r
        pygame.draw.rect(surf, (250, 245, 230) if editing else (40, 52, 46), box,
                         border_radius=max(2, int(5 * u)))
        pygame.draw.rect(surf, GOLD, box, 1, border_radius=max(2, int(5 * u)))
        val = r.get_text() if r.get_text else ""
        if not val and not editing:
            val = r.label()
        colour = (20, 20, 20) if editing else CREAM
        shown = text.ellipsize(val, fs, box.width - int(14 * u))
        img = text.blit(surf, shown, fs, (box.left + int(8 * u), box.centery), colour,
                        "midleft")
        if editing:
            x = img.right + 2
            pygame.draw.line(surf, (20, 20, 20), (x, box.top + int(box.height * 0.2)),
                             (x, box.bottom - int(box.height * 0.2)), max(1, int(2 * u)))

    def draw(self, surf: pygame.Surface) -> None:
        u = self.u
        clip = surf.get_clip()
        surf.set_clip(self.rect)
        focus_row = self.focused() if self.active else None
        fs = max(12, int(self.row_h * 0.5))
        for r in self.rows:
            if r.rect.bottom < self.rect.top or r.rect.top > self.rect.bottom:
                continue
            if r.kind == "heading":
                text.blit(surf, r.label(), int(fs * 1.1), (r.rect.left + int(4 * u),
                          r.rect.bottom - int(4 * u)), GOLD, "bottomleft", True)
                pygame.draw.line(surf, GOLD, (r.rect.left, r.rect.bottom - 1),
                                 (r.rect.right, r.rect.bottom - 1), 1)
                continue
            if r is focus_row:
                hl = pygame.Surface(r.rect.size, pygame.SRCALPHA)
                hl.fill((255, 220, 140, 38))
                surf.blit(hl, r.rect)
                pygame.draw.rect(surf, BUTTON_FOCUS, r.rect, max(1, int(2 * u)),
                                 border_radius=max(2, int(6 * u)))
            top_cy = r.rect.top + self.row_h // 2
            label_w = r.left.left - r.rect.left - int(14 * u)
            if r.kind == "text":
                label_w = r.box.left - r.rect.left - int(14 * u)
            if r.kind == "seat":
                self._draw_field(surf, r, r.name_box, fs)
            else:
                lsz = text.fit(r.label(), fs, max(20, label_w), False, max(10, fs - 6))
                text.blit(surf, text.ellipsize(r.label(), lsz, max(20, label_w)), lsz,
                          (r.rect.left + int(10 * u), top_cy), CREAM, "midleft")
            if r.kind == "text":
                self._draw_field(surf, r, r.box.union(r.right), fs)
            else:
                pygame.draw.rect(surf, (40, 52, 46), r.box, border_radius=max(2, int(5 * u)))
                val = r.value()
                vs = text.fit(val, fs, r.box.width - int(10 * u), True, 10)
                text.blit(surf, text.ellipsize(val, vs, r.box.width - 6, True), vs,
                          r.box.center, GOLD, "center", True)
                for box, sign in ((r.left, -1), (r.right, 1)):
                    pygame.draw.rect(surf, BUTTON, box, border_radius=max(2, int(5 * u)))
                    cx, cy = box.center
                    a = box.height * 0.25
                    pts = [(cx + sign * a, cy), (cx - sign * a * 0.7, cy - a),
                           (cx - sign * a * 0.7, cy + a)]
                    pygame.draw.polygon(surf, CREAM, pts)
            lines = self.help_lines(r)
            if lines:
                hsz = self.help_size()
                lh = int(text.size_of("Ag", hsz)[1] * 1.02)
                for k, line in enumerate(lines):
                    text.blit(surf, line, hsz, (r.rect.left + int(10 * u),
                                                r.rect.top + self.row_h + k * lh),
                              (190, 184, 168), "topleft")
        surf.set_clip(clip)
        # a scroll bar when the rows do not fit
        total = sum(self._row_height(r) for r in self.rows)
        if total > self.rect.height:
            bar_h = max(20, int(self.rect.height * self.rect.height / total))
            y = self.rect.top + int((self.rect.height - bar_h) * self.scroll /
                                    max(1, total - self.rect.height))
            bar = pygame.Rect(self.rect.right + int(4 * u), y, max(3, int(5 * u)), bar_h)
            pygame.draw.rect(surf, GOLD, bar, border_radius=3)
