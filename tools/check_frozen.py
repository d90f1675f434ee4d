"""Check a frozen build: the Windows ``.exe`` under Wine, or the app on its own OS.

    python tools/check_frozen.py dist/stammtisch/stammtisch        # Linux, macOS, Windows
    python tools/check_frozen.py dist/stammtisch/stammtisch.exe --only smoke,host

(``tools/build_windows.py --smoke`` runs the same checks on its Windows build under
Wine.) Every check starts the executable as a user would, with SDL's dummy video and
audio drivers, in user folders of its own (no ``STAMMTISCH_HOME``: the app's default
folders, pointed at a temporary place, or under Wine the prefix's own profile), and
fails on a non-zero exit, a wrong answer or a crash report in the log folder:

``smoke``       ``--smoke-test`` (the first frame of the menu).
``demo-chase``, ``demo-rams``
                a few seconds of ``--demo --game G --frame-stats``: frames were drawn.
``tournament``  ``stammtisch tournament`` with a ``bot:`` seat (the app runs itself as
                the bot's runner; the file's name is Cyrillic) and an ``exe:`` seat given
                as a command line with quoted paths that hold spaces (a Python script
                that starts a helper process and, once, stops answering): the bot is
                ended and started again, and afterwards no process it started still
                runs. Then a Rams tournament's table (not JSON) names the bot.
``host``        ``stammtisch host`` with a scripted phone over loopback (a WebSocket
                client here, random legal moves) to the end of the game; its record
                file replays.
``files``       settings, an autosave and statistics written through the window's
                screens in the user's folders, then read back by a new process
                (``frozen_checks/files_session.py``).
``replay``      ``stammtisch replay --json`` on example records (in a folder whose name
                has a space and an umlaut): the expected outcome, and the one-line error
                of a bad record.

Prints one line per check on standard error and, at the end, one JSON object on
standard output; the exit status is 1 if a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent / "frozen_checks"
EXAMPLES = ROOT / "tests" / "examples"
#: (record, what replaying it must say) for the replay check
REPLAYS = ("0000_chase_5p_complete", "0005_rams_5p_complete", "0001_rams_7p_partial",
           "bad_0003_unknown_rules_key")
CHECKS = ("smoke", "demo-chase", "demo-rams", "tournament", "host", "files", "replay")
APP_ENV = {
    "SDL_VIDEODRIVER": "dummy",
    "SDL_AUDIODRIVER": "dummy",
    "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    "STAMMTISCH_NO_CRASH_DIALOG": "1",
}


class CheckFailed(Exception):
    """A check's verdict: what was wrong."""


# --------------------------------------------------------------------------- launchers


class Launcher:
    """How to start the frozen app and where it keeps its files."""

    name = "native"

    def __init__(self, exe: Path) -> None:
        self.exe = exe.absolute()
        self.work = Path(tempfile.mkdtemp(prefix="stammtisch check "))

    def command(self, *args: str) -> list[str]:
        return [str(self.exe), *args]

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("STAMMTISCH_HOME", None)
        env.update(APP_ENV)
        env.update(extra or {})
        return env

    def path(self, p: Path) -> str:
        """``p`` as the app names it."""
        return str(p)

    def python(self) -> list[str]:
        """A Python the app can start (as the app names it), for ``exe:`` bots."""
        return [sys.executable]

    def user_data(self) -> Path:
        """The app's data folder (statistics, saves, logs), as a path here."""
        raise NotImplementedError

    def user_config(self) -> Path:
        """The app's settings folder, as a path here (the data folder but on Linux)."""
        return self.user_data()

    def reset_user(self) -> None:
        """Start from empty user folders."""
        raise NotImplementedError

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)


class NativeLauncher(Launcher):
    """The app on the OS it was built for, its user folders in a temporary home: the
    variables the app takes them from (``APPDATA`` on Windows, ``HOME`` on macOS, the
    XDG ones on Linux) point there, so a check never touches the real ones."""

    def __init__(self, exe: Path) -> None:
        super().__init__(exe)
        self.home = self.work / "home"

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = super().env()
        if sys.platform.startswith("win"):
            env["APPDATA"] = str(self.home / "AppData" / "Roaming")
        elif sys.platform == "darwin":
            env["HOME"] = str(self.home)
        else:
            env["XDG_CONFIG_HOME"] = str(self.home / ".config")
            env["XDG_DATA_HOME"] = str(self.home / ".local" / "share")
        env.update(extra or {})
        return env

    def user_data(self) -> Path:
        if sys.platform.startswith("win"):
            return self.home / "AppData" / "Roaming" / "Stammtisch"
        if sys.platform == "darwin":
            return self.home / "Library" / "Application Support" / "Stammtisch"
        return self.home / ".local" / "share" / "stammtisch"

    def user_config(self) -> Path:
        if sys.platform.startswith(("win", "darwin")):
            return self.user_data()
        return self.home / ".config" / "stammtisch"

    def reset_user(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)
        self.home.mkdir(parents=True)


