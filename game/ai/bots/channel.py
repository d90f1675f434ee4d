"""A child process and the line channel to it, with deadlines on every read and write.

:class:`BotProcess` starts a command with three pipes, contained so that ending it
ends everything it started (:mod:`game.ai.bots.tree`). Requests go to its standard
input and answer lines come from its standard output, each within a deadline kept
by the parent's clock; the child's standard error is drained by a thread into a
small ring buffer (its last few kilobytes, for incidents), so it never reaches the
parent's own output and a chatty child never blocks. Reads stop at a size bound:
a child that writes a huge line is cut off, not read to the end.

On POSIX the pipes are non-blocking and waited on with ``poll``; elsewhere
(Windows) a reader and a writer thread do the blocking calls and the caller waits on
queues with the same deadlines.

Waking a process that sleeps in ``poll`` takes tens of microseconds, most of the round
trip to a fast bot (measured: about 60 µs to a child that echoes, 20 µs if the parent
keeps asking instead). So on POSIX the parent first keeps asking for the answer
for at most :data:`~game.ai.bots.runner.SPIN_SECONDS`, and sleeps in ``poll`` only
after that, while that pays (:class:`~game.ai.bots.runner.Spin`): not for a bot
slower than that, nor on a busy machine, nor with a single CPU, where the two
processes hand the CPU to each other directly.
"""

from __future__ import annotations

import os
import queue
import select
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

from game.ai.bots.protocol import decode_answer
from game.ai.bots.runner import Spin
from game.ai.bots.tree import start as start_tree

#: Bytes of a child's standard error kept (the end of it).
STDERR_TAIL = 8192
LINE, TIMEOUT, EOF, OVERSIZE = "line", "timeout", "eof", "oversize"
#: Seconds one wait for a bot's line lasts at most with reader threads (Windows): a
#: lock wait there lets no Ctrl+C through, which Python handles only between the waits
#: (``stammtisch host`` stopped only after a starting bot's 20 s).
WAIT_SLICE = 0.25


def _own_fd(stream: object) -> int | None:
    """A descriptor of the thread's own for ``stream`` (a duplicate): when the stream's
    owner closes it, the number cannot be handed to another pipe while the thread
    still reads, so a late read never takes another child's lines."""
    try:
        return os.dup(stream.fileno())  # type: ignore[attr-defined]
    except (OSError, ValueError):
        return None


class _Tail:
    """Drains a stream into a bounded buffer from a daemon thread."""

    def __init__(self, stream: object) -> None:
        self.data = bytearray()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, args=(stream,), daemon=True,
                                       name="bot-stderr")
        self.thread.start()

    def _run(self, stream: object) -> None:
        fd = _own_fd(stream)
        if fd is None:
            return
        try:
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                with self.lock:
                    self.data += chunk
                    if len(self.data) > STDERR_TAIL:
                        del self.data[: len(self.data) - STDERR_TAIL]
        finally:
            os.close(fd)

    def text(self) -> str:
        with self.lock:
            return bytes(self.data).decode("utf-8", "replace")


