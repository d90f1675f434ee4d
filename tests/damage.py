"""The damaged-file cases: every file the game keeps (the log, the shelf of unfinished
games, the settings, the autosave, the statistics) with something wrong in its
place, and a run of the game over it.

A *layout* is a fresh set of the player's files in the XDG places (settings in
``cfg/stammtisch``; statistics, saves, the shelf and the logs under
``data/stammtisch``), each holding something of the player's that must survive:
settings with a volume of 0.2, statistics with one game, an autosave and a shelved
game, a log line. :func:`damage` then puts one kind of trouble at one target,
:func:`exercise` runs the game over it as a player would (start, the Continue
screen, a new game of a few moves, a finished game recorded, settings saved at the
end) and returns every message the window showed, and :func:`lost` names whatever of
the player's other files did not survive.

Run as a script (``python tests/damage.py ROOT TARGET unreadable``) it exercises one
case in this process and prints the outcome as JSON: the unprivileged-user test
runs it that way, so that permission bits really stop the process.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TARGETS = ("log", "shelf", "settings", "autosave", "stats")
KINDS = ("fifo", "folder", "unreadable", "dangling", "large", "read_only")
#: The size cap the tests give every reader (the real one is 128 MB:
#: docs/records.md#how-files-are-read).
SMALL_CAP = 64 * 1024


@dataclass
class Layout:
    root: Path

    @property
    def cfg(self) -> Path:
        return self.root / "cfg" / "stammtisch"

    @property
    def data(self) -> Path:
        return self.root / "data" / "stammtisch"

    @property
    def saves(self) -> Path:
        return self.data / "saves"

    @property
    def shelf(self) -> Path:
        return self.saves / "unfinished"

    @property
    def logs(self) -> Path:
        return self.data / "logs"

    def env(self) -> dict[str, str]:
        return {"XDG_CONFIG_HOME": str(self.root / "cfg"),
                "XDG_DATA_HOME": str(self.root / "data")}

    def target(self, name: str) -> Path:
        return {"log": self.logs / "stammtisch.log", "shelf": self.shelf / "g.json",
                "settings": self.cfg / "settings.json",
                "autosave": self.saves / "autosave.json",
                "stats": self.data / "stats.sqlite3"}[name]

    def folder_of(self, name: str) -> Path:
        return self.target(name).parent


def _engine(moves: int, seed: int) -> Any:
    from game.rules.chase import ChaseGame

    g = ChaseGame({"lives": 3}, 4, seed=seed, bot_seed=seed)
    g.start()
    while len(g.moves) < moves and not g.finished:
        p = g.to_move()
        g.apply(p.seat, p.legal[0])
    return g


def saved_game(game_id: str, moves: int, seed: int) -> str:
    from game import records
    from game.records import Seat

    seats = [Seat("Du", "human")] + [Seat(n, "ai", "easy") for n in ("Anna", "Ben", "Clara")]
    data = records.record_of(_engine(moves, seed), seats, seed=seed, bot_seed=seed).as_dict()
    data["session"] = {"game_id": game_id, "saved": 1_700_000_000 + seed}
    return json.dumps(data)


def make(root: Path) -> Layout:
    """The player's files, all in order."""
    from game import store

    lay = Layout(root)
    for folder in (lay.cfg, lay.shelf, lay.logs):
        folder.mkdir(parents=True, exist_ok=True)
    (lay.cfg / "settings.json").write_text(json.dumps({"volume": 0.2}))
    (lay.saves / "autosave.json").write_text(saved_game("base-auto", 6, 3))
    (lay.shelf / "base-shelf.json").write_text(saved_game("base-shelf", 5, 4))
    (lay.logs / "stammtisch.log").write_text("base-log-line\n")
    g = _engine(10_000, 5)
    from game import records
    from game.records import Seat

    rec = records.record_of(g, [Seat(n, "human") for n in "ABCD"], seed=5)
    with store.stats_db(lay.data / "stats.sqlite3") as con, con:
        store.record_game(rec, g.summary(), game_id="base-stats", con=con)
    return lay


