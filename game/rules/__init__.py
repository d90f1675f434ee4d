"""The pure rules engines (no pygame): Chase the Ace and Rams.

Per game, ``<game>_rules.py`` holds the rules as small pure functions and ``<game>.py``
the state machine built on them; ``base.py`` what both share, ``errors.py`` how an
engine refuses (its errors, all ValueErrors, and the words of a refusal). Which games
exist, and how to make one by its id, is the game registry's business
(:mod:`game.games`).
"""
