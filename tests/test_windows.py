"""What Windows does differently, and the game's Windows paths for it (the bots' in
tests/test_windows_bots.py).

Each behaviour is tested twice where it can be: here on any OS with the platform
faked (a pretend ``win32``, a fake ``kernel32``), and for real on Windows. The
real ones are marked ``windows``: on Linux they are skipped, and
``tools/build_windows.py --smoke`` runs this file under Wine with Windows' own
CPython, where they run (its ``windows-tests`` check fails if any is skipped).
"""

from __future__ import annotations

import ctypes
import errno
import io
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import console, fileio, syslang, winproc
from game.logfile import GuardedLog
from game.net import host
from game.net import server as server_mod
from game.net.access import SeatAccess
from tests.windows_helpers import ROOT, TREE_BOT, still_beating, wait_for_beats, windows

# --------------------------------------------------------------------------- command lines


@pytest.mark.parametrize("line, words", [
    (r'"C:\Program Files\Python\python.exe" "C:\my bots\bot.py" 5',
     [r"C:\Program Files\Python\python.exe", r"C:\my bots\bot.py", "5"]),
    (r"C:\Python311\python.exe C:\bots\bot.py", [r"C:\Python311\python.exe", r"C:\bots\bot.py"]),
    (r'node "my bot.js"  --fast', ["node", "my bot.js", "--fast"]),
    (r'bot.exe "" x', ["bot.exe", "", "x"]),
    (r'bot.exe "say ""hi""" a\\"b\"c', ["bot.exe", 'say "hi"', 'a\\b"c']),
    (r'bot.exe C:\dir\\ "C:\dir\\"', ["bot.exe", "C:\\dir\\\\", "C:\\dir\\"]),
    ("  \t ", []),
])
def test_split_command_line_follows_the_windows_rules(line, words):
    assert winproc.split_command_line(line) == words


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",),
                                      blacklist_characters="\x00"), max_size=12),
                min_size=1, max_size=6))
def test_split_command_line_inverts_subprocess_quoting(words):
    """What Popen makes of a list on Windows is split back into the same list."""
    assert winproc.split_command_line(subprocess.list2cmdline(words)) == words


# --------------------------------------------------------------------------- process trees


class FakeKernel32:
    """The job-object calls of kernel32, recorded."""

    def __init__(self, assign: bool = True) -> None:
        self.calls: list[tuple] = []
        self.assign = assign
        self.flags = None

    def CreateJobObjectW(self, *_):  # noqa: N802
        self.calls.append(("create",))
        return 77

    def SetInformationJobObject(self, handle, kind, info, size):  # noqa: N802
        self.flags = info._obj.BasicLimitInformation.LimitFlags
        self.calls.append(("limit", handle, kind))
        return 1

    def OpenProcess(self, access, inherit, pid):  # noqa: N802
        self.calls.append(("open", pid))
        return 88

    def AssignProcessToJobObject(self, job, process):  # noqa: N802
        self.calls.append(("assign", job, process))
        return 1 if self.assign else 0

    def TerminateJobObject(self, job, code):  # noqa: N802
        self.calls.append(("terminate", job))
        return 1

    def CloseHandle(self, handle):  # noqa: N802
        self.calls.append(("close", handle))
        return 1


class FakeNtdll:
    def __init__(self, k32: FakeKernel32, status: int = 0) -> None:
        self.k32, self.status = k32, status

    def NtResumeProcess(self, process):  # noqa: N802
        self.k32.calls.append(("resume", process))
        return self.status


class FakePopen:
    started: list[dict] = []

    def __init__(self, argv, **kwargs):
        self.argv, self.kwargs, self.pid = argv, kwargs, 4242 + len(FakePopen.started)
        self.killed = False
        FakePopen.started.append(kwargs)

    def kill(self):
        self.killed = True

    def wait(self, timeout=None):
        return 0


@pytest.fixture
def fake_windows_jobs(monkeypatch):
    k32 = FakeKernel32()
    nt = FakeNtdll(k32)
    FakePopen.started = []
    monkeypatch.setattr(winproc, "_platform", lambda: "win32")
    monkeypatch.setattr(winproc, "_kernel32", lambda: k32)
    monkeypatch.setattr(winproc, "_ntdll", lambda: nt)
    monkeypatch.setattr(winproc.subprocess, "Popen", FakePopen)
    return k32, nt