def damage(lay: Layout, target: str, kind: str) -> Path:
    """Put ``kind`` of trouble at ``target``; returns the path that must be left as it
    is (the file, or for ``read_only`` its folder). ``unreadable`` and ``read_only``
    only prepare: the caller takes the permission away (see the tests)."""
    path = lay.target(target)
    if kind == "read_only":
        return path.parent
    if kind == "unreadable":
        if not path.exists():
            path.write_text(saved_game("unreadable", 4, 6))
        return path
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
        (path / "keep.txt").write_text("mine")
    elif kind == "dangling":
        os.symlink(lay.root / "nowhere" / path.name, path)
    elif kind == "large":
        if target == "stats":       # a database has no cap: a large file of garbage
            path.write_bytes(b"not a database\n" * (2 * SMALL_CAP // 15))
        elif target == "log":       # a log is rotated, whatever its size
            path.write_text("base-log-line\n" + "x" * (300 * 1024))  # over its 256 KB
        else:                       # valid content, only too large
            text = saved_game("large", 4, 7) if target != "settings" \
                else json.dumps({"volume": 0.3})
            path.write_text(text + " " * (2 * SMALL_CAP))
    else:
        raise ValueError(kind)
    return path


def snapshot(path: Path) -> Any:
    """What is at ``path`` (not following links), deep enough to see any change."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISDIR(st.st_mode):
        return ("folder", {p.name: snapshot(p) for p in sorted(path.iterdir())})
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo",)
    if stat.S_ISREG(st.st_mode):
        try:
            return ("file", stat.S_IMODE(st.st_mode),
                    hashlib.sha256(path.read_bytes()).hexdigest())
        except PermissionError:
            return ("file", stat.S_IMODE(st.st_mode), "unreadable", st.st_size)
    return ("other", st.st_mode)


def exercise(lay: Layout, lang: str = "en") -> list[dict[str, Any]]:
    """Play over the layout as a player would; every message the window showed, with
    the number of moves the table had made when it showed (``moves``, or None when
    no table was open). Assumes the environment points at the layout."""
    import pygame

    from game import crash, notices, store
    from game.app import App
    from game.scenes import testing as T
    from game.scenes.menu import MenuScene
    from game.scenes.table_chase import ChaseTableScene
    from game.store import files as store_files

    shown: list[dict[str, Any]] = []
    real_notify = App.notify

    def notify(app: Any, message: Any) -> None:
        table = app.stack[-1] if app.stack else None
        game = getattr(table, "game", None)
        said = message() if callable(message) else message   # a notice: asked as shown
        shown.append({"text": said, "moves": len(game.moves) if game is not None else None})
        real_notify(app, message)

    App.notify = notify                 # type: ignore[method-assign]
    notices.reset()
    store_files._held.clear()
    crash.uninstall()
    try:
        crash.install()
        from game import settings

        app = T.make_app((960, 600), lang, settings=settings.load())
        app.push(MenuScene(app))
        T.frame(app)
        button = app.top.list.by_name("continue")
        if button is not None:           # the shelf is read when this screen opens
            button.action()
            T.frame(app)
            app.pop()
        table = ChaseTableScene(app, T.mixed_seats(4, humans=0), {"lives": 1}, seed=5)
        app.push(table)
        for _ in range(400):
            T.frame(app)
            if len(table.game.moves) >= 4 or table.game.finished:
                break
        app.pop()
        session = store.GameSession(_engine(10_000, 8), [{"name": "x", "human": True}] * 4,
                                    seed=8)
        session.finish()
        T.frame(app)
        app.save_settings()
        app.close()
    finally:
        App.notify = real_notify         # type: ignore[method-assign]
        crash.uninstall()
        pygame.quit()
    return shown


def lost(lay: Layout, target: str) -> list[str]:
    """The player's files (other than ``target``) that did not survive."""
    out = []
    if target != "settings":
        try:
            if json.loads((lay.cfg / "settings.json").read_text()).get("volume") != 0.2:
                out.append("settings changed")
        except (OSError, ValueError) as exc:
            out.append(f"settings: {exc}")
    if target != "stats":
        try:
            con = sqlite3.connect(lay.data / "stats.sqlite3")
            ids = {r[0] for r in con.execute("SELECT game_id FROM games")}
            con.close()
            if "base-stats" not in ids:
                out.append("the recorded game is gone")
        except sqlite3.Error as exc:
            out.append(f"stats: {exc}")
    games = set()
    for p in [lay.saves / "autosave.json", *lay.shelf.glob("*.json")]:
        if not p.is_file():          # the test must not hang on a FIFO either
            continue
        try:
            games.add(json.loads(p.read_text())["session"]["game_id"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    if target != "autosave" and "base-auto" not in games:
        out.append("the autosaved game is gone")
    if "base-shelf" not in games:
        out.append("the shelved game is gone")
    if target != "log":
        logs = [p.read_text(errors="replace") for p in lay.logs.glob("stammtisch.log*")
                if p.is_file()]
        if not any("base-log-line" in text for text in logs):
            out.append("the old log is gone")
    return out


def main(argv: list[str]) -> int:
    """``damage.py ROOT TARGET KIND``: exercise a layout already made and damaged (by
    the caller) in this process; print ``{"shown": [...]}``."""
    root, target, kind = Path(argv[0]), argv[1], argv[2]
    lay = Layout(root)
    os.environ.update(lay.env())
    os.environ.pop("STAMMTISCH_HOME", None)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    shown = exercise(lay)
    print(json.dumps({"shown": shown, "target": target, "kind": kind}))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main(sys.argv[1:]))
