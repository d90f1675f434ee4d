"""The Rams table: the game's parts from :mod:`game.table` on the shared table scene
(:mod:`game.scenes.table`), and the attract mode's Rams game.

In hot-seat play the table turns: the seat at the bottom is always the viewer's.
"""

from __future__ import annotations

import pygame

from game import games
from game.rules.rams import RamsGame
from game.scenes.table import TableScene
from game.table.model import RamsModel
from game.table.rams_animator import RamsAnimator
from game.table.rams_controls import RamsControls
from game.table.rams_layout import RamsLayout
from game.table.rams_painter import RamsPainter
from game.turn import rams_tips
from game.turn.options import TableOptions
from game.turn.seats import demo_seats
from game.turn.sources import Decision


class RamsTableScene(TableScene):
    engine = RamsGame
    tip_book = rams_tips
    handoff_button = "handoff.button_hand"   # a whole hand, not one card
    click_hurries = True

    def make_model(self) -> RamsModel:
        return RamsModel(self.n, self.game.rules["lives"])

    def make_layout(self, bottom: int) -> RamsLayout:
        return RamsLayout(self.n, bottom, self.model)

    def make_animator(self) -> RamsAnimator:
        return RamsAnimator(self, self.model, self.anim, self.names)

    def make_painter(self) -> RamsPainter:
        return RamsPainter(self)

    def make_controls(self) -> RamsControls:
        return RamsControls(self.model, self.table_layout, self.human_move,
                            lambda: self.app.play("knock"))

    def offer_controls(self, decision: Decision) -> None:
        self.controls.offer(decision, lambda m: self.game.why_illegal(decision.seat, m))

    def hand_hit(self, pos: tuple[int, int]) -> bool:
        return any(r.collidepoint(pos) for r in self.controls.card_rects())

    def picks_cards(self) -> bool:
        return self.controls.card_choice()

    def extra_event(self, ev: pygame.event.Event) -> bool:
        """The last trick: L, or a click on a trick pile."""
        return self.controls.last_trick_event(ev)


def demo_scene(app, players: int = 5, seed: int | None = None) -> RamsTableScene:
    """Computers only, every level, for the attract mode."""
    entry = games.entry(RamsGame.game_id)
    players = max(3, min(entry.setup_max_seats, int(players)))
    return RamsTableScene(app, demo_seats(players, entry.levels), {}, seed=seed,
                          options=TableOptions(demo=True, keep_records=False))
