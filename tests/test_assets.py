"""Generated assets: sounds are sane, sprites exist and load, files match their scripts,
and the audio wrapper stays silent instead of failing."""

from __future__ import annotations

import array
import os
import subprocess
import sys
import wave
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import assets, audio  # noqa: E402
from game.cards import CUCKOO_VALUES, RANKS, SUITS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SPRITES = ROOT / "sprites"
SOUNDS = ROOT / "sounds"

#: expected length of each effect, seconds (min, max)
SOUND_LENGTHS = {
    "deal": (0.1, 0.5),
    "flip": (0.05, 0.35),
    "shuffle": (0.5, 1.6),
    "swap": (0.2, 0.7),
    "knock": (0.2, 0.8),
    "chip": (0.15, 0.6),
    "trick": (0.2, 0.8),
    "win": (0.8, 2.5),
    "lose": (0.6, 2.0),
    "click": (0.02, 0.15),
}

CARD_SIZE = (360, 504)


def _samples(path: Path) -> tuple[wave._wave_params, array.array]:
    with wave.open(str(path)) as w:
        params = w.getparams()
        frames = w.readframes(w.getnframes())
    data = array.array("h", frames)
    if sys.byteorder == "big":
        data.byteswap()
    return params, data


def expected_sprites() -> list[Path]:
    files = []
    for set_name in ("classic", "four"):
        files += [SPRITES / "cards" / set_name / f"{r}{s}.png" for s in SUITS for r in RANKS]
        # German decks: Bube and Dame say B and D
        files += [SPRITES / "cards" / f"{set_name}_de" / f"{r}{s}.png" for s in SUITS
                  for r in "JQ"]
    files += [SPRITES / "cards" / "cuckoo" / f"{v}.png" for v in dict.fromkeys(CUCKOO_VALUES)]
    files += [SPRITES / "backs" / f"back_{i}.png" for i in range(3)]
    files += [SPRITES / "table" / f"felt_{c}.png" for c in ("green", "blue", "red")]
    files += [SPRITES / "chips" / f"chip_{c}.png" for c in ("red", "blue", "green", "black")]
    files += [SPRITES / name for name in ("dealer_button.png", "pot.png", "block_badge.png")]
    files += [SPRITES / "icon" / name for name in ("icon_256.png", "icon_512.png")]
    return files


# ---------------------------------------------------------------------------
# (1) sounds
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SOUND_LENGTHS))
def test_sound_is_sane(name):
    path = SOUNDS / f"{name}.wav"
    assert path.is_file(), f"missing {path}"
    params, data = _samples(path)
    assert params.sampwidth == 2, "16-bit"
    assert params.nchannels == 1, "mono"
    assert params.framerate == 44100
    seconds = params.nframes / params.framerate
    lo, hi = SOUND_LENGTHS[name]
    assert lo <= seconds <= hi, f"{name}: {seconds:.2f} s outside {lo}..{hi} s"
    peak = max(abs(v) for v in data) / 32768
    assert 0.1 < peak < 0.99, f"{name}: peak {peak:.3f}"
    # starts and ends silently (no click)
    assert abs(data[0]) < 100 and abs(data[-1]) < 100


def test_every_wrapper_name_has_a_sound():
    assert set(audio.SOUND_NAMES) == set(SOUND_LENGTHS)


def test_sounds_total_small():
    total = sum(p.stat().st_size for p in SOUNDS.glob("*.wav"))
    assert total < 1_500_000


# ---------------------------------------------------------------------------
# (2) generated files are up to date with their scripts
# ---------------------------------------------------------------------------
def test_sounds_match_generator(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_sounds.py"), str(tmp_path)],
                   check=True, capture_output=True)
    fresh = sorted(p.name for p in tmp_path.glob("*.wav"))
    assert fresh == sorted(p.name for p in SOUNDS.glob("*.wav"))
    for name in fresh:
        new, old = (tmp_path / name).read_bytes(), (SOUNDS / name).read_bytes()
        if new == old:
            continue
        # identical up to one step of rounding (a platform's libm may differ in the last bit)
        _, a = _samples(tmp_path / name)
        _, b = _samples(SOUNDS / name)
        assert len(a) == len(b), f"{name} is stale: run tools/make_sounds.py"
        assert max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 1, (
            f"{name} is stale: run tools/make_sounds.py")


