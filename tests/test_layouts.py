"""Every table at every window size the game is checked at (960×600, 1280×720,
1920×1080, 3840×2160) and seat count: nothing of a person's decision lies outside the
window or under something else -- plates, cards, the hand, the buttons, the question
and what the person knows about their card, the dealer button. And the window never
opens larger than the desktop's usable area."""

from __future__ import annotations

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import winsize  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.turn.options import TableOptions  # noqa: E402
from game.view import (
    screen,  # noqa: E402
    text,  # noqa: E402
)

SIZES = [(960, 600), (1280, 720), (1920, 1080), (3840, 2160)]


def at_decision(game_id, size, n, lang="de", humans=1, pred=None):
    app = T.make_app(size, lang)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(n, humans, lang), rules={},
                   seed=2)
    app.push(tb)
    ok = T.drive(app, lambda t: t.state == "human" and app.top is t
                 and (pred is None or pred(t)), random.Random(2),
                 choose=lambda p: "swap" if "swap" in p.legal else
                 "play" if "play" in p.legal else p.legal[0])   # Rams: no drop limit forces it
    assert ok
    app.draw()
    return app, tb


def button_dot(tb, s) -> pygame.Rect:
    g = tb.table_layout.geo
    x, y = tb.table_layout.resolve(("dealer", s))
    r = max(8, int(16 * g.u))
    return pygame.Rect(int(x - r), int(y - r), 2 * r, 2 * r)


@pytest.mark.parametrize("size", [winsize.MIN_SIZE, *SIZES])
@pytest.mark.parametrize("n", [3, 6, 10])
def test_chase_table_fits(size, n):
    app, tb = at_decision("chase", size, n, humans=3 if n > 3 else 2)
    win = app.screen.get_rect()
    lay = tb.table_layout
    g = lay.geo
    plates = [lay.plate_rect(s) for s in range(n)]
    cards = []
    for s in range(n):
        x, y = lay.resolve(("seat", s))
        cards.append(pygame.Rect(int(x - g.cw / 2), int(y - g.ch / 2), g.cw, g.ch))
    for i, p in enumerate(plates):
        assert win.contains(p), (size, i)
        assert not any(p.colliderect(q) for q in plates[i + 1:]), (size, i)
        assert win.contains(cards[i]), (size, i)
        assert not any(p.colliderect(c) for c in cards), (size, i)
        dot = button_dot(tb, i)
        assert win.contains(dot), (size, i, dot)
        assert not any(dot.colliderect(c) for c in cards), (size, i, "dealer button on a card")
        assert nearest_plate(dot, plates) == i, (size, i, "whose dealer button?")
        assert dot.colliderect(plates[i]), (size, i, "the dealer button off its plate")
    buttons = tb.actions.buttons
    for b in buttons + [tb.menu_button, tb.hint_button]:
        assert win.contains(b.rect), (size, b.name)
        assert not b.rect.colliderect(g.hand_panel) and not b.rect.colliderect(g.log_panel)
    # the question and two lines of the card's story stand between the ring and buttons
    u = g.u
    prompt_h = text.size_of("Ag", text.fit("Ag", int(24 * u), 1000, True, 10), True)[1]
    story_h = 2 * int(text.size_of("Ag", int(19 * u))[1] * 1.15)
    top = buttons[0].rect.top - int(6 * u) - prompt_h - int(4 * u) - story_h
    assert max(p.bottom for p in plates) <= top + 2, (size, "the bottom plate covers the text")
    assert win.contains(g.hand_panel) and win.contains(g.log_panel)


