"""The Chase the Ace table: it animates the engine's events and offers exactly the
engine's legal moves. It decides nothing.

Flow: events from ``ChaseGame`` go into a queue; each is turned into an animation
(blocking: the next event waits for it). When the queue is empty and nothing moves,
the pending decision is fetched: a human gets buttons (after the privacy screen when
another human sat at the screen before), a computer gets its view after a thinking
pause, in a worker thread so the window keeps drawing.

What is drawn face up: cards the engine showed publicly (King, Queen, low card, the
showdown) and the card of the *viewer*, the one human at the screen. With one human
the viewer is always that human; with none (demo) there is no viewer.
"""

from __future__ import annotations

import concurrent.futures
import math
import random
from collections import deque
from collections.abc import Callable
from typing import Any

import pygame

from game import i18n
from game.i18n import card_name, t
from game.rules.base import Event, IllegalMove
from game.rules.chase import ChaseGame
from game.scenes.base import Scene
from game.view import anim, cardart, text, widgets
from game.view.anim import Animator, Call, Parallel, Sequence, Tween, Wait
from game.view.sprites import Banner, Bubble, CardSprite, Chip, Confetti, Mover, flip, move
from game.view.widgets import Button, FocusList

CHIP_COLOURS = [("red", (200, 45, 45)), ("blue", (40, 90, 190)), ("green", (40, 150, 80)),
                ("yellow", (220, 170, 40)), ("black", (40, 40, 40)), ("white", (225, 225, 225))]

MOVE_KEYS = {"keep": pygame.K_k, "swap": pygame.K_s, "draw": pygame.K_d,
             "accept": pygame.K_a, "refuse": pygame.K_r}
MOVE_ORDER = {"turn": ("keep", "swap"), "dealer": ("keep", "draw"),
              "queen": ("accept", "refuse"), "domino": ("keep", "swap")}


# ----------------------------------------------------------------- computer players

class _FirstLegal:
    def choose(self, view: dict[str, Any]) -> str:
        return view["legal"][0]


def make_player(level: str) -> Any:
    try:
        from game.ai.players import make_player as real  # type: ignore[import-not-found]

        return real(level)
    except Exception:
        return _FirstLegal()


# ----------------------------------------------------------------- the scene