def _same_pixels(a: Path, b: Path) -> bool:
    if a.read_bytes() == b.read_bytes():
        return True
    ia, ib = pygame.image.load(str(a)), pygame.image.load(str(b))
    if ia.get_size() != ib.get_size():
        return False
    fa = pygame.image.tobytes(ia, "RGBA")
    fb = pygame.image.tobytes(ib, "RGBA")
    if fa == fb:
        return True
    # tolerate tiny anti-aliasing differences of another platform's font/scaler build
    diffs = [abs(x - y) for x, y in zip(fa, fb, strict=True)]
    changed = sum(1 for d in diffs if d > 2)
    return changed / len(diffs) < 0.002 and sum(diffs) / len(diffs) < 0.2


def test_sprites_match_generator(tmp_path):
    # the whole set takes a few seconds, so every file is compared
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_sprites.py"), str(tmp_path)],
                   check=True, capture_output=True)
    fresh = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(SPRITES) for p in SPRITES.rglob("*")
                       if p.is_file() and p.name != "README.md")
    assert [p.relative_to(tmp_path) for p in fresh] == committed, (
        "sprites/ holds other files than the generator writes: run tools/make_sprites.py")
    all_exact = True
    for path in fresh:
        rel = path.relative_to(tmp_path)
        if path.suffix == ".png":
            all_exact &= path.read_bytes() == (SPRITES / rel).read_bytes()
            assert _same_pixels(path, SPRITES / rel), f"{rel} is stale: run tools/make_sprites.py"
    if all_exact:  # same zlib/libpng build: the icon containers must match byte for byte
        for path in fresh:
            if path.suffix in (".ico", ".icns"):
                rel = path.relative_to(tmp_path)
                assert path.read_bytes() == (SPRITES / rel).read_bytes(), f"{rel} is stale"


def test_icon_containers(tmp_path):
    ico = (SPRITES / "icon" / "stammtisch.ico").read_bytes()
    reserved, kind, count = int.from_bytes(ico[0:2], "little"), int.from_bytes(ico[2:4], "little"), \
        int.from_bytes(ico[4:6], "little")
    assert (reserved, kind) == (0, 1) and count >= 5
    sizes = set()
    for i in range(count):
        entry = ico[6 + 16 * i: 22 + 16 * i]
        size = int.from_bytes(entry[8:12], "little")
        offset = int.from_bytes(entry[12:16], "little")
        assert ico[offset:offset + 8] == b"\x89PNG\r\n\x1a\n"
        assert offset + size <= len(ico)
        sizes.add(entry[0] or 256)
    assert {16, 32, 48, 256} <= sizes
    icns = (SPRITES / "icon" / "stammtisch.icns").read_bytes()
    assert icns[:4] == b"icns" and int.from_bytes(icns[4:8], "big") == len(icns)
    pos, types = 8, set()
    while pos < len(icns):
        kind, length = icns[pos:pos + 4], int.from_bytes(icns[pos + 4:pos + 8], "big")
        assert icns[pos + 8:pos + 16] == b"\x89PNG\r\n\x1a\n"
        types.add(kind)
        pos += length
    assert pos == len(icns)
    assert {b"ic07", b"ic08", b"ic09"} <= types


# ---------------------------------------------------------------------------
# (3) every expected sprite exists and loads
# ---------------------------------------------------------------------------
def test_sprites_exist_and_load():
    pygame.display.init()
    try:
        pygame.display.set_mode((1, 1))
        for path in expected_sprites():
            assert path.is_file(), f"missing {path.relative_to(ROOT)}"
            img = pygame.image.load(str(path)).convert_alpha()
            assert img.get_width() > 0
            if "cards" in path.parts or "backs" in path.parts:
                assert img.get_size() == CARD_SIZE, path.name
                # rounded corners: the very corner is transparent, the centre opaque
                assert img.get_at((0, 0)).a == 0
                assert img.get_at((180, 252)).a == 255
        felt = pygame.image.load(str(SPRITES / "table" / "felt_green.png"))
        assert felt.get_size() == (256, 256)
        icon = pygame.image.load(str(SPRITES / "icon" / "icon_512.png"))
        assert icon.get_size() == (512, 512)
    finally:
        pygame.display.quit()