@pytest.mark.parametrize("size", [winsize.MIN_SIZE, *SIZES])
@pytest.mark.parametrize("n", [3, 6, 10])
def test_rams_table_fits(size, n):
    app, tb = at_decision("rams", size, n, humans=1,
                          pred=lambda t: t.pending.decision == "trick")
    win = app.screen.get_rect()
    lay = tb.table_layout
    g = lay.geo
    c = tb.controls
    rects = c.card_rects()
    assert rects
    bh = g.big[1]
    for r in rects:
        assert win.contains(r.move(0, -int(bh * 0.12))), (size, "a lifted card")
        assert win.contains(r), (size, "the hand is cut off")
    plates = [lay.plate_rect(s) for s in range(n)]
    for i, p in enumerate(plates):
        assert win.contains(p), (size, i)
        assert not any(p.colliderect(q) for q in plates[i + 1:]), (size, i)
        assert win.contains(button_dot(tb, i)), (size, i)
        assert nearest_plate(button_dot(tb, i), plates) == i, (size, i, "whose dealer button?")
        assert button_dot(tb, i).colliderect(p), (size, i, "the dealer button off its plate")
        assert not any(p.colliderect(r) for r in rects), (size, i, "a plate on the hand")
    for b in tb.actions.buttons + [tb.menu_button, tb.hint_button]:
        assert win.contains(b.rect), (size, b.name)
        assert not any(b.rect.colliderect(r) for r in rects), (size, b.name)
    assert not any(g.log_panel.colliderect(r) for r in rects)
    # no card of a trick, wherever it lies, covers the stock's label (the viewer's
    # card covered it below the stock at every size)
    from game.i18n import t
    from tests.screen_check import recording

    with recording(app) as frame:
        app.draw()
    labels = [r for s, r in frame.texts if s == t("rams.stock")]
    assert len(labels) == 1, (size, labels)
    # wherever the dealer button lies, it is on no declaration's badge ("steigt aus" at
    # a plate's top right: the button above a plate on the right lay on it)
    marks = {t("rams.mark." + k) for k in ("play", "drop", "lone", "defend", "general")}
    badges = [r.inflate(int(14 * g.u), int(4 * g.u)) for s, r in frame.texts if s in marks]
    assert len(badges) >= n - 1, size
    for s in range(n):
        assert not any(button_dot(tb, s).colliderect(b) for b in badges), (size, s)
    for s in range(n):
        x, y = lay.resolve(("trick", s))
        card = pygame.Rect(int(x - g.cw / 2), int(y - g.ch / 2), g.cw, g.ch)
        assert not card.colliderect(labels[0]), (size, s, card, labels[0])


