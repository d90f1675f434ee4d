"""The Rams table: hands, the stock with the turned trump card, declarations and tricks,
animated from the engine's events. It decides nothing: the legal moves always come
from the engine; the table only explains (for display) why a card is not allowed.

The shared machinery (event pump, thinking worker, hot-seat privacy, plates, bubbles,
banners, log, lost-life chips, results) is :class:`game.scenes.table_base.TableScene`.

What is drawn face up: played cards, the turned trump card, and the hand of the
*viewer* (the one human at the screen). The seat at the bottom is the viewer's; in
hot-seat play the table turns to the next human behind the privacy screen.
"""

from __future__ import annotations

import math
from itertools import count
from typing import Any

import pygame

from game import i18n
from game.cards import SUIT_NAMES_DE, SUIT_NAMES_EN
from game.i18n import card_name, t
from game.rules.base import Event
from game.rules.rams import RamsGame
from game.rules.rams_rules import rank_table, trick_winner, why_not_card
from game.scenes.table_base import TableScene, seats_from_setup  # noqa: F401
from game.view import anim, cardart, text, widgets
from game.view.anim import Call, Parallel, Sequence, Tween, Wait
from game.view.sprites import CardSprite, flip, move
from game.view.widgets import Button

MOVE_KEYS = {"play": pygame.K_p, "drop": pygame.K_d, "pass_trump": pygame.K_k}
SUIT_SORT = "CHSD"          # alternating colours; trumps go to the right end
_uid = count(1)

MARK_COLOURS = {"play": (60, 140, 80), "drop": (95, 90, 85), "lone": (200, 150, 40),
                "defend": (60, 100, 170)}


def suit_name(suit: str) -> str:
    names = SUIT_NAMES_DE if i18n.get_lang() == "de" else SUIT_NAMES_EN
    return names.get(suit, suit)


def illegal_reason(view: dict[str, Any], card: str) -> str:
    """Why ``card`` may not be played now, in words: the rules' own reason
    (:func:`~game.rules.rams_rules.why_not_card`) for the view's hand and trick."""
    trick = [e["card"] for e in view.get("trick") or []]
    if not trick:
        return t("rams.why.not_now")
    rules = view["rules"]
    trump = view["trump"]
    rank = rank_table(view.get("deck") or "skat32")
    code = why_not_card(card, view["hand"], trick, trump, rank,
                        bool(rules.get("must_trump")), bool(rules.get("must_beat")))
    if code == "follow_suit":
        return t("rams.why.follow", suit=suit_name(trick[0][1]))
    if code == "must_trump":
        return t("rams.why.trump", suit=suit_name(trump))
    if code == "must_beat":
        return t("rams.why.beat", card=card_name(trick[trick_winner(trick, trump, rank)]))
    return t("rams.why.not_now")