def test_a_bot_starts_suspended_in_a_job_that_kills_on_close(fake_windows_jobs):
    k32, _nt = fake_windows_jobs
    proc, job = winproc.start_in_job(["bot.exe"], stdin=-1)
    assert job is not None
    assert proc.kwargs["creationflags"] & winproc.CREATE_SUSPENDED
    assert k32.flags == 0x2000                      # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    names = [c[0] for c in k32.calls]
    # in the job before it runs a single instruction: nothing it starts escapes
    assert names == ["create", "limit", "open", "assign", "resume", "close"]
    job.kill()
    assert k32.calls[-1] == ("terminate", 77)
    job.close()
    job.close()
    assert [c for c in k32.calls if c == ("close", 77)] == [("close", 77)]


def test_a_bot_windows_cannot_resume_is_started_again_without_a_job(fake_windows_jobs):
    k32, nt = fake_windows_jobs
    nt.status = -1073741823                         # STATUS_UNSUCCESSFUL
    proc, job = winproc.start_in_job(["bot.exe"])
    assert job is None
    first_flags, again_flags = (k["creationflags"] for k in FakePopen.started)
    assert first_flags & winproc.CREATE_SUSPENDED and not again_flags & winproc.CREATE_SUSPENDED
    assert proc.pid == 4243


def test_a_job_on_windows_only():
    proc, job = winproc.start_in_job([sys.executable, "-c", "pass"])
    assert proc.wait(60) == 0
    assert (job is not None) == (sys.platform == "win32")
    if job is not None:
        job.close()


