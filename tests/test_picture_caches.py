"""The window's caches of pictures stay within their bytes over a long evening.

Each Rams round's reckoning and each round's banner is a picture made for one
moment; the cache of drawn layers (``game.view.layers``) was bounded by its number
of entries only (400), and a demo left running held a reckoning of 0.6 MB for every
round it had played (51 MB of pixels after 50 minutes at 1280x720, and growing).
The cache of set texts (``game.view.text``) was bounded by count only too (1,500),
which at 3840x2160 is a few hundred megabytes of large text.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.scenes.table_rams import demo_scene  # noqa: E402
from game.view import layers, text  # noqa: E402
from game.view.picture_cache import PictureCache, pixel_bytes  # noqa: E402


def test_a_long_rams_demo_keeps_its_layers_within_their_bytes(monkeypatch):
    """Twelve rounds of the Rams demo drawn frame by frame, with a budget of 3 MB (a
    few rounds' reckonings): the cache never holds more, its count of bytes is the
    sum of its pictures', and the reckonings of the rounds before were let go."""
    monkeypatch.setattr(layers._cache, "floor", 3 * 2**20)
    monkeypatch.setattr(layers._cache, "screens", 0)
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
        summaries |= {k for k in layers._cache.keys() if isinstance(k, tuple) and k[0] == "summary"}
        if table.game.round_index >= 12 or T.table_of(app) is not table:
            break
    assert layers.held() == sum(pixel_bytes(s) for s in layers._cache.pictures())
    kept = {k for k in layers._cache.keys() if isinstance(k, tuple) and k[0] == "summary"}
    assert len(summaries) >= 8, len(summaries)       # the reckonings were drawn
    assert len(kept) < len(summaries) / 2, (len(kept), len(summaries))
    layers.clear()


def test_set_texts_stay_within_their_bytes_in_a_big_window():
    """Texts are kept by count (1,500) and by bytes (two windows' worth): at
    3840x2160 the score lines and names of an evening are large pictures, and 1,500
    of them at the size a 4K window sets its titles (about 0.15 MB each) would hold
    over 200 MB. Set 1,500 different ones: the cache keeps within its budget, its
    count of bytes is its pictures', and the newest text is still there."""
    import pygame

    app = T.make_app((3840, 2160), "en")
    try:
        text.clear_cache()
        budget = text._cache.budget()
        assert budget == 2 * 3840 * 2160 * 4
        made = 0
        for n in range(1500):
            made += pixel_bytes(text.render(f"Round {n}: Anna sheds a counter, Ben adds five", 64))
        assert made > 2 * budget                  # the count alone would not bound it
        assert text._cache.held() <= budget
        assert text._cache.held() == sum(pixel_bytes(s) for s in text._cache.pictures())
        newest = ("Round 1499: Anna sheds a counter, Ben adds five", 64, (255, 255, 255), False)
        assert newest in text._cache
        assert isinstance(text.render(*newest), pygame.Surface)
    finally:
        text.clear_cache()
        app.close()


def _pic(w: int, h: int):
    import pygame

    return pygame.Surface((w, h), pygame.SRCALPHA)


def test_a_picture_cache_lets_the_least_recently_used_go_first():
    """Looking a picture up makes it the newest; a bound passed sends the oldest out,
    by count and by bytes, and a key put again is counted once."""
    cache = PictureCache(entries=3, screens=0, floor=10**9)
    for key in "abc":
        cache.put(key, _pic(10, 10))
    assert cache.get("a") is not None                 # a is now the newest
    cache.put("d", _pic(10, 10))                      # four entries: b (oldest) goes
    assert list(cache.keys()) == ["c", "a", "d"]
    cache.put("c", _pic(20, 10))                      # put again: replaced, not added
    assert len(cache) == 3
    assert cache.held() == sum(pixel_bytes(s) for s in cache.pictures())

    small = PictureCache(entries=100, screens=0, floor=3 * pixel_bytes(_pic(10, 10)))
    for key in "abcd":
        small.put(key, _pic(10, 10))
    assert list(small.keys()) == ["b", "c", "d"]      # by bytes: three fit
    small.put("big", _pic(100, 100))                  # more than the budget alone
    assert list(small.keys()) == ["big"]              # the newest always stays
    assert small.held() == pixel_bytes(small.get("big"))
    small.clear()
    assert small.held() == 0 and len(small) == 0
