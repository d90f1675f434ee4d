"""The game review: where a finished game's lives went, and what the cards decided.

* :mod:`game.review.compute` -- pure: the decisions of a record, the coach's odds for
  each from the deciding seat's own view, what each choice cost against the best
  option, and per player the lives lost, the lives the decisions cost, the rest put
  down to the cards, and an accuracy figure. ``stammtisch review RECORD [--json]``.
* :mod:`game.review.job` -- the same computation in a worker (one coach call per
  decision), with progress, for the window.
* :mod:`game.review.history` -- each player's accuracy per reviewed game, kept with
  the statistics.

No pygame anywhere in this package. The JSON is documented in ``docs/review.md``.
"""
