"""The window's caches of pictures stay within their bytes over a long evening.

Each Rams round's reckoning and each round's banner is a picture made for one
moment; the cache of drawn layers (``game.view.layers``) was bounded by its number
of entries only (400), and a demo left running held a reckoning of 0.6 MB for every
round it had played (51 MB of pixels after 50 minutes at 1280x720, and growing).
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.scenes.table_rams import demo_scene  # noqa: E402
from game.view import layers  # noqa: E402


def test_a_long_rams_demo_keeps_its_layers_within_their_bytes(monkeypatch):
    """Twelve rounds of the Rams demo drawn frame by frame, with a budget of 3 MB (a
    few rounds' reckonings): the cache never holds more, its count of bytes is the
    sum of its pictures', and the reckonings of the rounds before were let go."""
    monkeypatch.setattr(layers, "FLOOR", 3 * 2**20)
    monkeypatch.setattr(layers, "SCREENS", 0)
    layers.clear()
    app = T.make_app((1280, 720), "en", speed="fast")
    app.push(MenuScene(app))
    app.push(demo_scene(app, 6, seed=1))
    table = T.table_of(app)
    summaries = set()
    for frame in range(60_000):
        app.update(1 / 30)
        app.draw()
        assert layers.held() <= layers.budget(), (frame, layers.held())
        summaries |= {k for k in layers._cache if isinstance(k, tuple) and k[0] == "summary"}
        if table.game.round_index >= 12 or T.table_of(app) is not table:
            break
    assert layers.held() == sum(layers.pixel_bytes(s) for s in layers._cache.values())
    kept = {k for k in layers._cache if isinstance(k, tuple) and k[0] == "summary"}
    assert len(summaries) >= 8, len(summaries)       # the reckonings were drawn
    assert len(kept) < len(summaries) / 2, (len(kept), len(summaries))
    layers.clear()
