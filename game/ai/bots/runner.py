"""The child process that runs a Python bot file (``choose(view) -> str``, docs/bots.md).

Started by the harness as ``python -I runner.py BOT_FILE`` (standard library only: it
imports nothing of the game, so the process holds nothing but the bot and the views
it is sent) or, in a frozen build, as ``stammtisch bot-runner BOT_FILE``.

It speaks the protocol of :mod:`game.ai.bots.protocol`: after loading the bot it
writes ``{"ready": true}``; then for every view line it reads, it calls ``choose``
and writes one answer line, numbered with the view's ``ask`` (which it takes off the
view first: the bot gets the view of docs/view.md): ``{"ask": N, "move": MOVE}``, or ``{"ask":
N, "error": KIND, "detail": TEXT}`` when ``choose`` raised (``raised``), returned
something that is not a string (``illegal``), or the file could not be loaded
(``load_failed``, for every request). A view without ``ask`` gets the bare answers of
before (the move as a JSON string, or the error object).

The bot cannot disturb the channel: the protocol's input and output are moved to
private file descriptors, the bot's ``print`` (and anything written to descriptor 1)
goes to standard error, and descriptor 0 reads nothing.

After an answer the runner keeps asking for the next view without sleeping for at
most :data:`SPIN_SECONDS`, then sleeps until it comes (:class:`Spin`): in a
tournament the next view often follows within that, and a process that sleeps on one
CPU while its partner runs on another takes tens of microseconds to wake (see
:mod:`game.ai.bots.channel`, which does the same on the harness's side). Only where
it pays (:func:`spinning_pays`): with a single CPU the two processes hand the CPU to
each other directly, and asking would only delay that.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import sys
import time
import traceback
from typing import Any

DETAIL = 300
#: Memory the bot process may use (bytes of address space), where the OS lets us say.
MEMORY_LIMIT = 4 * 1024**3
#: How long the runner asks for the next view without sleeping (see the module's doc).
SPIN_SECONDS = 0.0003


def _short(text: str) -> str:
    one = " ".join(str(text).split())
    return one if len(one) <= DETAIL else one[: DETAIL - 1] + "…"


def _private_channel() -> tuple[Any, Any]:
    """Move the protocol to private descriptors; point 0 at nothing and 1 at stderr."""
    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as we do
    sys.stdout = sys.stderr
    return proto_in, proto_out


def _limit_memory() -> None:
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError, AttributeError):
        pass


def load(path: str) -> Any:
    """The bot module; raises with a one-line reason."""
    if not os.path.isfile(path):
        # say what is there: "not found" of a folder or a device misleads
        if os.path.isdir(path):
            raise IsADirectoryError(f"bot file {path!r} is a folder, not a Python file")
        if os.path.lexists(path):
            what = "a link to nothing" if not os.path.exists(path) else "not a regular file"
            raise OSError(f"bot file {path!r} is {what}")
        raise FileNotFoundError(f"bot file {path!r} not found")
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)      # a bot may import its own helper modules
    spec = importlib.util.spec_from_file_location("stammtisch_bot", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path!r} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules["stammtisch_bot"] = module
    spec.loader.exec_module(module)
    if not callable(getattr(module, "choose", None)):
        raise AttributeError(f"{path!r} has no function choose(view)")
    return module


def _line(out: dict[str, Any], ask: int | None) -> bytes:
    """An answer line; numbered with the question's number when the view had one."""
    if ask is not None:
        out = {"ask": ask, **out}
    return json.dumps(out).encode() + b"\n"


def answer(module: Any, view: Any, ask: int | None = None) -> bytes:
    """The answer line for one view (numbered ``ask`` when given)."""
    try:
        move = module.choose(view)
    except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt too
        last = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        where = f" (line {last[0].lineno})" if last else ""
        return _line({"error": "raised",
                      "detail": _short(f"{type(exc).__name__}: {exc}{where}")}, ask)
    if isinstance(move, str):
        # a str subclass's own methods stay here: the harness gets the plain characters
        text = json.dumps(str.__str__(move)).encode()
        if ask is None:
            return text + b"\n"
        return b'{"ask":%d,"move":%s}\n' % (ask, text)
    return _line({"error": "illegal", "detail": _short(
        f"returned {type(move).__name__} {_safe_repr(move)}, not a string")}, ask)


def restore_history(view: Any, held: list[Any]) -> list[Any]:
    """The harness sends this runner only the history rounds it has not seen yet, after
    ``history_from`` rounds it already holds; make ``view`` whole again (the bot gets
    exactly the view of docs/view.md) and return the rounds held now. A line without
    ``history_from`` is a whole view already."""
    if not isinstance(view, dict) or "history_from" not in view:
        return held
    start = view.pop("history_from")
    new = view.get("history")
    if not isinstance(start, int) or not isinstance(new, list):
        return held
    held = held[:start] + new
    view["history"] = list(held)
    return held


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def spinning_pays() -> bool:
    """Whether to ask a pipe for data without sleeping for a while before sleeping on
    it: on POSIX (non-blocking pipes) with at least two CPUs to run on. Measured with
    a bot seat in a Chase tournament on a quiet machine: 1.5 times the rounds per
    second with two CPUs; with one, asking made it slower (0.35 of the built-in
    level's rounds per second against 0.57;
    docs/benchmarks.md#user-bots-what-the-process-boundary-costs)."""
    return os.name == "posix" and _cpus() >= 2