class WineLauncher(Launcher):
    """The Windows ``.exe`` under Wine (``tools/build_windows.py`` makes one): Wine sets
    ``APPDATA`` from its prefix's profile, so the prefix (a build's own) is where the
    user folders are, and they are emptied before the checks that need them."""

    name = "wine"

    def __init__(self, exe: Path, command: Callable[..., list[str]], env: dict[str, str],
                 profiles: Callable[[], list[Path]], python: Path) -> None:
        super().__init__(exe)
        self._command = command
        self._env = env
        self._profiles = profiles
        self._python = python

    def command(self, *args: str) -> list[str]:
        return self._command(self.exe, *args)

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(self._env)
        env.pop("STAMMTISCH_HOME", None)
        env.update(APP_ENV)
        env.update(extra or {})
        return env

    def path(self, p: Path) -> str:
        return "Z:" + str(Path(p).absolute()).replace("/", "\\")

    def python(self) -> list[str]:
        return [self.path(self._python)]

    def user_data(self) -> Path:
        profiles = self._profiles()
        if not profiles:
            raise CheckFailed("the Wine prefix has no user profile")
        return profiles[0] / "AppData" / "Roaming" / "Stammtisch"

    def reset_user(self) -> None:
        for profile in self._profiles():
            shutil.rmtree(profile / "AppData" / "Roaming" / "Stammtisch", ignore_errors=True)


# --------------------------------------------------------------------------- running


