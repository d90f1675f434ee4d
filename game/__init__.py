"""Stammtisch: Chase the Ace and Rams at a card table."""

__version__ = "0.1.0"
