"""The Chase the Ace table: it animates the engine's events and offers exactly the
engine's legal moves. It decides nothing.

The event pump, the thinking worker, the privacy flow, plates, bubbles, banners and
the log live in :mod:`game.scenes.table_base`; this module adds Chase's events,
layout and drawing. A human gets buttons for the legal moves.

What is drawn face up: cards the engine showed publicly (King, Queen, low card, the
showdown) and the card of the *viewer*, the one human at the screen. With one human
the viewer is always that human; with none (demo) there is no viewer.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from game import i18n
from game.i18n import t
from game.rules.base import Event
from game.rules.chase import ChaseGame
from game.scenes.table_base import (  # noqa: F401 - re-exported for older imports
    CHIP_COLOURS,
    TableScene,
    seats_from_setup,
)
from game.view import anim, cardart, text, widgets
from game.view.anim import Call, Parallel, Sequence, Tween, Wait
from game.view.sprites import CardSprite, flip, move
from game.view.widgets import Button

MOVE_KEYS = {"keep": pygame.K_k, "swap": pygame.K_s, "draw": pygame.K_d,
             "accept": pygame.K_a, "refuse": pygame.K_r}
MOVE_ORDER = {"turn": ("keep", "swap"), "dealer": ("keep", "draw"),
              "queen": ("accept", "refuse"), "domino": ("keep", "swap")}


# ----------------------------------------------------------------- the scene

class ChaseTableScene(TableScene):
    name = "table"
    game_id = "chase"

    def __init__(self, app, seats: list[dict[str, Any]], rules: dict[str, Any] | None = None,
                 seed: int | None = None, demo: bool = False) -> None:
        super().__init__(app, seats, rules, seed, demo)
        self.v_pot = self.game.pot
        self.cards: dict[int, str] = {}      # what each seat holds, as events told us
        self.public_up: set[int] = set()
        self.hand: dict[int, CardSprite] = {}
        self.extras: list[CardSprite] = []
        self.discards: list[CardSprite] = []
        self.talon_split = 0.0
        self.talon_count = 1
        self.highlight: set[int] = set()
        self.blocked: set[int] = set()

    def make_game(self) -> ChaseGame:
        return ChaseGame(self.rules_given, self.n, seed=self.seed, bot_seed=self.seed & 0xFFFF)

    # ------------------------------------------------------------------ geometry

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        top_h = int(max(26, 46 * u))
        bottom_h = int(max(56, 108 * u))
        area = pygame.Rect(0, top_h, w, h - top_h - bottom_h)
        cx, cy = area.centerx, area.centery
        plate_w = int(min(190 * u, w * 0.17))
        plate_h = int(max(34, 58 * u))
        rx = area.width / 2 - plate_w * 0.62
        ry = area.height / 2 - plate_h * 0.62
        step = 2 * math.pi / self.n
        seat_pos, card_pos, dealer_pos = {}, {}, {}
        for s in range(self.n):
            ang = math.pi / 2 + (s - self.base) * step
            c, si = math.cos(ang), math.sin(ang)
            seat_pos[s] = (cx + rx * c, cy + ry * si)
            card_pos[s] = (cx + rx * 0.64 * c, cy + ry * 0.58 * si)
            da = ang + step * 0.22
            dealer_pos[s] = (cx + rx * 0.8 * math.cos(da), cy + ry * 0.78 * math.sin(da))
        ch = min(120 * u, area.height * 0.2)
        if self.n > 1:
            pts = [card_pos[s] for s in range(self.n)]
            md = min(math.hypot(pts[i][0] - pts[(i + 1) % self.n][0],
                                pts[i][1] - pts[(i + 1) % self.n][1]) for i in range(self.n))
            ch = min(ch, md * 0.85)
        ch = max(24, int(ch))
        cw = int(ch * 0.7)
        self.app.art.resize(cw, ch)
        self.geo = {
            "top_h": top_h, "bottom_h": bottom_h, "area": area, "cx": cx, "cy": cy,
            "rx": rx, "ry": ry, "seat": seat_pos, "card": card_pos, "dealer": dealer_pos,
            "cw": cw, "ch": ch, "plate": (plate_w, plate_h),
            "talon": (cx - cw * 0.9, cy - ch * 0.05), "discard": (cx + cw * 0.9, cy - ch * 0.05),
            "pot": (cx + cw * 2.5, cy + ch * 0.1),
        }
        # hand panel (bottom left) and log (bottom right)
        big_h = int(ch * 1.25)
        big_w = int(big_h * 0.7)
        pad = int(10 * u)
        hp = pygame.Rect(pad, 0, big_w + 2 * pad, big_h + int(34 * u))
        hp.bottom = h - pad
        self.geo["hand_panel"] = hp
        self.geo["big"] = (big_w, big_h)
        lw = int(min(w * 0.27, 320 * u))
        lp = pygame.Rect(0, 0, lw, hp.height)
        lp.bottomright = (w - pad, h - pad)
        self.geo["log_panel"] = lp
        self.menu_button.rect = pygame.Rect(pad, int(6 * u), int(150 * u), top_h - int(12 * u))
        self.table_surf = self._build_table(size)
        self._layout_actions()

    def _layout_actions(self) -> None:
        if not self.geo:
            return
        w, h = self._size
        u = self.u
        hp, lp = self.geo["hand_panel"], self.geo["log_panel"]
        space = lp.left - hp.right - int(20 * u)
        n = max(1, len(self.actions.buttons))
        bw = int(min(260 * u, (space - (n - 1) * 12 * u) / n))
        bh = int(max(28, 50 * u))
        cxm = (hp.right + lp.left) // 2
        widgets.layout_row(self.actions.buttons, cxm, h - int(10 * u) - bh // 2, bw, bh,
                           int(12 * u))

    def resolve(self, anchor: tuple) -> tuple[float, float]:
        g = self.geo
        kind = anchor[0]
        if kind == "seat":
            return g["card"][anchor[1]]
        if kind == "stack":        # first-dealer cards pile up in front of a seat
            x, y = g["card"][anchor[1]]
            return x + anchor[2] * g["cw"] * 0.18, y + anchor[2] * g["ch"] * 0.05
        if kind == "talon":
            return g["talon"]
        if kind == "discard":
            return g["discard"]
        if kind == "peek":
            x, y = g["talon"]
            return x, y - g["ch"] * 1.1
        if kind == "dealer":
            return g["dealer"][anchor[1]]
        if kind == "chip":
            x, y = self.plate_rect(anchor[1]).midbottom
            return x, y - g["plate"][1] * 0.25
        if kind == "pot":
            return g["pot"]
        return g["cx"], g["cy"]

    # ------------------------------------------------------------------ helpers

    def visible_face(self, seat: int) -> str | None:
        code = self.cards.get(seat)
        if code is None:
            return None
        if seat in self.public_up or (self.viewer is not None and seat == self.viewer):
            return code
        return None

    def refresh_faces(self, animated: bool = True) -> anim.Anim | None:
        flips = []
        for seat, sp in self.hand.items():
            want = self.visible_face(seat)
            if sp.code != want:
                if animated:
                    flips.append(flip(sp, want))
                else:
                    sp.code = want
                    sp.scale_x = 1.0
        return Parallel(*flips) if flips else None

    def ask(self, asker: int, target: int, hold: float = 0.35) -> anim.Anim:
        if self.is_solo_human(target):
            return self.say(asker, "say.swap_you", hold=hold)
        return self.say(asker, "say.swap", hold=hold, other=self.seat_name(target))

    # ------------------------------------------------------------------ the event pump

    def _offer(self, p) -> None:
        self.state = "human"
        order = MOVE_ORDER.get(p.decision, tuple(p.legal))
        moves = [m for m in order if m in p.legal] + [m for m in p.legal if m not in order]
        buttons = []
        for m in moves:
            key = MOVE_KEYS.get(m)
            hint = pygame.key.name(key).upper() if key else ""
            buttons.append(Button(lambda m=m, d=p.decision: t(f"move.{d}.{m}"),
                                  lambda m=m: self.human_move(m), hotkey=key, name=m, hint=hint))
        self.actions.set(buttons)
        self._layout_actions()

    # ------------------------------------------------------------------ events -> animations

    def ev_first_dealer_card(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        k = sum(1 for sp in self.extras if sp.b[0] == "stack" and sp.b[1] == seat)
        sp = CardSprite(("talon",), None)
        self.extras.append(sp)
        self.app.play("deal")
        return Parallel(move(sp, ("stack", seat, k), anim.DEAL * 1.2),
                        Sequence(Wait(anim.DEAL * 0.4), flip(sp, card, anim.DEAL * 0.8)))

    def ev_first_dealer(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.v_dealer = seat
        steps = []
        if self.extras:
            jack = self.extras[-1]
            jack.highlight = True
            steps.append(self.say(seat, "say.first_dealer", hold=anim.BUBBLE * 1.3))
            steps.append(Tween(jack, "scale", 1.15, 0.2))
        self.add_log("log.first_dealer", seat=seat)
        self.button.a = self.button.b = ("dealer", seat)
        steps.append(Tween(self.button, "alpha", 1.0, 0.3, start=0.0))
        if self.extras:
            back = [Sequence(flip(sp, None, anim.FLIP * 0.6) or Wait(0),
                             move(sp, ("talon",), anim.COLLECT, delay=i * 0.02))
                    for i, sp in enumerate(self.extras)]
            steps.append(Parallel(*back))
            steps.append(Call(self.extras.clear))
        return Sequence(*steps)

    def ev_round_start(self, ev: Event) -> anim.Anim:
        d = ev.data
        self.v_round = d["round"]
        self.rounds_played = d["round"] + 1
        self.v_active = list(d["active"])
        self.v_pot = d.get("pot", self.v_pot)
        self.v_sudden = bool(d.get("sudden_death"))
        self.log = [e for e in self.log if e[0] in ()]
        self.highlight.clear()
        self.blocked.clear()
        self.public_up.clear()
        self.cards.clear()
        dest = ("discard",) if self.game.rules["deck_policy"] == "continue" else ("talon",)
        collect = []
        old = list(self.hand.values()) + list(self.discards)
        for i, sp in enumerate(old):
            sp.highlight = False
            collect.append(Sequence(flip(sp, None, anim.FLIP * 0.6) or Wait(0),
                                    move(sp, dest, anim.COLLECT, delay=i * 0.015)))
        self.hand = {}

        def drop_old() -> None:
            for sp in old:
                if sp in self.discards:
                    self.discards.remove(sp)
            if dest == ("discard",):
                self.discards[:] = self.discards[-3:] + old[-3:]

        dealer_move = None
        if self.v_dealer is None:
            self.button.a = self.button.b = ("dealer", d["dealer"])
            dealer_move = Tween(self.button, "alpha", 1.0, 0.3, start=0.0)
        elif self.v_dealer != d["dealer"]:
            dealer_move = move(self.button, ("dealer", d["dealer"]), anim.MOVE * 2)
        self.v_dealer = d["dealer"]
        self.add_log("log.round", seat=d["dealer"], n=d["round"] + 1)
        if self.v_sudden:
            banner = self.show_banner("banner.sudden_round", hold=0.5, blocking=False,
                                      n=d["round"] + 1)
        else:
            banner = self.show_banner("banner.round", hold=0.35, big=False, blocking=False,
                                      n=d["round"] + 1)
        return Sequence(Parallel(*collect, dealer_move, banner), Call(drop_old))

    def _riffle(self) -> anim.Anim:
        self.app.play("shuffle")
        return Sequence(Tween(self, "talon_split", 1.0, 0.16, start=0.0),
                        Tween(self, "talon_split", 0.0, 0.16),
                        Tween(self, "talon_split", 1.0, 0.16),
                        Tween(self, "talon_split", 0.0, 0.16))

    def ev_shuffle(self, ev: Event) -> anim.Anim:
        cut = ev.data.get("cut_by")
        steps = [self._riffle()]
        if cut is not None:
            steps.append(self.say(cut, "say.cut", hold=0.3, kind="small"))
        return Sequence(*steps)

    def ev_reshuffle(self, ev: Event) -> anim.Anim:
        self.add_log("log.reshuffle")
        discards = list(self.discards)
        gather = Parallel(*[move(sp, ("talon",), anim.COLLECT) for sp in discards])
        return Sequence(gather, Call(self.discards.clear),
                        Parallel(self._riffle(), self.show_banner("banner.reshuffle", hold=0.4,
                                                                  big=False)))

    def ev_deal(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        sp = CardSprite(("talon",), None)
        self.hand[seat] = sp
        self.app.play("deal")
        return move(sp, ("seat", seat), anim.DEAL, ease=anim.ease_out)

    def ev_dealt(self, ev: Event) -> anim.Anim | None:
        if ev.to is not None:
            self.cards[ev.to] = ev.data["cards"][0]
        return self.refresh_faces()

    def ev_keep(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.add_log("log.keep", seat=seat)
        self.app.play("knock")
        key = "say.keep_dealer" if seat == self.v_dealer else "say.keep"
        return self.say(seat, key)

    def ev_show(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        self.add_log("log.show", seat=seat, card=card)
        sp = self.hand.get(seat)
        self.cards[seat] = card
        steps: list[anim.Anim | None] = [self.say(seat, "say.show", hold=0.2, card=card)]
        if sp is not None:
            steps.append(flip(sp, card))
            steps.append(Wait(anim.BUBBLE))

            def back() -> anim.Anim | None:
                return flip(sp, self.visible_face(seat))

            steps.append(Call(back))
        return Sequence(*steps)

    def ev_swap(self, ev: Event) -> anim.Anim:
        a, b = ev.data["seat"], ev.data["with"]
        self.add_log("log.swap", seat=a, other=self.obj_name(b, "dat"))
        sa, sb = self.hand.get(a), self.hand.get(b)
        steps: list[anim.Anim | None] = [self.ask(a, b)]
        if sa is None or sb is None:
            return Sequence(*steps)
        hide = [flip(sp, None) for sp in (sa, sb) if sp.code is not None]
        if hide:
            steps.append(Parallel(*hide))

        def cross() -> anim.Anim:
            self.app.play("swap")
            return Parallel(move(sa, ("seat", b), anim.SWAP, arc=0.5),
                            move(sb, ("seat", a), anim.SWAP, arc=0.5))

        def settle() -> None:
            self.hand[a], self.hand[b] = sb, sa

        steps += [Call(cross), Call(settle)]
        return Sequence(*steps)

    def ev_exchange(self, ev: Event) -> anim.Anim | None:
        if ev.to is not None:
            self.cards[ev.to] = ev.data["got"]
            self.add_log("log.exchange", to=ev.to, card=ev.data["got"],
                         other=self.seat_name(ev.data["with"]))
        return self.refresh_faces()

    def ev_block(self, ev: Event) -> anim.Anim:
        seat, by, card = ev.data["seat"], ev.data["by"], ev.data["card"]
        self.add_log("log.block", seat=seat, other=self.obj_name(by, "acc"))
        self.cards[seat] = card
        self.public_up.add(seat)
        self.blocked.add(seat)
        sp = self.hand.get(seat)
        key = "say.block_cuckoo" if card == "Cuckoo" else "say.block"
        self.app.play("knock")
        return Sequence(self.ask(by, seat, hold=0.3),
                        Parallel(flip(sp, card) if sp else None,
                                 self.say(seat, key, hold=anim.BUBBLE * 1.2)))

    def ev_refuse(self, ev: Event) -> anim.Anim:
        seat, by, card = ev.data["seat"], ev.data["by"], ev.data["card"]
        self.add_log("log.refuse", seat=seat, other=self.obj_name(by, "acc"))
        self.cards[seat] = card
        self.public_up.add(seat)
        sp = self.hand.get(seat)
        self.app.play("knock")
        return Parallel(flip(sp, card) if sp else None,
                        self.say(seat, "say.refuse", hold=anim.BUBBLE * 1.2))

    def ev_draw(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.add_log("log.draw", seat=seat)
        king = self._peek({"talon_king"}, {"round_start", "showdown", "game_over"})
        say = self.say(seat, "say.draw", hold=0.3)
        if king:
            return say
        old = self.hand.get(seat)
        new = CardSprite(("talon",), None)
        steps: list[anim.Anim | None] = [say]
        if old is not None:
            steps.append(flip(old, None))
            self.discards.append(old)
            steps.append(move(old, ("discard",), anim.MOVE * 1.4))
        self.hand[seat] = new
        self.cards.pop(seat, None)
        self.app.play("deal")
        steps.append(move(new, ("seat", seat), anim.MOVE * 1.4))
        return Sequence(*steps)

    def ev_drew(self, ev: Event) -> anim.Anim | None:
        if ev.to is not None:
            self.cards[ev.to] = ev.data["card"]
            self.add_log("log.drew", to=ev.to, card=ev.data["card"])
        return self.refresh_faces()

    def ev_talon_king(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        self.add_log("log.talon_king", seat=seat)
        sp = CardSprite(("talon",), None)
        self.extras.append(sp)
        self.discards.append(sp)

        def done() -> None:
            if sp in self.extras:
                self.extras.remove(sp)

        return Sequence(move(sp, ("peek",), anim.MOVE * 1.4), flip(sp, card),
                        self.say(seat, "say.talon_king", hold=anim.BUBBLE),
                        flip(sp, None), move(sp, ("discard",), anim.MOVE * 1.4), Call(done))

    def ev_showdown(self, ev: Event) -> anim.Anim:
        cards = {int(s): c for s, c in ev.data["cards"].items()}
        self.cards.update(cards)
        self.public_up.update(cards)
        losers = {e.data["seat"] for e in self._peek({"lose_life", "out"},
                                                      {"round_start", "game_over"})}
        for e in self._peek({"final_tie"}, {"round_start", "game_over"}):
            losers.update(e.data["seats"])
        self.highlight = losers
        flips = []
        for i, seat in enumerate(sorted(cards, key=lambda s: (s - self.base) % self.n)):
            sp = self.hand.get(seat)
            if sp is not None:
                f = flip(sp, cards[seat])
                if f is not None:
                    flips.append(Sequence(Wait(i * 0.06), f))
        self.app.play("flip")

        def mark() -> anim.Anim:  # the losers' cards
            ups = []
            for s in losers:
                sp = self.hand.get(s)
                if sp is not None:
                    sp.highlight = True
                    ups.append(Tween(sp, "scale", 1.15, 0.25, anim.ease_out_back))
            return Parallel(*ups)

        self.show_banner("banner.showdown", hold=0.5, big=False, blocking=False)
        return Sequence(Parallel(*flips), Wait(0.2), Call(mark), Wait(0.8))

    def ev_final_tie(self, ev: Event) -> anim.Anim:
        policy = ev.data["policy"]
        names = ", ".join(self.seat_name(s) for s in ev.data["seats"])
        self.add_log("log.final_tie", names=names)
        return self.show_banner("banner.final_tie", "banner.final_tie." + policy, names=names)

    def ev_sudden_death(self, ev: Event) -> anim.Anim:
        self.v_sudden = True
        names = ", ".join(self.seat_name(s) for s in ev.data["seats"])
        return self.show_banner("banner.sudden_death", "banner.sudden_death.sub", names=names)

    def ev_replay_round(self, ev: Event) -> anim.Anim:
        self.add_log("log.replay")
        return self.show_banner("banner.replay")

    def ev_restart(self, ev: Event) -> anim.Anim:
        lives = ev.data["lives"]
        self.add_log("log.restart", n=lives)

        def reset() -> None:
            self.v_lives = [lives] * self.n
            self.v_out = [False] * self.n
            self.out_order.clear()
            self.out_round.clear()
            self.v_pot = self.game.pot

        return Sequence(self.show_banner("banner.restart", "banner.restart.sub", n=lives),
                        Call(reset))

    # ------------------------------------------------------------------ input

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_p):
            self.open_pause()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self.menu_button.rect.collidepoint(ev.pos):
            self.open_pause()
            return True
        if self.state == "human":
            return self.hint_event(ev) or self.actions.handle_event(ev)
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_SPACE) \
                and self.anim.busy:
            self.anim.finish_all()   # hurry the current animation along
            return True
        return False

    # ------------------------------------------------------------------ drawing

    def draw(self, surf: pygame.Surface) -> None:
        g = self.geo
        u = self.u
        surf.blit(self.table_surf, (0, 0))
        self._draw_center(surf)
        self._draw_dealer_button(surf)
        for s in range(self.n):
            self._draw_plate(surf, s)
        for seat, sp in self.hand.items():
            self._draw_card(surf, sp)
            if seat in self.blocked and sp.t >= 1.0 and sp.code is not None:
                bs = max(12, int(g["cw"] * 0.42))
                badge = cardart.scaled_sprite((bs, bs), "block_badge.png")
                if badge is not None:
                    x, y = sp.pos(self.resolve, g["ch"])
                    surf.blit(badge, badge.get_rect(center=(int(x + g["cw"] * 0.45),
                                                            int(y - g["ch"] * 0.45))))
        for sp in self.discards:
            if sp not in self.hand.values() and sp.t < 1.0:
                self._draw_card(surf, sp)
        for sp in self.extras:
            self._draw_card(surf, sp)
        for chip in self.chips:
            x, y = chip.pos(self.resolve, g["ch"])
            r = max(4, int(9 * u))
            self._chip(surf, (x, y), r, chip.colour, chip.alpha)
        for b in self.bubbles:
            self._draw_bubble(surf, b)
        self._draw_top(surf)
        self._draw_hand_panel(surf)
        self._draw_log(surf)
        self._draw_actions(surf)
        if self.banner is not None:
            self._draw_banner(surf, self.banner)
        if self.confetti is not None:
            w, h = surf.get_size()
            sz = max(3, int(8 * u))
            for x, y, _vx, _vy, rot, col in self.confetti.parts:
                if 0 <= y <= 1.05:
                    wdt = max(1, int(sz * abs(math.cos(rot))))
                    pygame.draw.rect(surf, col, (int(x * w), int(y * h), wdt, sz))

    def _draw_center(self, surf: pygame.Surface) -> None:
        g = self.geo
        cw, ch = g["cw"], g["ch"]
        art = self.app.art
        back = art.back(self.app.settings["card_back"])
        tx, ty = g["talon"]
        split = self.talon_split * cw * 0.75
        for i in range(5):
            off = i * max(1, cw // 40)
            for sgn in ((-1, 1) if split > 0.5 else (0,)):
                r = back.get_rect(center=(int(tx + sgn * split * (i % 2 * 0.2 + 0.8)) - off,
                                          int(ty) - off))
                surf.blit(back, r)
        # discard pile: settled discards
        settled = [sp for sp in self.discards if sp.t >= 1.0 and sp.b == ("discard",)
                   and sp not in self.extras]
        dx, dy = g["discard"]
        for i, _sp in enumerate(settled[-4:]):
            img = pygame.transform.rotate(back, (i * 37) % 24 - 12)
            surf.blit(img, img.get_rect(center=(int(dx) + i * 2, int(dy) - i * 2)))
        label_y = ty + ch * 0.5 + 4 * self.u
        text.blit(surf, t("table.talon"), max(11, int(16 * self.u)), (tx, label_y),
                  widgets.DIM, "midtop")
        if self.game.rules["stake"] > 0:
            px, py = g["pot"]
            r = max(5, int(11 * self.u))
            pw = int(cw * 1.2)
            img = cardart.scaled_sprite((pw, int(pw * 0.75)), "pot.png")
            if img is not None:
                surf.blit(img, img.get_rect(midbottom=(int(px), int(py + r))))
            else:
                for i in range(min(8, 2 + self.v_pot // max(1, self.game.rules["stake"]))):
                    self._chip(surf, (px - r * 2 + (i % 4) * r * 1.3, py - (i // 4) * r * 0.6),
                               r, CHIP_COLOURS[(i * 3) % len(CHIP_COLOURS)], 1.0)
            text.blit(surf, self.pot_text(), max(12, int(20 * self.u)), (px, py + r * 1.5),
                      widgets.GOLD, "midtop", True, shadow=True)

    def _draw_hand_panel(self, surf: pygame.Surface) -> None:
        u = self.u
        hp = self.geo["hand_panel"]
        v = self.viewer
        if v is None or self.v_out[v] or self.hand.get(v) is None:
            return
        widgets.panel(surf, hp, u, 200)
        label = t("table.your_card")
        ls = text.fit(label, int(18 * u), hp.width - int(8 * u), True, 9)
        text.blit(surf, label, ls, (hp.centerx, hp.top + int(6 * u)), widgets.GOLD, "midtop",
                  True)
        bw, bh = self.geo["big"]
        code = self.visible_face(v)
        sp = self.hand.get(v)
        if sp is None or sp.t < 1.0:
            code = None
            if sp is None:
                return
        art = self.app.art
        img = art.face(code, self.app.settings["four_colour"], i18n.get_lang(),
                       size=(bw, bh)) if code else art.back(self.app.settings["card_back"],
                                                            size=(bw, bh))
        surf.blit(img, img.get_rect(midbottom=(hp.centerx, hp.bottom - int(8 * u))))

    def _draw_actions(self, surf: pygame.Surface) -> None:
        u = self.u
        w, h = surf.get_size()
        hp, lp = self.geo["hand_panel"], self.geo["log_panel"]
        mid = (hp.right + lp.left) // 2
        avail = lp.left - hp.right - int(16 * u)
        if self.state == "human" and self.pending is not None:
            p = self.pending
            self.actions.draw(surf, u)
            prompt = self._prompt(p)
            y = self.actions.buttons[0].rect.top - int(6 * u) if self.actions.buttons else h
            if self.hint_visible():
                y -= self._draw_hint(surf)
                prompt += "  ·  " + self.hint_note()
            fs = text.fit(prompt, int(24 * u), avail, True, 10)
            text.blit(surf, text.ellipsize(prompt, fs, avail, True), fs, (mid, y), widgets.GOLD,
                      "midbottom", True, shadow=True)
        elif self.demo:
            msg = t("table.demo_hint")
            fs = text.fit(msg, int(20 * u), avail, False, 10)
            text.blit(surf, msg, fs, (mid, h - int(20 * u)), widgets.DIM, "midbottom")
        elif self.state == "thinking" and self.thinking_seat is not None:
            msg = t("table.thinking", name=self.seat_name(self.thinking_seat))
            fs = text.fit(msg, int(22 * u), avail, False, 10)
            text.blit(surf, msg, fs, (mid, h - int(20 * u)), widgets.DIM, "midbottom")

    def _draw_hint(self, surf: pygame.Surface) -> int:
        """The coach's risk on top of each move button; returns the room it took."""
        u = self.u
        best = self.hint_best()
        hb = self.hint_badge_h()
        for b in self.actions.buttons:
            self.draw_hint_badge(surf, self.hint_label(b.name, best=best == b.name),
                                 (b.rect.centerx, b.rect.top - hb // 4),
                                 b.rect.width - int(10 * u), best == b.name)
        return hb * 3 // 4 + int(2 * u)

    def move_label(self, move: str) -> str:
        p = self.pending
        return t(f"move.{p.decision}.{move}") if p is not None else move

    def _prompt(self, p) -> str:
        ctx = getattr(self.game, "_ctx", None)   # only for naming the other seat
        other = ""
        if p.decision == "turn":
            order = [s for s in self.v_active]
            if p.seat in order:
                nxt = order[(order.index(p.seat) + 1) % len(order)]
                other = self.seat_name(nxt)
        elif ctx and p.decision == "queen":
            other = self.seat_name(ctx[0])
        elif ctx and p.decision == "domino":
            other = self.seat_name(ctx[1])
        name = self.seat_name(p.seat)
        return t(f"prompt.{p.decision}", name=name, other=other)


# ----------------------------------------------------------------- building tables



def demo_scene(app, players: int = 6, seed: int | None = None,
               lang_names: bool = True) -> ChaseTableScene:
    players = max(3, min(10, int(players)))
    from game.settings import DEFAULT_NAMES

    names = DEFAULT_NAMES["en"][1:] + ["Otto"]
    levels = ["easy", "medium", "hard", "expert"]
    seats = [{"name": names[i], "human": False, "level": levels[i % 4]} for i in range(players)]
    return ChaseTableScene(app, seats, {}, seed=seed, demo=True)