@windows
def test_windows_without_a_job_the_helper_outlives_the_bot(tmp_path):
    """The defect the job mends: ``Popen.kill`` ends the bot, not its helper."""
    beats = tmp_path / "beats.txt"
    proc = subprocess.Popen([sys.executable, str(TREE_BOT), str(beats), "0"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    wait_for_beats(beats)
    proc.kill()
    proc.wait(30)
    try:
        assert still_beating(beats)
    finally:
        helper = int(beats.read_text(encoding="utf-8").split()[0])
        os.kill(helper, 9)                           # TerminateProcess


# --------------------------------------------------------------------------- output


def cp1252_output(monkeypatch):
    """Standard output and error as Windows gives them for a pipe: the ANSI code page.
    (Set inside the test: pytest's capturing swaps the streams between set-up and test.)"""
    out = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    err = io.TextIOWrapper(io.BytesIO(), encoding="cp1252", errors="backslashreplace")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(console, "_platform", lambda: "win32")
    return out, err


def _bytes(stream: io.TextIOWrapper) -> bytes:
    stream.flush()
    return stream.buffer.getvalue()  # type: ignore[attr-defined]


def test_a_tournament_prints_any_name_into_a_windows_pipe(monkeypatch, tmp_path):
    """A bot file named outside cp1252 used to stop ``stammtisch tournament`` with
    UnicodeEncodeError as it printed the table into a pipe."""
    from game.cli import main

    cp1252_output(monkeypatch)
    bot = tmp_path / "ботик.py"
    bot.write_text((ROOT / "game" / "ai" / "example_bot.py").read_text(encoding="utf-8"),
                   encoding="utf-8")
    code = main(["tournament", "--game", "chase", "--players", "3", "--games", "1",
                 "--seed", "2", "--seats", f"bot:{bot},medium,medium"])
    assert code == 0
    assert "ботик.py" in _bytes(sys.stdout).decode("utf-8")


def test_utf8_output_leaves_consoles_and_other_systems_alone(monkeypatch):
    class Console(io.TextIOWrapper):
        def isatty(self) -> bool:
            return True

    tty = Console(io.BytesIO(), encoding="cp1252")
    monkeypatch.setattr(sys, "stdout", tty)
    monkeypatch.setattr(sys, "stderr", None)
    monkeypatch.setattr(console, "_platform", lambda: "win32")
    assert console.utf8_output() == [] and tty.encoding == "cp1252"
    pipe = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    monkeypatch.setattr(sys, "stdout", pipe)
    monkeypatch.setattr(console, "_platform", lambda: "linux")
    assert console.utf8_output() == [] and pipe.encoding == "cp1252"


@windows
def test_windows_pipes_get_utf8_from_the_command_line():
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from game.cli import main; "
            "sys.exit(main(['replay', 'не-там ä.json', '--json']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT,
                          env={**os.environ, "PYTHONIOENCODING": ""}, timeout=120)
    assert proc.returncode == 2
    assert "не-там ä.json" in proc.stderr.decode("utf-8")


class FakeConsoleKernel:
    def __init__(self, ok: int) -> None:
        self.ok = ok
        self.asked: list[int] = []

    def AttachConsole(self, pid):  # noqa: N802
        self.asked.append(pid)
        return self.ok


def no_streams(monkeypatch):
    """A windowed program's streams (inside the test, see :func:`cp1252_output`)."""
    for name in ("stdout", "stderr", "stdin", "__stdout__", "__stderr__", "__stdin__"):
        monkeypatch.setattr(sys, name, None)
    monkeypatch.setattr(console, "_platform", lambda: "win32")


def test_windowed_build_prints_into_the_terminal_that_started_it(monkeypatch):
    no_streams(monkeypatch)
    k32 = FakeConsoleKernel(1)
    opened = []

    def opener(name, mode, **kw):
        opened.append(name)
        return io.StringIO()

    assert console.attach_parent_console(["tournament", "--json"], ("tournament",),
                                         kernel32=lambda: k32, opener=opener)
    assert k32.asked == [console.ATTACH_PARENT_PROCESS]
    assert opened == ["CONOUT$", "CONIN$"] and sys.stdout is sys.stderr is not None
    print("shown")
    assert sys.stdout.getvalue() == "shown\n"


@pytest.mark.parametrize("argv, ok, expected", [
    ([], 1, False),                          # the window: never a console
    (["--demo", "--quit-after", "5"], 1, False),
    (["--help"], 0, False),                  # started from Explorer: no console to join
    (["replay", "x.json"], 1, True),
    (["--frame-stats", "--demo"], 1, True),
])
def test_a_console_only_for_command_line_use(monkeypatch, argv, ok, expected):
    no_streams(monkeypatch)
    got = console.attach_parent_console(argv, ("replay",), kernel32=lambda: FakeConsoleKernel(ok),
                                        opener=lambda *a, **k: io.StringIO())
    assert got is expected
    assert (sys.stdout is not None) is expected


def test_no_console_when_the_streams_are_redirected(monkeypatch):
    monkeypatch.setattr(console, "_platform", lambda: "win32")
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    k32 = FakeConsoleKernel(1)
    assert not console.attach_parent_console(["replay"], ("replay",), kernel32=lambda: k32)
    assert k32.asked == []


# --------------------------------------------------------------------------- files


def test_a_rename_windows_refuses_for_a_moment_is_tried_again(monkeypatch, tmp_path):
    target = tmp_path / "settings.json"
    target.write_text("old", encoding="utf-8")
    real = os.replace
    refusals = [PermissionError(errno.EACCES, "Sharing violation")] * 2
    pauses: list[float] = []

    def replace(src, dst):
        if refusals:
            raise refusals.pop()
        real(src, dst)

    monkeypatch.setattr(fileio, "_windows", lambda: True)
    monkeypatch.setattr(fileio.os, "replace", replace)
    monkeypatch.setattr(fileio, "_sleep", pauses.append)
    fileio.write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert pauses == list(fileio.REPLACE_PAUSES[:2])


def test_a_rename_refused_for_good_keeps_the_old_file(monkeypatch, tmp_path):
    target = tmp_path / "settings.json"
    target.write_text("old", encoding="utf-8")

    def refuse(src, dst):
        raise PermissionError(errno.EACCES, "Sharing violation")

    pauses: list[float] = []
    monkeypatch.setattr(fileio, "_windows", lambda: True)
    monkeypatch.setattr(fileio.os, "replace", refuse)
    monkeypatch.setattr(fileio, "_sleep", pauses.append)
    with pytest.raises(PermissionError):
        fileio.write_atomic(target, "new")
    assert pauses == list(fileio.REPLACE_PAUSES)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]   # no temporary left
    monkeypatch.setattr(fileio, "_windows", lambda: False)          # elsewhere: at once
    pauses.clear()
    with pytest.raises(PermissionError):
        fileio.write_atomic(target, "new")
    assert pauses == []


