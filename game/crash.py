"""Logging, missing console streams and crash reports, so a frozen build never just vanishes.

``install()`` once at start-up (the launcher and ``game.cli.main`` may both call it;
the second call does nothing):

* logs to ``paths.log_dir()/stammtisch.log`` (rotated, a few hundred KB at most);
  when that folder cannot be used (read-only, a file in its place), to a
  ``stammtisch-logs`` folder in the system's temporary folder, and failing that to
  standard error (if there is one) -- ``install()`` itself never raises;
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
import logging.handlers
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

from game import paths

LOG_NAME = "stammtisch.log"
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


class SharedLog(logging.handlers.RotatingFileHandler):
    """The rotating log file, shared with other processes of the game.

    On Windows a file that another process holds open cannot be renamed (a sharing
    violation): with a second window open, rotating would fail at every record and
    print a logging error each time. Instead the log goes on in the same file and
    rotation is tried again after another :attr:`RETRY_BYTES`."""

    RETRY_BYTES = 64 * 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.retry_at = 0

    def shouldRollover(self, record: logging.LogRecord) -> bool:  # noqa: N802
        if self.retry_at and self.stream is not None and \
                self.stream.tell() < self.retry_at:
            return False
        return bool(super().shouldRollover(record))

    def doRollover(self) -> None:  # noqa: N802
        try:
            super().doRollover()
            self.retry_at = 0
        except PermissionError:
            if self.stream is None:
                self.stream = self._open()
            self.retry_at = self.stream.tell() + self.RETRY_BYTES


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
    folder = log_folder()
    _installed["folder"] = folder
    log_path = folder / LOG_NAME if folder is not None else None
    root = logging.getLogger()
    handler: logging.Handler | None = None
    try:
        if log_path is not None:
            handler = SharedLog(
                log_path, maxBytes=256 * 1024, backupCount=2, encoding="utf-8", delay=True)
        elif sys.stderr is not None and not isinstance(sys.stderr, LogWriter):
            handler = logging.StreamHandler(sys.stderr)
    except (OSError, ValueError):
        handler, log_path = None, None
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

            fault_file = open(folder / FAULT_NAME, "a", encoding="utf-8")  # noqa: SIM115
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


def _default_log_dir() -> Path | None:
    try:
        return paths.log_dir(create=False)
    except (OSError, RuntimeError, ValueError):
        return None


def uninstall() -> None:
    """Undo ``install()`` (the replaced streams stay); for tests."""
    handler = _installed.pop("handler", None)
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
        path = folder / f"crash-{stamp}.log"
        n = 1
        while path.exists():
            n += 1
            path = folder / f"crash-{stamp}-{n}.log"
        head = f"Stammtisch crashed{' in ' + context if context else ''}.\n"
        path.write_text(
            f"{head}argv: {sys.argv!r}\n{_versions()}\n\n{text}", encoding="utf-8")
        return path
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


__all__ = ["LogWriter", "SharedLog", "guard", "install", "report", "show_message", "uninstall", "write_report"]
