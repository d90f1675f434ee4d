"""Drawing the Chase the Ace table (see :mod:`game.table.painter`): the talon, the
discards and the pot in the middle, a card in front of every seat (a King's block
badge on a blocked one), the viewer's card large at the bottom left, the prompt and
the move buttons (with the coach's badges) between the panels."""

from __future__ import annotations

import pygame

from game import i18n
from game.i18n import t
from game.table.animator import chip_colour
from game.table.model import ChaseModel
from game.table.painter import TablePainter
from game.turn.chase_texts import move_label, prompt
from game.view import cardart, layers, text, widgets


class ChasePainter(TablePainter):
    def draw(self, surf: pygame.Surface) -> None:
        h = self.host
        m: ChaseModel = h.model
        g = self.geo
        resolve = h.table_layout.resolve
        self.draw_felt(surf)
        self.centre(surf)
        for s in range(m.n):
            self.plate(surf, s)
        self.dealer_button(surf)          # on its plate's corner: over the plate
        for seat, sp in m.hand.items():
            self.card(surf, sp)
            if seat in m.blocked and sp.t >= 1.0 and sp.code is not None:
                bs = max(12, int(g.cw * 0.42))
                badge = cardart.scaled_sprite((bs, bs), "block_badge.png")
                if badge is not None:
                    x, y = sp.pos(resolve, g.ch)
                    surf.blit(badge, badge.get_rect(center=(int(x + g.cw * 0.45),
                                                            int(y - g.ch * 0.45))))
        hand = list(m.hand.values())
        for sp in m.discards:
            if sp not in hand and sp.t < 1.0:
                self.card(surf, sp)
        for sp in m.extras:
            self.card(surf, sp)
        self.flying_chips(surf)
        self.bubbles(surf)
        self.top_bar(surf)
        self.hand_panel(surf)
        self.log(surf)
        self.actions(surf)
        self.banner(surf)
        self.confetti(surf)
        self.failure(surf)

    def top_bar_right(self, surf: pygame.Surface) -> int:
        """At the right end of the top bar, what decides a round: the lowest card
        loses, and which card that is under the rules in force (left out where the
        bar has no room for it)."""
        g = self.geo
        u = g.u
        rules = self.host.game.rules
        key = ("table.chase.lowest_cuckoo" if rules.get("deck") == "cuckoo40" else
               "table.chase.lowest_ace_high" if rules.get("ace_high") else
               "table.chase.lowest")
        label = t(key)
        fs = max(11, int(g.top_h * 0.4))
        width = text.size_of(label, fs, True)[0]
        if width > surf.get_width() * 0.3:
            return int(16 * u)
        right = surf.get_width() - int(14 * u)
        text.blit(surf, label, fs, (right, g.top_h // 2), widgets.GOLD, "midright", True)
        return width + int(44 * u)

    def pot_text(self) -> str:
        rules = self.host.game.rules
        return t("table.pot", pot=self.host.model.pot) if rules.get("stake", 0) > 0 else ""

    def centre(self, surf: pygame.Surface) -> None:
        h = self.host
        m: ChaseModel = h.model
        g = self.geo
        u = g.u
        cw, ch = g.cw, g.ch
        back = h.app.art.back(h.app.settings["card_back"])
        tx, ty = g.talon
        split = m.talon_split * cw * 0.75
        for i in range(5):
            off = i * max(1, cw // 40)
            for sgn in ((-1, 1) if split > 0.5 else (0,)):
                r = back.get_rect(center=(int(tx + sgn * split * (i % 2 * 0.2 + 0.8)) - off,
                                          int(ty) - off))
                surf.blit(back, r)
        # discard pile: settled discards
        settled = [sp for sp in m.discards if sp.t >= 1.0 and sp.b == ("discard",)
                   and sp not in m.extras]
        dx, dy = g.discard
        for i, _sp in enumerate(settled[-4:]):
            angle = (i * 37) % 24 - 12
            img = layers.cached(("discard", back.get_size(), h.app.settings["card_back"],
                                 angle), lambda a=angle: pygame.transform.rotate(back, a))
            surf.blit(img, img.get_rect(center=(int(dx) + i * 2, int(dy) - i * 2)))
        text.blit(surf, t("table.talon"), max(11, int(16 * u)), (tx, ty + ch * 0.5 + 4 * u),
                  widgets.DIM, "midtop")
        stake = h.game.rules["stake"]
        if stake > 0:
            px, py = g.pot
            r = max(5, int(11 * u))
            pw = int(cw * 1.2)
            img = cardart.scaled_sprite((pw, int(pw * 0.75)), "pot.png")
            if img is not None:
                surf.blit(img, img.get_rect(midbottom=(int(px), int(py + r))))
            else:
                for i in range(min(8, 2 + m.pot // max(1, stake))):
                    self.chip(surf, (px - r * 2 + (i % 4) * r * 1.3, py - (i // 4) * r * 0.6),
                              r, chip_colour(i * 3), 1.0)
            text.blit(surf, self.pot_text(), max(12, int(20 * u)), (px, py + r * 1.5),
                      widgets.GOLD, "midtop", True, shadow=True)

    def hand_panel(self, surf: pygame.Surface) -> None:
        """The viewer's own card, large."""
        h = self.host
        m: ChaseModel = h.model
        u = self.geo.u
        hp = self.geo.hand_panel
        v = h.viewer if h.viewer is not None else h.hidden_hand()   # face down until asked
        if v is None or m.out[v] or m.hand.get(v) is None:
            return
        widgets.panel(surf, hp, u, 200)
        room = hp.width - int(8 * u)
        label, ls = self.hand_label(v, room)
        text.blit(surf, label, ls, (hp.centerx, hp.top + int(6 * u)), widgets.GOLD, "midtop",
                  True)
        bw, bh = self.geo.big
        sp = m.hand[v]
        code = h.animator.visible_face(v) if sp.t >= 1.0 else None
        art, settings = h.app.art, h.app.settings
        img = art.face(code, settings["four_colour"], i18n.get_lang(), size=(bw, bh)) \
            if code else art.back(settings["card_back"], size=(bw, bh))
        surf.blit(img, img.get_rect(midbottom=(hp.centerx, hp.bottom - int(8 * u))))
        note = h.peek_note()
        if note:
            self.peek_box(surf, note, (hp.centerx, hp.bottom - int(8 * u) - bh // 2),
                          hp.width - int(8 * u))

    def hand_label(self, v: int, room: int) -> tuple[str, int]:
        """The heading of the card panel and its size: "Your card", or with several
        people at the screen whose card it is. Where "Karte von Spieler 1" or "Deine
        Karte" is wider than the panel even in small print (a small window), the name
        alone says it ("Du"); a name too long for that too is shortened with a sign."""
        h = self.host
        size = int(18 * self.geo.u)
        name = h.names.name(v)
        first = t("table.your_card") if len(h.humans) <= 1 else t("table.card_of", name=name)
        for label in (first, name):
            ls = text.fit(label, size, room, True, 9)
            if text.size_of(label, ls, True)[0] <= room:
                return label, ls
        return text.ellipsize(name, ls, room, True), ls

    def story(self, surf: pygame.Surface, lines: list[str], bottom: tuple[int, int],
              avail: int) -> None:
        """What the person deciding knows about their card, above the question."""
        if not lines:
            return
        u = self.geo.u
        fs = min(text.fit(line, int(19 * u), avail, False, 10) for line in lines)
        lh = int(fs * 1.15)
        x, y = bottom
        for i, line in enumerate(reversed(lines)):
            text.blit(surf, text.ellipsize(line, fs, avail), fs, (x, y - i * lh),
                      widgets.CREAM, "midbottom", shadow=True)

    def actions(self, surf: pygame.Surface) -> None:
        h = self.host
        g = self.geo
        u = g.u
        w, hh = surf.get_size()
        hp, lp = g.hand_panel, g.log_panel
        mid = (hp.right + lp.left) // 2
        avail = lp.left - hp.right - int(16 * u)
        if h.state == "human" and h.pending is not None:
            p = h.pending
            h.actions.draw(surf, u, show_focus=self.move_focus_shown())
            ask = prompt(p, h.names, h.model.active)
            buttons = h.actions.buttons
            y = buttons[0].rect.top - int(6 * u) if buttons else hh
            if h.coach.visible():
                self.button_badges(surf)
                y -= self.hint_badge_h() * 3 // 4 + int(2 * u)
                ask += "  ·  " + h.coach.note(lambda mv: move_label(p, mv))
            fs = text.fit(ask, int(24 * u), avail, True, 10)
            r = text.blit(surf, text.ellipsize(ask, fs, avail, True), fs, (mid, y),
                          widgets.GOLD, "midbottom", True, shadow=True)
            if h.viewer == p.seat:      # what they know of their card: only while it shows
                self.story(surf, h.controls.story, (mid, r.top - int(4 * u)), avail)
        elif h.hold_note():
            self.note(surf, h.hold_note(), (mid, hh - int(34 * u)), avail)
        elif h.demo:
            msg = t("table.demo_hint")
            fs = text.fit(msg, int(20 * u), avail, False, 10)
            text.blit(surf, msg, fs, (mid, hh - int(20 * u)), widgets.DIM, "midbottom")
        elif h.thinking_seat is not None:
            msg = self.waiting_text()
            fs = text.fit(msg, int(22 * u), avail, False, 10)
            text.blit(surf, msg, fs, (mid, hh - int(20 * u)), widgets.DIM, "midbottom")
