"""Stammtisch: Chase the Ace and Rams at a card table."""

import os

# pygame greets on import; what the game prints on a terminal is its own (the
# standalone build's launcher does the same)
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"
