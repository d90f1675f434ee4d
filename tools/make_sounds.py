#!/usr/bin/env python3
"""Synthesize every sound effect of the game into ``sounds/`` (standard library only).

Usage::

    python tools/make_sounds.py            # writes sounds/*.wav at the repository root
    python tools/make_sounds.py OUT_DIR    # writes into OUT_DIR instead (tests use this)

All files are 16-bit mono 44.1 kHz WAV. Every effect is built from seeded noise,
filters and damped sine partials, shaped by envelopes that start and end at zero
(no clicks), then loudness-matched: scaled to a common RMS level but never above
a peak of -3 dBFS. The output is byte-for-byte the same on every run.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import wave
from array import array
from pathlib import Path

RATE = 44100
PEAK = 10 ** (-3 / 20)          # -3 dBFS
TARGET_RMS = 10 ** (-17 / 20)   # common loudness; transient sounds stay peak-limited
TAU = 2 * math.pi

Signal = list[float]


# ---------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------
def n_samples(seconds: float) -> int:
    return int(round(seconds * RATE))


def silence(seconds: float) -> Signal:
    return [0.0] * n_samples(seconds)


def noise(rng: random.Random, seconds: float) -> Signal:
    return [rng.uniform(-1.0, 1.0) for _ in range(n_samples(seconds))]


def add(a: Signal, b: Signal, gain_b: float = 1.0, gain: float = 1.0) -> Signal:
    """Sample-wise ``(a + gain_b * b) * gain``; the shorter signal is padded with silence."""
    n = max(len(a), len(b))
    a = a + [0.0] * (n - len(a))
    b = b + [0.0] * (n - len(b))
    return [(x + gain_b * y) * gain for x, y in zip(a, b, strict=False)]


def mix_into(dst: Signal, src: Signal, at: float = 0.0, gain: float = 1.0) -> None:
    """Add ``src`` into ``dst`` starting at ``at`` seconds (``dst`` grows if needed)."""
    start = n_samples(at)
    end = start + len(src)
    if end > len(dst):
        dst.extend([0.0] * (end - len(dst)))
    for i, v in enumerate(src):
        dst[start + i] += v * gain


def _biquad_coeffs(kind: str, freq: float, q: float) -> tuple[float, ...]:
    """RBJ audio-EQ-cookbook coefficients, normalised (b0, b1, b2, a1, a2)."""
    freq = min(max(freq, 20.0), RATE * 0.45)
    w0 = TAU * freq / RATE
    cw, sw = math.cos(w0), math.sin(w0)
    alpha = sw / (2 * q)
    if kind == "lp":
        b0, b1, b2 = (1 - cw) / 2, 1 - cw, (1 - cw) / 2
    elif kind == "hp":
        b0, b1, b2 = (1 + cw) / 2, -(1 + cw), (1 + cw) / 2
    elif kind == "bp":  # constant 0 dB peak gain
        b0, b1, b2 = alpha, 0.0, -alpha
    else:
        raise ValueError(kind)
    a0, a1, a2 = 1 + alpha, -2 * cw, 1 - alpha
    return b0 / a0, b1 / a0, b2 / a0, a1 / a0, a2 / a0


def biquad(sig: Signal, kind: str, freq, q: float = 0.707, block: int = 64) -> Signal:
    """Filter ``sig``; ``freq`` is a number or a function of time (seconds) for sweeps."""
    out = [0.0] * len(sig)
    x1 = x2 = y1 = y2 = 0.0
    sweep = callable(freq)
    b0, b1, b2, a1, a2 = _biquad_coeffs(kind, freq(0.0) if sweep else freq, q)
    for i, x in enumerate(sig):
        if sweep and i % block == 0:
            b0, b1, b2, a1, a2 = _biquad_coeffs(kind, freq(i / RATE), q)
        y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, x, y1, y
        out[i] = y
    return out


def envelope(sig: Signal, attack: float, decay: float, hold: float = 0.0,
             curve: float = 1.0) -> Signal:
    """Raised-cosine attack, optional hold, then exponential decay (time constant ``decay``)."""
    a = max(1, n_samples(attack))
    h = n_samples(hold)
    out = []
    for i, v in enumerate(sig):
        if i < a:
            g = 0.5 - 0.5 * math.cos(math.pi * i / a)
        elif i < a + h:
            g = 1.0
        else:
            g = math.exp(-((i - a - h) / RATE) / decay) ** curve
        out.append(v * g)
    return out


def shape(sig: Signal, gain_at) -> Signal:
    """Multiply by an arbitrary gain function of time."""
    return [v * gain_at(i / RATE) for i, v in enumerate(sig)]


def partials(freqs_amps_decays, seconds: float, attack: float = 0.001,
             phase_rng: random.Random | None = None) -> Signal:
    """Sum of exponentially damped sines: [(freq, amp, decay_seconds), ...]."""
    n = n_samples(seconds)
    out = [0.0] * n
    a = max(1, n_samples(attack))
    for freq, amp, decay in freqs_amps_decays:
        ph = phase_rng.uniform(0, TAU) if phase_rng else 0.0
        w = TAU * freq / RATE
        k = math.exp(-1.0 / (decay * RATE))
        g = amp
        for i in range(n):
            att = 0.5 - 0.5 * math.cos(math.pi * i / a) if i < a else 1.0
            out[i] += math.sin(w * i + ph) * g * att
            g *= k
    # a short raised-cosine release so a window never ends on a cut-off partial
    r = max(1, min(n // 4, n_samples(0.012)))
    for i in range(r):
        out[n - 1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / r)
    return out


def tone(freq: float, seconds: float, harmonics, attack: float = 0.02,
         release: float = 0.08, vibrato: float = 0.0, vib_rate: float = 5.5,
         bright_decay: float = 0.0, glide_to: float | None = None) -> Signal:
    """A pitched note from harmonic amplitudes; upper harmonics may fade faster."""
    n = n_samples(seconds)
    a = max(1, n_samples(attack))
    r = max(1, n_samples(release))
    out = [0.0] * n
    phase = 0.0
    for i in range(n):
        t = i / RATE
        f = freq if glide_to is None else freq * (glide_to / freq) ** (i / n)
        if vibrato:
            f *= 1 + vibrato * math.sin(TAU * vib_rate * t) * min(1.0, t / 0.25)
        phase += TAU * f / RATE
        v = 0.0
        for h, amp in enumerate(harmonics, start=1):
            if amp:
                fade = math.exp(-t * bright_decay * (h - 1)) if bright_decay else 1.0
                v += amp * fade * math.sin(h * phase)
        if i < a:
            v *= 0.5 - 0.5 * math.cos(math.pi * i / a)
        if i >= n - r:
            v *= 0.5 - 0.5 * math.cos(math.pi * (n - i) / r)
        out[i] = v
    return out


def slide(rng: random.Random, seconds: float, f_start: float, f_end: float,
          q: float = 0.9, attack: float = 0.012) -> Signal:
    """A card sliding over felt: band-passed noise with a falling/rising centre."""
    src = noise(rng, seconds)
    ratio = f_end / f_start
    filt = biquad(src, "bp", lambda t: f_start * ratio ** min(1.0, t / seconds), q)
    filt = biquad(filt, "lp", 6000.0)
    n = len(filt)
    a = max(1, n_samples(attack))

    def gain(i: int) -> float:
        if i < a:
            return 0.5 - 0.5 * math.cos(math.pi * i / a)
        x = (i - a) / max(1, n - a)
        return (1 - x) ** 1.6

    return [v * gain(i) for i, v in enumerate(filt)]


def tap(rng: random.Random, strength: float = 1.0, low: float = 170.0,
        seconds: float = 0.1) -> Signal:
    """A soft landing: low-passed noise tick plus a small damped thump."""
    click = envelope(biquad(noise(rng, seconds), "lp", 2400.0), 0.0008, 0.006)
    body = partials([(low, 0.6, 0.025), (low * 2.3, 0.25, 0.012)], seconds, attack=0.0015)
    return add(click, body, gain=strength)


# ---------------------------------------------------------------------------
# finishing
# ---------------------------------------------------------------------------
def finish(sig: Signal, fade_in: float = 0.002, fade_out: float = 0.015,
           tail: float = 0.01) -> Signal:
    """Remove DC, fade both ends to exactly zero, loudness-match, peak-limit."""
    sig = sig + [0.0] * n_samples(tail)
    mean = sum(sig) / len(sig)
    sig = [v - mean for v in sig]
    fi, fo = max(1, n_samples(fade_in)), max(1, n_samples(fade_out))
    n = len(sig)
    for i in range(min(fi, n)):
        sig[i] *= 0.5 - 0.5 * math.cos(math.pi * i / fi)
    for i in range(min(fo, n)):
        sig[n - 1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / fo)
    sig[0] = sig[-1] = 0.0
    peak = max(abs(v) for v in sig) or 1.0
    rms = math.sqrt(sum(v * v for v in sig) / n) or 1.0
    gain = min(PEAK / peak, TARGET_RMS / rms)
    return [v * gain for v in sig]


def to_pcm16(sig: Signal) -> bytes:
    data = array("h", (max(-32767, min(32767, int(round(v * 32767)))) for v in sig))
    if sys.byteorder == "big":
        data.byteswap()
    return data.tobytes()


def write_wav(path: Path, sig: Signal) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(to_pcm16(sig))


# ---------------------------------------------------------------------------
# the effects
# ---------------------------------------------------------------------------
def make_deal() -> Signal:
    rng = random.Random(101)
    out = slide(rng, 0.16, 2600.0, 1300.0, q=0.8)
    mix_into(out, tap(rng, 0.55, low=190.0), at=0.135)
    return out


def make_flip() -> Signal:
    rng = random.Random(202)
    out = slide(rng, 0.07, 1500.0, 4200.0, q=1.1, attack=0.008)
    snap = envelope(biquad(noise(rng, 0.03), "hp", 2500.0), 0.0005, 0.004)
    mix_into(out, snap, at=0.055, gain=0.8)
    mix_into(out, tap(rng, 0.35, low=230.0, seconds=0.08), at=0.06)
    return out


def make_shuffle() -> Signal:
    rng = random.Random(303)
    total = 1.0
    out = silence(total)
    # the riffle: the flicks of card edges, speeding up then slowing down
    t, i = 0.04, 0
    while t < 0.72:
        x = (t - 0.04) / 0.68
        gap = 0.020 - 0.012 * math.sin(math.pi * x)
        flick = envelope(noise(rng, 0.018), 0.0004, 0.0028)
        flick = biquad(flick, "bp", rng.uniform(2800.0, 4600.0), 1.4)
        amp = (0.55 + 0.45 * math.sin(math.pi * min(1.0, x * 1.2))) * rng.uniform(0.6, 1.0)
        mix_into(out, flick, at=t, gain=amp)
        t += gap * rng.uniform(0.8, 1.2)
        i += 1
    # the whirr underneath
    whirr = biquad(noise(rng, 0.74), "bp", 2200.0, 0.7)
    whirr = shape(whirr, lambda s: 0.12 * math.sin(math.pi * min(1.0, s / 0.74)) ** 1.5)
    mix_into(out, whirr, at=0.03)
    # the bridge: the halves fall together, then are squared on the table
    mix_into(out, slide(rng, 0.12, 1800.0, 900.0, q=0.8), at=0.74, gain=0.6)
    mix_into(out, tap(rng, 0.7, low=150.0), at=0.86)
    return out


def make_swap() -> Signal:
    rng = random.Random(404)
    out = slide(rng, 0.17, 1600.0, 2400.0, q=0.85)
    mix_into(out, slide(rng, 0.17, 2500.0, 1400.0, q=0.85), at=0.15, gain=0.9)
    mix_into(out, tap(rng, 0.4, low=200.0), at=0.29)
    return out


def _wood_knock(rng: random.Random, strength: float) -> Signal:
    body = partials([(182.0, 1.0, 0.045), (395.0, 0.55, 0.03), (760.0, 0.32, 0.018),
                     (1230.0, 0.18, 0.01), (1890.0, 0.09, 0.006)], 0.2, attack=0.0008,
                    phase_rng=rng)
    click = envelope(biquad(noise(rng, 0.02), "lp", 3500.0), 0.0003, 0.003)
    return add(body, click, 0.7, strength)


def make_knock() -> Signal:
    rng = random.Random(505)
    out = _wood_knock(rng, 1.0)
    mix_into(out, _wood_knock(rng, 0.85), at=0.17)
    return biquad(out, "lp", 5000.0)


def _chip_hit(rng: random.Random, strength: float, detune: float) -> Signal:
    modes = [(2250.0, 1.0, 0.03), (3580.0, 0.6, 0.02), (5150.0, 0.35, 0.012),
             (6900.0, 0.18, 0.008), (1120.0, 0.25, 0.02)]
    body = partials([(f * detune, a, d) for f, a, d in modes], 0.12, attack=0.0005,
                    phase_rng=rng)
    click = envelope(biquad(noise(rng, 0.01), "hp", 1500.0), 0.0002, 0.0015)
    return add(body, click, 0.6, strength)


def make_chip() -> Signal:
    rng = random.Random(606)
    out = silence(0.3)
    for at, strength, detune in ((0.0, 1.0, 1.0), (0.055, 0.55, 1.0), (0.07, 0.5, 1.07),
                                 (0.1, 0.3, 1.0), (0.125, 0.22, 1.07), (0.145, 0.12, 1.0)):
        mix_into(out, _chip_hit(rng, strength, detune), at=at)
    return biquad(out, "lp", 7500.0)


def make_trick() -> Signal:
    rng = random.Random(707)
    out = slide(rng, 0.14, 2200.0, 1500.0, q=0.8)
    mix_into(out, slide(rng, 0.14, 2000.0, 1300.0, q=0.8), at=0.07, gain=0.8)
    mix_into(out, slide(rng, 0.16, 1800.0, 1000.0, q=0.8), at=0.14, gain=0.7)
    mix_into(out, tap(rng, 0.8, low=160.0, seconds=0.12), at=0.3)
    return out


BRASS = (1.0, 0.75, 0.55, 0.42, 0.3, 0.2, 0.13, 0.08)
SOFT = (1.0, 0.0, 0.16, 0.0, 0.06, 0.0, 0.025)


def make_win() -> Signal:
    out: Signal = []
    notes = ((392.00, 0.0), (523.25, 0.13), (659.25, 0.26), (783.99, 0.39))
    for freq, at in notes:
        mix_into(out, tone(freq, 0.16, BRASS, attack=0.012, release=0.06, bright_decay=4.0),
                 at=at, gain=0.8)
    chord_at = 0.54
    for freq, gain in ((523.25, 0.55), (659.25, 0.45), (783.99, 0.45), (1046.5, 0.4)):
        note = tone(freq, 1.25, BRASS, attack=0.03, release=0.5, vibrato=0.004,
                    bright_decay=1.6)
        mix_into(out, note, at=chord_at, gain=gain)
    # a little sparkle on top
    rng = random.Random(808)
    for k, freq in enumerate((2093.0, 2637.0, 3136.0)):
        bell = partials([(freq, 0.25, 0.25), (freq * 2.76, 0.06, 0.08)], 0.6, attack=0.002,
                        phase_rng=rng)
        mix_into(out, bell, at=chord_at + 0.05 + 0.07 * k)
    out = biquad(out, "lp", 6500.0)
    return envelope(out, 0.002, 10.0)


def make_lose() -> Signal:
    out: Signal = []
    notes = ((392.00, 0.0, 0.26, None), (369.99, 0.28, 0.26, None),
             (349.23, 0.56, 0.26, None), (329.63, 0.84, 0.7, 311.13))
    for freq, at, dur, glide in notes:
        note = tone(freq, dur, SOFT, attack=0.025, release=min(0.35, dur * 0.5),
                    vibrato=0.012 if glide else 0.0, vib_rate=5.0, glide_to=glide)
        # a muted "wah": the brightness opens then closes within each note
        wah = biquad(note, "lp", lambda t, d=dur: 500.0 + 1400.0 * math.sin(math.pi * min(1.0, t / d)),
                     q=1.2)
        mix_into(out, wah, at=at, gain=0.9)
    return out


def make_click() -> Signal:
    rng = random.Random(909)
    body = partials([(1750.0, 0.8, 0.006), (3400.0, 0.3, 0.003), (900.0, 0.3, 0.008)],
                    0.045, attack=0.0004)
    tick = envelope(biquad(noise(rng, 0.01), "hp", 3000.0), 0.0002, 0.0012)
    mix_into(body, tick, gain=0.4)
    return body


EFFECTS = {
    "deal": make_deal,
    "flip": make_flip,
    "shuffle": make_shuffle,
    "swap": make_swap,
    "knock": make_knock,
    "chip": make_chip,
    "trick": make_trick,
    "win": make_win,
    "lose": make_lose,
    "click": make_click,
}


def generate(out_dir: Path, names=None) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in EFFECTS.items():
        if names and name not in names:
            continue
        path = out_dir / f"{name}.wav"
        fade_out = 0.004 if name == "click" else 0.02
        write_wav(path, finish(make(), fade_out=fade_out))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", nargs="?", default=str(root / "sounds"),
                    help="output folder (default: sounds/ at the repository root)")
    ap.add_argument("--only", nargs="*", default=None, help="generate only these effects")
    args = ap.parse_args(argv)
    for path in generate(Path(args.out_dir), args.only):
        with wave.open(str(path)) as w:
            secs = w.getnframes() / w.getframerate()
        print(f"{path}  {secs:.2f} s  {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