def running_now() -> int | None:
    """How many threads of the whole machine are running or ready to run now (Linux's
    ``procs_running``, this one included), or ``None`` where that cannot be read.
    In a container the count is the host's, so on a busy host the pipes just sleep at
    once, as they do everywhere without two CPUs."""
    try:
        with open("/proc/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    at = text.find(b"procs_running ")
    if at < 0:
        return None
    try:
        return int(text[at + 14:text.index(b"\n", at)])
    except ValueError:
        return None


class Spin:
    """How long to keep asking a pipe for data before sleeping on it. Asking pays only
    while the data comes within :data:`SPIN_SECONDS` and the CPU stays this process's
    own meanwhile: a spin that missed the data makes the next :data:`REST_MISSED`
    waits sleep at once (a slow partner, or a pause such as a new game); one during
    which another process had the CPU, the next :data:`REST_BUSY` (a busy machine:
    asking would take CPU time from the partner process).

    Every :data:`LOOK_EVERY` spins it also looks whether the machine has a CPU to
    spare for asking (:func:`running_now`: no more threads ready to run than CPUs);
    if not, the next :data:`REST_CROWDED` waits sleep at once and then it looks again.
    On a crowded machine a spin seldom loses the CPU while it asks, so the check above
    hardly sees it, but the scheduler then ranks the two processes below the busy
    ones (they use up their share asking) instead of waking them first, which costs
    more than asking saves: beside one busy loop 0.40 of the built-in level's rounds
    per second without the look, 0.52 with it
    (docs/benchmarks.md#user-bots-what-the-process-boundary-costs). The rest is
    short because a quiet machine, too, sometimes shows a thread more for a moment."""

    REST_MISSED = 4
    REST_BUSY = 200
    LOOK_EVERY = 64
    REST_CROWDED = 32

    def __init__(self) -> None:
        self.pays = spinning_pays()
        self.cpus = _cpus()
        self.rest = 0
        self.spins = 0

    def window(self) -> float:
        if not self.pays:
            return 0.0
        if self.rest:
            self.rest -= 1
            return 0.0
        if self.spins % self.LOOK_EVERY == 0:
            running = running_now()
            if running is not None and running > self.cpus:
                self.rest = self.REST_CROWDED
                return 0.0
        self.spins += 1
        return SPIN_SECONDS

    def done(self, wall: float, cpu: float, caught: bool) -> None:
        """A spin of ``wall`` seconds used ``cpu`` seconds of this thread's CPU time and
        ``caught`` the data (or not)."""
        if cpu < 0.7 * wall:
            self.rest = self.REST_BUSY
        elif not caught:
            self.rest = self.REST_MISSED


def reader(stream: Any) -> Any:
    """A function that returns the next chunk of ``stream`` (``b""`` at its end),
    asking without sleeping first while that pays (:class:`Spin`)."""
    fd = stream.fileno()
    spin = Spin()
    if not spin.pays:
        return lambda: stream.read(65536)
    os.set_blocking(fd, False)

    def read() -> bytes:
        window = spin.window()
        if window:
            start, cpu = time.monotonic(), time.thread_time()
            end = start + window
            while True:
                try:
                    chunk = os.read(fd, 65536)
                    break
                except BlockingIOError:
                    if time.monotonic() >= end:
                        chunk = None
                        break
            spin.done(time.monotonic() - start, time.thread_time() - cpu, chunk is not None)
            if chunk is not None:
                return chunk
        while True:
            select.select([fd], [], [])
            try:
                return os.read(fd, 65536)
            except BlockingIOError:
                continue
    return read


def _safe_repr(value: Any) -> str:
    try:
        return _short(repr(value))[:60]
    except BaseException:  # noqa: BLE001 - a repr may raise too
        return "?"


def serve(path: str) -> int:
    proto_in, proto_out = _private_channel()
    _limit_memory()
    try:
        module = load(path)
        failure = None
    except BaseException as exc:  # noqa: BLE001 - a syntax error, an import error, exit()
        module = None
        failure = {"error": "load_failed", "detail": _short(f"{type(exc).__name__}: {exc}")}
        print(f"stammtisch bot runner: cannot load {path}: {exc!r}", file=sys.stderr)
    proto_out.write(b'{"ready": true}\n')
    buffer = b""
    held: list[Any] = []     # the game's earlier rounds, as sent (see ``history_from``)
    read = reader(proto_in)
    while True:
        chunk = read()
        if not chunk:
            return 0
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                view = json.loads(line)
            except ValueError:
                proto_out.write(b'{"error": "raised", "detail": "the runner got a line '
                                b'that is not JSON"}\n')
                continue
            # the question's number is the channel's, not the bot's: it is echoed
            ask = view.pop("ask", None) if isinstance(view, dict) else None
            if failure is not None:
                proto_out.write(_line(failure, ask))
                continue
            held = restore_history(view, held)
            proto_out.write(answer(module, view, ask))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: runner.py BOT_FILE", file=sys.stderr)
        return 2
    try:
        return serve(args[0])
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    sys.exit(main())
