"""The small process that holds a bot and everything it starts (Linux).

Started by :mod:`game.ai.bots.tree` as ``python -I supervisor.py CONTROL STATUS --
COMMAND...`` (standard library only; a frozen build runs itself as ``stammtisch
bot-supervisor ...``). It

1. makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): every process
   the bot starts that loses its parent -- a daemon that forked twice, one that called
   ``setsid`` to leave the bot's session -- becomes this process's child instead of
   init's, so none can get away;
2. starts the bot in a session of its own with the standard streams it was given
   (the tournament's pipes: the bot's lines never pass through here), and writes
   ``ok PID`` (or ``error ERRNO FILE MESSAGE``) on the STATUS descriptor;
3. waits until the bot exits or the CONTROL descriptor (the tournament's end of a
   pipe) is closed -- by the tournament when it ends the bot, or by the kernel when the
   tournament dies -- and then kills every process below itself, again and again
   until there is none, reaps them, and exits as the bot did (its exit status, or the
   signal that killed it).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
#: How long the clean-up may go on killing what keeps appearing (a fork bomb).
KILL_SECONDS = 5.0


def become_subreaper() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def descendants(root: int) -> list[int]:
    """Every living process below ``root`` (from ``/proc``), zombies left out."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                text = fh.read()
        except OSError:
            continue
        fields = text[text.rfind(b")") + 2:].split()
        if len(fields) < 2 or fields[0] == b"Z":
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    out, todo = [], [root]
    while todo:
        for pid in children.get(todo.pop(), ()):
            out.append(pid)
            todo.append(pid)
    return out


def reap() -> list[tuple[int, int]]:
    """Collect every child that has ended: ``(pid, status)`` pairs."""
    done = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return done
        if pid == 0:
            return done
        done.append((pid, status))


def kill_all(bot: int) -> list[tuple[int, int]]:
    """Kill the bot's process group and every process below this one until none is
    left (what a killed process started comes here, this being its subreaper)."""
    reaped: list[tuple[int, int]] = []
    try:
        os.killpg(bot, signal.SIGKILL)
    except OSError:
        pass
    end = time.monotonic() + KILL_SECONDS
    me = os.getpid()
    while time.monotonic() < end:
        alive = descendants(me)
        if not alive:
            break
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.002)
        reaped += reap()
    reaped += reap()
    return reaped


def _exit_like(status: int | None) -> None:
    if status is None:
        os._exit(0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            signal.signal(sig, signal.SIG_DFL)     # (SIGKILL and SIGSTOP have no handler)
        except (OSError, ValueError):
            pass
        signal.set_wakeup_fd(-1)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


USAGE = "usage: supervisor.py CONTROL_FD STATUS_FD -- COMMAND..."


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print(USAGE, file=sys.stderr)
        return 2
    try:
        control, status_fd, command = int(argv[0]), int(argv[1]), argv[3:]
        for fd in (control, status_fd):    # before anything is started or changed
            os.fstat(fd)
    except ValueError:
        print(USAGE, file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"supervisor: descriptor {argv[0]} or {argv[1]} is not open ({exc.strerror})",
              file=sys.stderr)
        return 2
    become_subreaper()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    stop: list[bool] = []
    signal.signal(signal.SIGCHLD, lambda *_: None)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):   # asked to stop: clean up
        signal.signal(sig, lambda *_: stop.append(True))
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.set_wakeup_fd(wake_w)
    try:
        bot = subprocess.Popen(command, start_new_session=True, close_fds=True,
                               restore_signals=True)
    except OSError as exc:
        os.write(status_fd, f"error {exc.errno or 0} {exc.filename or ''}\0"
                 f"{exc.strerror or exc}\n".encode("utf-8", "replace"))
        return 127
    os.write(status_fd, f"ok {bot.pid}\n".encode())
    os.close(status_fd)
    # the bot holds the pipes now; this process needs none of them (standard error
    # stays, for its own last words)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    bot_status: int | None = None
    while True:
        try:
            ready, _, _ = select.select([control, wake_r], [], [])
        except InterruptedError:
            continue
        if wake_r in ready:
            try:
                while os.read(wake_r, 4096):
                    pass
            except BlockingIOError:
                pass
            for pid, status in reap():
                if pid == bot.pid:
                    bot_status = status
            if bot_status is not None or stop:
                break                      # the bot ended: so does what it started
        if control in ready:
            try:
                data = os.read(control, 64)
            except OSError:
                data = b""
            if not data:
                break                      # the tournament ends the bot (or died)
    bot.returncode = 0                     # reaped here: Popen must not wait for it
    for pid, status in kill_all(bot.pid):
        if pid == bot.pid and bot_status is None:
            bot_status = status
    _exit_like(bot_status)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
