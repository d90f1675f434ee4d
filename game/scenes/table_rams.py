"""The Rams table: the game's parts from :mod:`game.table` on the shared table scene
(:mod:`game.scenes.table`), and the attract mode's Rams game.

In hot-seat play the table turns: the seat at the bottom is always the viewer's.
"""

from __future__ import annotations

import pygame

from game import games
from game.rules.base import Event, Refusal
from game.rules.rams import RamsGame
from game.rules.rams_rules import counters_of
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
    shows_last_trick = True
    #: the table fast-forwarded by itself once every person was out (only once)
    _auto_skipped = False

    def make_model(self) -> RamsModel:
        rules = self.game.rules
        counting = counters_of(rules)
        m = RamsModel(self.n, rules["counters"] if counting else rules["lives"])
        m.counting = counting
        return m

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

    def holds_before(self, event: Event) -> bool:
        """A round's reckoning is held (see the shared table), but not after a void
        round: there is nothing to read but the banner, and the next deal goes on."""
        if event.type == "round_start":
            i = event.data.get("round", 0) - 1
            rounds = self.game.rounds
            if 0 <= i < len(rounds) and rounds[i].get("void"):
                return False
        return super().holds_before(event)

    def human_move(self, move: str) -> Refusal | None:
        """The person moves: the results they had not seen are seen now. A person who
        drops out leaves the round to the computers: it goes on at fast speed by
        itself up to the person's next decision (F gives the normal pace back)."""
        refusal = super().human_move(move)
        if refusal is None:
            self.model.unseen = 0
            if move == "drop" and not self.skipping and self.skip_allowed():
                self.toggle_skip()
        return refusal

    def update(self, dt: float) -> None:
        """When every person at the table is out, the computers play on to the end at
        fast speed by themselves (F gives the normal pace back); each round's result
        stays readable in the results strip, the newest one in gold (no move of theirs
        is to come that would mark the others seen: the whole strip turned gold)."""
        if self.humans and not any(self.game.in_game[s] for s in self.humans):
            if not self._auto_skipped and not self.skipping and self.skip_allowed():
                self._auto_skipped = True
                self.toggle_skip()
            self.model.unseen = min(self.model.unseen, 1)
        super().update(dt)

    def hand_hit(self, pos: tuple[int, int]) -> bool:
        return any(r.collidepoint(pos) for r in self.controls.card_rects())

    def picks_cards(self) -> bool:
        return self.controls.card_choice()

    def extra_event(self, ev: pygame.event.Event) -> bool:
        """The last trick: L, or a click on a trick pile."""
        return self.controls.last_trick_event(ev)

    def close_overlay(self) -> bool:
        """Esc hides the last trick (the next Esc opens the menu)."""
        if not self.controls.show_last:
            return False
        self.controls.show_last = False
        return True


def demo_scene(app, players: int = 5, seed: int | None = None) -> RamsTableScene:
    """Computers only, every level, for the attract mode."""
    entry = games.entry(RamsGame.game_id)
    players = max(3, min(entry.setup_max_seats, int(players)))
    return RamsTableScene(app, demo_seats(players, entry.levels), {}, seed=seed,
                          options=TableOptions(demo=True, keep_records=False))
