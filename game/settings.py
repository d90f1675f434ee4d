"""The player's settings: one JSON file in the user's config directory.

``load()`` never fails: a missing file gives the defaults; a damaged file gives the
defaults too, is moved aside as ``settings.json.bad-<timestamp>`` (never silently
overwritten) and ``Settings.warning`` says so once. Values of the wrong type or out of
range fall back to their default one by one.

``STAMMTISCH_HOME`` overrides every user directory (tests point it at a tmp dir).
"""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path
from typing import Any

from game.fileio import quarantine, write_atomic

FILE_NAME = "settings.json"

ANIM_SPEEDS = ("off", "fast", "normal", "slow")
THINK_PAUSES = (0.0, 0.3, 0.6, 1.0, 1.5, 2.5)
TABLE_COLOURS = ("green", "blue", "red")
LEVELS = ("easy", "medium", "hard", "expert")
CARD_BACKS = (0, 1, 2)

DEFAULT_NAMES = {
    "en": ["You", "Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hans", "Ida"],
    "de": ["Du", "Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hans", "Ida"],
}


def default_setup() -> dict[str, Any]:
    """The first game someone plays: themselves against three medium computers."""
    seats = [{"name": "", "human": i == 0, "level": "medium"} for i in range(10)]
    return {"players": 4, "seats": seats, "rules": {}}


DEFAULTS: dict[str, Any] = {
    "lang": None,              # None: from the system locale
    "anim_speed": "normal",
    "think_pause": 0.6,
    "volume": 0.7,
    "muted": False,
    "card_back": 0,
    "four_colour": False,
    "table_colour": "green",
    "fullscreen": False,
    "window_size": None,       # [w, h] of the window when it was last resized
    "setup": default_setup(),        # the last Chase the Ace setup
    "setup_rams": default_setup(),   # the last Rams setup
}


def config_dir() -> Path:
    """The user's config directory (``game.paths`` when present, else a fallback)."""
    try:
        from game import paths  # type: ignore[attr-defined]

        return Path(paths.config_dir())
    except (ImportError, AttributeError):
        pass
    home = os.environ.get("STAMMTISCH_HOME")
    if home:
        return Path(home) / "config"
    if sys.platform.startswith("win"):
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        return Path(base) / "Stammtisch"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Stammtisch"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "stammtisch"


def _valid(key: str, value: Any) -> bool:
    if key == "lang":
        return value in (None, "de", "en")
    if key == "anim_speed":
        return value in ANIM_SPEEDS
    if key == "think_pause":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 10
    if key == "volume":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1
    if key in ("muted", "four_colour", "fullscreen"):
        return isinstance(value, bool)
    if key == "card_back":
        return value in CARD_BACKS and not isinstance(value, bool)
    if key == "table_colour":
        return value in TABLE_COLOURS
    if key in ("setup", "setup_rams"):
        return isinstance(value, dict)
    if key == "window_size":
        return value is None or (
            isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and 320 <= x <= 16384
                    for x in value))
    return False


def _clean_setup(value: dict[str, Any]) -> dict[str, Any]:
    out = default_setup()
    n = value.get("players")
    if isinstance(n, int) and not isinstance(n, bool) and 3 <= n <= 10:
        out["players"] = n
    seats = value.get("seats")
    if isinstance(seats, list):
        for i, s in enumerate(seats[:10]):
            if not isinstance(s, dict):
                continue
            if isinstance(s.get("name"), str):
                out["seats"][i]["name"] = s["name"][:16]
            if isinstance(s.get("human"), bool):
                out["seats"][i]["human"] = s["human"]
            if s.get("level") in LEVELS:
                out["seats"][i]["level"] = s["level"]
    rules = value.get("rules")
    if isinstance(rules, dict):
        out["rules"] = {k: v for k, v in rules.items() if isinstance(k, str)}
    return out


class Settings:
    """Attribute-style access to the settings dict, plus load/save."""

    def __init__(self, data: dict[str, Any] | None = None, path: Path | None = None) -> None:
        self.data: dict[str, Any] = copy.deepcopy(DEFAULTS)
        if data:
            self.data.update(data)
        self.path = path
        self.warning: str | None = None   # shown once to the player, then cleared

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in DEFAULTS:
            raise KeyError(key)
        self.data[key] = value

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def save(self) -> bool:
        """Write the file atomically; False (and no exception) if that fails."""
        path = self.path or (config_dir() / FILE_NAME)
        try:
            write_atomic(path, json.dumps(self.data, indent=2, sort_keys=True))
            return True
        except OSError:
            return False


def load(path: Path | None = None) -> Settings:
    """Read the settings; never raises."""
    path = path or (config_dir() / FILE_NAME)
    settings = Settings(path=path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return settings
    except OSError as exc:
        settings.warning = f"{path}: {exc}"
        return settings
    try:
        raw = json.loads(data.decode("utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("the file does not hold a JSON object")
    except ValueError as exc:
        bad = quarantine(path)
        moved = str(bad) if bad is not None else ""
        if bad is None:
            # never overwrite a file we could not move away: save next to it instead
            settings.path = path.with_name(path.name + ".new")
        settings.warning = f"{path.name}: {exc}" + (f" -> {moved}" if moved else "")
        return settings
    for key in DEFAULTS:
        if key in raw and _valid(key, raw[key]):
            settings.data[key] = raw[key]
    for key in ("setup", "setup_rams"):
        settings.data[key] = _clean_setup(settings.data[key])
    if isinstance(settings.data["think_pause"], int):
        settings.data["think_pause"] = float(settings.data["think_pause"])
    return settings
