"""Logging, missing console streams and crash reports, so a frozen build never just vanishes.

``install()`` once at start-up (the launcher and ``game.cli.main`` may both call it;
the second call does nothing):

* logs to ``paths.log_dir()/stammtisch.log`` (rotated, a few hundred KB at most),
  opened through the file guard (:mod:`game.logfile`); when that folder or that file
  cannot be used (read-only, a file in the folder's place, a FIFO, a folder or a
  link to nothing in the file's place), to a ``stammtisch-logs`` folder in the
  system's temporary folder, and failing that to standard error (if there is one) --
  ``install()`` itself never raises, and what is in the way is left as it is;
  :func:`log_problem` says why the log is not where it belongs, for the window to
  tell the player once;
* a windowed build on Windows starts with ``sys.stdout``/``sys.stderr`` set to
  ``None``: they become writers that forward complete lines to the log, so a stray
  ``print`` or a library's warning never raises;
* native crashes (a segfault in SDL) are dumped by :mod:`faulthandler` into
  ``faults.log`` in the log folder when frozen;
* uncaught exceptions, in the main thread or any other, are reported.

``guard(fn, *args)`` runs ``fn`` and turns an unexpected exception into a report and
exit status 1. A report is a ``crash-YYYYmmdd-HHMMSS.log`` with the traceback and
versions (in the log folder, else the temporary one), a line in the log, the
traceback on stderr when there is one, and in a
frozen build a small message box (SDL's own, via pygame) naming the report file.
The message box is skipped under ``SDL_VIDEODRIVER=dummy``/``offscreen``, on a Linux
without a display, and when ``STAMMTISCH_NO_CRASH_DIALOG`` is set.
"""

from __future__ import annotations

import io
import logging
import os
import platform
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game import fileio, paths
from game.logfile import GuardedLog

LOG_NAME = "stammtisch.log"
MAX_LOG_BYTES = 256 * 1024
LOG_BACKUPS = 2
FAULT_NAME = "faults.log"
NO_DIALOG_ENV = "STAMMTISCH_NO_CRASH_DIALOG"
EXIT_CRASH = 1

log = logging.getLogger("stammtisch")

_installed: dict[str, Any] = {}


class LogWriter(io.TextIOBase):
    """A text stream that sends complete lines to a logger (or drops them if ``logger`` is None).

    Stands in for ``sys.stdout``/``sys.stderr`` when the process has no console.
    """

    def __init__(self, logger: logging.Logger | None, level: int, name: str) -> None:
        super().__init__()
        self._logger = logger
        self._level = level
        self._name = name
        self._buffer = ""
        self._lock = threading.RLock()
        self._busy = threading.local()

    @property
    def name(self) -> str:  # type: ignore[override]
        return self._name

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return "replace"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        with self._lock:
            self._buffer += text
            if "\n" in self._buffer:
                *lines, self._buffer = self._buffer.split("\n")
                self._emit(lines)
        return len(text)

    def flush(self) -> None:
        with self._lock:
            if self._buffer:
                lines, self._buffer = [self._buffer], ""
                self._emit(lines)

    def _emit(self, lines: list[str]) -> None:
        # A handler that itself writes to this stream must not loop forever.
        if self._logger is None or getattr(self._busy, "on", False):
            return
        self._busy.on = True
        try:
            for line in lines:
                if line.strip():
                    self._logger.log(self._level, "[%s] %s", self._name, line.rstrip())
        finally:
            self._busy.on = False


def _usable(stream: object) -> bool:
    if stream is None:
        return False
    try:
        stream.flush()  # type: ignore[attr-defined]
    except (OSError, ValueError, AttributeError):
        return False
    return True


def _fix_streams() -> None:
    """Replace missing or broken standard streams (windowed Windows builds have None)."""
    out_log = logging.getLogger("stammtisch.stdout")
    err_log = logging.getLogger("stammtisch.stderr")
    if not _usable(sys.stdout):
        sys.stdout = LogWriter(out_log, logging.INFO, "<stdout>")
    if not _usable(sys.stderr):
        sys.stderr = LogWriter(err_log, logging.WARNING, "<stderr>")
    if sys.__stdout__ is None:
        sys.__stdout__ = sys.stdout
    if sys.__stderr__ is None:
        sys.__stderr__ = sys.stderr
    if sys.stdin is None:
        sys.stdin = io.StringIO()


def _versions() -> str:
    from game import __version__

    parts = [
        f"Stammtisch {__version__}",
        f"Python {platform.python_version()} ({sys.executable})",
        f"{platform.platform()} {platform.machine()}",
        f"frozen={paths.is_frozen()} bundle={paths.bundle_dir()}",
    ]
    pg = sys.modules.get("pygame")
    if pg is not None:
        ver = getattr(pg, "version", None)
        parts.append(f"pygame-ce {getattr(ver, 'ver', '?')} SDL {getattr(ver, 'SDL', '?')}")
    return "\n".join(parts)


