"""What a table shows at this moment, per game. It follows the animations, not the
engine: animators (``*_animator.py``) change it as they reach each event, painters
(``*_painter.py``) and controls read it. No pygame.
"""

from __future__ import annotations

from typing import Any

from game.view.sprites import Banner, Bubble, CardSprite, Chip, Confetti, HandCard, Mover


class TableModel:
    """What both games show: lives, who is out, the dealer button, the round, the pot,
    flying chips, speech bubbles, the banner, confetti and the log."""

    def __init__(self, n: int, lives: int) -> None:
        self.n = n
        self.lives = [lives] * n
        self.out = [False] * n
        self.dealer: int | None = None
        self.active: list[int] = list(range(n))
        self.round = 0
        self.sudden = False
        self.pot = 0
        self.chips: list[Chip] = []
        self.bubbles: list[Bubble] = []
        self.banner: Banner | None = None
        self.confetti: Confetti | None = None
        self.button = Mover(("dealer", 0))      # the dealer button
        self.button.alpha = 0.0
        #: (text key, format values, only for this seat or None)
        self.log: list[tuple[str, dict[str, Any], int | None]] = []
        self.out_order: list[int] = []
        self.out_round: dict[int, int] = {}
        self.rounds_played = 0


class ChaseModel(TableModel):
    """Chase the Ace: one card per seat, the talon, the discards."""

    def __init__(self, n: int, lives: int, pot: int = 0) -> None:
        super().__init__(n, lives)
        self.pot = pot
        self.cards: dict[int, str] = {}         # each seat's card, as the events said
        self.public_up: set[int] = set()        # seats whose card the engine showed
        self.hand: dict[int, CardSprite] = {}   # the card in front of each seat
        self.extras: list[CardSprite] = []      # first-dealer cards, a peeked talon King
        self.discards: list[CardSprite] = []
        self.talon_split = 0.0                  # the riffle: 0 closed, 1 split
        self.highlight: set[int] = set()
        self.blocked: set[int] = set()          # seats that showed a King this round


class RamsModel(TableModel):
    """Rams: hands, the stock and trump card, declarations, the trick, tricks won."""

    def __init__(self, n: int, lives: int) -> None:
        super().__init__(n, lives)
        self.hands: dict[int, list[HandCard]] = {s: [] for s in range(n)}
        self.folded: set[int] = set()           # dropped: their cards lie face down
        self.codes: dict[int, list[str]] = {}   # each seat's cards, as the events said
        self.trick_sprites: list[tuple[int, HandCard]] = []
        self.flying: list[HandCard] = []        # on their way to a pile or the stock
        self.trump_sprite: HandCard | None = None
        self.trump = ""
        self.declared: dict[int, str] = {}
        self.tricks: dict[int, int] = {}
        self.lone: int | None = None
        self.general: int | None = None         # the seat that announced General Rams
        self.players: list[int] = []            # seats playing this round's tricks
        self.round_lost: dict[int, int] = {}
        self.summary: dict[str, Any] | None = None
        self.summary_alpha = 0.0
        self.stock_split = 0.0
        #: the last trick swept this round: ``{"cards": [(seat, card), ...], "winner"}``
        self.last_trick: dict[str, Any] | None = None
        #: every finished round's result, oldest first, for the results strip:
        #: ``{"round": n, "void": bool, "changes": {seat: amount}}`` (lives lost, or
        #: counters added; a shed is negative)
        self.results: list[dict[str, Any]] = []
        #: results the person has not looked at yet (the strip marks them)
        self.unseen = 0
        #: ``scoring: counters``: ``lives`` are each seat's counters
        self.counting = False