@pytest.mark.parametrize("size", [winsize.MIN_SIZE, (960, 600)])
@pytest.mark.parametrize("n", [3, 10])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_card_panels_heading_fits_it(size, n, lang):
    """Alone among computers the panel says "Your card"; at 800x450 with ten seats
    "Deine Karte" stood out of the panel on both sides, cut off at the window's
    edge. Where it cannot fit, the person's name alone heads it ("Du")."""
    from tests.screen_check import recording

    app, tb = at_decision("chase", size, n, lang=lang, humans=1)
    hp = tb.table_layout.geo.hand_panel
    with recording(app) as frame:
        app.draw()
    heads = [r for s, r in frame.texts if r.colliderect(hp) and r.top < hp.top + hp.height // 4]
    assert heads, (size, n, lang)
    for r in heads:
        assert hp.left <= r.left and r.right <= hp.right, (size, n, lang, r, hp)


def nearest_plate(dot: pygame.Rect, plates: list[pygame.Rect]) -> int:
    """The plate whose edge is nearest the dealer button's centre."""
    def gap(p: pygame.Rect) -> float:
        dx = max(p.left - dot.centerx, 0, dot.centerx - p.right)
        dy = max(p.top - dot.centery, 0, dot.centery - p.bottom)
        return (dx * dx + dy * dy) ** 0.5
    return min(range(len(plates)), key=lambda i: gap(plates[i]))


@pytest.mark.parametrize("size", SIZES)
def test_setup_help_is_readable(size):
    app = T.make_app(size, "de")
    app.push(MenuScene(app))
    app.open("setup", game_id="chase")
    app.draw()
    form = app.top.rule_form
    assert text.font(form.help_size()).get_height() >= 13     # not a tiny line
    for r in form.rows:
        for line in form.help_lines(r):
            assert text.size_of(line, form.help_size())[0] <= form.rect.width


def test_no_text_below_the_smallest_size():
    pygame.font.init()
    assert text.font(6).get_height() == text.font(10).get_height()
    assert text.font(6).get_height() >= 12


def test_the_window_fits_the_desktop():
    assert screen.fit_window((1920, 1080), (1920, 1040)) == (1904, 992)
    assert screen.fit_window((1280, 720), (1920, 1040)) == (1280, 720)
    assert screen.fit_window((3840, 2160), None) == (3840, 2160)     # no desktop: as asked
    assert screen.fit_window((200, 100), (1920, 1040)) == winsize.MIN_SIZE
    pygame.display.init()
    assert screen.usable_area() is None          # the dummy driver has no desktop


@pytest.mark.parametrize("size", [winsize.MIN_SIZE, *SIZES])
def test_a_long_first_dealer_search_stays_off_the_plates(size):
    """The cards dealt face up until someone gets a Jack pile up in front of each seat,
    up to the longest search a deck allows (48 cards before the first Jack). No card of a
    pile lies on a plate that its first card does not: the piles grew to the right and
    down, over the plates of the seats at the bottom and at the right (at 800x450 from
    the fourth card on). No card lies on the talon or the discards, or outside the
    window: fanned towards the middle, the piles of the seats at the top reached the
    talon with 7 players from the third card on, with 5 from the seventh (the bottom
    seat's, with 2 to 5 players, the discards from the tenth)."""
    from game.table.chase_layout import ChaseLayout
    from game.view import widgets

    u = widgets.unit(size)
    for n in range(2, 11):
        lay = ChaseLayout(n)
        lay._geo = g = lay.compute(size, u)
        plates = [lay.plate_rect(s) for s in range(n)]

        def card(seat: int, k: int, lay=lay, g=g) -> pygame.Rect:
            r = pygame.Rect(0, 0, g.cw, g.ch)
            r.center = tuple(int(c) for c in lay.resolve(("stack", seat, k)))
            return r

        middle = [card(0, 0).move_to(center=tuple(int(c) for c in lay.resolve((pile,))))
                  for pile in ("talon", "discard")]
        for s in range(n):
            first = {p for p, plate in enumerate(plates) if plate.colliderect(card(s, 0))}
            for k in range(-(-48 // n) + 1):
                on = {p for p, plate in enumerate(plates) if plate.colliderect(card(s, k))}
                assert on <= first, (size, n, s, k, on)
                assert card(s, k).collidelist(middle) < 0, (size, n, s, k)
                assert pygame.Rect((0, 0), size).contains(card(s, k)), (size, n, s, k)


@pytest.mark.parametrize("size", [winsize.MIN_SIZE, (1280, 800), *SIZES])
def test_first_dealer_piles_keep_apart(size):
    """No card of one seat's first-dealer pile lies on a card of another seat's, up to
    the longest search: each pile fanned towards the middle, so the two seats one above
    the other at each side of a table of 6 to 10 fanned into each other (with 7 at
    1280x800 the lower left seat's first card lay on the upper one's third). And every
    pile still fans out, by a third of a card or more, so its cards can be told apart."""
    from game.table.chase_layout import ChaseLayout, stack_most
    from game.view import widgets

    u = widgets.unit(size)
    for n in range(2, 11):
        lay = ChaseLayout(n)
        lay._geo = g = lay.compute(size, u)

        def pile(seat: int, lay=lay, g=g, n=n) -> list[pygame.Rect]:
            return [g.card_rect(lay.resolve(("stack", seat, k)))
                    for k in range(stack_most(n) + 1)]

        piles = [pile(s) for s in range(n)]
        for s in range(n):
            first, last = piles[s][0], piles[s][-1]
            assert (abs(last.centerx - first.centerx) >= g.cw / 3
                    or abs(last.centery - first.centery) >= g.ch / 3), (size, n, s)
            for o in range(s + 1, n):
                hits = [(i, j) for i, a in enumerate(piles[s])
                        for j, b in enumerate(piles[o]) if a.colliderect(b)]
                assert not hits, (size, n, s, o, hits[:3])


class _Frame:
    """A window that records where the painter puts each layer it blits."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.blits: list[pygame.Rect] = []

    def get_size(self) -> tuple[int, int]:
        return self.size

    def get_rect(self) -> pygame.Rect:
        return pygame.Rect((0, 0), self.size)

    def blit(self, layer: pygame.Surface, pos) -> None:
        self.blits.append(layer.get_rect(topleft=pos))


@pytest.mark.parametrize("size", [winsize.MIN_SIZE, (960, 600), (1920, 1080)])
@pytest.mark.parametrize("game_id,n", [("chase", 3), ("chase", 6), ("chase", 10),
                                       ("rams", 4), ("rams", 8)])
def test_a_speech_bubble_keeps_clear_of_a_tip(home, size, game_id, n):
    """While a first game's tip shows, what a seat says is not hidden under it. The
    bubble beside a plate at the top of the table lay under the tip, which is drawn
    over the table, so 'Keep' or 'Drop out' of a seat near the tip went unseen. Moved
    away from the tip, it does not cover its own plate either."""
    from game.turn.options import TableOptions
    from game.view.sprites import Bubble

    app = T.make_app(size, "de", tips=True)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(n, 1, "de"), rules={},
                   seed=2, options=TableOptions(bot_seed=2))
    app.push(tb)
    assert T.drive(app, lambda t: t.tips.showing(), random.Random(2))
    app.draw()
    tip = tb.tips.rect
    assert tip.width > 0
    k = int(7 * tb.table_layout.geo.u)           # the bubble's layer: its tail each side
    for s in range(n):
        for msg in ("Behalten", "Steigt aus und setzt diese Runde aus"):
            frame = _Frame(size)
            bubble = Bubble(s, lambda m=msg: m)
            bubble.alpha = 1.0
            tb.painter.bubble(frame, bubble)
            assert len(frame.blits) == 1
            box = frame.blits[0].inflate(-2 * k, 0)
            assert not box.colliderect(tip), (s, msg, box, tip)
            assert not box.colliderect(tb.table_layout.plate_rect(s)), (s, msg, box)
            assert frame.get_rect().contains(box), (s, box)


@pytest.mark.parametrize("n", [6, 8])
@pytest.mark.parametrize("size", [winsize.MIN_SIZE, (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_tip_covers_no_plate_where_it_can(home, lang, size, n):
    """A first game's tip at the Rams table never covers the person's hand or buttons;
    it covers no seat's plate (as drawn: its badge and shadow too) where some place of
    a width it may take, clear of the table's middle too, covers none (tried every 24
    pixels); else less or no more of the plates than over the log. 'Play or drop out?'
    (342 pixels high at 1280x720 in German) found no place clear of both the middle and
    the plates with 6 or more at the table and lay on the plate at the lower right
    (with 6 at 1280x720, 190x37 pixels of it); now it lies on the middle, its text a
    little smaller where it must be, and covers no plate; at the smallest window with 8
    at the table, where none of the fixed places of any of its sizes avoids the plates
    and the hand, in the gap between the plates."""
    from game.table.tip_panel import covered, plate_drawn

    app = T.make_app(size, lang, tips=True)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="rams", seats=T.mixed_seats(n, 1, lang), rules={},
                   seed=3, options=TableOptions(bot_seed=3))
    app.push(tb)
    app.draw()
    g = tb.table_layout.geo
    plates = [plate_drawn(g, s) for s in range(n)]
    widest = int(min(g.area.width * 0.86, 640 * g.u, size[0] - 16))
    narrow = min(widest, max(g.log_panel.width, int(size[0] * 0.3)))
    seen = []

    def check(tb, tip) -> None:
        app.draw()
        tips = tb.tips
        panel, firm, clear = tips.rect, tips.keep_clear(True), tips.keep_clear()
        assert panel.collidelist(firm) < 0, (tip.id, panel)
        scale, tips.scale = tips.scale, 1.0
        over_log = pygame.Rect(0, 0, narrow, tips.height_for(narrow))
        over_log.bottomright = g.log_panel.bottomright
        free = any(covered(r, plates) == 0
                   for width in range(narrow, widest + 1, 24)
                   for r in [pygame.Rect(0, 0, width, tips.height_for(width))]
                   for x in range(0, size[0] - width + 1, 24)
                   for y in range(g.top_h, size[1] - r.height + 1, 24)
                   if r.move_to(x=x, y=y).collidelist(clear) < 0)
        tips.scale = scale
        if free:
            assert covered(panel, plates) == 0, (tip.id, panel)
        assert covered(panel, plates) <= covered(over_log, plates), (tip.id, panel)
        seen.append((tip.id, covered(panel, plates)))

    def at_tip(t) -> bool:
        if not t.tips.showing():
            return False
        check(t, t.tips.queue[0])
        return t.tips.queue[0].id == "rams.declare"

    assert T.drive(app, at_tip, random.Random(3))
    assert [tip for tip, _ in seen] == ["rams.trump", "rams.declare"], seen
    assert seen[-1] == ("rams.declare", 0), seen


#: every size the layout checks know: the smallest window, the fit check's
#: (``tools/render_screens.py --fit``) and a 16:10 one
TIP_SIZES = [winsize.MIN_SIZE, *SIZES, (1280, 800)]


@pytest.mark.parametrize("n", range(3, 11))
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_declare_tip_leaves_every_plate_button_and_card_free(home, lang, n):
    """'Play or drop out?', the first game's tip at the Rams table's first declaration
    (the game waits while it shows), at every size the layout checks know: it lies
    inside the window and on no seat's plate (as drawn: its badge and shadow too), no
    move button (as drawn, found as the fit check finds them) and no card of the
    person's hand. At 800x450 with 7 to 10 at the table it lay on the plate at the
    lower right, just above the log (with 8 in German, 5192 pixels of Greta's), at
    every text size it tried."""
    from game.table.tip_panel import plate_drawn
    from tests.screen_check import recording

    app = T.make_app(winsize.MIN_SIZE, lang, tips=True)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="rams", seats=T.mixed_seats(n, 1, lang), rules={},
                   seed=3, options=TableOptions(bot_seed=3))
    app.push(tb)
    assert T.drive(app, lambda t: t.tips.showing() and t.pending is not None
                   and t.pending.decision == "declare", random.Random(3))
    assert tb.tips.queue[0].id == "rams.declare"
    for w, h in TIP_SIZES:
        app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=w, h=h, size=(w, h)))
        with recording(app) as frame:
            app.draw()
        assert app.screen.get_size() == (w, h)
        tip = tb.tips.rect
        panels = [r for what, r in frame.order if what == "<panel>"]
        assert panels[-1] == tip                     # the tip, drawn last, on top
        where = (w, h, lang, n, tip)
        assert frame.window.contains(tip), where
        g = tb.table_layout.geo
        plates = {tb.names.name(s): plate_drawn(g, s) for s in range(n)}
        hit = [who for who, r in plates.items() if r.colliderect(tip)]
        assert not hit, (where, hit)
        buttons = [label for label, r, _ in frame.buttons if r.colliderect(tip)]
        assert len(frame.buttons) >= 2 and not buttons, where
        cards = tb.controls.card_rects()
        assert len(cards) == 5 and tip.collidelist(cards) < 0, where


def test_a_card_leaving_a_hand_keeps_its_place_when_the_window_is_resized(home):
    """A card taken out of a hand is pinned where it was drawn, then flies on (to the
    trick). Pinned in pixels it kept the old window's spot after a resize and started
    its flight from there (at 1600x900, from the upper left quarter of the table)."""
    app, tb = at_decision("rams", (800, 450), 4, pred=lambda t: t.pending.decision == "trick")
    lay = tb.table_layout
    seat = next(s for s in range(4) if s != lay.base and tb.model.hands.get(s))
    sp = tb.animator.take_out(seat, None)
    x, y = sp.pos(lay.resolve, lay.geo.ch)
    lay.fit((1600, 900), 2.0, app.art)
    x2, y2 = sp.pos(lay.resolve, lay.geo.ch)
    assert (x2, y2) == pytest.approx((2 * x, 2 * y), abs=1.0)
