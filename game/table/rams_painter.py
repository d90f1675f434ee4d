"""Drawing the Rams table (see :mod:`game.table.painter`): the stock and the turned
trump card, the other seats' hands fanned small, declaration markers on the plates,
the trick, the viewer's hand large along the bottom (cards that may not be played
dimmed, the focused one lifted, the engine's reason for a refused one), the prompt,
the buttons, the coach's badges and the round's summary."""

from __future__ import annotations

import pygame

from game import i18n
from game.i18n import t
from game.table.animator import chip_colour
from game.table.layout import TableGeometry
from game.table.model import RamsModel
from game.table.painter import TablePainter
from game.turn.rams_texts import move_label, prompt, refusal_text, suit_name
from game.turn.texts import log_text
from game.view import cardart, layers, text, widgets
from game.view.sprites import HandCard

MARK_COLOURS = {"play": (60, 140, 80), "drop": (95, 90, 85), "lone": (200, 150, 40),
                "defend": (60, 100, 170), "general": (190, 70, 50)}
OTHER_HAND_SCALE = 0.62      # the other seats' cards at rest, against the card unit
PILE_SCALE = 0.42            # a seat's pile of tricks won


def dim_layer(size: tuple[int, int]) -> pygame.Surface:
    img = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(img, (10, 10, 10, 150), img.get_rect(), border_radius=max(2, size[0] // 9))
    return img


class RamsPainter(TablePainter):
    def prepare(self, geo: TableGeometry, felt: pygame.Surface) -> None:
        super().prepare(geo, felt)
        self.dim = dim_layer(geo.big)

    def back_sizes(self, g: TableGeometry) -> list[tuple[int, int]]:
        return [self.scaled(g, OTHER_HAND_SCALE), self.scaled(g, PILE_SCALE)]

    @staticmethod
    def scaled(g: TableGeometry, k: float) -> tuple[int, int]:
        return max(1, int(g.cw * k)), max(1, int(g.ch * k))

    def plate_stack(self, surf: pygame.Surface, s: int, left: tuple[int, int],
                    cr: int) -> None:
        """Under counters: one chip and the seat's count (it wants it down to zero)."""
        m: RamsModel = self.host.model
        if not m.counting:
            super().plate_stack(surf, s, left, cr)
            return
        x0, y = left
        pygame.draw.circle(surf, (205, 190, 160), (x0 + cr, y), cr + max(1, cr // 4))
        self.chip(surf, (x0 + cr, y), cr, chip_colour(s))
        fs = max(11, int(cr * 2.6))
        text.blit(surf, t("rams.counters", n=m.lives[s]), fs, (x0 + cr * 2 + cr, y),
                  widgets.CREAM, "midleft", True)

    def plate_tag(self, s: int) -> str | None:
        m: RamsModel = self.host.model
        if s in m.tricks and s in m.players:
            return t("rams.tricks", n=m.tricks[s])
        return None

    def draw(self, surf: pygame.Surface) -> None:
        h = self.host
        m: RamsModel = h.model
        self.draw_felt(surf)
        self.stock(surf)
        for seat, lst in m.hands.items():
            if seat == h.table_layout.base:
                continue
            for sp in lst:
                self.card(surf, sp, OTHER_HAND_SCALE if sp.t >= 1.0 else 1.0)
        for s in range(m.n):
            self.plate(surf, s)
            self.marker(surf, s)
        self.dealer_button(surf)          # on its plate's corner: over the plate
        self.piles(surf)
        for _, sp in m.trick_sprites:
            self.card(surf, sp)
        for sp in m.flying:
            self.card(surf, sp)
        self.flying_chips(surf)
        self.top_bar(surf)
        self.trump_badges(surf)
        self.log(surf)
        self.hand(surf)
        self.actions(surf)
        self.bubbles(surf)
        self.last_trick(surf)
        self.summary(surf)
        self.banner(surf)
        self.confetti(surf)
        self.failure(surf)

    def stock(self, surf: pygame.Surface) -> None:
        h = self.host
        m: RamsModel = h.model
        g = self.geo
        cw = g.cw
        # the label first: the piles of a shuffle pass over it
        text.blit(surf, t("rams.stock"), max(11, int(15 * g.u)), g.stock_label, widgets.DIM,
                  "midright")
        if m.trump_sprite is not None:
            self.card(surf, m.trump_sprite)
        back = h.app.art.back(h.app.settings["card_back"])
        sx, sy = g.stock
        split = m.stock_split * cw * 0.6
        for i in range(4):
            off = i * max(1, cw // 40)
            for sgn in ((-1, 1) if split > 0.5 else (0,)):
                r = back.get_rect(center=(int(sx + sgn * split) - off, int(sy) - off))
                surf.blit(back, r)

    def piles(self, surf: pygame.Surface) -> None:
        """Each player's tricks, face down beside their plate (a card per trick)."""
        h = self.host
        m: RamsModel = h.model
        g = self.geo
        size = self.scaled(g, PILE_SCALE)
        back = h.app.art.back(h.app.settings["card_back"], size)
        step = max(2, int(size[0] * 0.16))
        for s, n in m.tricks.items():
            if n <= 0:
                continue
            x, y = h.table_layout.resolve(("pile", s))
            for i in range(min(n, 6)):
                r = back.get_rect(center=(int(x) + i * step - (min(n, 6) - 1) * step // 2,
                                          int(y) - i))
                surf.blit(back, r)

    def last_trick(self, surf: pygame.Surface) -> None:
        """The last trick, when the person asks for it (L, or a click on a pile):
        every card in the order played, the winner's framed."""
        h = self.host
        m: RamsModel = h.model
        lt = m.last_trick
        if lt is None or not h.controls.show_last:
            return
        g = self.geo
        u = g.u
        cards = lt["cards"]
        cw, ch = g.cw, g.ch
        gap = int(cw * 0.25)
        fs = max(12, int(18 * u))
        title = t("rams.last_trick", name=h.names.name(lt["winner"]))
        ts = max(13, int(22 * u))
        width = max(len(cards) * cw + (len(cards) - 1) * gap,
                    text.size_of(title, ts, True)[0]) + int(40 * u)
        width = min(width, g.area.width - int(20 * u))
        box = pygame.Rect(0, 0, width, ch + ts + fs + int(48 * u))
        box.center = (int(g.cx), int(g.cy))
        widgets.panel(surf, box, u, 245)
        text.blit(surf, text.ellipsize(title, ts, box.width - int(20 * u), True), ts,
                  (box.centerx, box.top + int(10 * u)), widgets.GOLD, "midtop", True)
        art, settings = h.app.art, h.app.settings
        n = len(cards)
        step = min(cw + gap, (box.width - int(30 * u) - cw) / max(1, n - 1)) if n > 1 else 0
        x0 = box.centerx - (step * (n - 1)) / 2
        top = box.top + ts + int(20 * u)
        for i, (seat, code) in enumerate(cards):
            img = art.face(code, settings["four_colour"], i18n.get_lang(), (cw, ch))
            r = img.get_rect(midtop=(int(x0 + i * step), top))
            surf.blit(img, r)
            if seat == lt["winner"]:
                pygame.draw.rect(surf, widgets.GOLD, r.inflate(6, 6), max(2, int(3 * u)),
                                 border_radius=max(2, cw // 8))
            name = text.ellipsize(h.names.name(seat), fs, int(step or cw) - 4)
            text.blit(surf, name, fs, (r.centerx, r.bottom + int(4 * u)),
                      widgets.GOLD if seat == lt["winner"] else widgets.CREAM, "midtop")

    def suit_badge(self, surf: pygame.Surface, center: tuple[int, int], r: int) -> None:
        x, y = center
        trump = self.host.model.trump
        pygame.draw.circle(surf, (20, 20, 20), (x, y + max(1, r // 8)), r)
        pygame.draw.circle(surf, (250, 246, 234), (x, y), r)
        pygame.draw.circle(surf, widgets.GOLD, (x, y), r, max(1, r // 7))
        cardart.draw_suit(surf, trump, x, y, r * 1.15,
                          cardart.suit_colour(trump, self.host.app.settings["four_colour"]))

    def trump_badges(self, surf: pygame.Surface) -> None:
        """The trump suit at the right end of the top bar and beside the stock."""
        trump = self.host.model.trump
        if not trump:
            return
        g = self.geo
        u = g.u
        bar_h = g.top_h
        r = max(8, int(bar_h * 0.36))
        x = surf.get_width() - int(14 * u) - r
        self.suit_badge(surf, (x, bar_h // 2), r)
        label = t("rams.trump", suit=suit_name(trump))
        text.blit(surf, label, max(11, int(bar_h * 0.42)), (x - r - int(8 * u), bar_h // 2),
                  widgets.GOLD, "midright", True)
        tx, ty = g.trump
        rr = max(8, int(g.ch * 0.16))
        self.suit_badge(surf, (int(tx + g.cw * 0.5 + rr * 1.1), int(ty - g.ch * 0.5 + rr)), rr)

    def top_bar_right(self, surf: pygame.Surface) -> int:
        """Room for the trump at the right end of the top bar (see trump_badges)."""
        trump = self.host.model.trump
        g = self.geo
        if not trump:
            return int(16 * g.u)
        r = max(8, int(g.top_h * 0.36))
        label = t("rams.trump", suit=suit_name(trump))
        width = text.size_of(label, max(11, int(g.top_h * 0.42)), True)[0]
        return width + 2 * r + int(52 * g.u)

    def marker(self, surf: pygame.Surface, s: int) -> None:
        """What a seat declared (play, drop; lone player, defender) on its plate."""
        m: RamsModel = self.host.model
        kind = m.declared.get(s)
        if m.lone is not None and s in m.active:
            kind = "lone" if s == m.lone else "defend"
        elif m.general is not None and s in m.active:
            kind = "general" if s == m.general else "play"
        if kind is None or m.out[s]:
            return
        u = self.geo.u
        r = self.host.table_layout.plate_rect(s)
        label = t("rams.mark." + kind)
        fs = max(10, int(r.height * 0.3))
        tw, th = text.size_of(label, fs, True)
        pill = pygame.Rect(0, 0, tw + int(14 * u), th + int(4 * u))
        pill.midbottom = (r.right - pill.width // 2 - int(6 * u), r.top + pill.height // 2)
        pygame.draw.rect(surf, MARK_COLOURS[kind], pill, border_radius=pill.height // 2)
        pygame.draw.rect(surf, (20, 16, 12), pill, max(1, int(1.5 * u)),
                         border_radius=pill.height // 2)
        text.blit(surf, label, fs, pill.center, widgets.CREAM, "center", True)

    def hand(self, surf: pygame.Surface) -> None:
        """The viewer's hand, large along the bottom strip."""
        h = self.host
        c = h.controls
        g = self.geo
        u = g.u
        lst = c.hand()
        bw, bh = g.big
        art, settings = h.app.art, h.app.settings
        choose = c.card_choice()
        p = h.pending
        legal = set(p.legal) if (choose and p is not None) else set()
        focus = c.focused()
        trump = h.model.trump
        tip = None
        for i, sp in enumerate(lst):
            x, y = sp.pos(h.table_layout.resolve, g.ch)
            if sp.t < 1.0:
                self.card(surf, sp)
                continue
            code = sp.code
            img = art.face(code, settings["four_colour"], i18n.get_lang(), size=(bw, bh)) \
                if code else art.back(settings["card_back"], size=(bw, bh))
            if sp.scale_x < 0.99:      # turning over: a quick scale for a few frames
                img = pygame.transform.scale(img, (max(1, int(bw * sp.scale_x)), bh))
            move = c.card_move(sp)
            ok = move in legal if choose else True
            focused = choose and i == focus
            lift = int(bh * 0.12) if focused and ok else 0
            rect = img.get_rect(center=(int(x), int(y) - lift))
            pygame.draw.rect(surf, (10, 20, 14), rect.move(max(1, bw // 25), max(1, bw // 25)),
                             border_radius=max(2, bw // 9))
            surf.blit(img, rect)
            if code and trump and code[1] == trump:
                # trumps: a gold band and a gold tag on the card's lower edge
                pygame.draw.rect(surf, widgets.GOLD, rect, max(2, int(3 * u)),
                                 border_radius=max(2, bw // 9))
                self.trump_tag(surf, rect, bw, bh)
            if choose and not ok:
                surf.blit(self.dim if rect.size == self.dim.get_size() else
                          dim_layer(rect.size), rect)
            if focused:
                pygame.draw.rect(surf, widgets.BUTTON_FOCUS if ok else (200, 70, 60),
                                 rect.inflate(6, 6), max(2, int(4 * u)),
                                 border_radius=max(2, bw // 8))
                if not ok and code and move is not None:
                    tip = (refusal_text(c.refusals.get(move)), rect)
        note = h.peek_note()
        if note and lst:              # face down until the person asks (phone tables)
            xs = [sp.pos(h.table_layout.resolve, g.ch)[0] for sp in lst]
            y = lst[0].pos(h.table_layout.resolve, g.ch)[1]
            self.peek_box(surf, note, (int(sum(xs) / len(xs)), int(y)),
                          int(max(xs) - min(xs) + bw))
        if h.coach.visible() and choose:
            self.card_badges(surf, lst, legal)
        if tip is not None:
            self.tip(surf, *tip)

    def trump_tag(self, surf: pygame.Surface, rect: pygame.Rect, bw: int, bh: int) -> None:
        label = t("rams.trump_mark")
        fs = text.fit(label, max(10, int(bh * 0.12)), int(bw * 0.8), True, 9)
        tw, th = text.size_of(label, fs, True)
        pill = pygame.Rect(0, 0, min(bw - 4, tw + int(bw * 0.12)), th + 2)
        pill.midbottom = (rect.centerx, rect.bottom - max(2, int(bh * 0.03)))
        pygame.draw.rect(surf, widgets.GOLD, pill, border_radius=pill.height // 2)
        text.blit(surf, label, fs, pill.center, (45, 32, 10), "center", True)

    def card_badges(self, surf: pygame.Surface, lst: list[HandCard], legal: set[str]) -> None:
        """The coach's risk above every card that may be played now."""
        h = self.host
        c = h.controls
        g = self.geo
        u = g.u
        bw, bh = g.big
        best = h.coach.best()
        focus = c.focused()
        xs = [sp.pos(h.table_layout.resolve, g.ch) for sp in lst]
        hb = self.hint_badge_h()
        for i, sp in enumerate(lst):
            m = c.card_move(sp)
            if m not in legal or sp.t < 1.0:
                continue
            x, y = xs[i]
            left = int(x - bw / 2)
            right = int(xs[i + 1][0] - bw / 2) if i + 1 < len(lst) else left + bw
            lift = int(bh * 0.12) if i == focus else 0
            top = int(y - bh / 2) - lift
            width = max(hb * 2, min(bw, right - left) - int(4 * u))
            self.hint_badge(surf, h.coach.label(m, short=True),
                            ((left + left + min(bw, right - left)) // 2,
                             top - hb // 2 - int(3 * u)), width, best == m)

    def tip(self, surf: pygame.Surface, msg: str, rect: pygame.Rect) -> None:
        u = self.geo.u
        fs = text.fit(msg, max(12, int(20 * u)), int(surf.get_width() * 0.5), True, 10)
        tw, th = text.size_of(msg, fs, True)
        box = pygame.Rect(0, 0, tw + int(20 * u), th + int(12 * u))
        box.midbottom = (rect.centerx, rect.top - int(8 * u))
        box.clamp_ip(surf.get_rect())
        pygame.draw.rect(surf, (60, 20, 18), box, border_radius=max(3, int(8 * u)))
        pygame.draw.rect(surf, (230, 120, 100), box, max(1, int(2 * u)),
                         border_radius=max(3, int(8 * u)))
        text.blit(surf, msg, fs, box.center, widgets.CREAM, "center", True)

    def actions(self, surf: pygame.Surface) -> None:
        h = self.host
        g = self.geo
        u = g.u
        ar = g.actions
        c = h.controls
        hint = h.coach.visible()
        if h.state == "human" and h.pending is not None:
            p = h.pending
            h.actions.draw(surf, u, show_focus=not c.card_choice()
                           and self.move_focus_shown())
            view = c.decision.view if c.decision is not None else {}
            msg = prompt(p, view, h.model.n)
            buttons = h.actions.buttons
            bottom = buttons[0].rect.top - int(6 * u) if buttons else ar.bottom
            colour = widgets.GOLD
            if hint:
                self.button_badges(surf)
                if buttons:
                    bottom -= self.hint_badge_h() * 3 // 4 + int(2 * u)
                msg += "\n" + h.coach.note(move_label)
                if c.card_choice():
                    msg += "\n" + t("coach.cards_counters" if h.model.counting else
                                     "coach.cards")
        elif h.hold_note():
            self.note(surf, h.hold_note(), (ar.centerx, ar.bottom - int(30 * u)), ar.width)
            return
        elif h.demo:
            msg, bottom, colour = t("table.demo_hint"), ar.bottom, widgets.DIM
        elif h.thinking_seat is not None:
            msg = self.waiting_text()
            bottom, colour = ar.bottom, widgets.DIM
        else:
            return
        fs = max(12, int(21 * u))
        lines = text.wrap(msg, fs, ar.width, True)
        # the coach's note, or a prompt too long for the room above the buttons (a
        # third button, a long language), may use a little of the table's edge above
        # the strip before the font shrinks
        need = len(lines) * int(fs * 1.05) - (bottom - ar.top)
        top = ar.top - max(int(40 * u) if hint else 0, min(need, int(72 * u)))
        room = max(1, (bottom - top) // int(fs * 1.05))
        while len(lines) > room and fs > 10:
            fs -= 1
            lines = text.wrap(msg, fs, ar.width, True)
            room = max(1, (bottom - top) // int(fs * 1.05))
        lines = text.clamp(lines, fs, ar.width, room, True)
        lh = int(fs * 1.05)
        y = bottom - lh * len(lines)
        for i, line in enumerate(lines):
            text.blit(surf, line, fs, (ar.left, y + i * lh), colour, "topleft", True,
                      shadow=True)

    def summary(self, surf: pygame.Surface) -> None:
        """The round's summary: who declared what, tricks taken, lives lost."""
        h = self.host
        m: RamsModel = h.model
        if m.summary_alpha <= 0.02 or m.summary is None:
            return
        g = self.geo
        u = g.u
        rows = m.summary["rows"]
        fs = max(12, int(22 * u))
        lh = int(fs * 1.35)
        w = int(min(g.area.width * 0.8, 620 * u))
        lh = min(lh, max(12, (g.area.height - int(60 * u)) // (len(rows) + 2)))
        fs = min(fs, int(lh / 1.25))
        height = lh * (len(rows) + 1) + int(fs * 1.6) + int(20 * u)
        box = pygame.Rect(0, 0, w, height)
        box.center = (g.cx, g.cy)
        key = ("summary", m.summary["round"], tuple(map(tuple, rows)), box.size,
               i18n.get_lang(), round(u, 3))
        layer = layers.cached(key, lambda: self._summary_layer(box.size, rows, fs, lh))
        layer.set_alpha(int(255 * min(1.0, m.summary_alpha)))
        surf.blit(layer, box)

    def _summary_layer(self, size: tuple[int, int], rows: list, fs: int,
                       lh: int) -> pygame.Surface:
        h = self.host
        m: RamsModel = h.model
        u = self.geo.u
        w = size[0]
        title = t("rams.summary.title", n=m.summary["round"])
        box = pygame.Rect((0, 0), size)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, (15, 12, 10, 250), layer.get_rect(),
                         border_radius=max(4, int(14 * u)))
        pygame.draw.rect(layer, widgets.GOLD, layer.get_rect(), max(1, int(2 * u)),
                         border_radius=max(4, int(14 * u)))
        ts = text.fit(title, int(fs * 1.2), w - int(20 * u), True, 10)
        text.blit(layer, title, ts, (w // 2, int(10 * u)), widgets.GOLD, "midtop", True)
        cols = [int(w * 0.05), int(w * 0.42), int(w * 0.66), int(w * 0.95)]
        y = int(10 * u) + int(fs * 1.6)
        heads = [t("rams.summary.who"), t("rams.summary.choice"), t("rams.summary.tricks"),
                 t("rams.summary.counters" if m.counting else "rams.summary.lost")]
        hs = max(10, int(fs * 0.8))
        for x, hd, an in zip(cols, heads, ["topleft", "topleft", "topleft", "topright"]):
            text.blit(layer, hd, hs, (x, y), widgets.DIM, an)
        y += lh
        for s, choice, tricks, lost in rows:
            col = (235, 120, 100) if lost > 0 else (140, 210, 140) if lost < 0 else \
                widgets.CREAM
            name = text.ellipsize(h.names.name(s), fs, cols[1] - cols[0] - int(8 * u), True)
            text.blit(layer, name, fs, (cols[0], y), col, "topleft", True)
            ch = t("rams.mark." + choice) if choice else "–"
            text.blit(layer, text.ellipsize(ch, fs, cols[2] - cols[1] - int(6 * u)), fs,
                      (cols[1], y), col)
            text.blit(layer, "–" if tricks is None else str(tricks), fs, (cols[2], y), col)
            if m.counting:
                lt = t("rams.summary.plus", n=lost) if lost > 0 else \
                    t("rams.summary.minus", n=-lost) if lost < 0 else "0"
            else:
                lt = t("rams.summary.minus", n=lost) if lost else "0"
            text.blit(layer, lt, fs, (cols[3], y), col, "topright", True)
            y += lh
        return layer

    # ------------------------------------------------------------------ results strip

    def result_line(self, res: dict) -> str:
        """One finished round in a few words: who lost (or shed, or added) what."""
        h = self.host
        m: RamsModel = h.model
        n = res["round"]
        if res["void"]:
            return t("rams.results.void", n=n)
        parts = []
        for seat, amount in sorted(res["changes"].items(), key=lambda x: x[0]):
            if not amount:
                continue
            sign = (t("rams.summary.plus", n=amount) if amount > 0 else
                    t("rams.summary.minus", n=-amount)) if m.counting else \
                t("rams.summary.minus", n=amount)
            parts.append(f"{h.names.name(seat)} {sign}")
        if not parts:
            return t("rams.results.nothing", n=n)
        return t("rams.results.line", n=n, what=" · ".join(parts))

    def log(self, surf: pygame.Surface) -> None:
        """The results strip (every round played, newest last; the ones the person has
        not looked at yet in gold), above this round's log."""
        h = self.host
        m: RamsModel = h.model
        if not m.results:
            super().log(surf)
            return
        u = self.geo.u
        lp = self.geo.log_panel
        fs = max(12, int(17 * u))
        lh = int(fs * 1.08)
        inner_w = lp.width - int(16 * u)
        rows = max(2, (lp.height - int(12 * u)) // lh)
        log_rows = min(3, rows // 2)
        res_rows = rows - log_rows
        res_lines: list[tuple[str, bool]] = []
        first_unseen = len(m.results) - m.unseen
        for i, res in enumerate(m.results):
            for ln in text.wrap(self.result_line(res), fs, inner_w):
                res_lines.append((ln, i >= first_unseen))
        res_lines = res_lines[-res_rows:]
        x = lp.left + int(8 * u)
        y = lp.top + int(6 * u)
        for ln, new in res_lines:
            text.blit(surf, ln, fs, (x, y), widgets.GOLD if new else (200, 192, 175),
                      "topleft", new)
            y += lh
        pygame.draw.line(surf, (90, 80, 70), (x, y + 1), (lp.right - int(8 * u), y + 1),
                         max(1, int(u)))
        y += int(4 * u)
        lines: list[str] = []
        for key, fmt, to in m.log:
            if to is not None and to != h.viewer:
                continue
            lines.extend(text.wrap(log_text(key, fmt), fs, inner_w))
        left = max(0, (lp.bottom - y) // lh)
        for i, line in enumerate(lines[-left:] if left else []):
            text.blit(surf, line, fs, (x, y + i * lh), widgets.CREAM)
