"""The card table, apart from the window: how a game moves from a decision to the
pixels, in parts that each do one thing.

No pygame (unit-tested without a display):

* ``flow.py`` -- the turn flow: whose decision, which move source, privacy hand-offs
  between people at one screen, pacing, game over;
* ``sources.py`` -- move sources: a person (the controls), a level or a user bot (in a
  worker), a record (the replay viewer), another thread (a phone seat);
* ``workers.py`` -- where computers and the coach think (a thread, inline, by hand);
* ``hooks.py`` -- the news a table publishes (game started, move applied, round over,
  game over; incidents, failures, sound cues);
* ``bookkeeping.py`` -- autosave and statistics, as subscribers;
* ``options.py`` -- how a table is set up (demo, replay, Continue);
* ``seats.py`` -- seats from the setup screen, and their move sources;
* ``model.py`` -- what the table shows now (it follows the animations);
* ``animator.py``, ``chase_animator.py``, ``rams_animator.py`` -- engine events to
  tweens on the model, with the durations of ``game.view.timing``;
* ``coach.py`` -- the hint (the coach's odds) for the person deciding;
* ``texts.py``, ``chase_texts.py``, ``rams_texts.py`` -- names, prompts, and the
  engine's reason codes in words.

With pygame (the window's side):

* ``layout.py``, ``chase_layout.py``, ``rams_layout.py`` -- the layout step: card
  units scaled to the window, anchors to pixels;
* ``painter.py``, ``chase_painter.py``, ``rams_painter.py`` -- drawing only;
* ``chase_controls.py``, ``rams_controls.py`` -- input to moves.

``game.scenes.table`` puts the parts of one game together as a scene.
"""
