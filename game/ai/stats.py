"""Small statistics helpers for tournaments and benchmarks."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    xs = sorted(values)
    k = (len(xs) - 1) * q / 100
    lo = math.floor(k)
    hi = math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def mean_ci(values: Sequence[float], z: float = 1.959964) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def calibration_deciles(preds: Sequence[tuple[float, float]]
                        ) -> tuple[list[dict[str, float]], float]:
    """A forecast's calibration: ``preds`` are (predicted chance, observed 0/1) pairs;
    sorted by prediction and cut into ten equal parts, each decile's mean prediction
    against its observed rate. Returns the deciles and the largest gap."""
    xs = sorted(preds, key=lambda x: x[0])      # ties keep their order: never by outcome
    n = len(xs)
    deciles: list[dict[str, float]] = []
    worst = 0.0
    for d in range(10):
        part = xs[d * n // 10:(d + 1) * n // 10]
        if not part:
            continue
        pm = sum(p for p, _ in part) / len(part)
        om = sum(o for _, o in part) / len(part)
        worst = max(worst, abs(pm - om))
        deciles.append({"decile": d + 1, "n": len(part), "predicted": round(pm, 4),
                        "observed": round(om, 4), "gap": round(om - pm, 4)})
    return deciles, round(worst, 4)