class ChaseTableScene(Scene):
    name = "table"

    def __init__(self, app, seats: list[dict[str, Any]], rules: dict[str, Any] | None = None,
                 seed: int | None = None, demo: bool = False) -> None:
        super().__init__(app)
        self.seats = seats
        self.n = len(seats)
        self.names = [s["name"] for s in seats]
        self.humans = [i for i, s in enumerate(seats) if s.get("human")]
        self.demo = demo
        self.seed = seed if seed is not None else random.randrange(2**31)
        self.rules_given = dict(rules or {})
        self.game = ChaseGame(self.rules_given, self.n, seed=self.seed,
                              bot_seed=self.seed & 0xFFFF)
        self.players = {i: make_player(s.get("level", "medium"))
                        for i, s in enumerate(seats) if not s.get("human")}
        self.anim = Animator(app.settings["anim_speed"])
        self.queue: deque[Event] = deque()
        self.state = "idle"       # idle | human | thinking | handoff | over | done
        self.pending = None
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.base = self.humans[0] if self.humans else 0  # seat drawn at the bottom
        # what the table shows (follows the animations, not the engine)
        lives = self.game.rules["lives"]
        self.v_lives = [lives] * self.n
        self.v_out = [False] * self.n
        self.v_dealer: int | None = None
        self.v_active: list[int] = list(range(self.n))
        self.v_round = 0
        self.v_sudden = False
        self.v_pot = self.game.pot
        self.cards: dict[int, str] = {}      # what each seat holds, as events told us
        self.public_up: set[int] = set()
        self.hand: dict[int, CardSprite] = {}
        self.extras: list[CardSprite] = []
        self.discards: list[CardSprite] = []
        self.chips: list[Chip] = []
        self.bubbles: list[Bubble] = []
        self.banner: Banner | None = None
        self.confetti: Confetti | None = None
        self.button = Mover(("dealer", 0))
        self.button.alpha = 0.0
        self.talon_split = 0.0
        self.talon_count = 1
        self.log: list[tuple[str, dict[str, Any], int | None]] = []
        self.out_order: list[int] = []
        self.out_round: dict[int, int] = {}
        self.rounds_played = 0
        self.highlight: set[int] = set()
        self.blocked: set[int] = set()
        self.stop_before: Callable[[Event], bool] | None = None   # tools/tests: pause here
        self.thinking_seat: int | None = None
        self.think_left = 0.0
        self.future: concurrent.futures.Future | None = None
        self.executor: concurrent.futures.ThreadPoolExecutor | None = None
        self.over_wait = 0.0
        self.clock = 0.0
        self.actions = FocusList(horizontal=True)
        self.menu_button = Button(lambda: t("table.menu"), self.open_pause, name="menu",
                                  hint="Esc")
        self.geo: dict[str, Any] = {}
        self.started = False

    # ------------------------------------------------------------------ lifecycle

    def enter(self) -> None:
        if not self.started:
            self.started = True
            self.queue.extend(self.game.start())

    def exit(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None

    def resume(self) -> None:
        super().resume()
        self.anim.speed = self.app.settings["anim_speed"]

    def busy(self) -> bool:
        return (self.anim.moving or bool(self.queue) or self.state in ("thinking", "idle")
                or self.confetti is not None or (self.state == "over" and self.demo))

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

    def plate_rect(self, seat: int) -> pygame.Rect:
        pw, ph = self.geo["plate"]
        r = pygame.Rect(0, 0, pw, ph)
        x, y = self.geo["seat"][seat]
        r.center = (int(x), int(y))
        return r

    def _build_table(self, size: tuple[int, int]) -> pygame.Surface:
        w, h = size
        g = self.geo
        u = self.u
        surf = pygame.Surface(size).convert()
        surf.fill((30, 22, 18))
        # a warm room: darker towards the edges
        glow = pygame.Surface((64, 36), pygame.SRCALPHA)
        for i in range(18, 0, -1):
            a = int(10 + (18 - i) * 2.5)
            pygame.draw.ellipse(glow, (90, 60, 40, a),
                                pygame.Rect(32 - i * 2, 18 - i, i * 4, i * 2))
        surf.blit(pygame.transform.smoothscale(glow, size), (0, 0))
        area = g["area"]
        table = area.inflate(-int(area.width * 0.02), -int(area.height * 0.04))
        rim = max(6, int(18 * u))
        pygame.draw.ellipse(surf, (20, 12, 8), table.move(0, int(8 * u)))
        pygame.draw.ellipse(surf, (110, 66, 36), table)
        pygame.draw.ellipse(surf, (140, 90, 50), table, max(2, int(4 * u)))
        felt_rect = table.inflate(-2 * rim, -2 * rim)
        felt = self.app.background()
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

    # ------------------------------------------------------------------ helpers

    def seat_name(self, seat: int) -> str:
        return self.names[seat]

    def is_solo_human(self, seat: int) -> bool:
        return len(self.humans) == 1 and seat == self.humans[0]

    def obj_name(self, seat: int, case: str = "dat") -> str:
        """A seat named as the object of a sentence ("mit dir", "blockt dich")."""
        return t("table.you_" + case) if self.is_solo_human(seat) else self.seat_name(seat)

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

    def say(self, seat: int, key: str, hold: float = anim.BUBBLE, kind: str = "say",
            **fmt: Any) -> anim.Anim:
        def msg() -> str:
            return t(key, **{k: card_name(v) if k == "card" else v for k, v in fmt.items()})

        b = Bubble(seat, msg, kind)
        self.bubbles = [x for x in self.bubbles if x.seat != seat]
        self.bubbles.append(b)

        def fade() -> None:
            self.anim.play_background(Sequence(
                Tween(b, "alpha", 0.0, 0.35, anim.ease_in),
                Call(lambda: self.bubbles.remove(b) if b in self.bubbles else None)))

        return Sequence(Tween(b, "alpha", 1.0, 0.12, start=0.0), Wait(hold), Call(fade))

    def ask(self, asker: int, target: int, hold: float = 0.35) -> anim.Anim:
        if self.is_solo_human(target):
            return self.say(asker, "say.swap_you", hold=hold)
        return self.say(asker, "say.swap", hold=hold, other=self.seat_name(target))

    def show_banner(self, key: str, sub: str | None = None, hold: float = anim.BANNER,
                    big: bool = True, blocking: bool = True, **fmt: Any) -> anim.Anim | None:
        b = Banner(lambda: t(key, **fmt), (lambda: t(sub, **fmt)) if sub else None, big)
        self.banner = b

        def clear() -> None:
            if self.banner is b:
                self.banner = None

        seq = Sequence(Tween(b, "alpha", 1.0, 0.15, start=0.0), Wait(hold),
                       Tween(b, "alpha", 0.0, 0.25), Call(clear))
        if blocking:
            return seq
        self.anim.play_background(seq)
        return None

    def add_log(self, key: str, to: int | None = None, seat: int | None = None,
                **fmt: Any) -> None:
        """Log a line; ``seat`` is the actor (the solo human reads it in the 2nd person)."""
        if seat is not None:
            fmt["name"] = self.seat_name(seat)
            if len(self.humans) == 1 and seat == self.humans[0] and i18n.has(key + "_you"):
                key += "_you"
        self.log.append((key, fmt, to))
        del self.log[:-30]

    def _peek(self, types: set[str], stop: set[str]) -> list[Event]:
        found = []
        for ev in self.queue:
            if ev.type in stop:
                break
            if ev.type in types:
                found.append(ev)
        return found

    # ------------------------------------------------------------------ the event pump

    def update(self, dt: float) -> None:
        self.clock += dt
        self.anim.speed = self.app.settings["anim_speed"]
        self.anim.update(dt)
        if self.confetti is not None and self.confetti.done:
            self.confetti = None
        budget = 2000
        while budget > 0 and not self.anim.busy:
            budget -= 1
            if self.queue:
                if self.stop_before is not None and self.stop_before(self.queue[0]):
                    break
                ev = self.queue.popleft()
                self.anim.play(self.on_event(ev))
                continue
            if self.state == "idle":
                self._next_decision()
                if self.state == "idle" and self.queue:
                    continue
            break
        if self.state == "thinking":
            self._think(dt)
        elif self.state == "over":
            self.over_wait -= dt
            if self.over_wait <= 0 and not self.anim.busy:
                self._finish_game()

    def _next_decision(self) -> None:
        g = self.game
        if g.finished:
            self.state = "over"
            self.over_wait = 2.5 if self.demo else 0.6
            if self.anim.speed == "off":
                self.over_wait = 0.0
            return
        p = g.to_move()
        if p is None:
            return
        self.pending = p
        if p.seat in self.players:
            self.state = "thinking"
            self.thinking_seat = p.seat
            self.think_left = float(self.app.settings["think_pause"])
            view = g.view(p.seat)
            player = self.players[p.seat]
            if self.app.ai_sync:
                self.future = concurrent.futures.Future()
                try:
                    self.future.set_result(player.choose(view))
                except Exception as exc:  # a broken player forfeits the decision
                    self.future.set_exception(exc)
            else:
                if self.executor is None:
                    self.executor = concurrent.futures.ThreadPoolExecutor(
                        max_workers=1, thread_name_prefix="chase-ai")
                self.future = self.executor.submit(player.choose, view)
            return
        # a human decides
        if len(self.humans) > 1 and self.viewer != p.seat:
            self.viewer = None
            self.refresh_faces(animated=False)
            self.state = "handoff"
            from game.scenes.handoff import HandoffScene

            self.app.push(HandoffScene(self.app, self.seat_name(p.seat),
                                       lambda s=p.seat: self._reveal_for(s), self.open_pause))
            return
        self._offer(p)

    def _reveal_for(self, seat: int) -> None:
        self.viewer = seat
        self.refresh_faces(animated=False)
        p = self.game.to_move()
        if p is not None and p.seat == seat:
            self._offer(p)
        else:
            self.state = "idle"

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

    def human_move(self, move: str) -> None:
        p = self.pending
        if self.state != "human" or p is None:
            return
        try:
            events = self.game.apply(p.seat, move)
        except IllegalMove:
            return
        self.app.play("click")
        self.actions.set([])
        self.state = "idle"
        self.queue.extend(events)

    def _think(self, dt: float) -> None:
        self.think_left -= dt
        if self.think_left > 0 and self.anim.speed != "off":
            return
        fut = self.future
        if fut is None or not fut.done():
            return
        p = self.pending
        assert p is not None
        try:
            move = fut.result()
        except Exception:
            move = None
        if move not in p.legal:
            move = p.legal[0]
        self.future = None
        self.thinking_seat = None
        self.state = "idle"
        self.queue.extend(self.game.apply(p.seat, move))

    def _finish_game(self) -> None:
        self.state = "done"
        if self.demo:
            nxt = demo_scene(self.app, players=self.n, seed=self.seed + 1,
                             lang_names=False)
            self.app.replace(nxt)
            return
        from game.scenes.results import ResultsScene

        self.app.push(ResultsScene(self.app, self))

    def open_pause(self) -> None:
        from game.scenes.pause import PauseScene

        if self.app.top is not None and self.app.top.name == "pause":
            return
        self.app.play("click")
        self.app.push(PauseScene(self.app))

    # ------------------------------------------------------------------ events -> animations

    def on_event(self, ev: Event) -> anim.Anim | None:
        handler: Callable[[Event], anim.Anim | None] | None = getattr(
            self, "ev_" + ev.type, None)
        if handler is None:
            return None
        return handler(ev)

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

    def ev_lose_life(self, ev: Event) -> anim.Anim:
        seat, amount, lives = ev.data["seat"], ev.data["amount"], ev.data["lives"]
        card = self.cards.get(seat, "")
        self.add_log("log.lose_life" if amount == 1 else "log.lose_lives", seat=seat,
                     n=amount, card=card)
        flying = []
        for i in range(amount):
            chip = Chip(("chip", seat), CHIP_COLOURS[seat % len(CHIP_COLOURS)])
            self.chips.append(chip)

            def gone(c: Chip = chip) -> None:
                if c in self.chips:
                    self.chips.remove(c)

            flying.append(Sequence(move(chip, ("pot",), anim.CHIP * 1.5, delay=i * 0.12,
                                        arc=0.3),
                                   Tween(chip, "alpha", 0.0, 0.2), Call(gone)))

        def update_lives() -> None:
            self.v_lives[seat] = lives

        self.app.play("chip")
        return Sequence(Parallel(*flying, Sequence(Wait(0.15), Call(update_lives))), Wait(0.1))

    def ev_out(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.add_log("log.out", seat=seat)
        self.out_order.append(seat)
        self.out_round[seat] = self.v_round + 1
        self.app.play("lose")

        def mark() -> None:
            self.v_out[seat] = True

        return Sequence(self.say(seat, "say.out", hold=anim.BUBBLE), Call(mark))

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

    def ev_game_over(self, ev: Event) -> anim.Anim:
        winner = ev.data["winner"]
        if isinstance(winner, int):
            key, names = "banner.winner", self.seat_name(winner)
            human_won = winner in self.humans
        elif isinstance(winner, list) and winner:
            key, names = "banner.shared", ", ".join(self.seat_name(s) for s in winner)
            human_won = any(s in self.humans for s in winner)
        else:
            key, names, human_won = "banner.nobody", "", False
        self.add_log("log.game_over", names=names)
        self.app.play("win" if human_won or not self.humans else "lose")
        self.confetti = Confetti(3.5, 140, seed=self.seed)
        self.anim.play_background(self.confetti)
        return self.show_banner(key, "banner.game_over.sub" if self.pot_text() else None,
                                hold=2.0, names=names, pot=self.v_pot)

    def pot_text(self) -> str:
        return t("table.pot", pot=self.v_pot) if self.game.rules["stake"] > 0 else ""

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
            return self.actions.handle_event(ev)
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

    def _chip(self, surf, pos, r, colour, alpha=1.0) -> None:
        x, y = int(pos[0]), int(pos[1])
        name, colour = colour
        img = cardart.scaled_sprite((2 * r + 2, 2 * r + 2), "chips", f"chip_{name}.png")
        if img is not None:
            if alpha < 0.99:
                img = img.copy()
                img.set_alpha(int(255 * max(0.0, alpha)))
            surf.blit(img, img.get_rect(center=(x, y)))
            return
        if alpha < 0.99:
            tmp = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
            self._chip(tmp, (r + 1, r + 1), r, (name, colour))
            tmp.set_alpha(int(255 * max(0.0, alpha)))
            surf.blit(tmp, (x - r - 1, y - r - 1))
            return
        pygame.draw.circle(surf, (20, 20, 20), (x, y + max(1, r // 5)), r)
        pygame.draw.circle(surf, colour, (x, y), r)
        pygame.draw.circle(surf, (245, 240, 230), (x, y), r, max(1, r // 4))
        pygame.draw.circle(surf, colour, (x, y), max(1, r // 2))

    def _draw_dealer_button(self, surf: pygame.Surface) -> None:
        if self.button.alpha <= 0.01:
            return
        x, y = self.button.pos(self.resolve)
        r = max(8, int(16 * self.u))
        pygame.draw.circle(surf, (20, 20, 20), (int(x), int(y) + 2), r)
        pygame.draw.circle(surf, (245, 240, 225), (int(x), int(y)), r)
        pygame.draw.circle(surf, (160, 120, 40), (int(x), int(y)), r, max(1, r // 6))
        text.blit(surf, t("table.dealer_letter"), int(r * 1.3), (x, y + 1), (30, 30, 30),
                  "center", True)

    def _draw_plate(self, surf: pygame.Surface, s: int) -> None:
        u = self.u
        r = self.plate_rect(s)
        out = self.v_out[s]
        turn = self.pending is not None and self.pending.seat == s and \
            self.state in ("human", "thinking")
        col = (34, 30, 26) if out else (50, 38, 28)
        pygame.draw.rect(surf, (10, 8, 6), r.move(0, max(1, int(3 * u))),
                         border_radius=max(4, int(10 * u)))
        pygame.draw.rect(surf, col, r, border_radius=max(4, int(10 * u)))
        border = widgets.BUTTON_FOCUS if turn else ((90, 80, 70) if out else (150, 110, 60))
        if turn:
            glow = r.inflate(int(8 * u), int(8 * u))
            pulse = 0.5 + 0.5 * math.sin(self.clock * 5)
            pygame.draw.rect(surf, (230, 190, 80), glow, max(1, int((2 + 2 * pulse) * u)),
                             border_radius=max(4, int(14 * u)))
        pygame.draw.rect(surf, border, r, max(1, int(2 * u)), border_radius=max(4, int(10 * u)))
        pad = int(8 * u)
        name = self.seat_name(s)
        ns = max(11, int(r.height * 0.38))
        solo_you = s == self.viewer and len(self.humans) == 1
        tag = ("" if name == t("table.you_name") else t("table.you")) if solo_you else (
            t("level." + self.seats[s].get("level", "medium")) if s in self.players else "")
        avail = r.width - 2 * pad
        colour = (130, 120, 110) if out else widgets.CREAM
        ns = text.fit(name, ns, avail, True, 10)
        text.blit(surf, text.ellipsize(name, ns, avail, True), ns,
                  (r.left + pad, r.top + int(r.height * 0.08)), colour, "topleft", True)
        cr = max(3, int(r.height * 0.11))
        y = r.bottom - cr - int(r.height * 0.12)
        full = self.game.rules["lives"]
        if out:
            text.blit(surf, t("table.out"), max(10, int(r.height * 0.3)),
                      (r.left + pad, y), (200, 80, 70), "midleft", True)
        elif self.v_sudden and self.v_lives[s] == 0:
            text.blit(surf, t("table.sudden"), max(10, int(r.height * 0.3)),
                      (r.left + pad, y), (240, 150, 60), "midleft", True)
        else:
            for i in range(max(full, self.v_lives[s])):
                cx = r.left + pad + cr + i * int(cr * 2.4)
                if i < self.v_lives[s]:
                    self._chip(surf, (cx, y), cr, CHIP_COLOURS[s % len(CHIP_COLOURS)])
                else:
                    pygame.draw.circle(surf, (90, 80, 70), (cx, y), cr, 1)
        if tag:
            ts = max(11, int(r.height * 0.28))
            text.blit(surf, text.ellipsize(tag, ts, r.width // 2), ts,
                      (r.right - pad, y), widgets.DIM, "midright")
        if s == self.thinking_seat and self.state == "thinking":
            dots = "." * (1 + int(self.clock * 3) % 3)
            text.blit(surf, dots, int(r.height * 0.5), (r.right - pad, r.top + 2),
                      widgets.GOLD, "topright", True)

    def _draw_card(self, surf: pygame.Surface, sp: CardSprite) -> None:
        g = self.geo
        art = self.app.art
        x, y = sp.pos(self.resolve, g["ch"])
        if sp.code is None:
            img = art.back(self.app.settings["card_back"])
        else:
            img = art.face(sp.code, self.app.settings["four_colour"], i18n.get_lang())
        w, h = img.get_size()
        sw = max(1, int(w * sp.scale_x * sp.scale))
        sh = max(1, int(h * sp.scale))
        if (sw, sh) != (w, h):
            img = pygame.transform.smoothscale(img, (sw, sh))
        rect = img.get_rect(center=(int(x), int(y)))
        pygame.draw.rect(surf, (10, 20, 14), rect.move(max(1, w // 25), max(1, w // 25)),
                         border_radius=max(2, w // 9))
        if sp.alpha < 0.99:
            img = img.copy()
            img.set_alpha(int(255 * sp.alpha))
        surf.blit(img, rect)
        if sp.highlight:
            pygame.draw.rect(surf, (230, 50, 40), rect.inflate(6, 6), max(2, int(4 * self.u)),
                             border_radius=max(2, w // 8))

    def _draw_bubble(self, surf: pygame.Surface, b: Bubble) -> None:
        if b.alpha <= 0.02:
            return
        u = self.u
        msg = b.text()
        size = max(12, int((18 if b.kind == "small" else 24) * u))
        pr = self.plate_rect(b.seat)
        w, h = surf.get_size()
        tw, th = text.size_of(msg, size, True)
        tw = min(tw, int(w * 0.4))
        box = pygame.Rect(0, 0, tw + int(22 * u), th + int(14 * u))
        cx = self.geo["cx"]
        gap = int(10 * u)
        # beside the plate, on the side facing the middle of the table
        to_right = pr.centerx <= cx + 1
        box.centery = pr.centery
        if to_right:
            box.left = pr.right + gap
        else:
            box.right = pr.left - gap
        box.clamp_ip(surf.get_rect())
        k = int(7 * u)
        layer = pygame.Surface((box.width + 2 * k, box.height), pygame.SRCALPHA)
        inner = pygame.Rect(k, 0, box.width, box.height)
        pygame.draw.rect(layer, (252, 248, 236), inner, border_radius=max(4, int(10 * u)))
        pygame.draw.rect(layer, (60, 50, 40), inner, max(1, int(2 * u)),
                         border_radius=max(4, int(10 * u)))
        my = inner.centery
        if to_right:
            pts = [(k + 2, my - k), (k + 2, my + k), (0, my)]
        else:
            pts = [(inner.right - 2, my - k), (inner.right - 2, my + k), (inner.right + k, my)]
        pygame.draw.polygon(layer, (252, 248, 236), pts)
        fs = text.fit(msg, size, box.width - int(16 * u), True, 10)
        img = text.render(text.ellipsize(msg, fs, box.width - int(16 * u), True), fs,
                          (35, 30, 25), True)
        layer.blit(img, img.get_rect(center=inner.center))
        layer.set_alpha(int(255 * min(1.0, b.alpha)))
        surf.blit(layer, (box.left - k, box.top))

    def _draw_banner(self, surf: pygame.Surface, b: Banner) -> None:
        if b.alpha <= 0.02:
            return
        u = self.u
        w, h = surf.get_size()
        size = int((56 if b.big else 36) * u)
        msg = b.text()
        size = text.fit(msg, size, int(w * 0.86), True, 12)
        sub = b.sub() if b.sub else ""
        ss = text.fit(sub, int(26 * u), int(w * 0.86), False, 10) if sub else 0
        th = text.size_of(msg, size, True)[1] + (int(ss * 1.3) if sub else 0)
        box = pygame.Rect(0, 0, int(w * 0.9), th + int(28 * u))
        box.center = (w // 2, int(self.geo["cy"] - self.geo["ch"] * 0.2))
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
        layer.set_alpha(int(255 * min(1.0, b.alpha)))
        surf.blit(layer, box)

    def _draw_top(self, surf: pygame.Surface) -> None:
        u = self.u
        w = surf.get_width()
        g = self.geo
        bar = pygame.Rect(0, 0, w, g["top_h"])
        shade = pygame.Surface(bar.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        surf.blit(shade, bar)
        self.menu_button.draw(surf, u, False)
        parts = [t("table.round", n=self.v_round + 1)]
        if self.v_dealer is not None:
            parts.append(t("table.dealer", name=self.seat_name(self.v_dealer)))
        if self.v_sudden:
            parts.append(t("table.sudden"))
        if self.demo:
            parts.append(t("table.demo"))
        info = "  ·  ".join(parts)
        left = self.menu_button.rect.right + int(16 * u)
        avail = w - left - int(16 * u)
        fs = text.fit(info, int(bar.height * 0.5), avail, True, 10)
        text.blit(surf, text.ellipsize(info, fs, avail, True), fs,
                  (left + avail // 2, bar.centery), widgets.CREAM, "center", True)

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

    def _log_text(self, key: str, fmt: dict[str, Any]) -> str:
        f = dict(fmt)
        if "card" in f and f["card"]:
            f["card"] = card_name(f["card"])
        return t(key, **f)

    def _draw_log(self, surf: pygame.Surface) -> None:
        u = self.u
        lp = self.geo["log_panel"]
        widgets.panel(surf, lp, u, 170, border=(90, 80, 60))
        fs = max(13, int(18 * u))
        lh = int(fs * 1.05)
        inner_w = lp.width - int(16 * u)
        lines: list[str] = []
        for key, fmt, to in self.log:
            if to is not None and to != self.viewer:
                continue
            lines.extend(text.wrap(self._log_text(key, fmt), fs, inner_w))
        max_lines = max(1, (lp.height - int(12 * u)) // lh)
        lines = lines[-max_lines:]
        for i, line in enumerate(lines):
            col = widgets.CREAM if i == len(lines) - 1 else (200, 192, 175)
            text.blit(surf, line, fs, (lp.left + int(8 * u), lp.top + int(6 * u) + i * lh),
                      col)

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

def seats_from_setup(setup: dict[str, Any], lang: str | None = None) -> list[dict[str, Any]]:
    from game.settings import DEFAULT_NAMES

    lang = lang or i18n.get_lang()
    names = DEFAULT_NAMES.get(lang, DEFAULT_NAMES["en"])
    out = []
    n = setup["players"]
    for i in range(n):
        s = setup["seats"][i]
        default = names[i] if i or s.get("human") else "Otto"
        if i == 0 and s.get("human") and sum(1 for x in setup["seats"][:n] if x.get("human")) > 1:
            default = t("setup.player_n", n=1)
        name = (s.get("name") or "").strip()[:16] or default
        out.append({"name": name, "human": bool(s.get("human")),
                    "level": s.get("level", "medium")})
    # make names unique so the log stays readable
    seen: dict[str, int] = {}
    for s in out:
        k = s["name"]
        if k in seen:
            seen[k] += 1
            s["name"] = f"{k} {seen[k]}"
        else:
            seen[k] = 1
    return out


def demo_scene(app, players: int = 6, seed: int | None = None,
               lang_names: bool = True) -> ChaseTableScene:
    players = max(3, min(10, int(players)))
    from game.settings import DEFAULT_NAMES

    names = DEFAULT_NAMES["en"][1:] + ["Otto"]
    levels = ["easy", "medium", "hard", "expert"]
    seats = [{"name": names[i], "human": False, "level": levels[i % 4]} for i in range(players)]
    return ChaseTableScene(app, seats, {}, seed=seed, demo=True)
