"""A screen's layout checked from what it really draws: every line of text and every
button drawn on the window in one frame is recorded (``text.blit``, ``Button.draw``),
then :func:`problems` names what is cut off by the window's edge, what lies on
something else, every button whose label did not fit, and every text shortened with
an ellipsis to fit its place (``text.ellipsize``) that was then drawn.

Text drawn onto a layer that is blitted later (banners, summaries) is not seen; such
layers are sized to what they hold. A panel drawn over earlier text (a dialog, the
pause menu, a tip, a message) covers it on purpose: text and buttons it covers are
left out of the overlap checks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pygame

from game.view import text, widgets


@dataclass
class Frame:
    window: pygame.Rect
    texts: list[tuple[str, pygame.Rect]] = field(default_factory=list)
    buttons: list[tuple[str, pygame.Rect, str]] = field(default_factory=list)
    cut_labels: list[str] = field(default_factory=list)
    #: texts shortened to fit (``text.ellipsize``): what was shown -> the whole text
    shortened: dict[str, str] = field(default_factory=dict)
    #: (text or button, rect) in drawing order; panels as ("<panel>", rect)
    order: list[tuple[str, pygame.Rect]] = field(default_factory=list)

    def covered(self) -> set[int]:
        """Indices (into ``order``) of things a later panel lies on."""
        out = set()
        for i, (what, r) in enumerate(self.order):
            if what == "<panel>":
                continue
            for what2, p in self.order[i + 1:]:
                if what2 == "<panel>" and p.colliderect(r):
                    out.add(i)
                    break
        return out


@contextmanager
def recording(app) -> Iterator[Frame]:
    """Record what one ``app.draw()`` puts on the window (inside the ``with``)."""
    frame = Frame(app.screen.get_rect())
    blit, draw, panel, ellipsize = text.blit, widgets.Button.draw, widgets.panel, \
        text.ellipsize
    in_button = [0]
    cut: dict[str, str] = {}

    def spy_ellipsize(s, *a, **kw):
        shown = ellipsize(s, *a, **kw)
        if shown != s:
            cut[shown] = s
        return shown

    def spy_blit(surf, s, size, pos, *a, **kw):
        rect = blit(surf, s, size, pos, *a, **kw)
        clip = surf.get_clip()
        # a scrolled list shows part of a line; the window's own edge cuts it off
        seen = rect.clip(clip) if clip != surf.get_rect() else rect
        if surf is app.screen and s.strip() and not in_button[0] and seen.height > 2:
            frame.texts.append((s, seen))
            frame.order.append((s, seen))
            if s in cut:
                frame.shortened[s] = cut[s]
        return rect

    def spy_panel(surf, rect, *a, **kw):
        panel(surf, rect, *a, **kw)
        if surf is app.screen:
            frame.order.append(("<panel>", pygame.Rect(rect)))

    def spy_draw(self, surf, u, focused, hover=False):
        in_button[0] += 1
        try:
            draw(self, surf, u, focused, hover)
        finally:
            in_button[0] -= 1
        if surf is app.screen:
            label = self.text()
            frame.buttons.append((label, self.rect.copy(), self.name))
            frame.order.append(("<button>" + label, self.rect.copy()))
            size = int(self.rect.height * 0.5)
            pad = int(self.rect.height * 0.3)
            hint_w = 0
            if self.hint:
                hs = max(10, int(size * 0.75))
                hint_w = text.size_of(self.hint, hs, True)[0] + int(10 * u) + pad // 2
            avail = max(10, self.rect.width - 2 * pad - hint_w)
            fs = text.fit(label, size, avail, True)
            if text.size_of(label, fs, True)[0] > avail:
                frame.cut_labels.append(label)

    text.blit = spy_blit
    widgets.Button.draw = spy_draw
    widgets.panel = spy_panel
    text.ellipsize = spy_ellipsize
    try:
        yield frame
    finally:
        text.blit, widgets.Button.draw, widgets.panel, text.ellipsize = \
            blit, draw, panel, ellipsize


def _overlap(a: pygame.Rect, b: pygame.Rect) -> bool:
    """Two boxes of text lie on each other: more than a sliver of both (a line's box
    is taller than its letters, so neighbouring lines may touch)."""
    c = a.clip(b)
    if c.width <= 3 or c.height <= 0:
        return False
    return c.height > 0.4 * min(a.height, b.height)


#: Texts that may be shortened: a file's name can have any length.
MAY_SHORTEN = (".json",)


def problems(frame: Frame, where: str = "") -> list[str]:
    out: list[str] = []
    for shown, whole in frame.shortened.items():
        if not any(m in whole for m in MAY_SHORTEN):
            out.append(f"{where}: text cut short: {whole!r} shown as {shown!r}")
    win = frame.window.inflate(2, 2)
    for s, r in frame.texts:
        if not win.contains(r):
            out.append(f"{where}: text cut off by the window: {s!r} at {r}")
    for label, r, name in frame.buttons:
        if not win.contains(r):
            out.append(f"{where}: button outside the window: {name or label!r} at {r}")
    for label in frame.cut_labels:
        out.append(f"{where}: button label does not fit: {label!r}")
    hidden = frame.covered()
    shown = [(w, r) for i, (w, r) in enumerate(frame.order) if i not in hidden]
    buttons = [(w[len("<button>"):], r, "") for w, r in shown if w.startswith("<button>")]
    texts = [(w, r) for w, r in shown if not w.startswith("<")]
    for i, (la, ra, _) in enumerate(buttons):
        for lb, rb, _ in buttons[i + 1:]:
            if ra.colliderect(rb) and ra != rb:
                out.append(f"{where}: buttons on each other: {la!r} {ra} and {lb!r} {rb}")
    for i, (sa, ra) in enumerate(texts):
        for sb, rb in texts[i + 1:]:
            if (sa, ra) != (sb, rb) and _overlap(ra, rb):
                out.append(f"{where}: text on text: {sa!r} {ra} and {sb!r} {rb}")
        for lb, rb, _ in buttons:
            if _overlap(ra, rb) and not rb.contains(ra):
                out.append(f"{where}: text on a button: {sa!r} {ra} and {lb!r} {rb}")
    return out


def drawn_strings(monkeypatch) -> list[str]:
    """Every string drawn from now on (all text goes through ``text.render``)."""
    seen: list[str] = []
    render = text.render

    def spy(s, *a, **kw):
        seen.append(s)
        return render(s, *a, **kw)

    monkeypatch.setattr(text, "render", spy)
    return seen
