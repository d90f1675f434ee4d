"""Drawing the game review (``game.scenes.review``): the players' figures, the list of
decisions, one decision in detail with the cards as its seat saw them, and the
progress bar. Draws what it is given (the review's JSON data) and changes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from game.i18n import card_name, get_lang, has, percent, scored_key, t
from game.view import text, widgets

#: Line colours of the seats (as on the end-of-game screen).
SEAT_COLOURS = [(220, 70, 60), (90, 140, 230), (70, 180, 100), (235, 190, 60),
                (200, 120, 220), (240, 240, 240), (240, 140, 60), (80, 200, 200),
                (170, 120, 80), (150, 150, 150)]
COSTLY = (235, 120, 95)          # a choice that cost lives
HIDDEN = (150, 185, 215)         # cards nobody saw while the round was played
ROW_ALT = (215, 206, 182)
CARD_RATIO = 360 / 504           # the card sprites' width to height


def move_label(decision: str, move: str) -> str:
    """A move in words, as the table's buttons say it."""
    if has(f"move.{decision}.{move}"):
        return t(f"move.{decision}.{move}")
    if has(f"rams.move.{move}"):
        return t(f"rams.move.{move}")
    if move.startswith("take:"):
        return t("coach.give", card=card_name(move[5:]))
    return card_name(move)


def num(x: float) -> str:
    """A number of lives as the review shows it: two places, a decimal comma in German,
    a true minus sign."""
    s = f"{x:.2f}".replace("-", "−")
    return s.replace(".", ",") if get_lang() == "de" else s


def pct(x: float | None) -> str:
    return "–" if x is None else percent(x)


def cost_colour(cost: float, key_min: float) -> tuple[int, int, int]:
    if cost >= 5 * key_min:
        return COSTLY
    if cost >= key_min:
        return widgets.GOLD
    return widgets.CREAM


