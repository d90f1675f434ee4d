"""Screenshots of the phone table for a person to look at, in German and English:

* the big screen's join panel (QR codes, addresses, join code) and the "phone away"
  question at 960x600, 1280x720, 1920x1080 (and 3840x2160 with ``--4k``);
* the phone page in headless Chromium: a Chase and a Rams decision in portrait (the
  Rams one also on a small 360x640 phone), a Rams trick in landscape, the coach's
  odds, the guests' join screen.

    python tools/phone_screens.py [--out out/phone] [--4k]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import pygame  # noqa: E402
from chromium import Chromium  # noqa: E402

from game import i18n  # noqa: E402
from game.net.host import HeadlessTable  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.turn.options import TableOptions  # noqa: E402

SIZES = [(960, 600), (1280, 720), (1920, 1080)]
HAND = ("(() => { const i = [...document.querySelectorAll('#hand img')]; "
        "return i.length > 0 && i.every(x => x.complete && x.naturalWidth > 0); })()")



def _seat_page(table: HeadlessTable, seat: int) -> str:
    """The seat's page: its link until a phone opened it, then that phone's address."""
    return f"{table.server.base_url}/p/{table.server.access.tokens[seat]}"

def table_shots(out: Path, sizes: list[tuple[int, int]]) -> list[Path]:
    from game.settings import default_setup

    shots = []
    for lang in ("en", "de"):
        for size in sizes:
            app = T.make_app(size, lang=lang)
            setup = default_setup()
            for i, kind in enumerate(("phone", "phone", "human", "medium")):
                setup["seats"][i].update(human=kind != "medium", phone=kind == "phone")
            app.settings["setup"] = setup
            app.open("setup", game_id="chase")
            T.frame(app)
            path = out / f"setup_{lang}_{size[0]}x{size[1]}.png"
            pygame.image.save(app.screen, str(path))
            shots.append(path)
            app = T.make_app(size, lang=lang)
            i18n.set_lang(lang)
            seats = [{"name": n, "human": k != "ai", "phone": k == "phone", "level": "medium"}
                     for n, k in (("Anna", "phone"), ("Ben", "phone"), ("Clara", "human"),
                                  ("Otto", "ai"), ("Emma", "phone"))]
            table = app.open("table", game_id="chase", seats=seats, seed=3,
                             options=TableOptions(phone_bind="127.0.0.1"))
            for _ in range(5):
                T.frame(app)
            path = out / f"table_join_{lang}_{size[0]}x{size[1]}.png"
            pygame.image.save(app.screen, str(path))
            shots.append(path)
            table.show_phones = False
            table.away_seat = 0
            T.frame(app)
            path = out / f"table_away_{lang}_{size[0]}x{size[1]}.png"
            pygame.image.save(app.screen, str(path))
            shots.append(path)
            table.exit()
    return shots


async def _page(out: Path, lang: str) -> list[Path]:
    shots = []
    chase = HeadlessTable("chase", ["phone"] * 4, seed=21, keep_records=False)
    rams = HeadlessTable("rams", ["phone", "medium", "phone", "medium"], seed=5, bot_seed=5,
                         keep_records=False)
    threads = []
    for t in (chase, rams):
        t.start()
        th = threading.Thread(target=t.run, daemon=True)
        th.start()
        threads.append(th)
    try:
        async with Chromium(width=390, height=844) as b:
            p = chase.game.to_move()
            await b.goto(_seat_page(chase, p.seat) + f"?lang={lang}")
            await b.wait_for(HAND)
            shots.append(await b.screenshot(out / f"phone_chase_{lang}.png"))
            await b.tap("#odds")
            await b.wait_for("document.querySelector('#moves .odds') !== null", 60)
            shots.append(await b.screenshot(out / f"phone_chase_odds_{lang}.png"))
            p = rams.game.to_move()
            await b.goto(_seat_page(rams, p.seat) + f"?lang={lang}")
            await b.wait_for(HAND)
            shots.append(await b.screenshot(out / f"phone_rams_{lang}.png"))
            await b.goto(chase.server.join_link() + f"?lang={lang}")
            await b.wait_for("document.getElementById('code').value.length > 0")
            await b.tap("#look")
            await b.wait_for("document.querySelectorAll('#free button').length > 0")
            await b.tap("#free button")
            shots.append(await b.screenshot(out / f"phone_join_{lang}.png"))
        async with Chromium(width=360, height=640) as b:   # a small phone: Rams' three
            p = rams.game.to_move()
            await b.goto(_seat_page(rams, p.seat) + f"?lang={lang}")
            await b.wait_for(HAND)
            shots.append(await b.screenshot(out / f"phone_rams_360x640_{lang}.png"))
        async with Chromium(width=844, height=390) as b:
            n = len(rams.game.moves)
            while rams.game.to_move().decision != "trick" or \
                    rams.game.to_move().seat not in rams.phones:
                p = rams.game.to_move()
                if p.seat in rams.phones:
                    await b.goto(_seat_page(rams, p.seat) + f"?lang={lang}")
                    await b.wait_for(HAND)
                    await b.tap("#moves button:last-child")
                while len(rams.game.moves) == n:
                    await asyncio.sleep(0.02)
                n = len(rams.game.moves)
            p = rams.game.to_move()
            await b.goto(_seat_page(rams, p.seat) + f"?lang={lang}")
            await b.wait_for(HAND)
            await b.wait_for("document.querySelector('#hand .card.legal') !== null")
            await b.tap("#hand .card.legal")
            shots.append(await b.screenshot(out / f"phone_trick_landscape_{lang}.png"))
    finally:
        for t in (chase, rams):
            t.stop()
        for th in threads:
            th.join(10)
    return shots


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "out" / "phone"))
    p.add_argument("--4k", dest="uhd", action="store_true", help="also 3840x2160")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sizes = SIZES + ([(3840, 2160)] if args.uhd else [])
    shots = table_shots(out, sizes)
    for lang in ("en", "de"):
        shots += asyncio.run(_page(out, lang))
    for s in shots:
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