def launch(launcher: Launcher, args: list[str], *, timeout: float = 180,
           extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run the app to its end; every standard stream a pipe (Wine 8 gives a Windows
    program a regular file as standard output only as an invalid handle)."""
    try:
        return subprocess.run(launcher.command(*args), env=launcher.env(extra_env),
                              stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=timeout, cwd=launcher.work)
    except subprocess.TimeoutExpired as exc:
        raise CheckFailed(f"{' '.join(args[:2])} did not end within {timeout:.0f} s") from exc


def text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "replace").replace("\r\n", "\n")


def expect_exit(proc: subprocess.CompletedProcess, code: int = 0, what: str = "") -> None:
    if proc.returncode != code:
        raise CheckFailed(f"{what or 'the app'} exited with {proc.returncode}, not {code}; "
                          f"stderr: {text(proc.stderr)[-1500:]}")


def json_lines(out: str) -> list[dict[str, Any]]:
    found = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except ValueError:
                pass
    return found


def crash_reports(launcher: Launcher) -> list[Path]:
    try:
        logs = launcher.user_data() / "logs"
    except CheckFailed:
        return []
    return sorted(logs.glob("crash-*.log")) if logs.is_dir() else []


# --------------------------------------------------------------------------- checks


def check_smoke(launcher: Launcher) -> dict[str, Any]:
    launcher.reset_user()
    proc = launch(launcher, ["--smoke-test"])
    expect_exit(proc, 0, "--smoke-test")
    log_file = launcher.user_data() / "logs" / "stammtisch.log"
    if not log_file.is_file():
        raise CheckFailed(f"no log at {log_file}")
    return {"log": str(log_file)}


def check_demo(launcher: Launcher, game: str, seconds: float = 5) -> dict[str, Any]:
    proc = launch(launcher, ["--demo", "--game", game, "--players", "4", "--seed", "1",
                             "--quit-after", str(seconds), "--frame-stats"],
                  timeout=seconds + 180)
    expect_exit(proc, 0, "--demo")
    stats = json_lines(text(proc.stdout))
    if not stats or "frames" not in stats[-1]:
        raise CheckFailed(f"no frame statistics on stdout: {text(proc.stdout)[-500:]!r}")
    figures = stats[-1]
    if figures["frames"] < 10:
        raise CheckFailed(f"only {figures['frames']} frames in {seconds} s")
    return {"frames": figures["frames"], "fps": figures["fps"],
            "frame_ms_p50": figures["frame_ms_p50"], "frame_ms_p95": figures["frame_ms_p95"],
            "frame_ms_max_after_1s": figures["frame_ms_max_after_1s"]}


def _quoted(parts: list[str]) -> str:
    return " ".join(f'"{p}"' if " " in p else p for p in parts)


def _beats(path: Path) -> tuple[int, set[str]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return 0, set()
    return len(lines), {line.split()[0] for line in lines if line.strip()}


def check_tournament(launcher: Launcher, games: int = 30) -> dict[str, Any]:
    folder = launcher.work / "my bots"
    folder.mkdir(exist_ok=True)
    tree_bot = folder / "tree bot.py"
    shutil.copyfile(HERE / "tree_bot.py", tree_bot)
    python_bot = folder / "ботик bot.py"        # a name outside every ANSI code page
    shutil.copyfile(ROOT / "game" / "ai" / "example_bot.py", python_bot)
    heartbeat = folder / "beats.txt"
    heartbeat.unlink(missing_ok=True)
    (folder / "beats.txt.hung").unlink(missing_ok=True)
    exe_seat = "exe:" + _quoted([*launcher.python(), launcher.path(tree_bot),
                                 launcher.path(heartbeat), "5"])
    seats = [f"bot:{launcher.path(python_bot)}", exe_seat, "medium", "hard"]
    proc = launch(launcher, ["tournament", "--game", "chase", "--players", "4",
                             "--games", str(games), "--seed", "1", "--time-limit", "4",
                             "--json", "--seats", ",".join(seats)], timeout=600)
    expect_exit(proc, 0, "tournament")
    found = json_lines(text(proc.stdout))
    if not found:
        raise CheckFailed(f"no JSON result: {text(proc.stdout)[-500:]!r}")
    result = found[-1]
    bots = result.get("bots", {})
    python_stats = bots.get(seats[0], {})
    exe_stats = bots.get(seats[1], {})
    if result.get("games") != games:
        raise CheckFailed(f"{result.get('games')} games played, not {games}")
    if python_stats.get("incidents") or not python_stats.get("decisions"):
        raise CheckFailed(f"the bot: seat did not play cleanly: {python_stats}; "
                          f"incidents: {result.get('incidents')}")
    kinds = exe_stats.get("incident_kinds", {})
    if kinds != {"timeout": 1, "restarted": 1} or exe_stats.get("restarts") != 1 \
            or exe_stats.get("retired"):
        raise CheckFailed(f"the exe: seat should time out once and be restarted: "
                          f"{exe_stats}; incidents: {result.get('incidents')}")
    time.sleep(2.0)
    n1, helpers = _beats(heartbeat)
    time.sleep(2.0)
    n2, _ = _beats(heartbeat)
    if len(helpers) < 2:
        raise CheckFailed(f"the exe: bot's helper started {len(helpers)} times, not twice")
    if n2 != n1:
        raise CheckFailed(f"a process the exe: bot started still runs after the tournament "
                          f"({n2 - n1} heartbeats in 2 s)")
    table = launch(launcher, ["tournament", "--game", "rams", "--players", "3", "--games", "2",
                              "--seed", "1", "--seats", f"{seats[0]},medium,easy"])
    expect_exit(table, 0, "tournament (a table, not JSON)")
    if "ботик bot.py" not in text(table.stdout):
        raise CheckFailed(f"the table does not name the bot: {text(table.stdout)[-500:]!r}")
    return {"games": games, "rounds": result.get("rounds"),
            "bot_decisions": python_stats["decisions"],
            "exe_decisions": exe_stats.get("decisions"), "exe_restarts": 1,
            "helpers_started": len(helpers), "helpers_left": 0}


async def _phone(url: str, token: str, seed: int, deadline: float) -> dict[str, Any]:
    import aiohttp

    rng = random.Random(seed)
    moves = 0
    finished = False
    async with aiohttp.ClientSession() as session:
        for _ in range(200):                      # the server may still be starting
            try:
                ws = await session.ws_connect(url)
                break
            except aiohttp.ClientError:
                await asyncio.sleep(0.1)
        else:
            raise CheckFailed(f"no connection to {url}")
        async with ws:
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            decided = -1
            while not finished:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CheckFailed(f"the phone game did not end in time ({moves} moves)")
                msg = await ws.receive(timeout=left)
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                data = json.loads(msg.data)
                if data["type"] == "bye":
                    break
                if data["type"] != "state":
                    continue
                if data["table"]["finished"]:
                    finished = True
                    break
                legal = data["view"]["legal"]
                if legal and data["step"] > decided:
                    decided = data["step"]
                    moves += 1
                    await ws.send_str(json.dumps({"type": "move", "id": f"m{moves}",
                                                  "step": data["step"],
                                                  "move": rng.choice(legal)}))
    return {"moves": moves, "finished": finished}


def check_host(launcher: Launcher) -> dict[str, Any]:
    record = launcher.work / "phone table" / "record.json"
    record.parent.mkdir(exist_ok=True)
    record.unlink(missing_ok=True)
    cmd = launcher.command("host", "--game", "chase", "--seats", "phone,medium,medium",
                           "--think", "0", "--seed", "3", "--json",
                           "--record", launcher.path(record))
    proc = subprocess.Popen(cmd, env=launcher.env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=launcher.work)
    err: list[bytes] = []
    drain = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
    drain.start()
    try:
        first = proc.stdout.readline()
        if not first:
            proc.wait(30)
            raise CheckFailed(f"host printed nothing; exit {proc.returncode}, stderr "
                              f"{text(b''.join(err))[-800:]}")
        table = json.loads(first)
        link = next(s["link"] for s in table["seats"] if s["kind"] == "phone")
        token = link.rsplit("/", 1)[1]
        url = f"http://127.0.0.1:{table['port']}/ws"
        phone = asyncio.run(_phone(url, token, 3, time.monotonic() + 300))
        rest = proc.stdout.read()
        code = proc.wait(120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    drain.join(30)
    if code != 0:
        raise CheckFailed(f"host exited with {code}: {text(b''.join(err))[-800:]}")
    outcome = json_lines(text(rest))
    if not outcome or not outcome[-1].get("finished"):
        raise CheckFailed(f"host printed no finished outcome: {text(rest)[-500:]!r}")
    if not record.is_file():
        raise CheckFailed(f"host wrote no record at {record}")
    replay = launch(launcher, ["replay", launcher.path(record), "--json"])
    expect_exit(replay, 0, "replay of the host's record")
    summary = json.loads(text(replay.stdout))
    if not summary.get("finished") or summary.get("winner") != outcome[-1].get("winner"):
        raise CheckFailed(f"the record replays as {summary}, the host said {outcome[-1]}")
    return {"phone_moves": phone["moves"], "moves": outcome[-1].get("moves"),
            "winner": outcome[-1].get("winner"), "port": table["port"]}


def _files_phase(launcher: Launcher, phase: str) -> dict[str, Any]:
    script = launcher.work / "files_session.py"
    shutil.copyfile(HERE / "files_session.py", script)
    proc = launch(launcher, ["bot-runner", launcher.path(script)], timeout=600,
                  extra_env={"STAMMTISCH_CHECK_PHASE": phase})
    err = text(proc.stderr)
    lines = [line for line in err.splitlines() if line.startswith("files-check:")]
    if not lines:
        raise CheckFailed(f"phase {phase}: no result line (exit {proc.returncode}); "
                          f"stderr: {err[-1500:]}")
    result = json.loads(lines[-1].split(":", 1)[1])
    if not result.get("ok"):
        raise CheckFailed(f"phase {phase}: {result.get('error')}\n{result.get('traceback')}")
    expect_exit(proc, 0, f"files phase {phase}")
    return result


def check_files(launcher: Launcher) -> dict[str, Any]:
    launcher.reset_user()
    wrote = _files_phase(launcher, "write")
    for folder, name in ((launcher.user_config(), "settings.json"),
                         (launcher.user_data(), "stats.sqlite3"),
                         (launcher.user_data(), "saves/autosave.json")):
        if not (folder / name).is_file():
            raise CheckFailed(f"{name} is not in the user folder {folder}")
    if wrote["home_override"] is not None:
        raise CheckFailed("STAMMTISCH_HOME was set: not the user's own folders")
    if launcher.name == "wine" or sys.platform.startswith("win"):
        if "\\AppData\\Roaming\\Stammtisch" not in wrote["config_dir"]:
            raise CheckFailed(f"settings went to {wrote['config_dir']}, not %APPDATA%")
    if wrote["worker_pid"] == wrote["own_pid"]:
        raise CheckFailed("the computers' worker ran in the window's own process")
    read = _files_phase(launcher, "read")
    want = {"lang": "de", "anim_speed": "off", "think_pause": 0.0}
    if read["settings"] != want or read["language_shown"] != "de":
        raise CheckFailed(f"settings after the restart: {read['settings']}, want {want}")
    if read["autosave_moves"] != wrote["autosave_moves"] or \
            read["resumed_at"] != wrote["autosave_moves"]:
        raise CheckFailed(f"autosave had {wrote['autosave_moves']} moves; after the restart "
                          f"{read['autosave_moves']} read, resumed at {read['resumed_at']}")
    if wrote["stats_games_after_write"] != 1 or read["stats_games"] != 2:
        raise CheckFailed(f"statistics: {wrote['stats_games_after_write']} game(s) after the "
                          f"first run, {read['stats_games']} after the second (want 1, 2)")
    if read["autosave_left"]:
        raise CheckFailed("the autosave of the finished game is still there")
    return {"config_dir": wrote["config_dir"], "autosave_moves": wrote["autosave_moves"],
            "stats_games": read["stats_games"], "worker_process": True}


def check_replay(launcher: Launcher) -> dict[str, Any]:
    folder = launcher.work / "Spielstände alt"
    folder.mkdir(exist_ok=True)
    for name in REPLAYS:
        expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
        copy = folder / f"{name.replace('_', ' ')}.json"
        shutil.copyfile(EXAMPLES / f"{name}.json", copy)
        proc = launch(launcher, ["replay", launcher.path(copy), "--json"])
        expect_exit(proc, expected.get("exit", 0), f"replay {name}")
        if "exit" in expected:        # a bad record: its one line on stderr, nothing else
            message = text(proc.stderr).strip()
            if message != expected["stderr"] or text(proc.stdout):
                raise CheckFailed(f"replay {name}: stderr {message!r}, stdout "
                                  f"{text(proc.stdout)!r}; want {expected['stderr']!r}")
            continue
        got = json.loads(text(proc.stdout))
        for key in ("finished", "winner", "lives", "rounds", "to_move"):
            if got.get(key) != expected.get(key):
                raise CheckFailed(f"replay {name}: {key} is {got.get(key)!r}, "
                                  f"want {expected.get(key)!r}")
    return {"records": len(REPLAYS), "folder": launcher.path(folder)}


CHECK_FUNCTIONS: dict[str, Callable[[Launcher], dict[str, Any]]] = {
    "smoke": check_smoke,
    "demo-chase": lambda launcher: check_demo(launcher, "chase"),
    "demo-rams": lambda launcher: check_demo(launcher, "rams"),
    "tournament": check_tournament,
    "host": check_host,
    "files": check_files,
    "replay": check_replay,
}


def run_checks(launcher: Launcher, only: list[str] | None = None,
               say: Callable[[str], None] = print) -> dict[str, dict[str, Any]]:
    """Run the checks (all, or ``only`` those) in order; each one's result."""
    names = list(only or CHECKS)
    unknown = [n for n in names if n not in CHECK_FUNCTIONS]
    if unknown:
        launcher.close()
        raise SystemExit(f"unknown check(s) {unknown}; choose from {', '.join(CHECKS)}")
    results: dict[str, dict[str, Any]] = {}
    try:
        for name in names:
            before = set(crash_reports(launcher))
            t0 = time.perf_counter()
            try:
                result = CHECK_FUNCTIONS[name](launcher)
                crashes = [p for p in crash_reports(launcher) if p not in before]
                if crashes:
                    raise CheckFailed(f"crash report {crashes[0].name}: "
                                      f"{crashes[0].read_text(errors='replace')[-1500:]}")
                result = {"ok": True, **result}
            except CheckFailed as exc:
                result = {"ok": False, "error": str(exc)}
            except Exception as exc:  # noqa: BLE001 - a check's own bug is a failure too
                result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            result["seconds"] = round(time.perf_counter() - t0, 1)
            results[name] = result
            say(f"check {name}: {'ok' if result['ok'] else 'FAILED'} "
                f"({result['seconds']} s)" + ("" if result["ok"] else f"\n{result['error']}"))
    finally:
        launcher.close()
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("exe", type=Path, help="the frozen executable")
    ap.add_argument("--only", default=None, metavar="NAMES",
                    help="comma-separated checks: " + ", ".join(CHECKS))
    args = ap.parse_args(argv)
    if not args.exe.is_file():
        ap.error(f"{args.exe} is not a file")
    launcher = NativeLauncher(args.exe)
    results = run_checks(launcher, args.only.split(",") if args.only else None,
                         say=lambda m: print(m, file=sys.stderr, flush=True))
    ok = all(r["ok"] for r in results.values())
    print(json.dumps({"exe": str(args.exe), "platform": sys.platform, "ok": ok,
                      "checks": results}), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