@windows
def test_windows_saves_over_a_file_another_program_is_reading(monkeypatch, tmp_path):
    """Windows refuses to replace a file that is open elsewhere; the save waits for it."""
    target = tmp_path / "settings.json"
    target.write_text("old", encoding="utf-8")
    reader = open(target, encoding="utf-8")  # noqa: SIM115 - another program's handle
    pauses: list[float] = []

    def pause(seconds: float) -> None:      # the other program closes the file
        pauses.append(seconds)
        reader.close()

    monkeypatch.setattr(fileio, "_sleep", pause)
    fileio.write_atomic(target, "new")
    assert pauses == [fileio.REPLACE_PAUSES[0]]     # refused once, while it was open
    assert target.read_text(encoding="utf-8") == "new"


def _log_handler(path: Path) -> GuardedLog:
    handler = GuardedLog(path, max_bytes=2000, backups=2)
    handler.setFormatter(logging.Formatter("%(message)s"))
    return handler


def _record(i: int) -> logging.LogRecord:
    return logging.LogRecord("t", logging.INFO, __file__, 1, f"line {i} " + "x" * 90, None,
                             None)


def test_a_log_another_process_holds_goes_on_instead_of_failing(monkeypatch, tmp_path,
                                                               capsys):
    path = tmp_path / "stammtisch.log"
    handler = _log_handler(path)
    tries = []

    def refuse(source, dest):
        tries.append(source)
        raise PermissionError(errno.EACCES, "Sharing violation")

    monkeypatch.setattr(handler, "rotate", refuse)
    for i in range(80):
        handler.emit(_record(i))
    handler.flush()
    assert capsys.readouterr().err == ""            # no "--- Logging error ---"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 80                         # nothing lost
    assert 1 <= len(tries) <= 3                     # tried again after a while, not always
    monkeypatch.undo()
    handler.retry_at = 0                            # the other process has let go
    handler.emit(_record(80))
    assert (tmp_path / "stammtisch.log.1").is_file()
    handler.close()


@windows
def test_windows_log_rotation_with_a_second_process_holding_the_log(tmp_path, capsys):
    path = tmp_path / "stammtisch.log"
    path.write_text("", encoding="utf-8")
    other = open(path, "a", encoding="utf-8")  # noqa: SIM115 - a second window's handler
    handler = _log_handler(path)
    try:
        for i in range(60):
            handler.emit(_record(i))
        assert capsys.readouterr().err == ""
        assert handler.retry_at > 0                 # Windows did refuse
        assert len(path.read_text(encoding="utf-8").splitlines()) == 60
    finally:
        other.close()
        handler.close()


# --------------------------------------------------------------------------- the phone server


def test_a_port_in_use_is_refused_as_in_use():
    """On Windows ``SO_REUSEADDR`` would let a second table bind the port of the first
    (or, under Wine, fail with "access denied"): the second is refused, as in use."""
    first = server_mod.PhoneServer(SeatAccess.new([0]), bind="127.0.0.1").start()
    try:
        second = server_mod.PhoneServer(SeatAccess.new([0]), bind="127.0.0.1",
                                         port=first.port)
        with pytest.raises(OSError) as caught:
            second.start()
        cause = caught.value.__cause__
        assert isinstance(cause, OSError)
        assert cause.errno in (errno.EADDRINUSE, 10048), cause   # 10048: WSAEADDRINUSE
    finally:
        first.stop()


def test_the_firewall_question_is_announced_on_windows_only():
    lan = ["127.0.0.1", "192.168.1.20"]
    assert "private networks" in host.firewall_hint(lan, "win32")
    assert host.firewall_hint(["127.0.0.1"], "win32") is None    # loopback: no question
    assert host.firewall_hint(lan, "linux") is None
    assert host.firewall_hint(lan, "darwin") is None


def test_the_table_stops_cleanly_on_ctrl_break(monkeypatch):
    monkeypatch.setattr(host.signal, "SIGBREAK", 21, raising=False)
    assert 21 in host.stop_signals()
    monkeypatch.delattr(host.signal, "SIGBREAK")
    assert set(host.stop_signals()) == {host.signal.SIGINT, host.signal.SIGTERM}


@windows
def test_windows_job_structure_has_the_size_windows_expects():
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION is 144 bytes on 64-bit Windows."""
    assert ctypes.sizeof(winproc._limit_info()) == (144 if ctypes.sizeof(ctypes.c_void_p) == 8
                                                     else 112)


@windows
def test_windows_tells_its_display_language():
    """The first start's language on Windows comes from GetUserDefaultUILanguage."""
    name = syslang.windows_language()
    assert re.fullmatch(r"[a-z]{2,3}(_[A-Za-z]+)?", name), name
    assert syslang.language_of([name]) in ("de", "en")
