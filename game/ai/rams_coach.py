"""The Rams coach: the odds of every legal move (docs/view.md#advice-the-coach).

Per legal move the chance of losing a life this round and the expected lives lost,
from sampled deals consistent with the view, played out by the search's heuristics
with the rules' own functions (:func:`game.ai.rams_search.odds`). The other seats
declare as the named level models them (``expert``: each seat's style read from the
game so far). For a card, the deals are also weighted by how likely the cards the
others played so far were with them, at every level: what is left in a hand is not a
random pick of the unseen cards (a seat that needed a trick has spent its winners),
and without that evidence the odds in the late tricks ran too high.

Under ``scoring: counters`` ``lose_life`` is the chance of the penalty (playing and
taking no trick, or a failed General Rams) and ``expected_loss`` the expected change of
the seat's counters (below zero: counters shed). With ``general_rams`` the declaration
``general`` has its odds too, and a drop is not safe: a seat still to declare may
announce General Rams (in the deals where the levels' own call,
:func:`game.ai.rams_heuristics.general_hand`, says it would), and then the seat that
dropped takes its cards back and plays; the odds of ``drop`` are those of being pulled
back in.
"""

from __future__ import annotations

from typing import Any

from game.ai.common import mix
from game.ai.rams_info import Info
from game.ai.rams_model import drop_cost
from game.ai.rams_players import PLAYERS
from game.ai.rams_search import model_for, odds

#: Deals per move of the in-game odds and the review (one figure, so both show the
#: same). Against 1,200 deals, 4-player games: a decision's cost is off by 0.003 lives
#: on average as written (300 deals: 0.002), by 0.04 counters under counters (300:
#: 0.02), a player's accuracy by at most 2 points; three times faster than 300, which
#: a game's review of 200 to 300 decisions needs (docs/review.md#speed).
DEFAULT_SAMPLES = 100
MAX_SAMPLES = 2000


def _after_take(view: Any, move: str) -> dict[str, Any]:
    """The view the dealer would have after ``move`` (``take:XX`` / ``pass_trump``),
    before anyone declared: every other seat is still to declare, and may announce
    General Rams before the dealer's turn comes."""
    v = {k: view[k] for k in view}
    forced = Info(view).forced(view["seat"])
    if move.startswith("take:"):
        card = move[5:]
        hand = [view["trump_card"] if c == card else c for c in view["hand"]]
        v["hand"] = hand
        v["events"] = list(view["events"]) + [
            {"type": "take_trump", "seat": view["seat"], "card": view["trump_card"]}]
        v["private"] = list(view["private"]) + [{"type": "discarded", "card": card}]
    v["decision"] = "declare"
    v["legal"] = (["play"] if forced else ["drop", "play"]) + (
        ["general"] if view["rules"].get("general_rams") else [])
    return v


def advise(view: Any, level: str = "hard", samples: int | None = None,
           pick: bool = True) -> dict[str, Any]:
    """The coach's answer for a Rams view (docs/view.md#advice-the-coach): per legal move the chance
    of losing a life this round and the expected lives lost; ``move`` is the level's
    own choice (it also counts what a drop costs next round and the other seats' lives).
    A drop risks nothing this round unless a seat after it announces General Rams
    (``general_rams``), which brings it back into the play. For the dealer's exchange
    (``take:XX`` / ``pass_trump``) the numbers are those of then declaring play (the
    dealer declares last: by then a drop would risk nothing, unless a seat before it
    announced General Rams, when the dealer plays whatever it would have declared).
    ``later`` says what a drop costs in later rounds, in lives, as the search charges it
    (the forced round the drop limit may bring; a drop counts towards the limit even
    when General Rams then brings the seat back in). ``pick=False`` leaves ``move`` out
    (``None``): the level's choice is a search of its own, and the odds do not depend
    on it.
    """
    if level not in PLAYERS:
        raise ValueError(f"unknown level {level!r}")
    legal = list(view["legal"])
    if not legal:
        return {"seat": view["seat"], "level": level, "move": None, "options": {}}
    samples = max(1, min(DEFAULT_SAMPLES if samples is None else samples, MAX_SAMPLES))
    seed = mix(view["seed"], view.get("round", 0), view.get("step", 0), 0xAD71CE)
    move = PLAYERS[level]().choose(view) if pick else None
    styles = level == "expert"
    info = Info(view)
    options: dict[str, dict[str, float]] = {}
    if info.decision == "take" or "pass_trump" in legal:
        for m in legal:
            i2 = Info(_after_take(view, m))
            # the numbers are those of then declaring play (General Rams by a seat
            # declaring before the dealer included)
            options[m] = odds(i2, model_for(i2, styles), samples, seed)["play"]
    else:
        options = odds(info, model_for(info, styles), samples, seed)
    out: dict[str, Any] = {"seat": view["seat"], "level": level, "move": move,
                           "options": options}
    if info.decision == "declare" and info.limit is not None:
        out["drop_forces_play_next"] = info.forced_after_drop(info.me)
    if "drop" in options:
        out["later"] = {"drop": round(drop_cost(info.drops_before.get(info.me, 0),
                                                info.limit, len(info.order)), 4)}
    return out
