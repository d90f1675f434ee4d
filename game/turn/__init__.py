"""How a game moves from one decision to the next, without a screen: the table's
pure side (no pygame, no drawing; unit-tested without a display).

* ``flow.py`` -- the turn flow: whose decision, which move source, privacy hand-offs
  between people at one screen, pacing, game over;
* ``sources.py`` -- move sources: a person (the controls), a level or a user bot (in a
  worker), a record (the replay viewer), another thread (a phone seat);
* ``workers.py`` -- where computers and the coach think (a thread, inline, by hand);
* ``hooks.py`` -- the news a table publishes (game started, move applied, round over,
  game over; incidents, failures, sound cues);
* ``bookkeeping.py`` -- autosave and statistics, as subscribers;
* ``story.py`` -- the story of a finished game for the end screen (rounds, lives, the
  people's record against these opponents);
* ``options.py`` -- how a table is set up (demo, replay, Continue);
* ``seats.py`` -- seats from the setup screen, and their move sources;
* ``coach.py`` -- the hint (the coach's odds) for the person deciding;
* ``texts.py``, ``chase_texts.py``, ``rams_texts.py`` -- names, prompts, and the
  engine's reason codes in words;
* ``tips.py``, ``chase_tips.py``, ``rams_tips.py`` -- the first game's tips, from the
  seat's view and public events only.

The drawing (``game.table``) and the scenes build on this package; it imports
neither.
"""
