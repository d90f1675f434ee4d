"""Drawing what both tables share: the felt, name plates with lives, chips, the dealer
button, cards, speech bubbles, banners, the top bar, the log, the coach's badges,
confetti and the message of a failed computer player.

A painter only draws: it reads the table (the :class:`PaintHost`), its model and its
layout, and changes none of them. What it prepares per window size (the felt with the
table drawn on it) is made in :meth:`TablePainter.prepare`, the layout step.
Each game's painter (``chase_painter.py``, ``rams_painter.py``) subclasses it.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import pygame

from game import i18n
from game.i18n import t
from game.table import bubbles
from game.table.animator import chip_colour
from game.table.layout import TableGeometry, badge_height
from game.turn.sources import RECORD
from game.turn.texts import SeatNames, log_text
from game.view import cardart, layers, text, timing, widgets
from game.view.sprites import Banner, Bubble, CardSprite


class PaintHost(Protocol):
    """What painters read from their table (never write)."""

    app: Any               # ``art`` (card images), ``settings``
    model: Any             # the game's model (game.table.model)
    animator: Any          # the game's animator: which faces may show
    table_layout: Any      # the game's layout (game.table.layout)
    names: SeatNames
    game: Any              # the engine: its rules
    demo: bool
    clock: float           # seconds since the table opened (pulsing, dots)
    state: str             # the turn flow's phase
    pending: Any           # the pending decision (or None)
    thinking_seat: int | None
    flow: Any              # the turn flow (game.turn.flow): each seat's move source
    viewer: int | None
    humans: list[int]      # seats of the people at this screen
    controls: Any          # the game's controls (the person's decision, what they know)
    actions: widgets.FocusList
    menu_button: widgets.Button
    hint_button: widgets.Button
    coach: Any             # game.turn.coach.Coach
    tips: Any              # the first game's tips (game.table.tip_panel): where one shows
    phone_room: Any        # the phones' panel and question (game.scenes.table_phones)

    fast_button: widgets.Button
    skipping: bool         # fast-forwarding now

    def hint_allowed(self) -> bool: ...
    def skip_allowed(self) -> bool: ...
    def hold_note(self) -> str: ...
    def seat_tag(self, seat: int) -> str: ...
    def failure_lines(self) -> list[str]: ...
    def hidden_hand(self) -> int | None: ...
    def peek_note(self) -> str: ...


#: A plate's note that a seat's phone is gone (the amber of a warning).
AWAY = (240, 150, 60)

#: The room with the table drawn on it, by window size and felt (kept across tables, so
#: the attract mode's next game or "Play again" starts without redrawing it).
_rooms: dict[tuple, tuple[pygame.Surface, pygame.Surface]] = {}


class TablePainter:
    def __init__(self, host: PaintHost) -> None:
        self.host = host
        self.table_surf: pygame.Surface | None = None

    def move_focus_shown(self) -> bool:
        """The move buttons' focus ring shows only where Enter would press that button:
        not under a first-game tip (a key puts it away) nor under the phones' panel or
        question (they take every key, and the question has its own ring)."""
        h = self.host
        return not (h.tips.showing() or h.phone_room.covering())

    # ------------------------------------------------------------------ layout step

    def prepare(self, geo: TableGeometry, felt: pygame.Surface) -> None:
        """Everything that depends on the window size only, made before it is needed:
        the room with the table, the top bar's shade and the log's panel drawn on it,
        and the card faces and backs the table will show, at the sizes it shows them
        (so no animation waits for a card to be scaled)."""
        key = (geo.size, id(felt), type(self).__name__)
        hit = _rooms.get(key)
        if hit is not None and hit[0] is felt:
            self.table_surf = hit[1]
        else:
            surf = self._build_table(geo, felt)
            self.chrome(surf, geo)
            if len(_rooms) > 4:
                _rooms.clear()
            _rooms[key] = (felt, surf)
            self.table_surf = surf
        self.prepare_art(geo)

    def chrome(self, surf: pygame.Surface, g: TableGeometry) -> None:
        """What never moves, drawn onto the room once: the top bar's shade and the
        log's panel."""
        surf.blit(layers.shade((g.size[0], g.top_h), (0, 0, 0, 120)), (0, 0))
        widgets.panel(surf, g.log_panel, g.u, 170, border=(90, 80, 60))

    def art_sizes(self, g: TableGeometry) -> list[tuple[int, int]]:
        """The sizes faces are shown at on this table (the card unit, the big card)."""
        return [(g.cw, g.ch), tuple(g.big)]

    def back_sizes(self, g: TableGeometry) -> list[tuple[int, int]]:
        """Further sizes only backs are shown at (a game's small face-down hands)."""
        return []

    def prepare_art(self, g: TableGeometry) -> None:
        """Scale every face of the game's deck and the back now, at every size the
        table shows cards at."""
        h = self.host
        settings = h.app.settings
        deck = sorted(set(getattr(h.game, "deck", ()) or ()))
        art = h.app.art
        art.prepare(deck, self.art_sizes(g), settings["four_colour"], i18n.get_lang(),
                    settings["card_back"])
        for size in self.back_sizes(g):
            art.back(settings["card_back"], size)

    def _build_table(self, g: TableGeometry, felt: pygame.Surface) -> pygame.Surface:
        size, u = g.size, g.u
        surf = pygame.Surface(size).convert()
        surf.fill((30, 22, 18))
        # a warm room: darker towards the edges
        glow = pygame.Surface((64, 36), pygame.SRCALPHA)
        for i in range(18, 0, -1):
            a = int(10 + (18 - i) * 2.5)
            pygame.draw.ellipse(glow, (90, 60, 40, a),
                                pygame.Rect(32 - i * 2, 18 - i, i * 4, i * 2))
        surf.blit(pygame.transform.smoothscale(glow, size), (0, 0))
        area = g.area
        table = area.inflate(-int(area.width * 0.02), -int(area.height * 0.04))
        rim = max(6, int(18 * u))
        pygame.draw.ellipse(surf, (20, 12, 8), table.move(0, int(8 * u)))
        pygame.draw.ellipse(surf, (110, 66, 36), table)
        pygame.draw.ellipse(surf, (140, 90, 50), table, max(2, int(4 * u)))
        felt_rect = table.inflate(-2 * rim, -2 * rim)
        felt_s = pygame.Surface(felt_rect.size, pygame.SRCALPHA)
        felt_s.blit(felt, (0, 0), pygame.Rect(felt_rect.topleft, felt_rect.size))
        mask = pygame.Surface(felt_rect.size, pygame.SRCALPHA)
        pygame.draw.ellipse(mask, (255, 255, 255, 255), mask.get_rect())
        felt_s.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        surf.blit(felt_s, felt_rect)
        pygame.draw.ellipse(surf, (0, 0, 0), felt_rect, max(1, int(2 * u)))
        inner = felt_rect.inflate(-int(felt_rect.width * 0.3), -int(felt_rect.height * 0.3))
        line = tuple(min(255, c + 22) for c in felt.get_at(felt_rect.center)[:3])
        pygame.draw.ellipse(surf, line, inner, max(1, int(1.5 * u)))
        return surf

    # ------------------------------------------------------------------ pieces

    @property
    def geo(self) -> Any:
        return self.host.table_layout.geo

    def draw_felt(self, surf: pygame.Surface) -> None:
        if self.table_surf is not None:
            surf.blit(self.table_surf, (0, 0))

    def chip(self, surf: pygame.Surface, pos: tuple[float, float], r: int,
             colour: tuple[str, tuple[int, int, int]], alpha: float = 1.0) -> None:
        x, y = int(pos[0]), int(pos[1])
        name, rgb = colour
        img = cardart.scaled_sprite((2 * r + 2, 2 * r + 2), "chips", f"chip_{name}.png")
        if img is not None:
            if alpha < 0.99:
                img = img.copy()
                img.set_alpha(int(255 * max(0.0, alpha)))
            surf.blit(img, img.get_rect(center=(x, y)))
            return
        if alpha < 0.99:
            tmp = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
            self.chip(tmp, (r + 1, r + 1), r, (name, rgb))
            tmp.set_alpha(int(255 * max(0.0, alpha)))
            surf.blit(tmp, (x - r - 1, y - r - 1))
            return
        pygame.draw.circle(surf, (20, 20, 20), (x, y + max(1, r // 5)), r)
        pygame.draw.circle(surf, rgb, (x, y), r)
        pygame.draw.circle(surf, (245, 240, 230), (x, y), r, max(1, r // 4))
        pygame.draw.circle(surf, rgb, (x, y), max(1, r // 2))

    def flying_chips(self, surf: pygame.Surface) -> None:
        u = self.geo.u
        resolve = self.host.table_layout.resolve
        for c in self.host.model.chips:
            x, y = c.pos(resolve, self.geo.ch)
            self.chip(surf, (x, y), max(4, int(9 * u)), c.colour, c.alpha)

    def dealer_button(self, surf: pygame.Surface) -> None:
        button = self.host.model.button
        if button.alpha <= 0.01:
            return
        x, y = button.pos(self.host.table_layout.resolve)
        r = max(8, int(16 * self.geo.u))
        pygame.draw.circle(surf, (20, 20, 20), (int(x), int(y) + 2), r)
        pygame.draw.circle(surf, (245, 240, 225), (int(x), int(y)), r)
        pygame.draw.circle(surf, (160, 120, 40), (int(x), int(y)), r, max(1, r // 6))
        text.blit(surf, t("table.dealer_letter"), int(r * 1.3), (x, y + 1), (30, 30, 30),
                  "center", True)

    def plate_tag(self, seat: int) -> str | None:
        """A game's own text at the bottom right of a plate (None: the seat's kind)."""
        return None

    def plate_base(self, size: tuple[int, int], out: bool, turn: bool) -> pygame.Surface:
        """A plate's board (shadow, fill, border), drawn once per size and state."""
        u = self.geo.u

        def make() -> pygame.Surface:
            w, hh = size
            drop = max(1, int(3 * u))
            img = pygame.Surface((w, hh + drop), pygame.SRCALPHA)
            rad = max(4, int(10 * u))
            col = (34, 30, 26) if out else (50, 38, 28)
            pygame.draw.rect(img, (10, 8, 6), pygame.Rect(0, drop, w, hh), border_radius=rad)
            pygame.draw.rect(img, col, pygame.Rect(0, 0, w, hh), border_radius=rad)
            border = widgets.BUTTON_FOCUS if turn else ((90, 80, 70) if out else
                                                        (150, 110, 60))
            pygame.draw.rect(img, border, pygame.Rect(0, 0, w, hh), max(1, int(2 * u)),
                             border_radius=rad)
            return img

        return layers.cached(("plate", size, out, turn, round(u, 3)), make)

    def plate(self, surf: pygame.Surface, s: int) -> None:
        h, m = self.host, self.host.model
        u = self.geo.u
        r = h.table_layout.plate_rect(s)
        out = m.out[s]
        turn = h.pending is not None and h.pending.seat == s and h.state in ("human",
                                                                             "thinking")
        surf.blit(self.plate_base(r.size, out, turn), r.move(0, 0).topleft)
        if turn:
            glow = r.inflate(int(8 * u), int(8 * u))
            pulse = 0.5 + 0.5 * math.sin(h.clock * 5)
            pygame.draw.rect(surf, (230, 190, 80), glow, max(1, int((2 + 2 * pulse) * u)),
                             border_radius=max(4, int(14 * u)))
        pad = int(8 * u)
        name = h.names.name(s)
        # a phone that is gone says so over a game's own note (a seat's tricks): the
        # people at the table see it at once, in the colour of a warning
        away = h.phone_room.away(s)
        tag = None if away else self.plate_tag(s)
        if tag is None:
            tag = h.seat_tag(s)
        avail = r.width - 2 * pad
        colour = (130, 120, 110) if out else widgets.CREAM
        ns = text.fit(name, max(11, int(r.height * 0.38)), avail, True, 10)
        text.blit(surf, text.ellipsize(name, ns, avail, True), ns,
                  (r.left + pad, r.top + int(r.height * 0.08)), colour, "topleft", True)
        cr = max(3, int(r.height * 0.11))
        y = r.bottom - cr - int(r.height * 0.12)
        if out:
            text.blit(surf, t("table.out"), max(10, int(r.height * 0.3)),
                      (r.left + pad, y), (200, 80, 70), "midleft", True)
        elif m.sudden and m.lives[s] == 0:
            text.blit(surf, t("table.sudden"), max(10, int(r.height * 0.3)),
                      (r.left + pad, y), (240, 150, 60), "midleft", True)
        else:
            self.plate_stack(surf, s, (r.left + pad, y), cr)
        if tag:
            ts = max(11, int(r.height * 0.28))
            text.blit(surf, text.ellipsize(tag, ts, r.width // 2), ts,
                      (r.right - pad, y), AWAY if away else widgets.DIM, "midright")
        if s == h.thinking_seat:
            dots = "." * (1 + int(h.clock * 3) % 3)
            text.blit(surf, dots, int(r.height * 0.5), (r.right - pad, r.top + 2),
                      widgets.GOLD, "topright", True)

    def plate_stack(self, surf: pygame.Surface, s: int, left: tuple[int, int],
                    cr: int) -> None:
        """A seat's lives on its plate: a chip for each, a ring for each lost."""
        m = self.host.model
        x0, y = left
        full = self.host.game.rules["lives"]
        for i in range(max(full, m.lives[s])):
            cx = x0 + cr + i * int(cr * 2.4)
            if i < m.lives[s]:
                # a light rim: every chip colour (black too) stands out on the plate
                pygame.draw.circle(surf, (205, 190, 160), (cx, y), cr + max(1, cr // 4))
                self.chip(surf, (cx, y), cr, chip_colour(s))
            else:
                pygame.draw.circle(surf, (90, 80, 70), (cx, y), cr, 1)

    def card(self, surf: pygame.Surface, sp: CardSprite, scale: float = 1.0) -> None:
        """A card at its place; ``scale`` shrinks it further (a fanned hand)."""
        g = self.geo
        art = self.host.app.art
        settings = self.host.app.settings
        x, y = sp.pos(self.host.table_layout.resolve, g.ch)
        w, h = g.cw, g.ch
        k = sp.scale * scale
        size = (max(1, int(w * k)), max(1, int(h * k)))
        # at rest (or at a resting scale such as a fanned hand) the card comes scaled
        # from the cache; while it flips or grows a quick scale of it stands in
        resting = abs(k - round(k, 2)) < 1e-6
        base = size if resting else (w, h)
        if sp.code is None:
            img = art.back(settings["card_back"], size=base)
        else:
            img = art.face(sp.code, settings["four_colour"], i18n.get_lang(), size=base)
        sw = max(1, int(size[0] * sp.scale_x))
        if (sw, size[1]) != img.get_size():
            img = pygame.transform.scale(img, (sw, size[1]))
        rect = img.get_rect(center=(int(x), int(y)))
        off = max(1, w // 25)
        surf.blit(layers.rounded(rect.size, (10, 20, 14, 255), max(2, w // 9)),
                  rect.move(off, off))
        if sp.alpha < 0.99:
            img = img.copy()
            img.set_alpha(int(255 * sp.alpha))
        surf.blit(img, rect)
        if sp.highlight:
            pygame.draw.rect(surf, (230, 50, 40), rect.inflate(6, 6), max(2, int(4 * g.u)),
                             border_radius=max(2, w // 8))

    def bubble(self, surf: pygame.Surface, b: Bubble) -> None:
        if b.alpha <= 0.02:
            return
        u = self.geo.u
        msg = b.text()
        size = max(12, int((18 if b.kind == "small" else 24) * u))
        w, h = surf.get_size()
        tw, th = text.size_of(msg, size, True)
        tw = min(tw, int(w * 0.4))
        tips = self.host.tips
        box, tail = bubbles.place(self.host.table_layout.plate_rect(b.seat), self.geo.cx,
                                  (tw + int(22 * u), th + int(14 * u)), surf.get_rect(),
                                  tips.rect if tips.showing() else None, u)
        k = int(7 * u)
        layer = layers.cached(("bubble", msg, size, box.size, tail, round(u, 3)),
                              lambda: bubbles.picture(msg, size, box, k, tail, u))
        layer.set_alpha(int(255 * min(1.0, b.alpha)))
        surf.blit(layer, (box.left - k, box.top))

    def bubbles(self, surf: pygame.Surface) -> None:
        for b in self.host.model.bubbles:
            self.bubble(surf, b)

    def banner(self, surf: pygame.Surface) -> None:
        b: Banner | None = self.host.model.banner
        if b is None or b.alpha <= 0.02:
            return
        g = self.geo
        u = g.u
        w, h = surf.get_size()
        msg = b.text()
        size = text.fit(msg, int((56 if b.big else 36) * u), int(w * 0.86), True, 12)
        sub = b.sub() if b.sub else ""
        ss = text.fit(sub, int(26 * u), int(w * 0.86), False, 10) if sub else 0
        th = text.size_of(msg, size, True)[1] + (int(ss * 1.3) if sub else 0)
        box = pygame.Rect(0, 0, int(w * 0.9), th + int(28 * u))
        box.center = (w // 2, int(g.cy - g.ch * 0.2))
        layer = layers.cached(("banner", msg, sub, size, ss, box.size, round(u, 3)),
                              lambda: self._banner_layer(msg, sub, size, ss, box.size))
        layer.set_alpha(int(255 * min(1.0, b.alpha)))
        surf.blit(layer, box)

    def _banner_layer(self, msg: str, sub: str, size: int, ss: int,
                      box_size: tuple[int, int]) -> pygame.Surface:
        u = self.geo.u
        box = pygame.Rect((0, 0), box_size)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, (15, 12, 10, 215), layer.get_rect(),
                         border_radius=max(4, int(14 * u)))
        pygame.draw.rect(layer, widgets.GOLD, layer.get_rect(), max(1, int(2 * u)),
                         border_radius=max(4, int(14 * u)))
        y = int(14 * u)
        text.blit(layer, msg, size, (box.width // 2, y), widgets.GOLD, "midtop", True)
        if sub:
            text.blit(layer, sub, ss, (box.width // 2, y + text.size_of(msg, size, True)[1]
                                       + int(ss * 0.2)), widgets.CREAM, "midtop")
        return layer

    def top_bar(self, surf: pygame.Surface) -> None:
        h, m, g = self.host, self.host.model, self.geo
        u = g.u
        w = surf.get_width()
        bar = pygame.Rect(0, 0, w, g.top_h)     # its shade is part of the room (chrome)
        h.menu_button.draw(surf, u, False)
        right = h.menu_button.rect.right
        if h.hint_allowed():
            h.hint_button.draw(surf, u, h.coach.visible())
            right = h.hint_button.rect.right
        elif h.skipping or h.skip_allowed():
            h.fast_button.draw(surf, u, h.skipping)
            right = h.fast_button.rect.right
        parts = [t("table.round", n=m.round + 1)]
        if m.dealer is not None:
            parts.append(t("table.dealer", name=h.names.name(m.dealer)))
        if m.sudden:
            parts.append(t("table.sudden"))
        if h.demo:
            parts.append(t("table.demo"))
        info = "  ·  ".join(parts)
        left = max(right, h.hint_button.rect.right) + int(16 * u)
        avail = w - left - self.top_bar_right(surf)
        fs = text.fit(info, int(bar.height * 0.5), avail, True, 10)
        text.blit(surf, text.ellipsize(info, fs, avail, True), fs,
                  (left + avail // 2, bar.centery), widgets.CREAM, "center", True)

    def top_bar_right(self, surf: pygame.Surface) -> int:
        """Room the game keeps at the right end of the top bar."""
        return int(16 * self.geo.u)

    def note(self, surf: pygame.Surface, msg: str, center: tuple[int, int], max_w: int,
             pulse: bool = True) -> pygame.Rect:
        """A short message on a dark pill (how to go on after a reveal), on two lines
        where one would be cut short: in the Rams table's narrow strip at the left the
        countdown of "continue (goes on in 2 s)" was lost."""
        u = self.geo.u
        inner = max(10, max_w - int(24 * u))
        fs = text.fit(msg, max(12, int(22 * u)), inner, True, 10)
        lines = text.clamp(text.wrap(msg, fs, inner, True), fs, inner, 2, True)
        th = text.size_of(msg, fs, True)[1]
        tw = max(text.size_of(line, fs, True)[0] for line in lines)
        box = pygame.Rect(0, 0, min(max_w, tw + int(28 * u)), th * len(lines) + int(12 * u))
        box.center = center
        widgets.panel(surf, box, u, 225, border=widgets.GOLD)
        a = 1.0
        if pulse:
            a = 0.75 + 0.25 * math.sin(self.host.clock * 2 * math.pi / timing.CONTINUE_BLINK)
        col = tuple(int(c * a) for c in widgets.GOLD)
        for i, line in enumerate(lines):
            text.blit(surf, line, fs, (box.centerx, box.centery + (2 * i + 1 - len(lines))
                                       * th // 2), col, "center", True)
        return box

    def peek_box(self, surf: pygame.Surface, msg: str, center: tuple[int, int],
                 max_w: int) -> None:
        """How to look at (or hide) hidden cards, wrapped to fit on them."""
        u = self.geo.u
        fs = max(11, int(17 * u))
        lines = text.wrap(msg, fs, max(10, max_w - int(16 * u)), True)
        lh = int(fs * 1.2)
        box = pygame.Rect(0, 0, max_w, lh * len(lines) + int(12 * u))
        box.center = center
        box.clamp_ip(surf.get_rect())
        widgets.panel(surf, box, u, 230, border=widgets.GOLD)
        for i, line in enumerate(lines):
            text.blit(surf, line, fs, (box.centerx, box.top + int(6 * u) + i * lh),
                      widgets.GOLD, "midtop", True)

    def log(self, surf: pygame.Surface) -> None:
        h = self.host
        u = self.geo.u
        lp = self.geo.log_panel                  # its panel is part of the room (chrome)
        fs = max(13, int(18 * u))
        lh = int(fs * 1.05)
        inner_w = lp.width - int(16 * u)
        lines: list[str] = []
        for key, fmt, to in h.model.log:
            if to is not None and to != h.viewer:
                continue
            lines.extend(text.wrap(log_text(key, fmt), fs, inner_w))
        max_lines = max(1, (lp.height - int(12 * u)) // lh)
        lines = lines[-max_lines:]
        for i, line in enumerate(lines):
            col = widgets.CREAM if i == len(lines) - 1 else (200, 192, 175)
            text.blit(surf, line, fs, (lp.left + int(8 * u), lp.top + int(6 * u) + i * lh),
                      col)

    def waiting_text(self) -> str:
        """Whom the table waits for: a computer thinks; a phone's player decides on
        the phone, or the phone is away (a computer standing in thinks); in a replay,
        whose move the record plays next."""
        h = self.host
        seat = h.thinking_seat
        name = h.names.name(seat)
        if h.flow.source(seat).kind == RECORD:       # a replay: nobody is deciding
            return t("table.replay_next", name=name)
        room = getattr(h, "phones", None)
        if room is not None and seat in room.sources:
            if seat in room.link.connected:
                return t("table.phone_deciding", name=name)
            if not room.sources[seat].standing_in:
                return t("table.phone_waiting", name=name)
        return t("table.thinking", name=name)

    def hint_badge_h(self) -> int:
        return badge_height(self.geo.u)

    def hint_badge(self, surf: pygame.Surface, msg: str, center: tuple[int, int],
                   max_w: int, best: bool) -> None:
        """A small pill with a move's risk; the coach's suggestion in gold."""
        u = self.geo.u
        bh = self.hint_badge_h()
        fs = text.fit(msg, int(bh * 0.74), max(10, max_w - int(12 * u)), True, 9)
        tw = text.size_of(msg, fs, True)[0]
        box = pygame.Rect(0, 0, min(max_w, tw + int(16 * u)), bh)
        box.center = center
        fill, ink, edge = ((236, 196, 96), (40, 28, 10), (120, 84, 20)) if best else \
            ((28, 34, 30), widgets.CREAM, (150, 140, 110))
        pygame.draw.rect(surf, (10, 10, 8), box.move(0, max(1, int(2 * u))),
                         border_radius=bh // 2)
        pygame.draw.rect(surf, fill, box, border_radius=bh // 2)
        pygame.draw.rect(surf, edge, box, max(1, int(1.5 * u)), border_radius=bh // 2)
        text.blit(surf, text.ellipsize(msg, fs, box.width - int(8 * u), True), fs, box.center,
                  ink, "center", True)

    def button_badges(self, surf: pygame.Surface) -> None:
        """The coach's risk on top of each move button."""
        coach = self.host.coach
        best = coach.best()
        hb = self.hint_badge_h()
        u = self.geo.u
        pending = self.host.pending
        for b in self.host.actions.buttons:
            if pending is not None and b.name not in pending.legal:
                continue        # not a move (Rams' last trick)
            self.hint_badge(surf, coach.label(b.name, best=best == b.name),
                            (b.rect.centerx, b.rect.top - hb // 4), b.rect.width - int(10 * u),
                            best == b.name)

    def confetti(self, surf: pygame.Surface) -> None:
        c = self.host.model.confetti
        if c is None:
            return
        w, h = surf.get_size()
        sz = max(3, int(8 * self.geo.u))
        for x, y, _vx, _vy, rot, col in c.parts:
            if 0 <= y <= 1.05:
                wdt = max(1, int(sz * abs(math.cos(rot))))
                pygame.draw.rect(surf, col, (int(x * w), int(y * h), wdt, sz))

    def failure(self, surf: pygame.Surface) -> None:
        """A computer player failed: what happened and where the report is."""
        lines = self.host.failure_lines()
        if not lines:
            return
        u = self.geo.u
        w, h = surf.get_size()
        fs = max(12, int(22 * u))
        box_w = int(min(w * 0.86, 900 * u))
        inner = box_w - int(40 * u)
        wrapped = [(ln, k == 0) for k, line in enumerate(lines)
                   for ln in text.wrap(line, fs, inner, k == 0)]
        lh = int(fs * 1.2)
        box = pygame.Rect(0, 0, box_w, lh * len(wrapped) + int(30 * u))
        box.center = (w // 2, int(self.geo.cy))
        widgets.panel(surf, box, u, 240, border=(230, 120, 100))
        for i, (line, head) in enumerate(wrapped):
            text.blit(surf, line, fs, (box.centerx, box.top + int(15 * u) + i * lh),
                      widgets.GOLD if head else widgets.CREAM, "midtop", head)
