"""The player's settings: one JSON file in the user's config directory.

``load()`` never fails, and what it tells the player (``Settings.notice``) is what
happened:

* a missing file gives the defaults;
* a damaged file (not JSON, not an object, not UTF-8, nested too deeply) gives the
  defaults and is moved aside as ``settings.json.bad-<timestamp>``;
* a file that cannot be read (no permission, a folder, FIFO or device in its place, a
  symlink loop, larger than :data:`MAX_BYTES`) or a damaged one that cannot be moved
  aside is left exactly as it is: the game runs with the defaults and never writes
  over it (``Settings.writable`` is False; the player may fix or remove the file).

Values of the wrong type or out of range fall back to their default one by one.

``STAMMTISCH_HOME`` overrides every user directory (tests point it at a tmp dir).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from game import jsonio, paths, winsize
from game.fileio import explain, quarantine, reason, write_atomic
from game.notices import Notice

FILE_NAME = "settings.json"
#: Settings are a few hundred bytes; anything much larger is not ours.
MAX_BYTES = 1024 * 1024
#: What of a list or a table read from the file is kept, so that the file the game
#: writes back stays far below :data:`MAX_BYTES` (written with indents and ASCII
#: escapes, a file near the cap grew past it: the next start could not read it, and
#: every setting was lost from then on). The game has a few dozen tips and a dozen
#: rules keys, each id a few characters.
MAX_KEPT = 256
MAX_ID = 64

ANIM_SPEEDS = ("off", "fast", "normal", "slow")
THINK_PAUSES = (0.0, 0.3, 0.6, 1.0, 1.5, 2.5)
#: how long a round's reveal stays before the table goes on (None: until the player
#: continues with a click, Space or Enter)
REVEAL_HOLDS = (None, 2.0, 4.0, 8.0)
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
    "lang": None,              # None: the desktop's (game.syslang)
    "anim_speed": "normal",
    "think_pause": 0.6,
    "reveal_hold": None,       # see REVEAL_HOLDS
    "volume": 0.7,
    "muted": False,
    "card_back": 0,
    "four_colour": False,
    "table_colour": "green",
    "fullscreen": False,
    "window_size": None,       # [w, h] of the window when it was last resized
    "tips": True,              # the first game's tips (game.turn.tips)
    "tips_seen": [],           # the tips already shown
    "setup": default_setup(),        # the last Chase the Ace setup
    "setup_rams": default_setup(),   # the last Rams setup
}


def config_dir() -> Path:
    """The user's config directory (``game.paths``), not created here."""
    return paths.config_dir(create=False)


def _valid(key: str, value: Any) -> bool:
    if key == "lang":
        return value in (None, "de", "en")
    if key == "anim_speed":
        return value in ANIM_SPEEDS
    if key == "reveal_hold":
        return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                                 and 0 <= value <= 60)
    if key == "think_pause":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 10
    if key == "volume":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1
    if key == "tips_seen":
        return isinstance(value, list) and all(isinstance(x, str) for x in value)
    if key in ("muted", "four_colour", "fullscreen", "tips"):
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
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
            and winsize.allowed(*value))
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
                out["seats"][i]["name"] = jsonio.well_formed(s["name"][:16])
            if isinstance(s.get("human"), bool):
                out["seats"][i]["human"] = s["human"]
            if s.get("phone") is True:  # a seat played from a phone (the setup's choice)
                out["seats"][i]["phone"] = True
            if s.get("level") in LEVELS:
                out["seats"][i]["level"] = s["level"]
    rules = value.get("rules")
    if isinstance(rules, dict):
        kept = [(k, v) for k, v in rules.items() if _short(k) and _rule_value(v)]
        out["rules"] = dict(kept[:MAX_KEPT])
    return out


def _short(x: object) -> bool:
    return isinstance(x, str) and len(x) <= MAX_ID


def _rule_value(v: object) -> bool:
    """A value a rules key can have (the setup checks it against the rules later)."""
    return (v is None or isinstance(v, (bool, float)) or _short(v)
            or (isinstance(v, int) and abs(v) < 2**63))


def _clean_tips(seen: list[str]) -> list[str]:
    """The tips already shown: each id once, at most :data:`MAX_KEPT` of them."""
    return list(dict.fromkeys(x for x in seen if _short(x)))[:MAX_KEPT]


class Settings:
    """Attribute-style access to the settings dict, plus load/save."""

    def __init__(self, data: dict[str, Any] | None = None, path: Path | None = None) -> None:
        self.data: dict[str, Any] = copy.deepcopy(DEFAULTS)
        if data:
            self.data.update(data)
        self.path = path
        #: False when the file could not be read (or moved aside): it is never overwritten
        self.writable = True
        self.warning: str | None = None   # what went wrong, one line (logs, tests)
        self.notice: Notice | None = None  # shown once to the player, then cleared
        self.save_error: str | None = None  # why the last save failed

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in DEFAULTS:
            raise KeyError(key)
        self.data[key] = value

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def save(self) -> bool:
        """Write the file atomically; False (and no exception) if that fails or the
        file must not be written (see ``writable``); ``save_error`` says why."""
        if not self.writable:
            self.save_error = "kept"
            return False
        try:
            path = self.path or (config_dir() / FILE_NAME)
            write_atomic(path, json.dumps(self.data, indent=2, sort_keys=True))
        except (OSError, ValueError) as exc:
            self.save_error = explain(exc)
            return False
        self.save_error = None
        return True

    def _problem(self, key: str, detail: str, **params: Any) -> None:
        self.warning = detail
        self.notice = Notice(key, params)


def load(path: Path | None = None) -> Settings:
    """Read the settings; never raises."""
    try:
        path = path or (config_dir() / FILE_NAME)
    except (OSError, RuntimeError, ValueError) as exc:  # no usable home directory
        settings = Settings()
        settings.writable = False
        settings._problem("settings.unreadable", f"settings: {exc}", file=FILE_NAME,
                          reason=explain(exc))
        return settings
    settings = Settings(path=path)
    try:
        raw = jsonio.load_file(path, MAX_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return settings   # nothing there (a file in the folder's place: see check_folders)
    except OSError as exc:
        # unreadable: use the defaults, and never write over what we could not read
        settings.writable = False
        settings._problem("settings.unreadable", f"{path}: {reason(exc)}",
                          file=path.name, reason=reason(exc))
        return settings
    except jsonio.JSONError as exc:
        return _damaged(settings, path, str(exc))
    if not isinstance(raw, dict):
        return _damaged(settings, path, "the file does not hold a JSON object")
    for key in DEFAULTS:
        if key in raw and _valid(key, raw[key]):
            settings.data[key] = raw[key]
    for key in ("setup", "setup_rams"):
        settings.data[key] = _clean_setup(settings.data[key])
    settings.data["tips_seen"] = _clean_tips(settings.data["tips_seen"])
    if isinstance(settings.data["think_pause"], int):
        settings.data["think_pause"] = float(settings.data["think_pause"])
    return settings


def _damaged(settings: Settings, path: Path, detail: str) -> Settings:
    bad = quarantine(path)
    if bad is None:
        settings.writable = False
        settings._problem("settings.damaged_kept", f"{path.name}: {detail} (not moved)",
                          file=path.name, reason=detail)
    else:
        settings._problem("settings.damaged", f"{path.name}: {detail} -> {bad}",
                          file=bad.name, reason=detail)
    return settings
