"""A monkey: thousands of random clicks, keys, wheel turns and window resizes across
every scene. Nothing may raise; afterwards games still finish. Every run is a fixed
number of steps from a fixed seed: the same input on any machine, however loaded."""

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402

from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.view.widgets import FocusList, Form  # noqa: E402

KEYS = [pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_TAB,
        pygame.K_RETURN, pygame.K_SPACE, pygame.K_ESCAPE, pygame.K_k, pygame.K_s, pygame.K_d,
        pygame.K_a, pygame.K_r, pygame.K_PAGEDOWN, pygame.K_PAGEUP, pygame.K_HOME, pygame.K_END,
        pygame.K_BACKSPACE, pygame.K_F5, pygame.K_n, pygame.K_m, pygame.K_p, pygame.K_F11,
        pygame.K_g, pygame.K_1, pygame.K_3, pygame.K_h, pygame.K_v, pygame.K_c]
STEPS = 2500          # per animation speed, across every scene
RAMS_STEPS = 1500     # per Rams table


def targets(scene):
    """Everything clickable on ``scene``: its buttons and form rows, a table's move
    buttons and (Rams) the cards of the hand."""
    rects = []
    controls = getattr(scene, "controls", None)
    for v in list(vars(scene).values()) + list(vars(controls).values() if controls else []):
        if isinstance(v, FocusList):
            rects += [b.rect for b in v.buttons]
        elif isinstance(v, Form):
            for r in v.rows:
                rects += [r.left, r.right, r.box, r.name_box]
    for attr in ("menu_button", "hint_button"):
        mb = getattr(scene, attr, None)
        if mb is not None:
            rects.append(mb.rect)
    cards = getattr(controls, "card_rects", None)    # the Rams hand
    if cards is not None and scene.table_layout.ready:
        rects += cards()
    return [r for r in rects if r.width > 0]


def monkey(app, rng, steps):
    results = 0
    for i in range(steps):
        if not app.running or not app.stack:
            app.running = True
            app.reset(MenuScene(app))
        top = app.top
        if top.name == "results":
            results += 1
        r = rng.random()
        w, h = app.size
        if r < 0.35:
            rects = targets(top)
            if rects and rng.random() < 0.8:
                rc = rng.choice(rects)
                pos = (rc.left + rng.randrange(max(1, rc.width)),
                       rc.top + rng.randrange(max(1, rc.height)))
            else:
                pos = (rng.randrange(w), rng.randrange(h))
            T.click(app, pos, button=rng.choice([1, 1, 1, 3]))
        elif r < 0.7:
            k = rng.choice(KEYS)
            mod = pygame.KMOD_SHIFT if rng.random() < 0.1 else 0
            T.key(app, k, mod)
        elif r < 0.75:
            T.type_text(app, rng.choice(["a", "Ö", "ß", " ", "Zz"]))
        elif r < 0.8:
            app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-3, -1, 1, 3]),
                                          flipped=False))
        elif r < 0.83:
            size = rng.choice([(960, 600), (1280, 720), (1920, 1080), (320, 240), (700, 900),
                               (2560, 1080), (1000, 560)])
            app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1],
                                          size=size))
            app.handle(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=size[0], y=size[1]))
        else:
            app.update(rng.choice([0.0, 0.016, 0.05, 0.3]))
        if i % 7 == 0:
            app.draw()
    return results


def test_monkey_across_scenes():
    rng = random.Random(1234)
    total = 0
    for speed in ("off", "fast", "normal"):
        app = T.make_app((1280, 720), rng.choice(["de", "en"]), speed=speed, think=0.0)
        app.push(MenuScene(app))
        total += monkey(app, rng, STEPS)
        if app.fullscreen:
            app.toggle_fullscreen()
        # afterwards a game still finishes
        app.running = True
        app.reset(MenuScene(app))
        app.settings["anim_speed"] = "off"
        from game.scenes.table_chase import ChaseTableScene
        from game.turn.seats import seats_from_setup

        setup = app.settings["setup"]
        seats = seats_from_setup(setup)
        for seat in seats:            # the monkey may have made phone seats: no phones here
            seat.pop("phone", None)
        app.push(ChaseTableScene(app, seats, setup["rules"], seed=5))
        assert T.play_game(app, rng=random.Random(3)), "game did not finish"


def test_monkey_on_rams_tables():
    """Random input on Rams tables (solo and hot-seat, every variant on); afterwards a
    Rams game still finishes."""
    from game.scenes.table_rams import RamsTableScene
    from game.turn.seats import seats_from_setup

    rng = random.Random(99)
    rules = {"dealer_takes_trump": True, "must_trump": True, "must_beat": True}
    for speed, humans in (("off", 1), ("normal", 2), ("fast", 1)):
        app = T.make_app((960, 600), rng.choice(["de", "en"]), speed=speed, think=0.0)
        app.push(MenuScene(app))
        setup = dict(app.settings["setup"])
        setup["players"] = 5
        setup["seats"] = [dict(s, human=i < humans) for i, s in enumerate(setup["seats"])]
        app.push(RamsTableScene(app, seats_from_setup(setup), rules, seed=rng.randrange(99)))
        monkey(app, rng, RAMS_STEPS)
        if app.fullscreen:
            app.toggle_fullscreen()
    app = T.make_app((1280, 720), "en", speed="off")
    app.push(MenuScene(app))
    setup = app.settings["setup"]
    tb = RamsTableScene(app, seats_from_setup(setup), rules, seed=5)
    app.push(tb)
    pick = random.Random(3)
    for _ in range(60000):
        if app.top.name == "results":
            break
        if app.top.name == "handoff":
            app.top.ready()
        elif tb.state == "human":
            tb.human_move(pick.choice(list(tb.pending.legal)))
        else:
            app.update(0.05)
    assert app.top.name == "results", "game did not finish"


def test_monkey_reaches_the_strategy_chart():
    """Menu -> rules -> strategy chart by clicks, then random input there."""
    rng = random.Random(7)
    app = T.make_app((960, 600), "de")
    app.push(MenuScene(app))
    T.click_button(app, app.top.list.by_name("rules"))
    T.click_button(app, app.top.list.by_name("chart"))
    assert app.top.name == "chart"
    seen = set()
    for _ in range(6):
        if app.top is None or app.top.name != "chart":
            app.running = True
            app.reset(MenuScene(app))
            T.click_button(app, app.top.list.by_name("rules"))
            T.click_button(app, app.top.list.by_name("chart"))
        seen.add(app.top.players)
        monkey(app, rng, 60)
    assert app.stack and seen

