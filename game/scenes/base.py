"""The scene protocol: one screen of the game on the app's scene stack.

Events go to the top scene first (``handle_event`` returns True when it used one);
only the top scene updates, and the scenes it covers only ``tend`` what must go on
behind it (a phone table's phones are served under the pause menu); drawing starts
at the highest opaque scene, so overlays (pause) draw over the table below them.
``layout(size)`` runs once per window size (``ensure_layout``), before drawing;
``draw`` only draws.

Scenes open other screens by name (``app.open("setup", game_id=...)``, see
``game.scenes.catalog``) and never import each other.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Protocol

import pygame

from game.view import widgets


class Host(Protocol):
    """The window as a scene sees it (``game.app.App`` is one). Written here so that
    the scenes never import the app that stacks them: the app is the layer above."""

    opts: argparse.Namespace
    settings: Any                 # game.settings.Settings
    art: Any                      # game.view.cardart.CardArt
    stack: list[Scene]
    ai_sync: bool

    @property
    def size(self) -> tuple[int, int]: ...
    @property
    def top(self) -> Scene | None: ...
    def play(self, name: str) -> None: ...
    def notify(self, message: str | Callable[[], str]) -> None: ...
    def show_toast(self, message: str) -> None: ...
    def background(self) -> pygame.Surface: ...
    def scene(self, name: str, **kw: Any) -> Scene: ...
    def open(self, name: str, how: str = "push", **kw: Any) -> Scene: ...
    def pop(self) -> Scene | None: ...
    def replace(self, scene: Scene) -> None: ...
    def quit(self) -> None: ...
    def save_settings(self) -> None: ...
    def set_lang(self, lang: str | None) -> None: ...
    def apply_audio_settings(self) -> None: ...
    def toggle_fullscreen(self) -> None: ...


class Scene:
    opaque = True
    name = "scene"

    def __init__(self, app: Host) -> None:
        self.app = app
        self._size: tuple[int, int] = (0, 0)
        self.u = 1.0

    # lifecycle
    def enter(self) -> None: ...
    def exit(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None:
        self._size = (0, 0)   # settings or language may have changed: lay out again

    # per frame
    def handle_event(self, ev: pygame.event.Event) -> bool:
        return False

    def update(self, dt: float) -> None: ...

    def tend(self) -> bool:
        """While another screen covers this one (the app calls it every frame for each
        scene below the top): the work that must not wait for the screen above to
        close, and nothing of the scene's own progress. True when something changed
        that this scene shows (the app then draws again)."""
        return False

    def busy(self) -> bool:
        """True while something moves (the app then ticks at 60 FPS)."""
        return False

    def ensure_layout(self, size: tuple[int, int]) -> None:
        if size != self._size:
            self._size = size
            self.u = widgets.unit(size)
            self.rekey()
            self.layout(size)

    def rekey(self) -> None:
        """Give the buttons keyed by a letter of their label the letters of the current
        language (``game.view.keys``). Runs before every layout, which a language
        chosen in the settings brings about too, so the letters follow it."""

    def layout(self, size: tuple[int, int]) -> None: ...

    def draw(self, surf: pygame.Surface) -> None: ...
