"""The statistics helpers behind the benchmarks' figures."""

from __future__ import annotations

import pytest

from game.ai.stats import calibration_deciles, mean_ci, percentile, wilson


def test_calibration_deciles_compare_prediction_and_outcome_per_tenth():
    # predictions 0.0 .. 0.99; the lower half never happens, the upper half always does
    preds = [(i / 100, 1.0 if i >= 50 else 0.0) for i in range(100)]
    deciles, worst = calibration_deciles(list(reversed(preds)))
    assert [d["n"] for d in deciles] == [10] * 10
    assert deciles[0]["predicted"] == pytest.approx(0.045)
    assert deciles[0]["observed"] == 0.0
    assert deciles[9]["observed"] == 1.0
    assert deciles[4]["gap"] == pytest.approx(-0.445)
    assert worst == pytest.approx(0.455)      # decile 6: 0.545 predicted, all happened


def test_a_perfect_forecast_has_no_gap():
    preds = [(0.5, float(i % 2)) for i in range(1000)]
    _, worst = calibration_deciles(preds)
    assert worst == 0.0


def test_intervals_hold_their_estimate():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.19, abs=0.01)
    m, lo, hi = mean_ci([1.0, 2.0, 3.0])
    assert (m, lo < m < hi) == (2.0, True)
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
