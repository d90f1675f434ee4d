"""Things that move on the table. Positions are *anchors* (named places such as the
talon or a seat) resolved through the current layout every frame, so a window resize
in the middle of an animation keeps everything where it belongs."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable

from game.view import anim, timing
from game.view.anim import Anim, Call, Parallel, Sequence, Tween, Wait

Anchor = tuple
Resolver = Callable[[Anchor], tuple[float, float]]


class Mover:
    """Something travelling from anchor ``a`` to anchor ``b`` (progress ``t``)."""

    def __init__(self, at: Anchor) -> None:
        self.a: Anchor = at
        self.b: Anchor = at
        self.t = 1.0
        self.arc = 0.0       # sideways bulge of the path, in card heights
        self.alpha = 1.0
        self.scale = 1.0

    def pos(self, resolve: Resolver, card_h: float = 0.0) -> tuple[float, float]:
        ax, ay = resolve(self.a)
        if self.t >= 1.0 or self.a == self.b:
            return resolve(self.b) if self.t >= 1.0 else (ax, ay)
        bx, by = resolve(self.b)
        t = self.t
        x, y = ax + (bx - ax) * t, ay + (by - ay) * t
        if self.arc:
            dx, dy = bx - ax, by - ay
            d = math.hypot(dx, dy) or 1.0
            k = math.sin(math.pi * t) * self.arc * card_h
            x += -dy / d * k
            y += dx / d * k
        return x, y


class CardSprite(Mover):
    def __init__(self, at: Anchor, code: str | None = None) -> None:
        super().__init__(at)
        self.code = code          # face drawn now (None: the back)
        self.scale_x = 1.0        # flip progress
        self.highlight = False
        self.dim = False


class HandCard(CardSprite):
    """A card sprite that knows its card even while it shows the back (a hand's card:
    ``card`` is what the events said, ``code`` what is drawn), with an id that anchors
    can name (``("hand", seat, uid)``)."""

    _next_uid = 0

    def __init__(self, at: Anchor, card: str | None = None) -> None:
        super().__init__(at, None)
        HandCard._next_uid += 1
        self.uid = HandCard._next_uid
        self.card = card


class Chip(Mover):
    def __init__(self, at: Anchor, colour=(200, 40, 40)) -> None:
        super().__init__(at)
        self.colour = colour


class Bubble:
    def __init__(self, seat: int, text: Callable[[], str], kind: str = "say") -> None:
        self.seat = seat
        self.text = text
        self.kind = kind
        self.alpha = 0.0


class Banner:
    def __init__(self, text: Callable[[], str], sub: Callable[[], str] | None = None,
                 big: bool = True) -> None:
        self.text = text
        self.sub = sub
        self.alpha = 0.0
        self.big = big


def move(sp: Mover, dest: Anchor, duration: float, delay: float = 0.0,
         ease=anim.ease_in_out, arc: float = 0.0) -> Anim:
    """Fly ``sp`` from where it is now to ``dest``."""

    def rebase() -> None:
        sp.a = sp.b
        sp.b = dest
        sp.t = 0.0
        sp.arc = arc

    steps: list[Anim] = []
    if delay > 0:
        steps.append(Wait(delay))
    steps += [Call(rebase), Tween(sp, "t", 1.0, duration, ease, start=0.0)]
    return Sequence(*steps)


def flip(sp: CardSprite, code: str | None, duration: float = timing.FLIP) -> Anim | None:
    """Turn ``sp`` over to show ``code`` (None: the back); None if nothing changes."""
    if sp.code == code:
        return None

    def swap_face() -> None:
        sp.code = code

    return Sequence(Tween(sp, "scale_x", 0.0, duration / 2, anim.ease_in, start=1.0),
                    Call(swap_face),
                    Tween(sp, "scale_x", 1.0, duration / 2, anim.ease_out, start=0.0))



def show_faces(wanted: Iterable[tuple[CardSprite, str | None]],
               animated: bool = True) -> Anim | None:
    """Turn each sprite to the face paired with it (None: the back): all flipping at
    once, or, not ``animated``, at once without a flip (a change of viewer must not
    show a hand turning). None if nothing changes."""
    flips: list[Anim | None] = []
    for sp, code in wanted:
        if sp.code == code:
            continue
        if animated:
            flips.append(flip(sp, code))
        else:
            sp.code = code
            sp.scale_x = 1.0
    return Parallel(*flips) if flips else None

class Confetti(Anim):
    """Falling paper for the winner; positions are fractions of the window."""

    COLOURS = [(230, 60, 60), (240, 200, 60), (70, 170, 230), (90, 200, 110), (230, 230, 230),
               (200, 90, 200)]

    def __init__(self, duration: float = timing.CONFETTI, n: int = 120, seed: int = 0) -> None:
        rng = random.Random(seed)
        self.left = duration
        self.parts = [[rng.random(), -rng.random() * 0.4, (rng.random() - 0.5) * 0.15,
                       0.25 + rng.random() * 0.35, rng.random() * 6.28,
                       rng.choice(self.COLOURS)] for _ in range(n)]

    def update(self, dt: float) -> float:
        if self.done:
            return dt
        step = min(dt, self.left)
        for p in self.parts:
            p[0] += p[2] * step
            p[1] += p[3] * step
            p[4] += 6 * step
        self.left -= step
        if self.left <= 0:
            self.done = True
            self.parts = []
            return dt - step
        return 0.0
