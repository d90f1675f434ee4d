"""The command line at the door: ``--version`` answers, and every number out of range
is refused with a message that names the range it must lie in."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game import __version__, winsize
from tests.test_hostile_input import run  # the command line run in-process

ROOT = Path(__file__).resolve().parents[1]


def test_version_prints_the_version(capsys):
    code, out, err = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"stammtisch {__version__}" and not err


def test_version_is_the_packages_version():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^version = "([^"]+)"', text, re.M)
    assert found is not None and found.group(1) == __version__


def test_version_through_python_m_game():
    done = subprocess.run([sys.executable, "-m", "game", "--version"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == f"stammtisch {__version__}"


PLAY = ["--players", "3", "--seats", "random,random,random"]
#: (argv, the range the message must name)
OUT_OF_RANGE = [
    (["--size", "10x10"], winsize.describe_range()),
    (["--size", "1280x20000"], winsize.describe_range()),
    (["--size", f"{winsize.MIN_SIZE[0] - 1}x{winsize.MIN_SIZE[1]}"], winsize.describe_range()),
    (["--players", "2"], "from 3 to 10"),
    (["--players", "11"], "from 3 to 10"),
    (["--seed", "-1"], "from 0 to 18446744073709551615"),
    (["--quit-after", "-1"], "at least 0 and at most 1e+07 seconds"),
    (["tournament", *PLAY, "--games", "0"], "from 1 to"),
    (["tournament", *PLAY, "--max-rounds", "0"], "from 1 to"),
    (["tournament", *PLAY, "--time-limit", "0"], "more than 0 and at most 3600 seconds"),
    (["tournament", "--players", "40", "--seats", "random"], "from 3 to 20"),
    (["advise", str(ROOT / "tests/examples/0010_chase_5p_partial.json"), "--samples", "0"],
     "from 1 to 100000"),
    (["policy", "--players", "11"], "from 2 to 10"),
    (["host", "--seats", "phone,random,random", "--port", "70000"], "from 0 to 65535"),
    (["host", "--seats", "phone,random,random", "--think", "99"],
     "at least 0 and at most 60 seconds"),
    (["tournament", *PLAY, "--rules", '{"lives": 9}'], "from 1 to 5"),
    (["tournament", "--game", "rams", *PLAY, "--rules", '{"hand_size": 9}'], "from 3 to 5"),
    (["tournament", "--game", "rams", *PLAY, "--rules", '{"drop_limit": 0}'],
     "from 1 to 5 or one of none"),
]


@pytest.mark.parametrize("argv,named", OUT_OF_RANGE,
                         ids=[" ".join(a)[-36:] for a, _ in OUT_OF_RANGE])
def test_out_of_range_names_its_range(argv, named, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and not out
    assert named in err, err
    assert "Traceback" not in err


def test_the_size_range_is_the_windows():
    assert winsize.allowed(*winsize.MIN_SIZE) and winsize.allowed(*winsize.DEFAULT_SIZE)
    assert not winsize.allowed(winsize.MIN_SIZE[0] - 1, winsize.MIN_SIZE[1])
    assert not winsize.allowed(winsize.MIN_SIZE[0], winsize.MIN_SIZE[1] - 1)
    assert re.fullmatch(r"from \d+x\d+ to \d+x\d+", winsize.describe_range())
    assert winsize.clamp(1, 1) == winsize.MIN_SIZE


@pytest.mark.parametrize("argv", [["--seed", "9" * 5000], ["--seed", "9" * 3000],
                                  ["--players", "x" * 5000], ["--quit-after", "y" * 5000],
                                  ["tournament", *PLAY, "--rules", "[" + "1," * 3000 + "1]"]])
def test_a_huge_argument_is_named_not_echoed_whole(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and not out and "error: argument" in err
    assert len(err.splitlines()[-1]) < 300, err[-400:]


@pytest.fixture()
def no_table(monkeypatch):
    """``host`` fails fast where it would start its table: an argument it refuses never
    gets that far."""
    from game.net import host

    def refuse(*args, **kwargs):
        raise ValueError("the table was started")

    monkeypatch.setattr(host, "HeadlessTable", refuse)


HOST = ["host", "--seats", "phone,random,random", "--record"]


def test_an_empty_record_path_is_refused_not_ignored(capsys, no_table):
    """``host --record ''`` hosted a game, wrote no record and said nothing."""
    code, out, err = run([*HOST, ""], capsys)
    assert code == 2 and not out
    assert "argument --record: expected a file's path, got an empty one" in err, err


def test_a_record_in_a_missing_folder_is_refused_before_the_table_starts(tmp_path, capsys,
                                                                         no_table):
    """``host --record /new/dir/x.json`` made the missing folders and wrote the record
    there at the end of the game: a typo in the folder hid the record where nobody
    looks. Now the folder is named and nothing is made."""
    missing = tmp_path / "new" / "dir"
    code, out, err = run([*HOST, str(missing / "x.json")], capsys)
    assert code == 2 and not out
    assert err.strip().splitlines()[-1].endswith(
        f"argument --record: the folder {str(missing)!r} does not exist"), err
    assert "the table was started" not in err
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("where", ["folder", "in_a_file"])
def test_a_record_path_that_cannot_be_a_file_is_refused(tmp_path, capsys, no_table, where):
    (tmp_path / "notes.txt").write_text("x")
    path, said = ((tmp_path, f"{str(tmp_path)!r} is a folder, not a file") if where == "folder"
                  else (tmp_path / "notes.txt" / "x.json",
                        f"{str(tmp_path / 'notes.txt')!r} is not a folder"))
    code, out, err = run([*HOST, str(path)], capsys)
    assert code == 2 and not out
    assert err.strip().splitlines()[-1].endswith(f"argument --record: {said}"), err


def test_a_record_in_a_folder_that_exists_starts_the_table(tmp_path, capsys, no_table,
                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    for path in (str(tmp_path / "x.json"), "x.json"):
        code, out, err = run([*HOST, path], capsys)
        assert code == 2 and "error: the table was started" in err, err


@pytest.mark.parametrize("argv", [
    ["replay", "--json", str(ROOT / "tests/examples/0000_chase_5p_complete.json")],
    ["policy", "--game", "chase", "--players", "3", "--level", "easy", "--json"],
    ["advise", str(ROOT / "tests/examples/0010_chase_5p_partial.json"), "--json",
     "--samples", "20"],
], ids=["replay", "policy", "advise"])
def test_output_to_a_reader_that_went_away_stops_without_a_traceback(argv):
    """``stammtisch policy --json | head -c 100``: the reader is gone before the
    output is written. Python raised BrokenPipeError out of print(), a traceback on
    the terminal (and another when stdout was flushed at exit); the command now stops
    quietly with status 1, as the Python documentation advises."""
    read_end, write_end = os.pipe()
    os.close(read_end)            # nobody will read: every write fails
    try:
        done = subprocess.run([sys.executable, "-m", "game", *argv], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=300, cwd=ROOT)
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode == 1


@pytest.mark.parametrize("name", ["tournament", "advise", "review", "policy", "replay"])
def test_ctrl_c_in_a_subcommand_stops_it_quietly(name, monkeypatch, capsys):
    """Ctrl+C during ``stammtisch tournament`` (a bot that thinks long, a long run) or
    ``advise`` ended in a KeyboardInterrupt traceback; the window quits quietly with
    status 130, and so does every subcommand now."""
    from game import commands

    def interrupted(argv: list[str]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setitem(commands.COMMANDS, name, interrupted)
    try:
        code = commands.run(name, [])
    except KeyboardInterrupt:       # not caught: pytest itself would stop here
        code = None
    assert code == 130
    assert capsys.readouterr().err == ""
