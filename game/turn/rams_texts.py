"""The words of the Rams table: suit names, the prompt for the person deciding, move
labels, and why a card may not be played. No pygame.

The reasons are the engine's: :meth:`RamsGame.why_illegal` (or, for a view,
:func:`game.rules.rams_rules.why_not_card`) gives a reason code; this module only
translates codes into sentences.
"""

from __future__ import annotations

from typing import Any

from game import i18n
from game.cards import SUIT_NAMES_DE, SUIT_NAMES_EN
from game.i18n import card_name, t
from game.rules.base import Pending, Refusal
from game.rules.rams_rules import (
    counters_of,
    forced_to_play,
    rank_table,
    trick_winner,
    why_not_card,
)

#: Moves that are buttons, not cards.
BUTTON_MOVES = ("play", "drop", "general", "pass_trump")


def suit_name(suit: str) -> str:
    names = SUIT_NAMES_DE if i18n.get_lang() == "de" else SUIT_NAMES_EN
    return names.get(suit, suit)


def refusal_text(refusal: Refusal | None) -> str:
    """The sentence for one of the engine's reason codes (Rams cards)."""
    code = refusal.code if refusal is not None else ""
    detail = refusal.detail if refusal is not None else {}
    if code == "follow_suit":
        return t("rams.why.follow", suit=suit_name(detail["suit"]))
    if code == "must_trump":
        return t("rams.why.trump", suit=suit_name(detail["suit"]))
    if code == "must_beat":
        return t("rams.why.beat", card=card_name(detail["card"]))
    return t("rams.why.not_now")


def view_refusal(view: dict[str, Any], card: str) -> Refusal | None:
    """Why the rules refuse ``card`` for the seat of ``view`` (its hand and the trick
    in it), with the facts the message names; ``None`` if the card may be played."""
    trick = [e["card"] for e in view.get("trick") or []]
    if not trick:
        return Refusal("not_offered", {})
    rules = view["rules"]
    trump = view["trump"]
    rank = rank_table(view.get("deck") or "skat32")
    code = why_not_card(card, view["hand"], trick, trump, rank,
                        bool(rules.get("must_trump")), bool(rules.get("must_beat")))
    if code is None:
        return None
    detail: dict[str, Any] = {}
    if code == "follow_suit":
        detail = {"suit": trick[0][1]}
    elif code == "must_trump":
        detail = {"suit": trump}
    elif code == "must_beat":
        detail = {"card": trick[trick_winner(trick, trump, rank)]}
    return Refusal(code, detail)


def illegal_reason(view: dict[str, Any], card: str) -> str:
    """Why ``card`` may not be played now, in words."""
    return refusal_text(view_refusal(view, card))


def move_label(move: str) -> str:
    if move.startswith("take:"):
        return t("coach.give", card=card_name(move[5:]))
    if move in BUTTON_MOVES:
        return t("rams.move." + move)
    return card_name(move)


def prompt(p: Pending, view: dict[str, Any], n_seats: int) -> str:
    """What the person deciding is asked."""
    if p.decision == "declare":
        if "drop" not in p.legal:
            n = (view.get("drops") or [0] * n_seats)[p.seat]
            why = forced_why(view, p.seat, n)
            if why == "dealer_must_play":
                return t("rams.prompt.dealer_forced")
            if why == "two_must_play":
                return t("rams.prompt.two_forced")
            return t("rams.prompt.forced_one") if n <= 1 else t("rams.prompt.forced", n=n)
        return t("rams.prompt.declare", suit=suit_name(view.get("trump") or ""))
    if p.decision == "take":
        return t("rams.prompt.take", card=card_name(view.get("trump_card") or ""))
    if not view.get("trick"):
        return t("rams.prompt.lead")
    return t("rams.prompt.follow")


def forced_why(view: dict[str, Any], seat: int, drops: int) -> str | None:
    """The rules' reason this seat may not drop out (:func:`forced_to_play`)."""
    rules = view.get("rules") or {}
    active = view.get("active") or []
    declared = view.get("declared") or {}
    return forced_to_play(drops, view.get("drop_limit"),
                          dealer=seat == view.get("dealer"),
                          nobody_plays=all(c != "play" for c in declared.values()),
                          seats=len(active),
                          dealer_must_play=bool(rules.get("dealer_must_play")),
                          two_must_play=bool(rules.get("two_must_play")))


def rules_summary(rules: dict[str, Any]) -> str:
    """The rules of a table in a few lines (the rules screen opened from the table):
    the scoring in use first."""
    counting = counters_of(rules)
    if counting:
        lines = [t("rules.rams.now_counters", n=rules.get("counters", 20))]
    else:
        lines = [t("rules.rams.now_lives", n=rules.get("lives", 3))]
    limit = rules.get("drop_limit")
    if limit not in (None, "none"):
        lines.append(t("rules.rams.now_limit", n=limit))
    for key in ("general_rams", "dealer_must_play", "two_must_play"):
        if rules.get(key):
            lines.append(t("rules.rams.now_" + {"general_rams": "general",
                                                 "dealer_must_play": "dealer",
                                                 "two_must_play": "two"}[key]))
    last = rules.get("last_round")
    if last not in (None, "none"):
        lines.append(t("rules.rams.now_last_" + ("counters" if counting else "lives"), n=last))
    return "\n".join(lines)
