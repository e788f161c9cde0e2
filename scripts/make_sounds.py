"""Synthesise the table's sounds (sahrat/web/sounds/*.wav) with the standard library.

Run ``python scripts/make_sounds.py`` after changing a recipe below; the WAV
files it writes are committed and shipped with the package. Each is a few
short tones or a burst of noise, 16 kHz mono, a few kilobytes: small enough to
load with the page, and ours to ship (nothing recorded or downloaded).
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 16_000
OUT = Path(__file__).resolve().parents[1] / "sahrat" / "web" / "sounds"


def tone(freq: float, seconds: float, volume: float = 0.5, decay: float = 6.0) -> list[float]:
    """A bell-like note: a sine and its octave, struck then fading."""
    n = int(RATE * seconds)
    out = []
    for i in range(n):
        t = i / RATE
        env = math.exp(-decay * t) * min(1.0, i / 80)
        out.append(
            volume
            * env
            * (math.sin(2 * math.pi * freq * t) + 0.3 * math.sin(4 * math.pi * freq * t))
        )
    return out


def noise(
    seconds: float, volume: float = 0.5, decay: float = 40.0, smooth: float = 0.6
) -> list[float]:
    """A short burst of softened noise: a card snapping onto the pile."""
    rng = random.Random(7)
    n = int(RATE * seconds)
    out, last = [], 0.0
    for i in range(n):
        last = smooth * last + (1 - smooth) * rng.uniform(-1, 1)
        out.append(volume * math.exp(-decay * i / RATE) * last)
    return out


def thump(seconds: float, start: float, end: float, volume: float = 0.8) -> list[float]:
    """A falling low note: a marble knocked back to its base."""
    n = int(RATE * seconds)
    out, phase = [], 0.0
    for i in range(n):
        f = start + (end - start) * i / n
        phase += 2 * math.pi * f / RATE
        out.append(volume * math.exp(-9 * i / RATE) * math.sin(phase))
    return out


def seq(*parts: list[float], gap: float = 0.0) -> list[float]:
    out: list[float] = []
    for part in parts:
        out += part + [0.0] * int(RATE * gap)
    return out


def mix(a: list[float], b: list[float]) -> list[float]:
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0.0) + (b[i] if i < len(b) else 0.0) for i in range(n)]


SOUNDS = {
    "turn": lambda: seq(tone(659, 0.12, 0.45, 10), tone(880, 0.3, 0.5, 8)),
    "card": lambda: noise(0.09, 0.7),
    "capture": lambda: mix(thump(0.28, 220, 70), noise(0.05, 0.5, 60)),
    "canasta": lambda: seq(
        tone(523, 0.1, 0.4, 12), tone(659, 0.1, 0.4, 12), tone(784, 0.35, 0.45, 6)
    ),
    "win": lambda: seq(
        tone(523, 0.12, 0.4, 10),
        tone(659, 0.12, 0.4, 10),
        tone(784, 0.12, 0.4, 10),
        tone(1047, 0.5, 0.5, 4),
    ),
    "tick": lambda: tone(1200, 0.07, 0.35, 40),
}


def write(name: str, samples: list[float]) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.wav"
    peak = max(1e-9, *(abs(s) for s in samples))
    scale = min(1.0, 0.9 / peak)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(32767 * s * scale)) for s in samples))
    return path


def main() -> None:
    for name, make in SOUNDS.items():
        path = write(name, make())
        print(f"{path.relative_to(OUT.parents[2])}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
