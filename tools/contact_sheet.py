#!/usr/bin/env python3
"""Render every generated sprite onto one sheet, to judge the art at a glance.

Usage::

    python tools/contact_sheet.py              # out/contact_sheet.png (cards 180 px wide)
    python tools/contact_sheet.py --small      # out/contact_sheet_small.png (cards 60 px wide)
    python tools/contact_sheet.py --card-width 360 --only classic   # one section, full size
    python tools/contact_sheet.py --sprites DIR --out FILE

Sections: classic, four, cuckoo, backs, misc (felts, chips, dealer button, pot,
badge, icon). Rows are laid out on a felt background so the cards are seen as on
the table.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.cards import CUCKOO_VALUES, RANKS, SUITS  # noqa: E402

SECTIONS = ("classic", "four", "cuckoo", "backs", "misc")


def load(path: Path) -> pygame.Surface:
    return pygame.image.load(str(path))


def fit(img: pygame.Surface, width: int) -> pygame.Surface:
    if img.get_width() == width:
        return img
    h = max(1, round(img.get_height() * width / img.get_width()))
    return pygame.transform.smoothscale(img, (width, h))


def _framed(img: pygame.Surface) -> pygame.Surface:
    out = img.copy()
    pygame.draw.rect(out, (240, 240, 230), out.get_rect(), 1)
    return out


def ico_entries(data: bytes) -> list[pygame.Surface]:
    """Decode the PNG entries of an .ico file."""
    count = int.from_bytes(data[4:6], "little")
    images = []
    for i in range(count):
        entry = data[6 + 16 * i: 22 + 16 * i]
        size = int.from_bytes(entry[8:12], "little")
        offset = int.from_bytes(entry[12:16], "little")
        images.append(pygame.image.load(io.BytesIO(data[offset:offset + size]), "x.png"))
    return images


def build(sprites: Path, card_w: int, sections) -> pygame.Surface:
    pygame.font.init()
    label_font = pygame.font.Font(None, max(14, card_w // 7))
    gap = max(6, card_w // 12)
    rows: list[tuple[str, list[pygame.Surface]]] = []
    cards = sprites / "cards"
    if "classic" in sections or "four" in sections:
        for set_name in ("classic", "four"):
            if set_name not in sections:
                continue
            for suit in SUITS:
                imgs = [fit(load(cards / set_name / f"{r}{suit}.png"), card_w) for r in RANKS]
                rows.append((f"{set_name} {suit}", imgs))
    if "cuckoo" in sections:
        imgs = [fit(load(cards / "cuckoo" / f"{v}.png"), card_w) for v in CUCKOO_VALUES]
        rows.append(("cuckoo", imgs[:10]))
        rows.append(("cuckoo", imgs[10:]))
    if "backs" in sections:
        backs = sorted((sprites / "backs").glob("back_*.png"))
        rows.append(("backs", [fit(load(p), card_w) for p in backs]))
    if "misc" in sections:
        felts = [_framed(fit(load(p), card_w)) for p in sorted((sprites / "table").glob("felt_*.png"))]
        chips = [fit(load(p), card_w // 2) for p in sorted((sprites / "chips").glob("chip_*.png"))]
        rows.append(("felt", felts))
        other = [fit(load(sprites / name), card_w // 2)
                 for name in ("dealer_button.png", "pot.png", "block_badge.png")
                 if (sprites / name).exists()]
        icon = sprites / "icon"
        other += [fit(load(icon / "icon_512.png"), card_w), load(icon / "icon_256.png")]
        rows.append(("chips", chips + other))
        # the icon at the sizes a desktop shows it: the entries of the .ico file
        ico = icon / "stammtisch.ico"
        if ico.exists():
            rows.append(("icon (ico entries)", ico_entries(ico.read_bytes())[::-1]))
    width = max(sum(i.get_width() for i in imgs) + gap * (len(imgs) + 1) for _, imgs in rows)
    label_h = label_font.get_height()
    height = sum(max(i.get_height() for i in imgs) + label_h + gap for _, imgs in rows) + gap
    sheet = pygame.Surface((width, height))
    sheet.fill((30, 92, 56))
    felt = sprites / "table" / "felt_green.png"
    if felt.exists():
        tile = load(felt)
        for y in range(0, height, tile.get_height()):
            for x in range(0, width, tile.get_width()):
                sheet.blit(tile, (x, y))
    y = gap
    for name, imgs in rows:
        sheet.blit(label_font.render(name, True, (230, 230, 210)), (gap, y))
        y += label_h
        x = gap
        for img in imgs:
            sheet.blit(img, (x, y))
            x += img.get_width() + gap
        y += max(i.get_height() for i in imgs) + gap
    return sheet


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sprites", default=str(ROOT / "sprites"), help="sprites folder")
    ap.add_argument("--small", action="store_true",
                    help="cards 60 px wide, written to out/contact_sheet_small.png")
    ap.add_argument("--card-width", type=int, default=None, help="card width in pixels")
    ap.add_argument("--only", nargs="*", choices=SECTIONS, default=None,
                    help="render only these sections")
    ap.add_argument("--out", default=None, help="output PNG")
    args = ap.parse_args(argv)
    card_w = args.card_width or (60 if args.small else 180)
    out = Path(args.out) if args.out else ROOT / "out" / (
        "contact_sheet_small.png" if args.small else "contact_sheet.png")
    sheet = build(Path(args.sprites), card_w, tuple(args.only or SECTIONS))
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(sheet, str(out))
    print(f"{out}  {sheet.get_width()}x{sheet.get_height()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
