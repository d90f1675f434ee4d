"""A small mixer wrapper that degrades to silence.

``Audio().play("deal")`` plays ``sounds/deal.wav``. Nothing here ever raises for
a missing audio device, a mixer that will not start, an unknown or broken sound
file: the game simply stays quiet. The mixer is started lazily on the first
``play`` (or ``preload``), and every sound is loaded once and cached.

What "unavailable" means is caught by name (:data:`SOUND_ERRORS`: pygame's own error,
a file that cannot be read, a sample it refuses); any other exception is a bug of the
game and is not swallowed here (the window's caller logs it and says so once).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pygame

from game.assets import asset_path
from game.console import native_stderr_silenced

#: What a missing device, a mixer that will not start or a broken sound file raises.
SOUND_ERRORS: tuple[type[Exception], ...] = (pygame.error, OSError, ValueError)

log = logging.getLogger("stammtisch.audio")

#: Every effect the generator in ``tools/make_sounds.py`` writes.
SOUND_NAMES = (
    "deal", "flip", "shuffle", "swap", "knock", "chip", "trick", "win", "lose", "click",
)


class Audio:
    """Play short effects by name; silent whenever sound is unavailable.

    ``volume`` is 0.0 … 1.0; ``muted`` silences without forgetting the volume.
    ``sound_dir`` defaults to the bundled ``sounds/`` folder.
    """

    def __init__(self, volume: float = 0.8, muted: bool = False,
                 sound_dir: str | Path | None = None) -> None:
        self._volume = _clamp(volume)
        self._muted = bool(muted)
        self._dir = Path(sound_dir) if sound_dir is not None else asset_path("sounds")
        self._cache: dict[str, Any] = {}   # name -> pygame Sound, or None if unusable
        self._state: bool | None = None   # None: not tried yet; True: ready; False: silent

    # -- settings ---------------------------------------------------------------
    @property
    def volume(self) -> float:
        return self._volume

    @property
    def muted(self) -> bool:
        return self._muted

    def set_volume(self, volume: float) -> None:
        """Set the effect volume (clamped to 0.0 … 1.0)."""
        self._volume = _clamp(volume)
        for sound in self._cache.values():
            if sound is not None:
                try:
                    sound.set_volume(self._volume)
                except SOUND_ERRORS:
                    pass      # a mixer gone meanwhile: the next play is silent too

    def set_muted(self, muted: bool) -> None:
        """Mute or unmute; a muted wrapper does not even start the mixer."""
        self._muted = bool(muted)
        if self._muted and self._state:
            try:
                pygame.mixer.stop()
            except SOUND_ERRORS:
                pass          # no mixer: nothing plays

    @property
    def available(self) -> bool:
        """True when the mixer is running (starting it if it was never tried)."""
        return self._ensure_mixer()

    # -- playing ----------------------------------------------------------------
    def play(self, name: str) -> bool:
        """Play the effect ``name`` (a file stem such as ``"deal"``).

        Returns True if a sound was started, False when silent for any reason.
        """
        if self._muted or self._volume <= 0.0:
            return False
        sound = self._load(name)
        if sound is None:
            return False
        try:
            sound.play()
        except SOUND_ERRORS:
            return False
        return True

    def preload(self, names: tuple[str, ...] | list[str] = SOUND_NAMES) -> None:
        """Load sounds ahead of time (no-op when the mixer is unavailable)."""
        for name in names:
            self._load(name)

    def stop(self) -> None:
        """Stop everything that is playing."""
        if self._state:
            try:
                pygame.mixer.stop()
            except SOUND_ERRORS:
                pass          # no mixer: nothing plays

    # -- internals --------------------------------------------------------------
    def _ensure_mixer(self) -> bool:
        if self._state is not None:
            return self._state
        try:
            if not pygame.mixer.get_init():
                with native_stderr_silenced():      # ALSA's lines without a sound card
                    pygame.mixer.init()
            self._state = bool(pygame.mixer.get_init())
        except SOUND_ERRORS as exc:
            log.info("no sound: %s", exc)
            self._state = False
        return self._state

    def _load(self, name: str) -> Any:
        if name in self._cache:
            return self._cache[name]
        if not self._ensure_mixer():
            return None
        sound = None
        path = self._dir / f"{name}.wav"
        if path.is_file():
            try:
                sound = pygame.mixer.Sound(str(path))
                sound.set_volume(self._volume)
            except SOUND_ERRORS as exc:
                log.info("sound %s unusable: %s", name, exc)
                sound = None
        self._cache[name] = sound
        return sound


def _clamp(value: float) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return 0.0
    if value != value:  # NaN
        return 0.0
    return min(1.0, max(0.0, value))