class RamsTableScene(TableScene):
    name = "table"
    game_id = "rams"
    handoff_button = "handoff.button_hand"   # a whole hand, not one card

    def __init__(self, app, seats: list[dict[str, Any]], rules: dict[str, Any] | None = None,
                 seed: int | None = None, demo: bool = False) -> None:
        super().__init__(app, seats, rules, seed, demo)
        self.hand: dict[int, CardSprite] = {}    # Chase's one-card view: unused here
        self.public_up: set[int] = set()
        self.hands: dict[int, list[CardSprite]] = {s: [] for s in range(self.n)}
        self.folded: set[int] = set()            # seats whose cards lie face down (dropped)
        self.codes: dict[int, list[str]] = {}    # cards of each seat, as the events said
        self.trick_sprites: list[tuple[int, CardSprite]] = []
        self.flying: list[CardSprite] = []       # cards on their way to a pile or the stock
        self.trump_sprite: CardSprite | None = None
        self.v_trump = ""
        self.v_declared: dict[int, str] = {}
        self.v_tricks: dict[int, int] = {}
        self.v_lone: int | None = None
        self.v_players: list[int] = []
        self.round_lost: dict[int, int] = {}
        self.summary: dict[str, Any] | None = None
        self.summary_alpha = 0.0
        self.stock_split = 0.0
        self.hover = -1          # index into the bottom hand under the mouse
        self.focus = 0           # keyboard focus in the bottom hand
        self.offer_view: dict[str, Any] | None = None
        self.uid_index: dict[int, tuple[int, int]] = {}

    def update(self, dt: float) -> None:
        self.ensure_layout(self.app.size)   # event handlers pin cards where they are drawn
        super().update(dt)

    def make_game(self) -> RamsGame:
        return RamsGame(self.rules_given, self.n, seed=self.seed, bot_seed=self.seed & 0xFFFF)

    # ------------------------------------------------------------------ geometry

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        top_h = int(max(26, 46 * u))
        pad = int(10 * u)
        big_h = int(max(56, min(150 * u, h * 0.2)))
        big_w = int(big_h * 0.7)
        strip_h = big_h + int(30 * u)
        area = pygame.Rect(0, top_h, w, h - top_h - strip_h - pad)
        cx, cy = area.centerx, area.centery
        plate_w = int(min(190 * u, w * 0.17))
        plate_h = int(max(34, 58 * u))
        rx = area.width / 2 - plate_w * 0.62
        ry = area.height / 2 - plate_h * 0.62
        step = 2 * math.pi / self.n
        seat_pos, fan_pos, trick_pos, dealer_pos, dirs = {}, {}, {}, {}, {}
        for s in range(self.n):
            ang = math.pi / 2 + (s - self.base) * step
            c, si = math.cos(ang), math.sin(ang)
            dirs[s] = (c, si)
            seat_pos[s] = (cx + rx * c, cy + ry * si)
            fan_pos[s] = (cx + rx * 0.72 * c, cy + ry * 0.72 * si)
            trick_pos[s] = (cx + rx * 0.36 * c, cy + ry * 0.44 * si)
            da = ang + step * 0.26
            dealer_pos[s] = (cx + rx * 0.84 * math.cos(da), cy + ry * 0.8 * math.sin(da))
        ch = min(100 * u, area.height * 0.19)
        if self.n > 1:
            pts = [trick_pos[s] for s in range(self.n)]
            md = min(math.hypot(pts[i][0] - pts[(i + 1) % self.n][0],
                                pts[i][1] - pts[(i + 1) % self.n][1]) for i in range(self.n))
            ch = min(ch, md * 1.1)
        ch = max(24, int(ch))
        cw = int(ch * 0.7)
        self.app.art.resize(cw, ch)
        left_w = int(min(w * 0.25, 300 * u))
        log_w = int(min(w * 0.26, 330 * u))
        strip = pygame.Rect(0, h - strip_h - pad, w, strip_h)
        actions = pygame.Rect(pad, strip.top, left_w, strip_h)
        log = pygame.Rect(w - pad - log_w, strip.top, log_w, strip_h)
        hand = pygame.Rect(actions.right + pad, strip.top, log.left - actions.right - 2 * pad,
                           strip_h)
        self.geo = {
            "top_h": top_h, "area": area, "cx": cx, "cy": cy, "rx": rx, "ry": ry,
            "seat": seat_pos, "card": fan_pos, "fan": fan_pos, "trick": trick_pos,
            "dealer": dealer_pos, "dir": dirs, "cw": cw, "ch": ch,
            "plate": (plate_w, plate_h), "big": (big_w, big_h),
            "stock": (cx - cw * 0.35, cy), "trump": (cx + cw * 0.5, cy + ch * 0.04),
            "pot": (cx, cy), "strip": strip, "actions": actions, "log_panel": log,
            "hand": hand,
        }
        self.menu_button.rect = pygame.Rect(pad, int(6 * u), int(150 * u), top_h - int(12 * u))
        self.table_surf = self._build_table(size)
        self._dim_cache: dict[tuple[int, int], pygame.Surface] = {}
        self._layout_actions()

    def _layout_actions(self) -> None:
        if not self.geo:
            return
        u = self.u
        ar = self.geo["actions"]
        bh = int(max(28, 44 * u))
        gap = int(8 * u)
        if self.hint_visible():     # room for the coach's badge on each button
            gap += self.hint_badge_h() * 3 // 4 + int(3 * u)
        n = len(self.actions.buttons)
        top = ar.bottom - n * bh - (n - 1) * gap
        widgets.layout_column(self.actions.buttons, ar.centerx, top, ar.width, bh, gap)

    def hand_slot(self, seat: int, i: int, n: int) -> tuple[float, float]:
        g = self.geo
        k = i - (n - 1) / 2
        if seat == self.base:
            bw, bh = g["big"]
            hr = g["hand"]
            gap = min(bw * 0.86, (hr.width - bw) / max(1, n - 1)) if n > 1 else 0
            y = hr.centery + int(6 * self.u) + abs(k) ** 2 * bh * 0.025
            return hr.centerx + k * gap, y
        x, y = g["fan"][seat]
        c, si = g["dir"][seat]
        step = g["cw"] * 0.62 * 0.3
        # fanned along the tangent of the table's edge
        return x - si * k * step * 1.0 + c * 0, y + c * k * step * 0.35 + abs(k) * g["ch"] * 0.02

    def resolve(self, anchor: tuple) -> tuple[float, float]:
        g = self.geo
        kind = anchor[0]
        if kind == "hand":
            seat, uid = anchor[1], anchor[2]
            lst = self.hands.get(seat, [])
            for i, sp in enumerate(lst):
                if getattr(sp, "uid", None) == uid:
                    return self.hand_slot(seat, i, len(lst))
            return self.hand_slot(seat, 0, 1)
        if kind == "folded":
            x, y = (g["fan"][anchor[1]] if anchor[1] != self.base else
                    self.hand_slot(anchor[1], 0, 1))
            return x + anchor[2] * 2, y - anchor[2] * 2
        if kind == "trick":
            x, y = g["trick"][anchor[1]]
            return x, y
        if kind == "pile":
            r = self.plate_rect(anchor[1])
            return r.right - r.height * 0.35, r.bottom - r.height * 0.3
        if kind == "stock":
            return g["stock"]
        if kind == "trump":
            return g["trump"]
        if kind == "xy":
            return anchor[1], anchor[2]
        if kind == "dealer":
            return g["dealer"][anchor[1]]
        if kind == "chip":
            x, y = self.plate_rect(anchor[1]).midbottom
            return x, y - g["plate"][1] * 0.25
        return g["cx"], g["cy"]

    # ------------------------------------------------------------------ faces & hands

    def sort_key(self, code: str | None) -> tuple:
        if code is None:
            return (9, 0)
        suits = [s for s in SUIT_SORT if s != self.v_trump] + [self.v_trump]
        return (suits.index(code[1]) if code[1] in suits else 8, self.game.rank[code])

    def _sort_hand(self, seat: int) -> None:
        self.hands[seat].sort(key=lambda sp: self.sort_key(getattr(sp, "card", None)))

    def visible(self, seat: int, sp: CardSprite) -> str | None:
        if seat in self.folded:
            return None
        if self.viewer is not None and seat == self.viewer:
            return getattr(sp, "card", None)
        return None

    def refresh_faces(self, animated: bool = True) -> anim.Anim | None:
        flips = []
        for seat, lst in self.hands.items():
            for sp in lst:
                want = self.visible(seat, sp)
                if sp.code != want:
                    if animated:
                        flips.append(flip(sp, want))
                    else:
                        sp.code = want
                        sp.scale_x = 1.0
        return Parallel(*flips) if flips else None

    def on_viewer(self) -> None:
        if self.viewer is not None and self.viewer != self.base:
            self.base = self.viewer
            self._size = (0, 0)      # lay the table out again around the new viewer

    def _new_sprite(self, at: tuple, card: str | None = None) -> CardSprite:
        sp = CardSprite(at, None)
        sp.uid = next(_uid)            # type: ignore[attr-defined]
        sp.card = card                 # type: ignore[attr-defined]
        return sp

    def _take_out(self, seat: int, card: str | None) -> CardSprite | None:
        """Remove the sprite of ``card`` (or any) from ``seat``'s hand, pinned where it is."""
        lst = self.hands.get(seat, [])
        if not lst:
            return None
        pick = None
        for sp in lst:
            if card is not None and getattr(sp, "card", None) == card:
                pick = sp
        if pick is None:
            pick = lst[-1]
        x, y = pick.pos(self.resolve, self.geo["ch"])
        lst.remove(pick)
        pick.a = pick.b = ("xy", x, y)
        pick.t = 1.0
        if seat == self.base:
            bw = self.geo["big"][1]
            pick.scale = bw / max(1, self.geo["ch"])
        return pick

    # ------------------------------------------------------------------ decisions

    def _offer(self, p) -> None:
        self.state = "human"
        self.offer_view = self.game.view(p.seat)
        buttons = []
        if p.decision == "declare":
            for m in ("play", "drop"):
                if m in p.legal:
                    buttons.append(self._button(m, f"rams.move.{m}"))
        elif p.decision == "take":
            buttons.append(self._button("pass_trump", "rams.move.pass_trump"))
        self.actions.set(buttons)
        lst = self.hands.get(self.base, [])
        legal = [i for i, sp in enumerate(lst) if self.card_move(sp) in p.legal]
        self.focus = legal[0] if legal else 0
        self.hover = -1
        self._layout_actions()

    def _button(self, move_name: str, key: str) -> Button:
        hk = MOVE_KEYS.get(move_name)
        return Button(lambda k=key: t(k), lambda m=move_name: self.human_move(m), hotkey=hk,
                      name=move_name, hint=pygame.key.name(hk).upper() if hk else "")

    def card_move(self, sp: CardSprite) -> str | None:
        p = self.pending
        code = getattr(sp, "card", None)
        if p is None or code is None:
            return None
        return ("take:" + code) if p.decision == "take" else code

    def card_choice(self) -> bool:
        p = self.pending
        return self.state == "human" and p is not None and p.decision in ("trick", "take") \
            and p.seat == self.base

    def human_move(self, move_name: str) -> None:
        super().human_move(move_name)
        if self.state != "human":
            self.offer_view = None
            self.hover = -1

    def card_rects(self) -> list[pygame.Rect]:
        """Rects of the bottom hand's cards at rest (hit tests; later cards on top)."""
        bw, bh = self.geo["big"]
        out = []
        for sp in self.hands.get(self.base, []):
            x, y = sp.pos(self.resolve, self.geo["ch"])
            out.append(pygame.Rect(int(x - bw / 2), int(y - bh / 2), bw, bh))
        return out

    def card_at(self, pos: tuple[int, int]) -> int:
        for i, r in reversed(list(enumerate(self.card_rects()))):
            if r.collidepoint(pos):
                return i
        return -1

    def play_index(self, i: int) -> bool:
        lst = self.hands.get(self.base, [])
        if not (0 <= i < len(lst)) or self.pending is None:
            return False
        m = self.card_move(lst[i])
        if m is None or m not in self.pending.legal:
            self.focus = i
            self.app.play("knock")
            return True
        self.human_move(m)
        return True

    # ------------------------------------------------------------------ events -> animations

    def ev_first_dealer(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.v_dealer = seat
        self.add_log("log.rams.first_dealer", seat=seat)
        self.button.a = self.button.b = ("dealer", seat)
        return Tween(self.button, "alpha", 1.0, 0.3, start=0.0)

    def _collect(self) -> anim.Anim | None:
        old = [sp for lst in self.hands.values() for sp in lst] + \
            [sp for _, sp in self.trick_sprites]
        if self.trump_sprite is not None:
            old.append(self.trump_sprite)
        if not old:
            return None
        for s in self.hands:
            self.hands[s] = []
        self.trick_sprites = []
        self.trump_sprite = None
        self.flying.extend(old)
        steps = []
        for i, sp in enumerate(old):
            x, y = sp.pos(self.resolve, self.geo["ch"])
            sp.a = sp.b = ("xy", x, y)
            sp.highlight = False
            steps.append(Sequence(flip(sp, None, anim.FLIP * 0.6) or Wait(0),
                                  Parallel(move(sp, ("stock",), anim.COLLECT, delay=i * 0.01),
                                           Tween(sp, "scale", 1.0, anim.COLLECT))))

        def gone() -> None:
            for sp in old:
                if sp in self.flying:
                    self.flying.remove(sp)

        return Sequence(Parallel(*steps), Call(gone))

    def _round_summary(self) -> anim.Anim | None:
        if not self.v_players:
            return None
        rows = []
        for s in self.v_active:
            choice = self.v_declared.get(s, "")
            if self.v_lone is not None:
                choice = "lone" if s == self.v_lone else "defend"
            rows.append((s, choice, self.v_tricks.get(s, 0) if s in self.v_players else None,
                         self.round_lost.get(s, 0)))
        self.summary = {"round": self.v_round + 1, "rows": rows}
        self.v_players = []
        hold = 2.4 if not self.demo else 1.6

        def clear() -> None:
            self.summary = None

        return Sequence(Tween(self, "summary_alpha", 1.0, 0.2, start=0.0), Wait(hold),
                        Tween(self, "summary_alpha", 0.0, 0.25), Call(clear))

    def ev_round_start(self, ev: Event) -> anim.Anim:
        d = ev.data
        summary = self._round_summary()
        self.rounds_played = d["round"] + 1

        def reset() -> anim.Anim:
            self.v_round = d["round"]
            self.v_active = list(d["active"])
            self.v_declared = {}
            self.v_tricks = {}
            self.v_lone = None
            self.v_players = []
            self.round_lost = {}
            self.folded.clear()
            self.codes = {}
            self.v_trump = ""
            self.log = []
            collect = self._collect()
            dealer_move = None
            if self.v_dealer is None:
                self.button.a = self.button.b = ("dealer", d["dealer"])
                dealer_move = Tween(self.button, "alpha", 1.0, 0.3, start=0.0)
            elif self.v_dealer != d["dealer"]:
                dealer_move = move(self.button, ("dealer", d["dealer"]), anim.MOVE * 2)
            self.v_dealer = d["dealer"]
            self.add_log("log.round", seat=d["dealer"], n=d["round"] + 1)
            banner = self.show_banner("banner.round", hold=0.35, big=False, blocking=False,
                                      n=d["round"] + 1)
            return Parallel(collect, dealer_move, banner)

        return Sequence(summary, Call(reset))

    def ev_shuffle(self, ev: Event) -> anim.Anim:
        self.app.play("shuffle")
        cut = ev.data.get("cut_by")
        steps: list[anim.Anim | None] = [
            Tween(self, "stock_split", 1.0, 0.14, start=0.0), Tween(self, "stock_split", 0.0, 0.14),
            Tween(self, "stock_split", 1.0, 0.14), Tween(self, "stock_split", 0.0, 0.14)]
        if cut is not None:
            steps.append(self.say(cut, "say.cut", hold=0.25, kind="small"))
        return Sequence(*steps)

    def ev_deal(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        sp = self._new_sprite(("stock",))
        self.hands[seat].append(sp)
        sp.b = ("hand", seat, sp.uid)   # type: ignore[attr-defined]
        sp.a = ("stock",)
        sp.t = 0.0
        if seat == self.base:
            sp.scale = 1.0
        self.app.play("deal")
        self.anim.play_background(Tween(sp, "t", 1.0, anim.DEAL * 1.6, anim.ease_out,
                                        start=0.0))
        return Wait(anim.DEAL * 0.32)

    def ev_dealt(self, ev: Event) -> anim.Anim | None:
        if ev.to is None:
            return None
        seat = ev.to
        cards = list(ev.data["cards"])
        self.codes[seat] = cards
        lst = self.hands.get(seat, [])
        for sp, code in zip(lst, cards):
            sp.card = code            # type: ignore[attr-defined]
        self._sort_hand(seat)
        return self.refresh_faces()

    def ev_trump(self, ev: Event) -> anim.Anim:
        card, suit = ev.data["card"], ev.data["suit"]
        self.v_trump = suit
        for s in self.hands:
            self._sort_hand(s)
        sp = self._new_sprite(("stock",), card)
        self.trump_sprite = sp
        self.add_log("log.rams.trump", card=card, suit=suit_name(suit))
        self.app.play("flip")
        self.show_banner("banner.rams.trump", hold=0.5, big=False, blocking=False,
                         suit=suit_name(suit))
        return Sequence(move(sp, ("trump",), anim.MOVE * 1.5), flip(sp, card),
                        Wait(0.15))

    def ev_take_trump(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        disc = None
        for e in self.queue:
            if e.type == "discarded" and e.to == seat:
                disc = e.data["card"]
                break
            if e.type in ("declare", "round_start"):
                break
        self.add_log("log.rams.take_trump", seat=seat, card=card)
        steps: list[anim.Anim | None] = [self.say(seat, "say.rams.take", hold=0.4, card=card)]
        sp = self.trump_sprite
        self.trump_sprite = None
        out = self._take_out(seat, disc)
        if sp is None:
            sp = self._new_sprite(("stock",), card)
        sp.card = card                 # type: ignore[attr-defined]
        codes = self.codes.get(seat, [])
        if disc in codes:
            codes[codes.index(disc)] = card
        lst = self.hands[seat]
        x, y = sp.pos(self.resolve, self.geo["ch"])
        sp.a = sp.b = ("xy", x, y)
        lst.append(sp)
        self._sort_hand(seat)
        if seat == self.base:
            sp.scale = self.geo["ch"] / max(1, self.geo["big"][1])
        grow = Tween(sp, "scale", 1.0, anim.MOVE * 2) if seat == self.base else None
        steps.append(Parallel(move(sp, ("hand", seat, sp.uid), anim.MOVE * 2), grow))  # type: ignore[attr-defined]
        steps.append(self.refresh_faces())
        if out is not None:
            self.flying.append(out)

            def gone(o=out) -> None:
                if o in self.flying:
                    self.flying.remove(o)

            steps.append(Sequence(flip(out, None) or Wait(0),
                                  Parallel(move(out, ("stock",), anim.MOVE * 2),
                                           Tween(out, "scale", 1.0, anim.MOVE * 2)),
                                  Call(gone)))
        self.app.play("swap")
        return Sequence(*steps)

    def ev_discarded(self, ev: Event) -> None:
        if ev.to is not None:
            self.add_log("log.rams.discarded", to=ev.to, card=ev.data["card"])

    def ev_pass_trump(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.add_log("log.rams.pass_trump", seat=seat)
        return self.say(seat, "say.rams.pass_trump", hold=0.4)

    def ev_declare(self, ev: Event) -> anim.Anim:
        seat, choice = ev.data["seat"], ev.data["choice"]
        self.v_declared[seat] = choice
        self.add_log("log.rams." + choice, seat=seat)
        self.app.play("knock")
        steps: list[anim.Anim | None] = [self.say(seat, "say.rams." + choice, hold=0.45)]
        if choice == "drop":
            self.folded.add(seat)
            folds = [flip(sp, None) for sp in self.hands.get(seat, [])]
            steps.append(Parallel(*folds))
        return Sequence(*steps)

    def ev_void_round(self, ev: Event) -> anim.Anim:
        self.add_log("log.rams.void")
        return self.show_banner("banner.rams.void", "banner.rams.void.sub", hold=0.9)

    def ev_rams(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.v_lone = seat
        self.folded.clear()
        self.add_log("log.rams.rams", seat=seat)
        self.app.play("win")
        sub = "banner.rams.rams.sub_one" if self.game.rules["lone_needs_one"] else \
            "banner.rams.rams.sub"
        return Sequence(self.show_banner("banner.rams.rams", sub, hold=1.0,
                                         name=self.seat_name(seat)),
                        Call(lambda: self.refresh_faces()))

    def ev_lead(self, ev: Event) -> anim.Anim | None:
        if not self.v_players:
            self.v_players = self._in_play()
            for s in self.v_players:
                self.v_tricks.setdefault(s, 0)
        return None

    def _in_play(self) -> list[int]:
        if self.v_lone is not None:
            return [s for s in self.v_active]
        return [s for s in self.v_active if self.v_declared.get(s) == "play"]

    def ev_play(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        sp = self._take_out(seat, card)
        if sp is None:
            sp = self._new_sprite(("fan", seat), card)
            x, y = self.geo["fan"][seat]
            sp.a = sp.b = ("xy", x, y)
        sp.card = card                 # type: ignore[attr-defined]
        codes = self.codes.get(seat, [])
        if card in codes:
            codes.remove(card)
        self.trick_sprites.append((seat, sp))
        self.app.play("deal")
        return Parallel(move(sp, ("trick", seat), anim.MOVE * 1.3, ease=anim.ease_out),
                        Tween(sp, "scale", 1.0, anim.MOVE * 1.3),
                        flip(sp, card, anim.FLIP * 0.9))

    def ev_trick(self, ev: Event) -> anim.Anim:
        winner = ev.data["winner"]
        cards = ev.data.get("cards", {})
        wcard = cards.get(str(winner), "")
        self.add_log("log.rams.trick", seat=winner, card=wcard)
        sprites = list(self.trick_sprites)
        best = next((sp for s, sp in sprites if s == winner), None)
        steps: list[anim.Anim | None] = [Wait(0.25)]
        if best is not None:
            steps.append(Tween(best, "scale", 1.15, 0.18, anim.ease_out_back))
        steps.append(Wait(0.45))

        def sweep() -> anim.Anim:
            self.trick_sprites = []
            self.flying.extend(sp for _, sp in sprites)
            self.app.play("swap")
            return Parallel(*[Parallel(move(sp, ("pile", winner), anim.COLLECT * 1.4,
                                            delay=i * 0.03),
                                       Tween(sp, "scale", 0.3, anim.COLLECT * 1.4,
                                             delay=i * 0.03),
                                       Tween(sp, "alpha", 0.2, anim.COLLECT * 1.4,
                                             delay=i * 0.03))
                              for i, (_, sp) in enumerate(sprites)])

        def count_it() -> None:
            for _, sp in sprites:
                if sp in self.flying:
                    self.flying.remove(sp)
            self.v_tricks[winner] = self.v_tricks.get(winner, 0) + 1

        steps += [Call(sweep), Call(count_it)]
        return Sequence(*steps)

    def ev_lose_life(self, ev: Event) -> anim.Anim:
        seat, amount = ev.data["seat"], ev.data["amount"]
        self.round_lost[seat] = self.round_lost.get(seat, 0) + amount
        return super().ev_lose_life(ev)

    def _log_lose(self, seat: int, amount: int) -> None:
        self.add_log("log.rams.lose_life" if amount == 1 else "log.rams.lose_lives",
                     seat=seat, n=amount)

    def ev_game_over(self, ev: Event) -> anim.Anim:
        summary = self._round_summary()
        return Sequence(summary, Call(lambda: TableScene.ev_game_over(self, ev)))

    # ------------------------------------------------------------------ input

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and (ev.key == pygame.K_ESCAPE or (
                ev.key == pygame.K_p and self.state != "human")):
            self.open_pause()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self.menu_button.rect.collidepoint(ev.pos):
            self.open_pause()
            return True
        if self.state == "human":
            return self.hint_event(ev) or self._human_event(ev)
        if self.anim.busy and (
                (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_SPACE))
                or (ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1)):
            self.anim.finish_all()   # hurry the current animation along
            return True
        return False

    def _human_event(self, ev: pygame.event.Event) -> bool:
        cards = self.card_choice()
        lst = self.hands.get(self.base, [])
        if ev.type == pygame.MOUSEMOTION:
            self.hover = self.card_at(ev.pos) if cards else -1
            if self.hover >= 0:
                self.focus = self.hover
            self.actions.handle_event(ev)
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and cards:
            i = self.card_at(ev.pos)
            if i >= 0:
                return self.play_index(i)
        if ev.type == pygame.KEYDOWN and cards and lst:
            if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.focus = (self.focus + (1 if ev.key == pygame.K_RIGHT else -1)) % len(lst)
                self.hover = -1
                return True
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                return self.play_index(self.focus)
            if pygame.K_1 <= ev.key <= pygame.K_9:
                return self.play_index(ev.key - pygame.K_1)
        return self.actions.handle_event(ev)

    # ------------------------------------------------------------------ drawing

    def plate_tag(self, s: int) -> str | None:
        if s in self.v_tricks and s in self.v_players:
            return t("rams.tricks", n=self.v_tricks[s])
        return None

    def draw(self, surf: pygame.Surface) -> None:
        g = self.geo
        u = self.u
        surf.blit(self.table_surf, (0, 0))
        self._draw_stock(surf)
        self._draw_dealer_button(surf)
        for seat, lst in self.hands.items():
            if seat == self.base:
                continue
            for sp in lst:
                self._draw_card(surf, sp, small=0.62 if sp.t >= 1.0 else 1.0)
        for s in range(self.n):
            self._draw_plate(surf, s)
            self._draw_marker(surf, s)
        for _, sp in self.trick_sprites:
            self._draw_card(surf, sp)
        for sp in self.flying:
            self._draw_card(surf, sp)
        for chip in self.chips:
            x, y = chip.pos(self.resolve, g["ch"])
            self._chip(surf, (x, y), max(4, int(9 * u)), chip.colour, chip.alpha)
        self._draw_top(surf)
        self._draw_trump_badge(surf)
        self._draw_log(surf)
        self._draw_hand(surf)
        self._draw_actions(surf)
        for b in self.bubbles:
            self._draw_bubble(surf, b)
        if self.summary is not None:
            self._draw_summary(surf)
        if self.banner is not None:
            self._draw_banner(surf, self.banner)
        if self.confetti is not None:
            w, h = surf.get_size()
            sz = max(3, int(8 * u))
            for x, y, _vx, _vy, rot, col in self.confetti.parts:
                if 0 <= y <= 1.05:
                    wdt = max(1, int(sz * abs(math.cos(rot))))
                    pygame.draw.rect(surf, col, (int(x * w), int(y * h), wdt, sz))

    def _draw_card(self, surf: pygame.Surface, sp: CardSprite, small: float = 1.0) -> None:
        if small != 1.0:
            old = sp.scale
            sp.scale = old * small
            super()._draw_card(surf, sp)
            sp.scale = old
            return
        super()._draw_card(surf, sp)

    def _draw_stock(self, surf: pygame.Surface) -> None:
        g = self.geo
        cw, ch = g["cw"], g["ch"]
        art = self.app.art
        if self.trump_sprite is not None:
            self._draw_card(surf, self.trump_sprite)
        back = art.back(self.app.settings["card_back"])
        sx, sy = g["stock"]
        split = self.stock_split * cw * 0.6
        for i in range(4):
            off = i * max(1, cw // 40)
            for sgn in ((-1, 1) if split > 0.5 else (0,)):
                r = back.get_rect(center=(int(sx + sgn * split) - off, int(sy) - off))
                surf.blit(back, r)
        label = t("rams.stock")
        text.blit(surf, label, max(11, int(15 * self.u)), (sx, sy + ch * 0.5 + 3 * self.u),
                  widgets.DIM, "midtop")

    def _suit_badge(self, surf: pygame.Surface, center: tuple[int, int], r: int) -> None:
        x, y = center
        pygame.draw.circle(surf, (20, 20, 20), (x, y + max(1, r // 8)), r)
        pygame.draw.circle(surf, (250, 246, 234), (x, y), r)
        pygame.draw.circle(surf, widgets.GOLD, (x, y), r, max(1, r // 7))
        cardart.draw_suit(surf, self.v_trump, x, y, r * 1.15,
                          cardart.suit_colour(self.v_trump, self.app.settings["four_colour"]))

    def _draw_trump_badge(self, surf: pygame.Surface) -> None:
        if not self.v_trump:
            return
        u = self.u
        g = self.geo
        bar_h = g["top_h"]
        r = max(8, int(bar_h * 0.36))
        w = surf.get_width()
        x = w - int(14 * u) - r
        self._suit_badge(surf, (x, bar_h // 2), r)
        label = t("rams.trump", suit=suit_name(self.v_trump))
        fs = max(11, int(bar_h * 0.42))
        text.blit(surf, label, fs, (x - r - int(8 * u), bar_h // 2), widgets.GOLD, "midright",
                  True)
        # and beside the stock
        tx, ty = g["trump"]
        rr = max(8, int(g["ch"] * 0.16))
        self._suit_badge(surf, (int(tx + g["cw"] * 0.5 + rr * 1.1), int(ty - g["ch"] * 0.5
                                                                         + rr)), rr)

    def _draw_top(self, surf: pygame.Surface) -> None:
        # the base bar, then keep the right end free for the trump badge
        super()._draw_top(surf)

    def _draw_marker(self, surf: pygame.Surface, s: int) -> None:
        kind = self.v_declared.get(s)
        if self.v_lone is not None and s in self.v_active:
            kind = "lone" if s == self.v_lone else "defend"
        if kind is None or self.v_out[s]:
            return
        u = self.u
        r = self.plate_rect(s)
        label = t("rams.mark." + kind)
        fs = max(10, int(r.height * 0.3))
        tw, th = text.size_of(label, fs, True)
        pill = pygame.Rect(0, 0, tw + int(14 * u), th + int(4 * u))
        pill.midbottom = (r.right - pill.width // 2 - int(6 * u), r.top + pill.height // 2)
        pygame.draw.rect(surf, MARK_COLOURS[kind], pill, border_radius=pill.height // 2)
        pygame.draw.rect(surf, (20, 16, 12), pill, max(1, int(1.5 * u)),
                         border_radius=pill.height // 2)
        text.blit(surf, label, fs, pill.center, widgets.CREAM, "center", True)

    def _draw_hand(self, surf: pygame.Surface) -> None:
        u = self.u
        g = self.geo
        lst = self.hands.get(self.base, [])
        bw, bh = g["big"]
        art = self.app.art
        choose = self.card_choice()
        p = self.pending
        legal = set(p.legal) if (choose and p is not None) else set()
        tip = None
        for i, sp in enumerate(lst):
            x, y = sp.pos(self.resolve, g["ch"])
            if sp.t < 1.0:
                self._draw_card(surf, sp)
                continue
            code = sp.code
            img = art.face(code, self.app.settings["four_colour"], i18n.get_lang(),
                           size=(bw, bh)) if code else art.back(self.app.settings["card_back"],
                                                                size=(bw, bh))
            if sp.scale_x < 0.99:
                img = pygame.transform.smoothscale(img, (max(1, int(bw * sp.scale_x)), bh))
            ok = self.card_move(sp) in legal if choose else True
            focused = choose and i == (self.hover if self.hover >= 0 else self.focus)
            lift = int(bh * 0.12) if focused and ok else 0
            rect = img.get_rect(center=(int(x), int(y) - lift))
            pygame.draw.rect(surf, (10, 20, 14), rect.move(max(1, bw // 25), max(1, bw // 25)),
                             border_radius=max(2, bw // 9))
            surf.blit(img, rect)
            if code and self.v_trump and code[1] == self.v_trump:
                # trumps: a gold band and a small badge
                pygame.draw.rect(surf, widgets.GOLD, rect, max(2, int(3 * u)),
                                 border_radius=max(2, bw // 9))
                text.blit(surf, t("rams.trump_mark"), max(10, int(bh * 0.11)),
                          (rect.left + int(bw * 0.43), rect.bottom - int(bh * 0.04)),
                          (150, 110, 30),
                          "midbottom", True)
            if choose and not ok:
                surf.blit(self._dim(rect.size), rect)
            if focused:
                pygame.draw.rect(surf, widgets.BUTTON_FOCUS if ok else (200, 70, 60),
                                 rect.inflate(6, 6), max(2, int(4 * u)),
                                 border_radius=max(2, bw // 8))
                if not ok and self.offer_view is not None and code:
                    tip = (illegal_reason(self.offer_view, code), rect)
        if self.hint_visible() and choose:
            self._draw_card_hints(surf, lst, legal)
        if tip is not None:
            self._draw_tip(surf, *tip)

    def _draw_card_hints(self, surf: pygame.Surface, lst: list[CardSprite],
                         legal: set[str]) -> None:
        """The coach's risk above every card that may be played now."""
        u = self.u
        g = self.geo
        bw, bh = g["big"]
        best = self.hint_best()
        focus = self.hover if self.hover >= 0 else self.focus
        xs = [sp.pos(self.resolve, g["ch"]) for sp in lst]
        for i, sp in enumerate(lst):
            m = self.card_move(sp)
            if m not in legal or sp.t < 1.0:
                continue
            x, y = xs[i]
            left = int(x - bw / 2)
            right = int(xs[i + 1][0] - bw / 2) if i + 1 < len(lst) else left + bw
            lift = int(bh * 0.12) if i == focus else 0
            top = int(y - bh / 2) - lift
            hb = self.hint_badge_h()
            width = max(hb * 2, min(bw, right - left) - int(4 * u))
            self.draw_hint_badge(surf, self.hint_label(m, short=True),
                                 ((left + left + min(bw, right - left)) // 2,
                                  top - hb // 2 - int(3 * u)), width, best == m)

    def _dim(self, size: tuple[int, int]) -> pygame.Surface:
        img = self._dim_cache.get(size)
        if img is None:
            img = pygame.Surface(size, pygame.SRCALPHA)
            pygame.draw.rect(img, (10, 10, 10, 150), img.get_rect(),
                             border_radius=max(2, size[0] // 9))
            self._dim_cache[size] = img
        return img

    def _draw_tip(self, surf: pygame.Surface, msg: str, rect: pygame.Rect) -> None:
        u = self.u
        fs = max(12, int(20 * u))
        w = surf.get_width()
        fs = text.fit(msg, fs, int(w * 0.5), True, 10)
        tw, th = text.size_of(msg, fs, True)
        box = pygame.Rect(0, 0, tw + int(20 * u), th + int(12 * u))
        box.midbottom = (rect.centerx, rect.top - int(8 * u))
        box.clamp_ip(surf.get_rect())
        pygame.draw.rect(surf, (60, 20, 18), box, border_radius=max(3, int(8 * u)))
        pygame.draw.rect(surf, (230, 120, 100), box, max(1, int(2 * u)),
                         border_radius=max(3, int(8 * u)))
        text.blit(surf, msg, fs, box.center, widgets.CREAM, "center", True)

    def _draw_actions(self, surf: pygame.Surface) -> None:
        u = self.u
        ar = self.geo["actions"]
        if self.state == "human" and self.pending is not None:
            self.actions.draw(surf, u, show_focus=not self.card_choice())
            msg = self._prompt(self.pending)
            bottom = self.actions.buttons[0].rect.top - int(6 * u) if self.actions.buttons \
                else ar.bottom
            colour = widgets.GOLD
            if self.hint_visible():
                best = self.hint_best()
                hb = self.hint_badge_h()
                for b in self.actions.buttons:
                    self.draw_hint_badge(surf, self.hint_label(b.name, best=best == b.name),
                                         (b.rect.centerx, b.rect.top - hb // 4),
                                         b.rect.width - int(10 * u), best == b.name)
                if self.actions.buttons:
                    bottom -= hb * 3 // 4 + int(2 * u)
                msg += "\n" + self.hint_note()
                if self.card_choice():
                    msg += "\n" + t("coach.cards")
        elif self.demo:
            msg, bottom, colour = t("table.demo_hint"), ar.bottom, widgets.DIM
        elif self.state == "thinking" and self.thinking_seat is not None:
            msg = t("table.thinking", name=self.seat_name(self.thinking_seat))
            bottom, colour = ar.bottom, widgets.DIM
        else:
            return
        fs = max(12, int(21 * u))
        # the coach's note may use a little of the table's edge above the strip
        top = ar.top - (int(40 * u) if self.hint_visible() else 0)
        lines = text.wrap(msg, fs, ar.width, True)
        room = max(1, (bottom - top) // int(fs * 1.05))
        while len(lines) > room and fs > 10:
            fs -= 1
            lines = text.wrap(msg, fs, ar.width, True)
            room = max(1, (bottom - top) // int(fs * 1.05))
        lines = lines[:room]
        lh = int(fs * 1.05)
        y = bottom - lh * len(lines)
        for i, line in enumerate(lines):
            text.blit(surf, line, fs, (ar.left, y + i * lh), colour, "topleft", True,
                      shadow=True)

    def move_label(self, move: str) -> str:
        if move.startswith("take:"):
            return t("coach.give", card=card_name(move[5:]))
        if move in ("play", "drop", "pass_trump"):
            return t("rams.move." + move)
        return card_name(move)

    def _prompt(self, p) -> str:
        view = self.offer_view or {}
        if p.decision == "declare":
            if tuple(p.legal) == ("play",):
                n = (view.get("drops") or [0] * self.n)[p.seat]
                return t("rams.prompt.forced_one") if n <= 1 else \
                    t("rams.prompt.forced", n=n)
            return t("rams.prompt.declare", suit=suit_name(self.v_trump))
        if p.decision == "take":
            return t("rams.prompt.take", card=card_name(self.game.trump_card))
        if not view.get("trick"):
            return t("rams.prompt.lead")
        return t("rams.prompt.follow")

    def _draw_summary(self, surf: pygame.Surface) -> None:
        if self.summary_alpha <= 0.02 or self.summary is None:
            return
        u = self.u
        g = self.geo
        rows = self.summary["rows"]
        fs = max(12, int(22 * u))
        lh = int(fs * 1.35)
        title = t("rams.summary.title", n=self.summary["round"])
        area = g["area"]
        w = int(min(area.width * 0.8, 620 * u))
        lh = min(lh, max(12, (area.height - int(60 * u)) // (len(rows) + 2)))
        fs = min(fs, int(lh / 1.25))
        h = lh * (len(rows) + 1) + int(fs * 1.6) + int(20 * u)
        box = pygame.Rect(0, 0, w, h)
        box.center = (g["cx"], g["cy"])
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
                 t("rams.summary.lost")]
        anchors = ["topleft", "topleft", "topleft", "topright"]
        hs = max(10, int(fs * 0.8))
        for x, hd, an in zip(cols, heads, anchors):
            text.blit(layer, hd, hs, (x, y), widgets.DIM, an)
        y += lh
        for s, choice, tricks, lost in rows:
            col = (235, 120, 100) if lost else widgets.CREAM
            name = text.ellipsize(self.seat_name(s), fs, cols[1] - cols[0] - int(8 * u), True)
            text.blit(layer, name, fs, (cols[0], y), col, "topleft", True)
            ch = t("rams.mark." + choice) if choice else "–"
            text.blit(layer, text.ellipsize(ch, fs, cols[2] - cols[1] - int(6 * u)), fs,
                      (cols[1], y), col)
            text.blit(layer, "–" if tricks is None else str(tricks), fs, (cols[2], y), col)
            lt = t("rams.summary.minus", n=lost) if lost else "0"
            text.blit(layer, lt, fs, (cols[3], y), col, "topright", True)
            y += lh
        layer.set_alpha(int(255 * min(1.0, self.summary_alpha)))
        surf.blit(layer, box)


# ----------------------------------------------------------------- building tables

def demo_scene(app, players: int = 5, seed: int | None = None) -> RamsTableScene:
    players = max(3, min(10, int(players)))
    from game.settings import DEFAULT_NAMES

    names = DEFAULT_NAMES["en"][1:] + ["Otto"]
    levels = ["easy", "medium", "hard", "expert"]
    seats = [{"name": names[i], "human": False, "level": levels[i % 4]} for i in range(players)]
    return RamsTableScene(app, seats, {}, seed=seed, demo=True)