def _usable_folder(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
        return True
    except (OSError, ValueError):
        return False


def log_folder() -> Path | None:
    """Where logs and crash reports go: the log folder, else ``stammtisch-logs`` in the
    temporary folder, else ``None`` (standard error only). Never raises."""
    try:
        folder = paths.log_dir(create=False)
        if _usable_folder(folder):
            return folder
    except (OSError, RuntimeError, ValueError):
        pass
    try:
        tmp = Path(tempfile.gettempdir()) / f"{paths.APP_ID}-logs"
        if _usable_folder(tmp):
            return tmp
    except (OSError, RuntimeError, ValueError):
        pass
    return None


def install(level: int = logging.INFO, *, faults: bool | None = None) -> Path | None:
    """Set up the log file, the standard streams and the exception hooks; return the log
    path (``None`` when no folder can hold it: the log then goes to standard error).

    Safe to call more than once, and never raises. ``faults`` (default: only when
    frozen) also sends :mod:`faulthandler` dumps to ``faults.log``.
    """
    if "installed" in _installed:
        return _installed.get("log_path")
    _installed["installed"] = True
    try:
        _fix_streams()
    except Exception:  # noqa: BLE001 - nothing here may stop the game
        pass
    handler, folder, log_path = _log_handler()
    _installed["folder"] = folder
    root = logging.getLogger()
    if handler is not None:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"))
        root.addHandler(handler)
        _installed["handler"] = handler
    if root.level > level or root.level == logging.NOTSET:
        root.setLevel(level)
    _installed["log_path"] = log_path
    logging.captureWarnings(True)

    if faults is None:
        faults = paths.is_frozen()
    if faults and folder is not None:
        try:
            import faulthandler

            fault_file = os.fdopen(fileio.open_append(folder / FAULT_NAME), "a",
                                   encoding="utf-8")
            faulthandler.enable(fault_file)
            _installed["fault_file"] = fault_file
        except (OSError, ValueError, RuntimeError):
            pass

    _installed["excepthook"] = sys.excepthook
    sys.excepthook = _excepthook
    _installed["threading_excepthook"] = threading.excepthook
    threading.excepthook = _thread_excepthook
    try:
        log.info("start: %s", " ".join(sys.argv))
        if log_path is not None and folder != _default_log_dir():
            log.warning("the log folder cannot be used; logging to %s", folder)
        log.debug("%s", _versions())
    except Exception:  # noqa: BLE001
        pass
    return log_path


def _log_handler() -> tuple[logging.Handler | None, Path | None, Path | None]:
    """The handler the log goes to, its folder and file: the log folder, else the
    temporary one (:func:`log_folder`), else standard error. A log file that is not a
    regular file is left as it is and the next place is tried; the first refusal is
    kept for :func:`log_problem`."""
    candidates: list[Path] = []
    try:
        candidates.append(paths.log_dir(create=False))
    except (OSError, RuntimeError, ValueError):
        pass
    try:
        candidates.append(Path(tempfile.gettempdir()) / f"{paths.APP_ID}-logs")
    except (OSError, RuntimeError, ValueError):
        pass
    for folder in candidates:
        if not _usable_folder(folder):
            continue                    # the folder check tells about a folder
        path = folder / LOG_NAME
        try:
            return (GuardedLog(path, MAX_LOG_BYTES, LOG_BACKUPS, on_fail=_log_failed),
                    folder, path)
        except (OSError, ValueError) as exc:
            why = fileio.explain(exc)
            _installed.setdefault("problem", {"file": str(path), "reason": why})
    if sys.stderr is not None and not isinstance(sys.stderr, LogWriter):
        return logging.StreamHandler(sys.stderr), None, None
    return None, None, None


def _log_failed(why: str) -> None:
    """The log file failed while the game ran: tell the player once (the window shows
    notices); the log goes on to standard error where there is one."""
    from game import notices

    path = _installed.get("log_path")
    notices.post("log.failed", once="log-failed", file=str(path or LOG_NAME), reason=why)
    err = sys.stderr
    if err is not None and not isinstance(err, LogWriter):
        try:
            fallback = logging.StreamHandler(err)
            fallback.setLevel(logging.WARNING)
            logging.getLogger().addHandler(fallback)
            _installed["fallback"] = fallback
        except Exception:  # noqa: BLE001
            pass


def log_problem() -> dict[str, str] | None:
    """Why the log is not in its own file, if it is not: ``file`` (the log file that
    could not be used, left as it is), ``reason``, and ``where`` the log goes
    instead (a file, or ``""`` for standard error only)."""
    problem = _installed.get("problem")
    if problem is None:
        return None
    where = _installed.get("log_path")
    return {**problem, "where": str(where) if where is not None else ""}


def _default_log_dir() -> Path | None:
    try:
        return paths.log_dir(create=False)
    except (OSError, RuntimeError, ValueError):
        return None


def uninstall() -> None:
    """Undo ``install()`` (the replaced streams stay); for tests."""
    for name in ("handler", "fallback"):
        handler = _installed.pop(name, None)
        if handler is not None:
            logging.getLogger().removeHandler(handler)
            handler.close()
    if "excepthook" in _installed:
        sys.excepthook = _installed.pop("excepthook")
    if "threading_excepthook" in _installed:
        threading.excepthook = _installed.pop("threading_excepthook")
    fault_file = _installed.pop("fault_file", None)
    if fault_file is not None:
        import faulthandler

        faulthandler.disable()
        fault_file.close()
    _installed.clear()


def _excepthook(exc_type, exc, tb) -> None:  # noqa: ANN001
    if issubclass(exc_type, KeyboardInterrupt):
        _installed.get("excepthook", sys.__excepthook__)(exc_type, exc, tb)
        return
    report(exc)


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    # A dying worker thread is logged, not shown: the window may still be fine.
    report(args.exc_value, dialog=False, context=f"thread {getattr(args.thread, 'name', '?')}")


def write_report(exc: BaseException, context: str = "") -> Path | None:
    """Write ``crash-<time>.log`` with the traceback into the log folder (or the
    temporary one, see :func:`log_folder`); None if impossible."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        folder = _installed.get("folder") or log_folder()
        if folder is None:
            return None
        head = f"Stammtisch crashed{' in ' + context if context else ''}.\n"
        body = f"{head}argv: {sys.argv!r}\n{_versions()}\n\n{text}"
        for n in range(1, 100):
            path = folder / (f"crash-{stamp}.log" if n == 1 else f"crash-{stamp}-{n}.log")
            try:   # a new file only: never into a FIFO, a folder or through a link
                with open(path, "x", encoding="utf-8") as fh:
                    fh.write(body)
            except FileExistsError:
                continue
            return path
        return None
    except Exception:  # noqa: BLE001 - reporting must never raise
        return None


def _dialog_possible() -> bool:
    if os.environ.get(NO_DIALOG_ENV):
        return False
    if os.environ.get("SDL_VIDEODRIVER", "").lower() in ("dummy", "offscreen", "evdev"):
        return False
    plat = sys.platform
    if plat.startswith("linux") or "bsd" in plat:
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def show_message(title: str, message: str) -> bool:
    """Show a small native message box via pygame-ce/SDL; False if that is not possible."""
    if not _dialog_possible():
        return False
    try:
        import pygame

        try:
            if pygame.display.get_init():
                pygame.display.quit()  # a broken window may be what crashed
        except Exception:  # noqa: BLE001
            pass
        pygame.display.message_box(title, message, message_type="error")
        return True
    except Exception:  # noqa: BLE001 - no pygame, no display: the caller falls back
        return False


def report(exc: BaseException, *, dialog: bool | None = None, context: str = "") -> Path | None:
    """Log ``exc`` with its traceback, write a crash report and tell the user; return the report."""
    try:
        log.critical("unexpected error%s", f" in {context}" if context else "",
                     exc_info=(type(exc), exc, exc.__traceback__))
    except Exception:  # noqa: BLE001
        pass
    path = write_report(exc, context)
    where = f"A report was written to:\n{path}" if path else "No report could be written."
    summary = f"{type(exc).__name__}: {exc}"
    err = sys.stderr
    if err is not None and not isinstance(err, LogWriter):
        try:
            traceback.print_exception(type(exc), exc, exc.__traceback__, file=err)
            print(f"stammtisch: {where}", file=err)
            err.flush()
        except Exception:  # noqa: BLE001
            pass
    if dialog is None:
        dialog = paths.is_frozen()
    if dialog:
        show_message("Stammtisch has stopped",
                     f"Sorry, an unexpected error ended the game.\n\n{summary}\n\n{where}")
    return path


def guard(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``fn(*args, **kwargs)``; report an unexpected exception and return 1 instead.

    ``SystemExit`` and ``KeyboardInterrupt`` pass through (Ctrl+C quits quietly with 130).
    """
    try:
        return fn(*args, **kwargs)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        return 130
    except BaseException as exc:  # noqa: BLE001
        report(exc)
        return EXIT_CRASH


__all__ = ["LogWriter", "guard", "install", "log_problem", "report", "show_message",
           "uninstall", "write_report"]
