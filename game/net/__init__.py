"""The phone table: players hold their cards on their own phones, in a browser.

The window (or ``stammtisch host``) stays the owner of the game. A background thread
runs an asyncio HTTP/WebSocket server (:mod:`game.net.server`) that serves the phone
page (:mod:`game.net.page`) and one WebSocket channel per device; the two threads
talk through thread-safe queues. :mod:`game.net.link` is the table's side: it checks
moves with the engine, answers every move exactly once, and sends each phone seat
its own view (docs/view.md) and nothing else. :mod:`game.net.protocol` is the message
vocabulary, :mod:`game.net.access` the per-seat tokens and the guests' join code,
:mod:`game.net.addresses` which addresses the server may listen on.

Nothing in this package imports pygame.
"""
