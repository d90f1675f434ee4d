"""Animations: tweens with easing, waits, callbacks, sequences and parallel groups.

Every animation has ``update(dt) -> float``: it advances by ``dt`` seconds and returns
the time it did not use (0 while still running, > 0 or ``inf`` leftovers once done), so
a sequence hands leftover time to its next step and ``update(math.inf)`` finishes
anything at once, callbacks included, in order. The :class:`Animator` applies the
global speed (off / fast / normal / slow); every duration is named in
:mod:`game.view.timing`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from game.view.timing import factor

# ----------------------------------------------------------------- easing

def linear(t: float) -> float:
    return t


def ease_out(t: float) -> float:
    return 1 - (1 - t) ** 3


def ease_in(t: float) -> float:
    return t ** 3


def ease_in_out(t: float) -> float:
    return 4 * t ** 3 if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def ease_out_back(t: float) -> float:
    c1 = 1.70158
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


# ----------------------------------------------------------------- building blocks

class Anim:
    done = False

    def update(self, dt: float) -> float:  # pragma: no cover - interface
        raise NotImplementedError

    def finish(self) -> None:
        self.update(math.inf)


class Tween(Anim):
    """Move ``obj.attr`` from ``start`` (default: its value when the tween starts) to
    ``end`` over ``duration`` seconds after ``delay``; ``on_done`` runs at the end."""

    def __init__(self, obj: Any, attr: str, end: float, duration: float,
                 ease: Callable[[float], float] = ease_out, delay: float = 0.0,
                 start: float | None = None, on_done: Callable[[], None] | None = None) -> None:
        self.obj, self.attr, self.end = obj, attr, end
        self.duration = max(0.0, duration)
        self.ease = ease
        self.delay = delay
        self.start = start
        self.on_done = on_done
        self.t = 0.0
        self.started = False

    def update(self, dt: float) -> float:
        if self.done:
            return dt
        if self.delay > 0:
            used = min(dt, self.delay)
            self.delay -= used
            dt -= used
            if self.delay > 0:
                return 0.0
        if not self.started:
            self.started = True
            if self.start is None:
                self.start = float(getattr(self.obj, self.attr))
            else:
                setattr(self.obj, self.attr, self.start)
        self.t += dt
        if self.duration <= 0 or self.t >= self.duration:
            setattr(self.obj, self.attr, self.end)
            self.done = True
            if self.on_done:
                self.on_done()
            return self.t - self.duration if self.duration > 0 else dt
        k = self.ease(self.t / self.duration)
        setattr(self.obj, self.attr, self.start + (self.end - self.start) * k)
        return 0.0


class Wait(Anim):
    def __init__(self, duration: float) -> None:
        self.left = duration

    def update(self, dt: float) -> float:
        if self.done:
            return dt
        if dt >= self.left:
            self.done = True
            return dt - self.left
        self.left -= dt
        return 0.0


class Call(Anim):
    """Run ``fn`` once; if it returns an animation, that runs as part of this step."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn
        self.child: Anim | None = None
        self.called = False

    def update(self, dt: float) -> float:
        if self.done:
            return dt
        if not self.called:
            self.called = True
            result = self.fn()
            if isinstance(result, Anim):
                self.child = result
        if self.child is not None:
            dt = self.child.update(dt)
            if not self.child.done:
                return 0.0
        self.done = True
        return dt


class Sequence(Anim):
    def __init__(self, *steps: Anim | None) -> None:
        self.steps = [s for s in steps if s is not None]
        self.i = 0

    def add(self, step: Anim | None) -> Sequence:
        if step is not None:
            self.steps.append(step)
        return self

    def update(self, dt: float) -> float:
        while self.i < len(self.steps):
            dt = self.steps[self.i].update(dt)
            if not self.steps[self.i].done:
                return 0.0
            self.i += 1
        self.done = True
        return dt


class Parallel(Anim):
    def __init__(self, *items: Anim | None) -> None:
        self.items = [a for a in items if a is not None]

    def add(self, item: Anim | None) -> Parallel:
        if item is not None:
            self.items.append(item)
        return self

    def update(self, dt: float) -> float:
        left = math.inf
        for a in self.items:
            if not a.done:
                rest = a.update(dt)
                if not a.done:
                    left = 0.0
                else:
                    left = min(left, rest)
        if left == 0.0:
            return 0.0
        self.done = True
        return dt if left == math.inf else left


def seq(items: Iterable[Anim | None]) -> Sequence:
    return Sequence(*items)


def par(items: Iterable[Anim | None]) -> Parallel:
    return Parallel(*items)


class Animator:
    """Runs animations: ``blocking`` ones one after another (the table waits for them),
    ``background`` ones alongside (fading bubbles, confetti)."""

    def __init__(self, speed: str = "normal") -> None:
        self.queue: list[Anim] = []
        self.background: list[Anim] = []
        self.speed = speed

    @property
    def factor(self) -> float:
        return factor(self.speed)

    def play(self, anim: Anim | None) -> None:
        if anim is not None:
            self.queue.append(anim)
            if self.speed == "off":
                self.update(0.0)

    def play_background(self, anim: Anim | None) -> None:
        if anim is not None:
            self.background.append(anim)
            if self.speed == "off":
                anim.finish()
                self.background.remove(anim)

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    @property
    def moving(self) -> bool:
        return bool(self.queue or self.background)

    def update(self, dt: float) -> None:
        step = math.inf if self.speed == "off" else dt * self.factor
        while self.queue:
            head = self.queue[0]
            step = head.update(step)
            if not head.done:
                break
            self.queue.pop(0)
            if step <= 0:
                break
        bstep = math.inf if self.speed == "off" else dt * self.factor
        if self.background:
            for a in list(self.background):
                a.update(bstep)
            self.background = [a for a in self.background if not a.done]

    def finish_all(self) -> None:
        guard = 0
        while (self.queue or self.background) and guard < 10000:
            guard += 1
            if self.queue:
                self.queue[0].finish()
                self.queue.pop(0)
            for a in list(self.background):
                a.finish()
            self.background = [a for a in self.background if not a.done]