def test_sprite_readme_and_budget():
    assert (SPRITES / "README.md").is_file()
    total = sum(p.stat().st_size for p in SPRITES.rglob("*") if p.is_file())
    total += sum(p.stat().st_size for p in SOUNDS.rglob("*") if p.is_file())
    assert total < 8_000_000, f"assets are {total / 1e6:.1f} MB"


# ---------------------------------------------------------------------------
# asset paths
# ---------------------------------------------------------------------------
def test_asset_path_from_source():
    assert assets.asset_path("sprites").resolve() == SPRITES.resolve()
    assert assets.sound_path("deal") == assets.asset_path("sounds", "deal.wav")
    assert assets.sprite_path("cards", "classic", "AS.png").is_file()


def test_asset_path_frozen(monkeypatch, tmp_path):
    (tmp_path / "sprites").mkdir()
    monkeypatch.delenv(assets.ENV_VAR, raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert assets.asset_root() == tmp_path
    assert assets.asset_path("sprites", "pot.png") == tmp_path / "sprites" / "pot.png"


def test_asset_path_env_override(monkeypatch, tmp_path):
    (tmp_path / "sounds").mkdir()
    monkeypatch.setenv(assets.ENV_VAR, str(tmp_path))
    assert assets.asset_root() == tmp_path


def test_assets_module_does_not_import_pygame():
    code = "import sys; import game.assets; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------
# (4) the audio wrapper degrades to silence
# ---------------------------------------------------------------------------
def test_audio_silent_when_mixer_fails(monkeypatch):
    def boom(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", boom)
    a = audio.Audio()
    assert a.play("deal") is False
    assert a.available is False
    a.set_volume(0.3)
    a.set_muted(True)
    a.set_muted(False)
    a.preload()
    a.stop()
    assert a.play("win") is False


def test_a_missing_sound_card_prints_nothing_on_the_terminal():
    """Without a sound card ALSA writes its complaints straight to descriptor 2 while
    the mixer starts: the game keeps them off the terminal (its log says why it is
    silent), and the terminal is the game's again afterwards."""
    code = """if True:
        import os, pygame
        from game import audio
        def native_complaint(*args, **kwargs):
            os.write(2, b"ALSA lib pcm.c: Unknown PCM default\\n")
            raise pygame.error("ALSA: Couldn't open audio device")
        pygame.mixer.get_init = lambda: None
        pygame.mixer.init = native_complaint
        print("available:", audio.Audio().available)
        os.write(2, b"the game's own line\\n")
    """
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                       text=True, timeout=120,
                       env=dict(os.environ, SDL_AUDIODRIVER="dummy", SDL_VIDEODRIVER="dummy"))
    assert r.returncode == 0, r.stderr
    assert "available: False" in r.stdout
    assert "ALSA lib" not in r.stderr and "the game's own line" in r.stderr


def test_audio_silent_when_mixer_stays_down(monkeypatch):
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: None)
    assert audio.Audio().play("deal") is False


def test_audio_unknown_name_and_missing_dir(tmp_path):
    a = audio.Audio(sound_dir=tmp_path / "nowhere")
    assert a.play("deal") is False
    b = audio.Audio()
    assert b.play("no-such-sound") is False
    assert b.play("") is False


def test_audio_volume_and_mute():
    a = audio.Audio(volume=2.0, muted=True)
    assert a.volume == 1.0 and a.muted
    assert a.play("deal") is False  # muted: nothing starts
    a.set_volume(-1)
    assert a.volume == 0.0
    a.set_volume(float("nan"))
    assert a.volume == 0.0


def test_audio_plays_with_dummy_driver():
    a = audio.Audio(volume=0.5)
    try:
        if not a.available:
            pytest.skip("no mixer even with the dummy driver")
        assert a.play("deal") is True
        assert a.play("deal") is True  # cached
        a.set_volume(0.2)
        a.stop()
    finally:
        pygame.mixer.quit()


def test_the_window_prints_no_greeting_of_pygame(tmp_path):
    """The game started from a terminal (here its smoke test: a window opened and
    closed) prints what the game says, not pygame's banner."""
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env.update(STAMMTISCH_HOME=str(tmp_path), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    r = subprocess.run([sys.executable, "-m", "game", "--smoke-test"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "pygame-ce" not in r.stdout + r.stderr, r.stdout + r.stderr
