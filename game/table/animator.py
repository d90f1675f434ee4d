"""Engine events turned into animations: what both games share (speech bubbles,
banners, the log, lost lives, a seat going out, game over). Each game's animator
(``chase_animator.py``, ``rams_animator.py``) subclasses :class:`EventAnimator` and
adds an ``ev_<type>`` method per event of its engine.

An ``ev_`` method changes the table's model (:mod:`game.table.model`) as the
animation reaches each step and returns the animation (or ``None``); durations come
from :mod:`game.view.timing` by name only; sounds are cues published through the
host (the table's hooks), at the moment the animation plays them. No pygame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol

from game.i18n import card_name, t
from game.rules.base import Event
from game.table.model import TableModel
from game.turn.texts import SeatNames, winner_text
from game.view import anim, timing
from game.view.anim import Animator, Call, Parallel, Tween, Wait
from game.view.anim import Sequence as Seq
from game.view.sprites import Banner, Bubble, Chip, Confetti, move

#: One colour per seat for the chips of lost lives (sprite name, fallback colour).
CHIP_COLOURS = [("red", (200, 45, 45)), ("blue", (40, 90, 190)), ("green", (40, 150, 80)),
                ("yellow", (220, 170, 40)), ("black", (40, 40, 40)), ("white", (225, 225, 225))]


def chip_colour(seat: int) -> tuple[str, tuple[int, int, int]]:
    return CHIP_COLOURS[seat % len(CHIP_COLOURS)]


class AnimatorHost(Protocol):
    """What an animator needs from its table."""

    game: Any            # the engine: read its rules, never change it
    demo: bool
    seed: int
    table_layout: Any    # the game's layout: ``resolve(anchor)``, ``geo``, ``base``
    viewer: int | None   # whose private cards may show

    def cue(self, name: str) -> None:
        """A sound, now."""

    def upcoming(self) -> Sequence[Event]:
        """The events still queued after the one being shown."""


class EventAnimator:
    def __init__(self, host: AnimatorHost, model: TableModel, animator: Animator,
                 names: SeatNames) -> None:
        self.host = host
        self.model = model
        self.anim = animator
        self.names = names

    # ------------------------------------------------------------------ dispatch

    def animate(self, ev: Event) -> anim.Anim | None:
        handler: Callable[[Event], anim.Anim | None] | None = getattr(
            self, "ev_" + ev.type, None)
        return handler(ev) if handler is not None else None

    @property
    def rules(self) -> dict[str, Any]:
        return self.host.game.rules

    def peek(self, types: set[str], stop: set[str]) -> list[Event]:
        """Queued events of ``types`` before the first of ``stop``."""
        found = []
        for ev in self.host.upcoming():
            if ev.type in stop:
                break
            if ev.type in types:
                found.append(ev)
        return found

    # ------------------------------------------------------------------ building blocks

    def add_log(self, key: str, to: int | None = None, seat: int | None = None,
                **fmt: Any) -> None:
        """Log a line; ``seat`` is the actor (the solo person reads it in the 2nd person)."""
        if seat is not None:
            fmt["name"] = partial(self.names.name, seat)   # named when the line is drawn
            key = self.names.log_key(key, seat)
        self.model.log.append((key, fmt, to))
        del self.model.log[:-30]

    def say(self, seat: int, key: str, hold: float = timing.BUBBLE, kind: str = "say",
            **fmt: Any) -> anim.Anim:
        """A speech bubble beside ``seat``'s plate; it fades in the background."""
        def msg() -> str:
            return t(key, **{k: card_name(v) if k == "card" else v for k, v in fmt.items()})

        m = self.model
        b = Bubble(seat, msg, kind)
        m.bubbles = [x for x in m.bubbles if x.seat != seat]
        m.bubbles.append(b)

        def fade() -> None:
            self.anim.play_background(Seq(
                Tween(b, "alpha", 0.0, timing.BUBBLE_OUT, anim.ease_in),
                Call(lambda: m.bubbles.remove(b) if b in m.bubbles else None)))

        return Seq(Tween(b, "alpha", 1.0, timing.BUBBLE_IN, start=0.0), Wait(hold), Call(fade))

    def banner(self, key: str, sub: str | None = None, hold: float = timing.BANNER,
               big: bool = True, blocking: bool = True, **fmt: Any) -> anim.Anim | None:
        """A banner across the table; ``blocking=False`` runs it in the background."""
        m = self.model
        b = Banner(lambda: t(key, **fmt), (lambda: t(sub, **fmt)) if sub else None, big)
        m.banner = b

        def clear() -> None:
            if m.banner is b:
                m.banner = None

        seq = Seq(Tween(b, "alpha", 1.0, timing.BANNER_IN, start=0.0), Wait(hold),
                  Tween(b, "alpha", 0.0, timing.BANNER_OUT), Call(clear))
        if blocking:
            return seq
        self.anim.play_background(seq)
        return None

    def place_button(self, dealer: int) -> anim.Anim | None:
        """The dealer button appears at ``dealer``, or passes on to them."""
        m = self.model
        step = None
        if m.dealer is None:
            m.button.a = m.button.b = ("dealer", dealer)
            step = Tween(m.button, "alpha", 1.0, timing.BUTTON_FADE, start=0.0)
        elif m.dealer != dealer:
            step = move(m.button, ("dealer", dealer), timing.BUTTON_MOVE)
        m.dealer = dealer
        return step

    # ------------------------------------------------------------------ held reveals

    def hold_started(self) -> anim.Anim | None:
        """The round's reveal is held until the person continues: what to show for it
        (a game's own summary; by default the table as it is)."""
        return None

    # ------------------------------------------------------------------ shared events

    def log_loss(self, seat: int, amount: int) -> None:
        self.add_log("log.lose_life" if amount == 1 else "log.lose_lives", seat=seat,
                     n=amount)

    def ev_lose_life(self, ev: Event) -> anim.Anim:
        seat, amount, lives = ev.data["seat"], ev.data["amount"], ev.data["lives"]
        m = self.model
        self.log_loss(seat, amount)
        flying = []
        for i in range(amount):
            chip = Chip(("chip", seat), chip_colour(seat))
            m.chips.append(chip)

            def gone(c: Chip = chip) -> None:
                if c in m.chips:
                    m.chips.remove(c)

            flying.append(Seq(move(chip, ("pot",), timing.CHIP_FLY,
                                   delay=i * timing.CHIP_STAGGER, arc=0.3),
                              Tween(chip, "alpha", 0.0, timing.CHIP_FADE), Call(gone)))

        def update_lives() -> None:
            m.lives[seat] = lives

        self.host.cue("chip")
        return Seq(Parallel(*flying, Seq(Wait(timing.LIVES_UPDATE_DELAY), Call(update_lives))),
                   Wait(timing.AFTER_LOSS))

    def ev_out(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        m = self.model
        self.add_log("log.out", seat=seat)
        m.out_order.append(seat)
        m.out_round[seat] = m.round + 1
        self.host.cue("lose")

        def mark() -> None:
            m.out[seat] = True

        return Seq(self.say(seat, "say.out", hold=timing.BUBBLE), Call(mark))

    def ev_game_over(self, ev: Event) -> anim.Anim | None:
        winner = ev.data["winner"]
        key = winner_text(winner, self.names)[0]
        def names() -> str:              # named when drawn: the language may change
            return winner_text(winner, self.names)[1]

        ws = [winner] if isinstance(winner, int) else list(winner or [])
        humans = self.names.humans
        human_won = any(s in humans for s in ws)
        self.add_log("log.game_over", names=names)
        self.host.cue("win" if human_won or not humans else "lose")
        m = self.model
        m.confetti = Confetti(timing.CONFETTI, 140, seed=self.host.seed)
        self.anim.play_background(m.confetti)
        stake = self.rules.get("stake", 0) > 0
        return self.banner(key, "banner.game_over.sub" if stake else None,
                           hold=timing.GAME_OVER_BANNER, names=names, pot=m.pot)
