"""The strategy chart reads real numbers from the shipped hard tables at every size."""

from __future__ import annotations

import pytest

from game.ai.policy import strategy_chart


@pytest.mark.parametrize("players", range(2, 11))
def test_every_position_swaps_an_ace_and_keeps_a_king(players):
    chart = strategy_chart(players)
    assert chart["players"] == players and len(chart["positions"]) == players
    for row in chart["positions"]:
        assert row["p_swap"][1] > 0.5, f"position {row['pos']}: an Ace is swapped away"
        assert row["p_swap"][13] == 0.0, f"position {row['pos']}: a King is kept"
        assert all(0.0 <= p <= 1.0 for p in row["p_swap"].values())
