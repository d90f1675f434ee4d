"""Computer players: levels, user bots, the tournament runner, advice and policies.

Every player decides from a view (docs/view.md) and nothing else: the functions here are
handed ``game.view(seat)``, never the engine.
"""
