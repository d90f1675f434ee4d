"""What both card tables share: the event pump, the thinking worker, the hot-seat
privacy flow, seat plates with lives, speech bubbles, banners, the log, chips for lost
lives and the results hand-over. ``ChaseTableScene`` and ``RamsTableScene`` subclass
:class:`TableScene` and add their game's events (``ev_<type>``), layout and drawing.

Flow: events from the engine go into a queue; each is turned into an animation
(blocking: the next event waits for it). When the queue is empty and nothing moves,
the pending decision is fetched: a human gets the controls (after the privacy screen
when another human sat at the screen before), a computer gets its view after a
thinking pause, in a worker thread so the window keeps drawing.

Subclasses provide ``make_game()``, ``layout()``, ``resolve()``, ``draw()``,
``refresh_faces()``, ``_offer(pending)`` and ``game_id``.
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
from game.scenes.base import Scene
from game.view import anim, cardart, text, widgets
from game.view.anim import Animator, Call, Parallel, Sequence, Tween, Wait
from game.view.sprites import Banner, Bubble, CardSprite, Chip, Confetti, Mover, move
from game.view.widgets import Button, FocusList

CHIP_COLOURS = [("red", (200, 45, 45)), ("blue", (40, 90, 190)), ("green", (40, 150, 80)),
                ("yellow", (220, 170, 40)), ("black", (40, 40, 40)), ("white", (225, 225, 225))]




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

# ----------------------------------------------------------------- the base scene

class TableScene(Scene):
    name = "table"
    game_id = ""
    handoff_button = "handoff.button"   # the privacy screen's button text

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
        self.game = self.make_game()
        from game.ai.registry import make_player

        self.players = {i: make_player(self.game_id, s.get("level", "medium"))
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
        self.v_pot = 0
        self.chips: list[Chip] = []
        self.bubbles: list[Bubble] = []
        self.banner: Banner | None = None
        self.confetti: Confetti | None = None
        self.button = Mover(("dealer", 0))
        self.button.alpha = 0.0
        self.log: list[tuple[str, dict[str, Any], int | None]] = []
        self.out_order: list[int] = []
        self.out_round: dict[int, int] = {}
        self.rounds_played = 0
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
        # the coach (hint button, H): advice for the human deciding at the screen
        self.hint_button = Button(lambda: t("coach.button"), self.toggle_hint, name="hint",
                                  hotkey=pygame.K_h, hint="H")
        self.hint_on = False
        self.hint_key: tuple | None = None     # the decision the advice below answers
        self.hint: dict[str, Any] | None = None
        self.hint_future: concurrent.futures.Future | None = None

    # ------------------------------------------------------------------ hooks

    def make_game(self) -> Any:  # pragma: no cover - subclasses
        raise NotImplementedError

    def refresh_faces(self, animated: bool = True) -> anim.Anim | None:
        return None

    def on_viewer(self) -> None:
        """The human at the screen changed (hot-seat); the faces are refreshed already."""

    def _offer(self, p) -> None:  # pragma: no cover - subclasses
        raise NotImplementedError

    def _log_lose(self, seat: int, amount: int) -> None:
        card = getattr(self, "cards", {}).get(seat, "")
        self.add_log("log.lose_life" if amount == 1 else "log.lose_lives", seat=seat,
                     n=amount, card=card)

    def plate_tag(self, seat: int) -> str | None:
        """Text at the bottom right of a seat's plate (None: "you" or the level)."""
        return None

    def next_demo(self) -> Scene:
        """The attract mode's next game: the same game with ``--game``, else the other."""
        forced = getattr(self.app.opts, "game", None)
        gid = forced or ("rams" if self.game_id == "chase" else "chase")
        return demo_for(self.app, gid, players=self.n, seed=self.seed + 1)

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
                or self.confetti is not None or (self.state == "over" and self.demo)
                or self.hint_future is not None)

    # ------------------------------------------------------------------ the coach

    def _decision_key(self) -> tuple | None:
        p = self.pending
        if p is None:
            return None
        return (p.seat, p.decision, tuple(p.legal), len(getattr(self.game, "moves", ())))

    def hint_allowed(self) -> bool:
        """The hint button is offered: a human decides and is the one at the screen."""
        p = self.pending
        return (self.state == "human" and p is not None and p.seat in self.humans
                and p.seat not in self.players and self.viewer == p.seat and not self.demo)

    def hint_visible(self) -> bool:
        return self.hint_on and self.hint_allowed() and self.hint_key == self._decision_key()

    def hint_options(self) -> dict[str, Any] | None:
        """The coach's numbers per move while the hint shows (None: not shown / not yet)."""
        if not self.hint_visible() or self.hint is None:
            return None
        return self.hint.get("options") or {}

    def hint_best(self) -> str | None:
        return self.hint.get("move") if self.hint_options() is not None and self.hint \
            else None

    def toggle_hint(self) -> None:
        """Show (or hide again) the coach's numbers for the pending decision. The advice
        is computed once per decision in the worker thread; it never moves by itself."""
        if not self.hint_allowed():
            return
        self.app.play("click")
        key = self._decision_key()
        if self.hint_key == key and self.hint_on:
            self.hint_on = False
            self._layout_actions()
            return
        self.hint_on = True
        if self.hint_key != key:
            self.hint_key, self.hint = key, None
            p = self.pending
            assert p is not None
            view = self.game.view(p.seat)
            if self.app.ai_sync:
                self.hint = _advise(view)
            else:
                self.hint_future = self._worker().submit(_advise, view)
                self.hint_future.key = key     # type: ignore[attr-defined]
        self._layout_actions()

    def _layout_actions(self) -> None:
        """Subclasses place their move buttons (the hint may need room)."""

    def _poll_hint(self) -> None:
        fut = self.hint_future
        if fut is None or not fut.done():
            return
        self.hint_future = None
        if getattr(fut, "key", None) == self.hint_key and not fut.cancelled():
            try:
                self.hint = fut.result()
            except Exception:
                self.hint = {"move": None, "options": {}, "error": True}

    def _clear_hint(self) -> None:
        self.hint_on = False
        self.hint_key = None
        self.hint = None

    def hint_event(self, ev: pygame.event.Event) -> bool:
        """H or a click on the hint button (only on a human's turn)."""
        if not self.hint_allowed():
            return False
        if (ev.type == pygame.KEYDOWN and ev.key == pygame.K_h) or (
                ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1
                and self.hint_button.rect.collidepoint(ev.pos)):
            self.toggle_hint()
            return True
        return False

    def _worker(self) -> concurrent.futures.ThreadPoolExecutor:
        if self.executor is None:
            self.executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="table-ai")
        return self.executor

    def hint_percent(self, p: float) -> int:
        return int(round(100 * float(p)))

    def hint_label(self, move: str, short: bool = False, best: bool = False) -> str:
        """The text beside an option: its risk of losing a life this round (the
        coach's suggestion says so first)."""
        if self.hint is None:
            return "…"
        o = (self.hint.get("options") or {}).get(move)
        if o is None:
            return "–"
        n = self.hint_percent(o["lose_life"])
        label = t("coach.risk_short" if short else "coach.risk", p=n)
        return t("coach.best", risk=label) if best and not short else label

    def hint_badge_h(self) -> int:
        return max(15, int(26 * self.u))

    def draw_hint_badge(self, surf: pygame.Surface, msg: str, center: tuple[int, int],
                        max_w: int, best: bool) -> pygame.Rect:
        """A small pill with the risk; the coach's suggestion in gold."""
        u = self.u
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
        return box

    def hint_note(self) -> str:
        """One line about the advice: thinking, the suggestion, or no advice."""
        if self.hint is None:
            return t("coach.thinking")
        best = self.hint.get("move")
        if self.hint.get("error") or best is None:
            return t("coach.failed")
        return t("coach.pick", move=self.move_label(best))

    def move_label(self, move: str) -> str:
        return move

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

    def plate_rect(self, seat: int) -> pygame.Rect:
        pw, ph = self.geo["plate"]
        r = pygame.Rect(0, 0, pw, ph)
        x, y = self.geo["seat"][seat]
        r.center = (int(x), int(y))
        return r

    def seat_name(self, seat: int) -> str:
        return self.names[seat]

    def is_solo_human(self, seat: int) -> bool:
        return len(self.humans) == 1 and seat == self.humans[0]

    def obj_name(self, seat: int, case: str = "dat") -> str:
        """A seat named as the object of a sentence ("mit dir", "blockt dich")."""
        return t("table.you_" + case) if self.is_solo_human(seat) else self.seat_name(seat)

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

    def update(self, dt: float) -> None:
        self.clock += dt
        self._poll_hint()
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
                self.future = self._worker().submit(player.choose, view)
            return
        # a human decides
        if len(self.humans) > 1 and self.viewer != p.seat:
            self.viewer = None
            self.refresh_faces(animated=False)
            self.state = "handoff"
            from game.scenes.handoff import HandoffScene

            self.app.push(HandoffScene(self.app, self.seat_name(p.seat),
                                       lambda s=p.seat: self._reveal_for(s), self.open_pause,
                                       self.handoff_button))
            return
        self._offer(p)

    def _reveal_for(self, seat: int) -> None:
        self.viewer = seat
        self.refresh_faces(animated=False)
        self.on_viewer()
        p = self.game.to_move()
        if p is not None and p.seat == seat:
            self._offer(p)
        else:
            self.state = "idle"

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
        self._clear_hint()
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
            self.app.replace(self.next_demo())
            return
        from game.scenes.results import ResultsScene

        self.app.push(ResultsScene(self.app, self))

    def open_pause(self) -> None:
        from game.scenes.pause import PauseScene

        if self.app.top is not None and self.app.top.name == "pause":
            return
        self.app.play("click")
        self.app.push(PauseScene(self.app))

    def on_event(self, ev: Event) -> anim.Anim | None:
        handler: Callable[[Event], anim.Anim | None] | None = getattr(
            self, "ev_" + ev.type, None)
        if handler is None:
            return None
        return handler(ev)

    def ev_lose_life(self, ev: Event) -> anim.Anim:
        seat, amount, lives = ev.data["seat"], ev.data["amount"], ev.data["lives"]
        self._log_lose(seat, amount)
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
        return t("table.pot", pot=self.v_pot) if self.game.rules.get("stake", 0) > 0 else ""

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
        tag = self.plate_tag(s)
        if tag is None:
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
        mb = self.menu_button.rect
        self.hint_button.rect = pygame.Rect(mb.right + int(10 * u), mb.top,
                                            int(max(70, 118 * u)), mb.height)
        if self.hint_allowed():
            self.hint_button.draw(surf, u, self.hint_visible())
        parts = [t("table.round", n=self.v_round + 1)]
        if self.v_dealer is not None:
            parts.append(t("table.dealer", name=self.seat_name(self.v_dealer)))
        if self.v_sudden:
            parts.append(t("table.sudden"))
        if self.demo:
            parts.append(t("table.demo"))
        info = "  ·  ".join(parts)
        left = self.hint_button.rect.right + int(16 * u)
        avail = w - left - int(16 * u)
        fs = text.fit(info, int(bar.height * 0.5), avail, True, 10)
        text.blit(surf, text.ellipsize(info, fs, avail, True), fs,
                  (left + avail // 2, bar.centery), widgets.CREAM, "center", True)

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



def _advise(view: dict[str, Any]) -> dict[str, Any]:
    """The coach (``game.ai.coach``) for one view; never raises."""
    try:
        from game.ai.coach import advise_view

        return advise_view(view)
    except Exception:
        return {"move": None, "options": {}, "error": True}


def demo_for(app, game_id: str | None, players: int = 6, seed: int | None = None) -> Scene:
    """An attract-mode table of ``game_id`` (None: Chase the Ace) with computers only."""
    if game_id == "rams":
        from game.scenes.table_rams import demo_scene as rams_demo

        return rams_demo(app, players=players, seed=seed)
    from game.scenes.table_chase import demo_scene as chase_demo

    return chase_demo(app, players=players, seed=seed)