class BotProcess:
    """One running bot. ``request`` sends a line and waits for the answer line."""

    def __init__(self, argv: Sequence[str], max_line: int, threads: bool | None = None,
                 cwd: str | None = None) -> None:
        self.max_line = max_line
        # the bot and whatever it starts, ended together (game.ai.bots.tree); in a
        # session of its own, so Ctrl+C at the terminal is the tournament's
        self.tree = start_tree(list(argv), cwd)
        self.proc = self.tree.proc
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        #: the bot numbers its answers (it wrote a numbered line): from then on only
        #: the line numbered like the question answers it (game.ai.bots.protocol)
        self.numbered = False
        self.deadline = 0.0
        self.dropped = 0                   # lines dropped before the last request
        self.stderr = _Tail(self.proc.stderr)
        self.buffer = b""
        self.eof = False
        if threads is None:
            threads = os.name != "posix"    # pipes cannot be polled on Windows
        self.threads = threads
        if self.threads:
            self._lines: queue.Queue[bytes | None] = queue.Queue()
            self._out: queue.Queue[bytes | None] = queue.Queue()
            threading.Thread(target=self._reader, daemon=True, name="bot-out").start()
            threading.Thread(target=self._writer, daemon=True, name="bot-in").start()
        else:
            self.in_fd = self.proc.stdin.fileno()
            self.out_fd = self.proc.stdout.fileno()
            os.set_blocking(self.in_fd, False)
            os.set_blocking(self.out_fd, False)
            self.poll_in = select.poll()
            self.poll_in.register(self.in_fd, select.POLLOUT)
            self.poll_out = select.poll()
            self.poll_out.register(self.out_fd, select.POLLIN)
        #: whether to ask for the answer without sleeping first
        self.spin = Spin()
        if self.threads:
            self.spin.pays = False

    # ------------------------------------------------------------------ threads (Windows)

    def _reader(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        if sys.platform == "win32":
            read = stream.read
            fd = None
        else:
            fd = _own_fd(stream)
            if fd is None:
                self._lines.put(None)
                return
            def read(n: int, fd: int = fd) -> bytes:
                return os.read(fd, n)
        try:
            while True:
                try:
                    chunk = read(65536)
                except (OSError, ValueError):
                    chunk = b""
                if not chunk:
                    self._lines.put(None)
                    return
                self._lines.put(chunk)
        finally:
            if fd is not None:
                os.close(fd)

    def _writer(self) -> None:
        stream = self.proc.stdin
        assert stream is not None
        while True:
            data = self._out.get()
            if data is None:
                return
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                return

    # ------------------------------------------------------------------ the channel

    def _fill(self, deadline: float) -> str | None:
        """Read more into the buffer before ``deadline``: None, or EOF/TIMEOUT."""
        left = deadline - time.monotonic()
        if left <= 0:
            return TIMEOUT
        if self.threads:
            try:
                chunk = self._lines.get(timeout=min(left, WAIT_SLICE))
            except queue.Empty:
                return TIMEOUT if time.monotonic() >= deadline else None
            if chunk is None:
                self.eof = True
                return EOF
            self.buffer += chunk
            return None
        if not self.poll_out.poll(max(1, int(left * 1000 + 0.999))):
            return TIMEOUT if time.monotonic() >= deadline else None
        try:
            chunk = os.read(self.out_fd, 65536)
        except BlockingIOError:
            return None
        except OSError:
            chunk = b""
        if not chunk:
            self.eof = True
            return EOF
        self.buffer += chunk
        return None

    def _spin(self, window: float) -> None:
        """Read without sleeping until a line is in, the child's output ends, or
        ``window`` seconds have passed. (Not ``sched_yield`` between tries: on a busy
        machine it hands the CPU to another process for its whole time slice,
        milliseconds.)"""
        start, cpu = time.monotonic(), time.thread_time()
        end = start + window
        while b"\n" not in self.buffer and len(self.buffer) <= self.max_line:
            try:
                chunk = os.read(self.out_fd, 65536)
            except BlockingIOError:
                if time.monotonic() >= end:
                    break
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True
                break
            self.buffer += chunk
        self.spin.done(time.monotonic() - start, time.thread_time() - cpu,
                       b"\n" in self.buffer or self.eof)

    def read_line(self, deadline: float) -> tuple[str, bytes]:
        """``(LINE, line)``, or ``(TIMEOUT|EOF|OVERSIZE, b"")``."""
        while True:
            i = self.buffer.find(b"\n")
            if i >= 0:
                line, self.buffer = self.buffer[:i], self.buffer[i + 1:]
                if len(line) > self.max_line:
                    return OVERSIZE, b""
                return LINE, line.rstrip(b"\r")
            if len(self.buffer) > self.max_line:
                return OVERSIZE, b""
            if self.eof:
                return EOF, b""
            status = self._fill(deadline)
            if status is not None:
                return status, b""

    def write(self, data: bytes, deadline: float) -> str | None:
        """Send ``data``; None, or TIMEOUT (the child does not read) / EOF (it is gone)."""
        if self.threads:
            if self.proc.poll() is not None:
                return EOF
            self._out.put(data)
            return None
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.in_fd, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                return EOF
            left = deadline - time.monotonic()
            if left <= 0:
                return TIMEOUT
            self.poll_in.poll(max(1, int(left * 1000 + 0.999)))
        return None

    def _take_waiting(self) -> None:
        """Move what the bot has written so far into the buffer, without waiting."""
        if self.eof:
            return
        if self.threads:
            while True:
                try:
                    chunk = self._lines.get_nowait()
                except queue.Empty:
                    return
                if chunk is None:
                    self.eof = True
                    return
                self.buffer += chunk
        while len(self.buffer) <= self.max_line:
            try:
                chunk = os.read(self.out_fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True
                return
            self.buffer += chunk

    def drain(self) -> int:
        """Drop the complete lines the bot wrote that were not asked for (a second
        answer, a stray line), read or still in the pipe; how many. A line the bot has
        only begun stays: it may be the start of its next answer."""
        self._take_waiting()
        dropped = self.buffer.count(b"\n")
        if dropped:
            end = self.buffer.rfind(b"\n")
            if not self.numbered:          # a numbered line says so even when dropped
                self.numbered = any(decode_answer(line.rstrip(b"\r")).ask is not None
                                    for line in self.buffer[:end].split(b"\n")
                                    if line.startswith(b"{"))
            self.buffer = self.buffer[end + 1:]
        return dropped

    def request(self, data: bytes, timeout: float) -> tuple[str, bytes]:
        """Write one request line and read one answer line within ``timeout`` seconds
        (:meth:`next_line` reads further lines before the same deadline)."""
        deadline = self.deadline = time.monotonic() + timeout
        self.dropped = self.drain()
        status = self.write(data, deadline)
        if status is not None:
            return status, b""
        window = self.spin.window()
        if window:
            self._spin(min(window, timeout))
        return self.read_line(deadline)

    def next_line(self) -> tuple[str, bytes]:
        """The next line before the last request's deadline (the bot wrote another
        line first)."""
        return self.read_line(self.deadline)

    # ------------------------------------------------------------------ ending

    def exit_status(self, wait: float = 0.0) -> int | None:
        """The child's exit status, waiting up to ``wait`` seconds for it to exit;
        None while it runs."""
        try:
            return self.proc.wait(wait) if wait > 0 else self.proc.poll()
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self) -> str:
        return self.stderr.text()

    def close(self, grace: float = 0.2) -> None:
        """End the child: close its input, give it ``grace`` seconds to exit, then end
        it and everything it started (whatever it left running is ended too)."""
        if self.threads:
            self._out.put(None)
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        """End the child and every process it started, now (and the thread that
        writes to it: a bot restarted after a fault left one waiting for ever)."""
        if self.threads:
            self._out.put(None)
        try:
            self.tree.end()
        except OSError:
            pass
        self._close_pipes()

    def _close_pipes(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


__all__ = ["EOF", "LINE", "OVERSIZE", "TIMEOUT", "BotProcess"]
