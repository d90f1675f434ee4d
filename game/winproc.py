"""Child processes on Windows: command lines as Windows splits them, and process trees.

**Command lines.** Windows hands a program one string; the program's C runtime splits
it (and :func:`subprocess.list2cmdline` quotes a list for exactly that split). A
command line typed for Windows, such as ``"C:\\Program Files\\node\\node.exe" bot.js``,
uses backslashes as path separators and double quotes around spaces, so the POSIX
shell's rules (:func:`shlex.split`) take it apart wrongly, and ``shlex`` in its
non-POSIX mode keeps the quotes inside the words. :func:`split_command_line` applies
the runtime's rules: whitespace separates words outside quotes; ``"`` starts and ends
a quoted part; ``""`` inside quotes is a literal quote; ``2n`` backslashes before a
quote are ``n`` backslashes (and the quote delimits), ``2n+1`` are ``n`` and a literal
quote; other backslashes are literal.

**Process trees.** Windows has no process groups to signal: ``Popen.kill`` ends the
child it started and nothing the child started. A :class:`Job` (a Windows job object
with ``KILL_ON_JOB_CLOSE``) holds the child and, because a job's processes' children
join it, everything started below it: :meth:`Job.kill` ends them all at once, and so
does closing the job, which Windows also does when this process ends, however it ends.
The child is started suspended (:data:`CREATE_SUSPENDED`), put in the job and only then
resumed, so it cannot start anything outside the job first. The module imports
``ctypes`` only on Windows; elsewhere :meth:`Job.create` returns ``None``.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

#: ``creationflags`` that start a child suspended (resumed by :meth:`Job.adopt`).
CREATE_SUSPENDED = 0x00000004
_KILL_ON_JOB_CLOSE = 0x00002000
_EXTENDED_LIMIT_INFORMATION = 9
_PROCESS_ALL = 0x0001 | 0x0100 | 0x0200 | 0x0800 | 0x1000   # terminate, set quota,
# query, suspend/resume, query limited information


def _platform() -> str:
    """``sys.platform``; a function so tests can pretend to be Windows."""
    return sys.platform


def split_command_line(text: str) -> list[str]:
    """The words of a Windows command line, as the Microsoft C runtime splits it.

    ``split_command_line(subprocess.list2cmdline(words)) == words`` for any list of
    words without NUL characters (tests/test_windows.py holds this)."""
    words: list[str] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return words
        word: list[str] = []
        quoted = False
        while i < n:
            c = text[i]
            if c in " \t" and not quoted:
                break
            if c == "\\":
                j = i
                while j < n and text[j] == "\\":
                    j += 1
                count = j - i
                if j < n and text[j] == '"':
                    word.append("\\" * (count // 2))
                    if count % 2:
                        word.append('"')
                        i = j + 1
                    else:
                        i = j              # the quote opens or closes a quoted part
                else:
                    word.append("\\" * count)
                    i = j
                continue
            if c == '"':
                if quoted and i + 1 < n and text[i + 1] == '"':
                    word.append('"')
                    i += 2
                    continue
                quoted = not quoted
                i += 1
                continue
            word.append(c)
            i += 1
        words.append("".join(word))


class Job:
    """A Windows job object that ends every process in it when it is killed or closed."""

    def __init__(self, handle: int, kernel32: Any) -> None:
        self.handle = handle
        self._k32 = kernel32

    @classmethod
    def create(cls) -> Job | None:
        """A new job that kills its processes when closed; ``None`` off Windows or if
        Windows refuses (the caller then ends only the child itself)."""
        if _platform() != "win32":
            return None
        try:
            kernel32 = _kernel32()
            handle = kernel32.CreateJobObjectW(None, None)
            if not handle:
                return None
            info = _limit_info()
            info.BasicLimitInformation.LimitFlags = _KILL_ON_JOB_CLOSE
            import ctypes

            if not kernel32.SetInformationJobObject(handle, _EXTENDED_LIMIT_INFORMATION,
                                                    ctypes.byref(info), ctypes.sizeof(info)):
                kernel32.CloseHandle(handle)
                return None
        except (OSError, AttributeError, ImportError):
            return None
        return cls(handle, kernel32)

    def adopt(self, proc: subprocess.Popen) -> bool:
        """Put the (suspended) child ``proc`` in the job, then resume it; False if it
        could not be put in the job (it is resumed all the same)."""
        k32 = self._k32
        process = k32.OpenProcess(_PROCESS_ALL, False, proc.pid)
        if not process:
            return False
        try:
            inside = bool(k32.AssignProcessToJobObject(self.handle, process))
            status = _ntdll().NtResumeProcess(process)
            if status != 0:
                raise OSError(f"NtResumeProcess failed with status {status:#x}")
            return inside
        finally:
            k32.CloseHandle(process)

    def kill(self, exit_code: int = 1) -> None:
        """End every process in the job now."""
        if self.handle:
            self._k32.TerminateJobObject(self.handle, exit_code)

    def close(self) -> None:
        """Let go of the job: whatever still runs in it ends. Idempotent."""
        handle, self.handle = self.handle, 0
        if handle:
            self._k32.CloseHandle(handle)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit the module may be gone
            pass


def start_in_job(argv: list[str], **popen: Any) -> tuple[subprocess.Popen, Job | None]:
    """``subprocess.Popen(argv, **popen)``; on Windows the child and everything it
    starts run in a :class:`Job` (``None`` elsewhere, or where Windows refuses one)."""
    job = Job.create()
    if job is None:
        return subprocess.Popen(argv, **popen), None
    flags = int(popen.pop("creationflags", 0))
    proc = subprocess.Popen(argv, creationflags=flags | CREATE_SUSPENDED, **popen)
    try:
        inside = job.adopt(proc)
    except OSError:            # still suspended: start it again, without a job
        job.close()
        proc.kill()
        proc.wait()
        return subprocess.Popen(argv, creationflags=flags, **popen), None
    if not inside:
        job.close()
        return proc, None
    return proc, job


def _kernel32() -> Any:
    import ctypes
    from ctypes import wintypes

    k32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    k32.CreateJobObjectW.restype = wintypes.HANDLE
    k32.CreateJobObjectW.argtypes = (ctypes.c_void_p, wintypes.LPCWSTR)
    k32.SetInformationJobObject.argtypes = (wintypes.HANDLE, ctypes.c_int, ctypes.c_void_p,
                                            wintypes.DWORD)
    k32.OpenProcess.restype = wintypes.HANDLE
    k32.OpenProcess.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
    k32.AssignProcessToJobObject.argtypes = (wintypes.HANDLE, wintypes.HANDLE)
    k32.TerminateJobObject.argtypes = (wintypes.HANDLE, wintypes.UINT)
    k32.CloseHandle.argtypes = (wintypes.HANDLE,)
    return k32


def _ntdll() -> Any:
    import ctypes
    from ctypes import wintypes

    nt = ctypes.WinDLL("ntdll")  # type: ignore[attr-defined]
    nt.NtResumeProcess.argtypes = (wintypes.HANDLE,)
    nt.NtResumeProcess.restype = ctypes.c_long
    return nt


def _limit_info() -> Any:
    import ctypes
    from ctypes import wintypes

    class Basic(ctypes.Structure):
        _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64),
                    ("PerJobUserTimeLimit", ctypes.c_int64),
                    ("LimitFlags", wintypes.DWORD),
                    ("MinimumWorkingSetSize", ctypes.c_size_t),
                    ("MaximumWorkingSetSize", ctypes.c_size_t),
                    ("ActiveProcessLimit", wintypes.DWORD),
                    ("Affinity", ctypes.c_size_t),
                    ("PriorityClass", wintypes.DWORD),
                    ("SchedulingClass", wintypes.DWORD)]

    class Counters(ctypes.Structure):
        _fields_ = [(name, ctypes.c_uint64) for name in (
            "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
            "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]

    class Extended(ctypes.Structure):
        _fields_ = [("BasicLimitInformation", Basic),
                    ("IoInfo", Counters),
                    ("ProcessMemoryLimit", ctypes.c_size_t),
                    ("JobMemoryLimit", ctypes.c_size_t),
                    ("PeakProcessMemoryUsed", ctypes.c_size_t),
                    ("PeakJobMemoryUsed", ctypes.c_size_t)]

    return Extended()


__all__ = ["CREATE_SUSPENDED", "Job", "split_command_line", "start_in_job"]