class CardStrip:
    """Small card faces in a row (the art cache scales each size once)."""

    def __init__(self, art: Any, four_colour: bool, lang: str) -> None:
        self.art = art
        self.four_colour = four_colour
        self.lang = lang

    def draw(self, surf: pygame.Surface, codes: Sequence[str], x: int, y: int, h: int,
             gap: int, max_right: int | None = None) -> int:
        """Draw ``codes`` from ``(x, y)`` (top left) at height ``h``; returns the right
        edge. Cards that would pass ``max_right`` overlap instead."""
        w = max(4, int(h * CARD_RATIO))
        step = w + gap
        if max_right is not None and codes and x + len(codes) * step - gap > max_right:
            step = max(6, (max_right - x - w) // max(1, len(codes) - 1))
        right = x
        for i, code in enumerate(codes):
            img = self.art.face(code, self.four_colour, self.lang, (w, h))
            surf.blit(img, (x + i * step, y))
            right = x + i * step + w
        return right


# ----------------------------------------------------------------- the players' figures

def scored(key: str, review: dict[str, Any]) -> str:
    """``key``, or its counters form for a review of Rams under counters."""
    return scored_key(key, review.get("scoring") == "counters")


COLUMNS = (("review.col.decisions", 0.47), ("review.col.lost", 0.59),
           ("review.col.choices", 0.71), ("review.col.cards", 0.84),
           ("review.col.accuracy", 0.97))


def players_panel(surf: pygame.Surface, rect: pygame.Rect, review: dict[str, Any],
                  names: Sequence[str], u: float, chosen: int | None
                  ) -> list[tuple[int, pygame.Rect]]:
    """The table of players (the one shown highlighted) and the sentence that says what
    the figures mean; returns each player's row for clicks."""
    widgets.panel(surf, rect, u, 205)
    pad = int(10 * u)
    players = review["players"]
    help_fs = max(10, int(15 * u))
    help_lines = text.wrap(t(scored("review.accuracy_help", review)), help_fs,
                           rect.width - 2 * pad)
    help_h = len(help_lines) * int(help_fs * 1.15)
    rows = len(players) + 1
    rh = max(14, min(int(30 * u), (rect.height - 2 * pad - help_h - int(4 * u)) // rows))
    fs = max(10, int(rh * 0.62))
    y = rect.top + pad + rh // 2
    x0 = rect.left + pad
    name_w = int(rect.width * 0.33)
    col_w = int(rect.width * 0.115)
    text.blit(surf, t("review.col.player"), text.fit(t("review.col.player"), fs, name_w,
                                                       True, 9),
              (x0 + int(16 * u), y), widgets.GOLD, "midleft", True)
    for key, frac in COLUMNS:
        label = t(scored(key, review) if key == "review.col.lost" else key)
        text.blit(surf, label, text.fit(label, fs, col_w, True, 8),
                  (rect.left + int(rect.width * frac), y), widgets.GOLD, "midright", True)
    out = []
    for i, p in enumerate(players):
        y += rh
        row = pygame.Rect(rect.left + pad // 2, y - rh // 2, rect.width - pad, rh)
        s = p["seat"]
        if chosen == s:
            pygame.draw.rect(surf, (60, 78, 66), row, border_radius=max(2, int(5 * u)))
        col = widgets.CREAM if i % 2 == 0 else ROW_ALT
        pygame.draw.circle(surf, SEAT_COLOURS[s % len(SEAT_COLOURS)], (x0 + int(6 * u), y),
                           max(3, int(5 * u)))
        who = names[s]
        if p["type"] != "human" and p.get("level"):
            who += f" ({t('level.' + p['level'])})" if has("level." + p["level"]) else ""
        text.blit(surf, text.ellipsize(who, fs, name_w, p["type"] == "human"), fs,
                  (x0 + int(16 * u), y), col, "midleft", p["type"] == "human")
        vals = [str(p["decisions"]), str(p["lives_lost"]), num(p["decision_cost"]),
                num(p["cards"]), pct(p["accuracy"])]
        for (_key, frac), v in zip(COLUMNS, vals, strict=True):
            text.blit(surf, v, fs, (rect.left + int(rect.width * frac), y),
                      widgets.GOLD if _key == "review.col.accuracy" else col, "midright",
                      _key == "review.col.accuracy")
        out.append((s, row))
    hy = rect.bottom - pad - help_h
    for k, line in enumerate(help_lines):
        text.blit(surf, line, help_fs, (x0, hy + k * int(help_fs * 1.15)), widgets.DIM)
    return out


def row_least(u: float) -> int:
    """The least height a row of the players' table is given on the review screen."""
    return max(14, int(24 * u))


def players_height(review: dict[str, Any], width: int, u: float,
                   rh: int | None = None) -> int:
    """The height the players' table wants at ``width`` (with rows ``rh`` high: by
    default as high as they are drawn at most)."""
    help_fs = max(10, int(15 * u))
    lines = len(text.wrap(t(scored("review.accuracy_help", review)), help_fs,
                          width - int(20 * u)))
    rh = rh or max(14, int(30 * u))
    return int(20 * u) + (len(review["players"]) + 1) * rh + lines * int(help_fs * 1.15) \
        + int(6 * u)


# ----------------------------------------------------------------- the list of decisions

def decision_row(surf: pygame.Surface, rect: pygame.Rect, d: dict[str, Any], name: str,
                 u: float, focused: bool, key_min: float) -> None:
    """One line of the list: key-moment mark, round, who, what was chosen, its cost."""
    base = (66, 92, 76) if focused else (34, 46, 40)
    r = max(3, int(6 * u))
    pygame.draw.rect(surf, base, rect, border_radius=r)
    if focused:
        pygame.draw.rect(surf, widgets.BUTTON_FOCUS, rect, max(2, int(2 * u)), border_radius=r)
    fs = max(10, int(rect.height * 0.52))
    x = rect.left + int(8 * u)
    if d.get("key"):
        badge = f"{d['key']}"
        bw = max(text.size_of(badge, fs, True)[0] + int(10 * u), rect.height - int(6 * u))
        box = pygame.Rect(x, rect.top + int(3 * u), bw, rect.height - int(6 * u))
        pygame.draw.rect(surf, COSTLY, box, border_radius=box.height // 2)
        text.blit(surf, badge, fs, box.center, (20, 20, 20), "center", True)
        x = box.right + int(8 * u)
    cost = d["cost"]
    right = num(cost) if cost >= 0.005 else t("review.row_best")
    rw = text.size_of(right, fs, True)[0]
    text.blit(surf, right, fs, (rect.right - int(10 * u), rect.centery),
              cost_colour(cost, key_min) if cost >= 0.005 else widgets.DIM, "midright", True)
    label = t("review.row", round=d["round"] + 1, name=name,
              chosen=move_label(d["decision"], d["chosen"]))
    avail = rect.right - int(20 * u) - rw - x
    text.blit(surf, text.ellipsize(label, fs, max(10, avail)), fs, (x, rect.centery),
              widgets.CREAM, "midleft")


# ----------------------------------------------------------------- one decision

def detail_panel(surf: pygame.Surface, rect: pygame.Rect, d: dict[str, Any],
                 review: dict[str, Any], names: Sequence[str], strip: CardStrip, u: float,
                 key_min: float, you: int | None = None) -> None:
    """A decision in full: the cards as its seat saw them, every option with the
    coach's odds (chosen and best marked), the cost, and what the others were dealt
    (shown only because the round is over, and marked so).

    Where the cards above the options leave too little room for every option and the
    cost (the panel is short: ten players' rows above it at 800x450), the cards stand
    in a column beside the options (:func:`_beside`)."""
    widgets.panel(surf, rect, u, 215)
    pad = int(12 * u)
    x0, right = rect.left + pad, rect.right - pad
    y = rect.top + pad
    bottom = rect.bottom - pad
    hs = max(11, int(21 * u))
    head = t("review.head", round=d["round"] + 1, name=names[d["seat"]], move=d["move"] + 1)
    if d.get("key"):
        tag = t("review.key", n=d["key"])
        tw = text.size_of(tag, hs, True)[0]
        text.blit(surf, tag, hs, (right, y), COSTLY, "topright", True)
    else:
        tw = 0
    text.blit(surf, text.ellipsize(head, hs, right - x0 - tw - int(10 * u), True), hs,
              (x0, y), widgets.GOLD, "topleft", True)
    y += int(hs * 1.35)
    fs = max(10, int(17 * u))
    ch = max(24, min(int(78 * u), (rect.height - 2 * pad) // 5))
    vfs = max(11, int(19 * u))
    n = max(1, len(d["options"]))
    # the options' rows as _options makes them below the cards, and the cost under them
    low = y + int(fs * 1.3) + ch + int(10 * u)
    rh = max(16, min(int(32 * u), (bottom - low) // (n + 2)))
    if low + n * rh + int(6 * u) + vfs > bottom:
        y = _beside(surf, pygame.Rect(x0, y, right - x0, bottom - y - int(vfs * 1.3)), d,
                    review, names, strip, u, key_min, you, fs, ch)
    else:
        # the cards as this seat saw them: its hand and the public table
        text.blit(surf, _seen_line(d, names, you), fs, (x0, y), widgets.DIM)
        y += int(fs * 1.3)
        x = strip.draw(surf, d["hand"], x0, y, ch, int(4 * u), right)
        sfs = max(10, int(15 * u))
        for label, codes in _extras(d):
            x += int(18 * u)
            lw = text.size_of(label, sfs)[0]
            need = lw + int(6 * u) + len(codes) * (int(ch * 0.8 * CARD_RATIO) + int(3 * u))
            if x + need > right:
                break
            text.blit(surf, label, sfs, (x, y + ch // 2), widgets.DIM, "midleft")
            x = strip.draw(surf, codes, x + lw + int(6 * u), y + int(ch * 0.1),
                           int(ch * 0.8), int(3 * u), right)
        y += ch + int(10 * u)
        y = _options(surf, pygame.Rect(x0, y, right - x0, bottom - y), d, strip, u, key_min,
                     review)
    # the verdict
    if y + vfs > bottom:
        return
    if d["cost"] >= 0.005:
        verdict = t(scored("review.cost", review), x=num(d["cost"]))
        colour = cost_colour(d["cost"], key_min)
    else:
        verdict, colour = t("review.no_cost"), widgets.CREAM
    text.blit(surf, text.ellipsize(verdict, vfs, right - x0, True), vfs, (x0, y), colour,
              "topleft", True)
    y += int(vfs * 1.6)
    _hidden(surf, pygame.Rect(x0, y, right - x0, bottom - y), d, review, names, strip, u)


def _seen_line(d: dict[str, Any], names: Sequence[str], you: int | None) -> str:
    return t("review.seen_you") if d["seat"] == you else t("review.seen", name=names[d["seat"]])


def _extras(d: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The public cards the seat saw beside its hand: the trump, the trick, the cards
    lying face up."""
    seen = d.get("seen") or {}
    extra: list[tuple[str, list[str]]] = []
    if seen.get("trump_card"):
        extra.append((t("review.trump"), [seen["trump_card"]]))
    trick = [c["card"] for c in seen.get("trick") or [] if isinstance(c, dict)]
    if trick:
        extra.append((t("review.trick"), trick))
    faceup = list((seen.get("faceup") or {}).values())
    if faceup:
        extra.append((t("review.faceup"), faceup))
    return extra


def _beside(surf: pygame.Surface, area: pygame.Rect, d: dict[str, Any],
            review: dict[str, Any], names: Sequence[str], strip: CardStrip, u: float,
            key_min: float, you: int | None, fs: int, ch: int) -> int:
    """The cards the seat saw in a column at the left of ``area`` (the line that says
    whose they are wrapped over it, the public cards under the hand, each kind on a
    line of its own), every option beside them, without the odds' bars; returns the
    next free y. Five options of Rams under ten players' rows at 800x450 leave the
    decision 118 pixels: below the cards, the options lost their last rows (the chosen
    one among them) and the cost."""
    gap = int(10 * u)
    # as wide as the hand at its height above the options, a fifth to 28 % of the panel
    hand_w = len(d["hand"]) * (int(ch * CARD_RATIO) + int(3 * u))
    col = pygame.Rect(area.left, area.top, max(int(area.width * 0.2),
                                               min(int(area.width * 0.28), hand_w)),
                      area.height)
    n = max(1, len(d["options"]))
    rh = max(row_least(u), min(int(26 * u), (area.height - int(6 * u)) // n))
    opts = pygame.Rect(col.right + gap, area.top, area.right - col.right - gap, n * rh)
    y = _options(surf, opts, d, strip, u, key_min, review, rh=rh, bars=False)
    lines = text.wrap(_seen_line(d, names, you), fs, col.width)
    lh = text.size_of("Ag", fs)[1]
    cy = col.top
    for line in lines:
        text.blit(surf, line, fs, (col.left, cy), widgets.DIM)
        cy += lh
    extras = _extras(d)
    room = max(y, col.bottom) - cy - int(4 * u)
    ch = max(16, min(ch, room // (1 + len(extras)) - int(4 * u)))
    cy += int(3 * u)
    strip.draw(surf, d["hand"], col.left, cy, ch, int(3 * u), col.right)
    cy += ch + int(4 * u)
    sfs = max(10, int(15 * u))
    for label, codes in extras:
        small = int(ch * 0.8)
        if cy + small > col.bottom:
            break
        lw = text.size_of(label, sfs)[0]
        text.blit(surf, label, sfs, (col.left, cy + small // 2), widgets.DIM, "midleft")
        strip.draw(surf, codes, col.left + lw + int(6 * u), cy, small, int(3 * u), col.right)
        cy += small + int(4 * u)
    return max(y, cy) + int(2 * u)


def _options(surf: pygame.Surface, area: pygame.Rect, d: dict[str, Any], strip: CardStrip,
             u: float, key_min: float, review: dict[str, Any], rh: int | None = None,
             bars: bool = True) -> int:
    """Every option of the decision with the coach's odds; returns the next free y.
    Each bar runs from the best outcome (or none lost) to the worst: under counters an
    option can shed counters, so its figure is below zero. Rows ``rh`` high (by
    default as many as fit with room for two more); without ``bars`` the odds follow
    the longest option's name."""
    opts = d["options"]
    order = sorted(opts, key=lambda m: (opts[m]["lives"], m))
    if not order:
        return area.top
    rh = rh or max(16, min(int(32 * u), area.height // (len(order) + 2)))
    fs = max(10, int(rh * 0.55))
    floor = min(0.0, min(o["lives"] for o in opts.values()))
    span = max(o["lives"] for o in opts.values()) - floor or 1.0
    bar_x = area.left + int(area.width * 0.32)
    bar_w = int(area.width * 0.15)
    if not bars:
        # as the rows draw them: a card (row.height - 4u high) and 6u, the name and 8u
        card_w = max(4, int((rh - int(3 * u) - int(4 * u)) * CARD_RATIO)) + int(6 * u)
        bar_x = area.left + int(4 * u) + int(8 * u) + max(
            text.size_of(move_label(d["decision"], m), fs, True)[0]
            + (card_w if m in d["hand"] and not m.startswith("take:") else 0)
            for m in order)
        bar_w = 0
    y = area.top
    for m in order:
        if y + rh > area.bottom:
            break
        o = opts[m]
        row = pygame.Rect(area.left - int(4 * u), y, area.width + int(8 * u), rh - int(3 * u))
        chosen, best = m == d["chosen"], m == d["best"]
        if chosen:
            pygame.draw.rect(surf, (62, 80, 68), row, border_radius=max(2, int(5 * u)))
            pygame.draw.rect(surf, widgets.BUTTON_FOCUS, row, max(1, int(2 * u)),
                             border_radius=max(2, int(5 * u)))
        x = area.left + int(4 * u)
        label = move_label(d["decision"], m)
        if m in d["hand"] and not m.startswith("take:"):
            x = strip.draw(surf, [m], x, row.top + int(2 * u), row.height - int(4 * u), 0) \
                + int(6 * u)
        text.blit(surf, text.ellipsize(label, fs, bar_x - x - int(8 * u), chosen), fs,
                  (x, row.centery), widgets.GOLD if best else widgets.CREAM, "midleft", chosen)
        bar = pygame.Rect(bar_x, row.centery - max(2, int(4 * u)), bar_w, max(4, int(8 * u)))
        if bars:
            pygame.draw.rect(surf, (40, 52, 46), bar, border_radius=bar.height // 2)
            fill = bar.copy()
            fill.width = int(bar.width * min(1.0, (o["lives"] - floor) / span))
            if fill.width > 0:
                pygame.draw.rect(surf, COSTLY if not best else widgets.GOLD, fill,
                                 border_radius=bar.height // 2)
        info = t(scored("review.option.risk", review), p=round(100 * o["lose_life"])) + \
            " · " + t(scored("review.option.lives", review), x=num(o["lives"]))
        later = o["lives"] - o["expected_loss"]
        if later >= 0.005:
            info += " (" + t("review.option.later", x=num(later)) + ")"
        marks = [t("review.best")] if best else []
        if chosen:
            marks.insert(0, t("review.chosen"))
        tag = " · ".join(marks)
        tfs = max(9, int(fs * 0.9))
        tw = text.size_of(tag, tfs, True)[0] if tag else 0
        ix = bar.right + int(10 * u)
        room = area.right - ix - tw - int(10 * u)
        ifs = text.fit(info, tfs, room, False, max(9, tfs - 3))   # smaller before cut
        text.blit(surf, text.ellipsize(info, ifs, room), ifs,
                  (ix, row.centery), widgets.CREAM, "midleft")
        if tag:
            text.blit(surf, tag, tfs, (row.right - int(6 * u), row.centery),
                      widgets.GOLD if best else widgets.BUTTON_FOCUS, "midright", True)
        y += rh
    return y + int(6 * u)


def _hidden(surf: pygame.Surface, area: pygame.Rect, d: dict[str, Any],
            review: dict[str, Any], names: Sequence[str], strip: CardStrip, u: float) -> None:
    """What every other seat was dealt in this round: hidden while it was played, shown
    here because it is over (the review holds finished rounds only)."""
    rounds = review.get("rounds") or []
    if d["round"] >= len(rounds):
        return
    dealt = {int(s): c for s, c in (rounds[d["round"]].get("dealt") or {}).items()
             if int(s) != d["seat"]}
    if not dealt:
        return
    fs = max(10, int(15 * u))
    lines = text.wrap(t("review.hidden"), fs, area.width)
    ch = max(18, min(int(46 * u), (area.height - len(lines) * int(fs * 1.2))
                     // max(1, (len(dealt) + 1) // 2) - int(4 * u)))
    if area.height < len(lines) * int(fs * 1.2) + ch:
        return
    box = area.copy()
    pygame.draw.rect(surf, (26, 36, 44), box.inflate(int(8 * u), int(4 * u)),
                     border_radius=max(3, int(6 * u)))
    pygame.draw.rect(surf, HIDDEN, box.inflate(int(8 * u), int(4 * u)), max(1, int(u)),
                     border_radius=max(3, int(6 * u)))
    y = area.top + int(2 * u)
    for line in lines:
        text.blit(surf, line, fs, (area.left + int(4 * u), y), HIDDEN)
        y += int(fs * 1.2)
    col_w = area.width // 2
    for k, (s, codes) in enumerate(sorted(dealt.items())):
        c, r = k % 2, k // 2
        top = y + r * (ch + int(4 * u))
        if top + ch > area.bottom:
            break
        x = area.left + int(4 * u) + c * col_w
        nw = int(col_w * 0.32)
        text.blit(surf, text.ellipsize(names[s], fs, nw), fs, (x, top + ch // 2), HIDDEN,
                  "midleft")
        strip.draw(surf, codes, x + nw + int(4 * u), top, ch, int(3 * u),
                   x + col_w - int(10 * u))


# ----------------------------------------------------------------- while it is computed

def progress_panel(surf: pygame.Surface, rect: pygame.Rect, done: int, total: int,
                   u: float) -> None:
    widgets.panel(surf, rect, u, 220)
    fs = max(12, int(24 * u))
    msg = t("review.working", done=done, total=total)
    text.blit(surf, text.ellipsize(msg, fs, rect.width - int(30 * u)), fs,
              (rect.centerx, rect.top + int(18 * u)), widgets.CREAM, "midtop")
    bar = pygame.Rect(rect.left + int(24 * u), rect.bottom - int(40 * u),
                      rect.width - int(48 * u), max(6, int(14 * u)))
    pygame.draw.rect(surf, (40, 52, 46), bar, border_radius=bar.height // 2)
    fill = bar.copy()
    fill.width = int(bar.width * done / max(1, total))
    if fill.width:
        pygame.draw.rect(surf, widgets.GOLD, fill, border_radius=bar.height // 2)


def message_panel(surf: pygame.Surface, rect: pygame.Rect, message: str, u: float,
                  colour: tuple[int, int, int] = widgets.CREAM) -> None:
    widgets.panel(surf, rect, u, 210)
    fs = max(12, int(22 * u))
    lines = text.wrap(message, fs, rect.width - int(30 * u))
    y = rect.centery - len(lines) * int(fs * 1.15) // 2
    for i, line in enumerate(lines):
        text.blit(surf, line, fs, (rect.centerx, y + i * int(fs * 1.15)), colour, "midtop")

