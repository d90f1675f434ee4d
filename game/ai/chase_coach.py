"""The Chase the Ace coach: the odds of every legal move (BOTS.md "Advice").

For every legal move of the deciding seat: the probability of losing at least one
life this round after it (``lose_life``; in a sudden-death round: of going out) and
the expected lives lost (``expected_loss``), assuming every seat plays as the named
level would (``expert``: as the expert models each opponent). The estimate samples
worlds from the view only and lets the engine play them out
(:mod:`game.ai.chase_sampling`), so every rule in force changes the odds exactly as
it changes the game. Deterministic: the samples are drawn from the view's ``seed``,
``round`` and ``step``.
"""

from __future__ import annotations

from typing import Any

from game.ai.chase_expert import opponent_policies
from game.ai.chase_players import PLAYERS
from game.ai.chase_sampling import Policies, estimate
from game.ai.common import View, mix

DEFAULT_SAMPLES = 240
SALT = 0xAD71CE


def default_samples(view: View) -> int:
    """Fewer samples at large tables, so the hint button stays quick."""
    n = len(view["active"])
    return DEFAULT_SAMPLES if n <= 5 else max(60, DEFAULT_SAMPLES * 5 // n)


def policies_for(view: View, level: str) -> Policies:
    """The policy every active seat is assumed to follow."""
    if level == "expert":
        return opponent_policies(view)
    if level not in PLAYERS:
        raise ValueError(f"unknown level {level!r}")
    player = PLAYERS[level]()
    return dict.fromkeys(view["active"], player)


def advise(view: View, level: str = "hard", samples: int | None = None,
           pick: bool = True) -> dict[str, Any]:
    """``{seat, level, move, options: {move: {lose_life, expected_loss}}}``; ``move``
    is the option with the lowest expected loss (then risk, then legal order; it costs
    nothing, so ``pick`` changes nothing)."""
    legal = list(view["legal"])
    if samples is None:
        samples = default_samples(view)
    seed = mix(view["seed"], view.get("round", 0), view.get("step", 0), SALT)
    options = estimate(view, policies_for(view, level), samples, seed) if legal else {}
    move = min(options, key=lambda m: (options[m]["expected_loss"], options[m]["lose_life"],
                                       legal.index(m))) if options else None
    return {"seat": view["seat"], "level": level, "move": move, "options": options}
