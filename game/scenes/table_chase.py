"""The Chase the Ace table: the game's parts from :mod:`game.table` on the shared
table scene (:mod:`game.scenes.table`), and the attract mode's Chase game."""

from __future__ import annotations

from game import games
from game.rules.chase import ChaseGame
from game.scenes.table import TableScene
from game.table.chase_animator import ChaseAnimator
from game.table.chase_controls import ChaseControls
from game.table.chase_layout import ChaseLayout
from game.table.chase_painter import ChasePainter
from game.table.model import ChaseModel
from game.turn import chase_tips
from game.turn.chase_texts import card_story
from game.turn.options import TableOptions
from game.turn.seats import demo_seats
from game.turn.sources import Decision


class ChaseTableScene(TableScene):
    engine = ChaseGame
    tip_book = chase_tips

    def make_model(self) -> ChaseModel:
        return ChaseModel(self.n, self.game.rules["lives"], self.game.pot)

    def make_layout(self, bottom: int) -> ChaseLayout:
        return ChaseLayout(self.n, bottom)

    def make_animator(self) -> ChaseAnimator:
        return ChaseAnimator(self, self.model, self.anim, self.names)

    def make_painter(self) -> ChasePainter:
        return ChasePainter(self)

    def make_controls(self) -> ChaseControls:
        return ChaseControls(self.human_move)

    def hand_hit(self, pos: tuple[int, int]) -> bool:
        return self.table_layout.ready and self.table_layout.geo.hand_panel.collidepoint(pos)

    def offer_controls(self, decision: Decision) -> None:
        self.controls.offer(decision, lambda: card_story(decision.view, self.names))


def demo_scene(app, players: int = 6, seed: int | None = None) -> ChaseTableScene:
    """Computers only, every level, for the attract mode."""
    entry = games.entry(ChaseGame.game_id)
    players = max(3, min(entry.setup_max_seats, int(players)))
    return ChaseTableScene(app, demo_seats(players, entry.levels), {}, seed=seed,
                           options=TableOptions(demo=True, keep_records=False))
