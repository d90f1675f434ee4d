"""The phone seats on the big screen: a QR code and a short address per phone seat and
the guests' join code (the join panel), and the question when a phone stays away.

QR codes come from segno (pure Python) as a module matrix and are drawn into a pygame
surface here, once per content and size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import pygame

from game.i18n import t
from game.view import text, widgets
from game.view.keys import move_key
from game.view.widgets import Button, FocusList

INK = (16, 24, 20)
PAPER = (250, 248, 240)
OK = (123, 216, 143)
WAIT = (231, 185, 74)
#: Light modules around the code: scanners want a quiet zone.
QUIET = 2


def qr_matrix(data: str) -> list[list[bool]]:
    """The QR code of ``data`` (medium error correction) as rows of dark modules."""
    import segno

    code = segno.make(data, error="m", micro=False)
    return [[bool(v) for v in row] for row in code.matrix]


@lru_cache(maxsize=32)
def qr_surface(data: str, size: int) -> pygame.Surface:
    """A square QR code of ``data`` at most ``size`` pixels wide, whole pixels per
    module (crisp for a phone's camera)."""
    rows = qr_matrix(data)
    n = len(rows) + 2 * QUIET
    module = max(1, size // n)
    surf = pygame.Surface((n * module, n * module))
    surf.fill(PAPER)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surf.fill(INK, ((x + QUIET) * module, (y + QUIET) * module, module, module))
    return surf


def _taken(side: int, label: int, words: str) -> pygame.Surface:
    """In place of the QR code of a seat a device has taken (its owner by its link, or
    a guest with the join code): the seat's token is that device's alone, so the
    screen shows none."""
    surf = pygame.Surface((side, side), pygame.SRCALPHA)
    radius = max(4, side // 12)
    pygame.draw.rect(surf, (22, 38, 30), surf.get_rect(), border_radius=radius)
    pygame.draw.rect(surf, OK, surf.get_rect(), max(2, side // 60), border_radius=radius)
    size = max(12, int(label * 1.1))
    width = side - side // 5
    lines = text.clamp(text.wrap(words, size, width, True), size, width, 4, True)
    top = side // 2 - len(lines) * int(size * 1.25) // 2
    for i, line in enumerate(lines):
        text.blit(surf, line, size, (side // 2, top + i * int(size * 1.25)), OK, "midtop",
                  bold=True)
    return surf


class JoinPanel:
    """The join panel: one tile per phone seat (QR, name, address, connected or not)
    and a line for guests. ``close`` hides it; the table's "Phones" button shows it.

    A seat's link opens it once: once a phone holds the seat, its tile shows no code
    (the screen is everybody's). A seat whose phone is away gets a button for a new
    code (``renew(seat)``; its seat's number on the keyboard), for a phone lost for
    good; the device that held the seat is let go."""

    def __init__(self, close: Callable[[], None],
                 renew: Callable[[int], None] = lambda seat: None) -> None:
        self.close_button = Button(lambda: t("phones.close"), close, name="phones_close",
                                   hotkey=pygame.K_RETURN, hint="Enter")
        self._renew = renew
        self.renew_buttons: dict[int, Button] = {}    # the seats that may have one now
        self.rect = pygame.Rect(0, 0, 0, 0)

    def _renew_button(self, seat: int) -> Button:
        if seat not in self.renew_buttons:
            key = pygame.K_1 + seat if seat < 9 else None
            self.renew_buttons[seat] = Button(
                lambda: t("phones.renew"), lambda: self._renew(seat),
                name=f"phones_renew_{seat}", hotkey=key,
                hint=str(seat + 1) if key is not None else "")
        return self.renew_buttons[seat]

    def draw(self, surf: pygame.Surface, u: float, seats: Sequence[Any], base: str,
             code: str, local_only: bool) -> None:
        w, h = surf.get_size()
        self.rect = rect = pygame.Rect(0, 0, int(w * 0.94), int(h * 0.9))
        rect.center = (w // 2, h // 2)
        widgets.panel(surf, rect, u, 245)
        pad = int(18 * u)
        y = rect.top + pad
        title = max(16, int(34 * u))
        text.blit(surf, t("phones.title"), title, (rect.centerx, y), widgets.CREAM,
                  "midtop", bold=True)
        y += int(title * 1.3)
        small = max(11, int(19 * u))
        for line in text.wrap(t("phones.hint"), small, rect.width - 2 * pad):
            text.blit(surf, line, small, (rect.centerx, y), widgets.CREAM, "midtop")
            y += int(small * 1.25)
        if local_only:
            text.blit(surf, t("phones.local_only"), small, (rect.centerx, y), WAIT, "midtop")
            y += int(small * 1.25)
        bh = int(max(28, 46 * u))
        foot = int(small * 1.4) + bh + 2 * pad
        area = pygame.Rect(rect.left + pad, y + pad // 2, rect.width - 2 * pad,
                           rect.bottom - foot - y)
        k = max(1, len(seats))
        cols = min(k, 5 if area.width > area.height * 1.6 else 3)
        rows = math.ceil(k / cols)
        tw, th = area.width // cols, area.height // rows
        label = max(11, int(20 * u))
        shown: dict[int, Button] = {}
        for i, s in enumerate(seats):
            cell = pygame.Rect(area.left + (i % cols) * tw, area.top + (i // cols) * th, tw, th)
            side = max(40, min(tw - pad, th - 3 * int(label * 1.3) - pad))
            img = qr_surface(s.url, side) if s.url else \
                _taken(side, label, t("phones.taken" if s.by_guest else "phones.joined"))
            top = cell.top + (th - img.get_height() - 3 * int(label * 1.3)) // 2
            surf.blit(img, img.get_rect(midtop=(cell.centerx, top)))
            ty = top + img.get_height() + int(4 * u)
            name = text.ellipsize(f"{s.seat + 1}. {s.name}", label, tw - pad, bold=True)
            text.blit(surf, name, label, (cell.centerx, ty), widgets.CREAM, "midtop", bold=True)
            ty += int(label * 1.3)
            if s.url is None and not s.connected:     # its phone away: a new code?
                b = shown[s.seat] = self._renew_button(s.seat)
                b.rect = pygame.Rect(0, 0, min(tw - pad // 2, int(300 * u)),
                                     int(label * 1.25))
                b.rect.midtop = (cell.centerx, ty - int(label * 0.1))
                b.draw(surf, u, False)
            else:
                addr = text.ellipsize(s.short or t("phones.by_code" if s.by_guest
                                                   else "phones.by_link"),
                                      max(10, int(label * 0.85)), tw - pad // 2)
                text.blit(surf, addr, max(10, int(label * 0.85)), (cell.centerx, ty),
                          widgets.CREAM, "midtop")
            ty += int(label * 1.3)
            state = t("phones.connected") if s.connected else t("phones.waiting")
            text.blit(surf, state, label, (cell.centerx, ty), OK if s.connected else WAIT,
                      "midtop")
        join = t("phones.join", base=base, code=code)
        text.blit(surf, join, max(12, int(24 * u)), (rect.centerx, rect.bottom - foot + pad),
                  widgets.CREAM, "midtop", bold=True)
        self.renew_buttons = shown
        self.close_button.rect = pygame.Rect(0, 0, int(min(rect.width * 0.3, 260 * u)), bh)
        self.close_button.rect.midbottom = (rect.centerx, rect.bottom - pad)
        self.close_button.draw(surf, u, True)

    def handle(self, ev: pygame.event.Event) -> bool:
        for renew in list(self.renew_buttons.values()):
            if renew.pressed(ev):
                renew.action()
                return True
        b = self.close_button
        if (ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and b.rect.collidepoint(ev.pos)) \
                or (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_ESCAPE,
                                                             pygame.K_SPACE)):
            b.action()
            return True
        return ev.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)   # modal


class AwayPrompt:
    """"{name}'s phone has been away": wait, or let a computer level play the seat.

    By keyboard as every other question: the arrows move the focus (Wait first, the
    answer that changes nothing), Enter or Space presses it, each button's letter
    presses that one, and Esc means Wait."""

    def __init__(self, wait: Callable[[], None], stand_in: Callable[[], None],
                 level: str) -> None:
        wait_key, wait_letter = move_key("wait", "key.phones.")
        stand_key, stand_letter = move_key("stand_in", "key.phones.")
        self.list = FocusList([
            Button(lambda: t("phones.wait"), wait, name="phone_wait", hotkey=wait_key,
                   hint=wait_letter),
            Button(lambda: t("phones.stand_in", level=t("level." + level)), stand_in,
                   name="phone_stand_in", hotkey=stand_key, hint=stand_letter),
        ], horizontal=True)

    @property
    def buttons(self) -> list[Button]:
        return self.list.buttons

    def draw(self, surf: pygame.Surface, u: float, name: str) -> None:
        w, h = surf.get_size()
        rect = pygame.Rect(0, 0, int(min(w * 0.8, 760 * u)), int(170 * u))
        rect.center = (w // 2, h // 2)
        widgets.panel(surf, rect, u, 245)
        size = max(14, int(26 * u))
        text.blit(surf, t("phones.away", name=name), size, (rect.centerx, rect.top + int(22 * u)),
                  widgets.CREAM, "midtop", bold=True)
        bh = int(max(28, 48 * u))
        widgets.layout_row(self.buttons, rect.centerx, rect.bottom - int(20 * u) - bh // 2,
                           int(min(rect.width * 0.44, 320 * u)), bh, int(20 * u))
        self.list.draw(surf, u)

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.list.activate(0)          # Esc: wait, as a question's Esc means no
            return True
        return self.list.handle_event(ev)
