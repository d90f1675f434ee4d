"""The card table's drawing: how the turn flow's news becomes pixels, in parts that
each do one thing. The pure side (turn flow, move sources, texts, tips) is
``game.turn``, one layer below.

Without pygame (tested without a display):

* ``model.py`` -- what the table shows now (it follows the animations);
* ``animator.py``, ``chase_animator.py``, ``rams_animator.py`` -- engine events to
  tweens on the model, with the durations of ``game.view.timing``.

With pygame (the window's side):

* ``layout.py``, ``chase_layout.py``, ``rams_layout.py`` -- the layout step: card
  units scaled to the window, anchors to pixels;
* ``painter.py``, ``chase_painter.py``, ``rams_painter.py`` -- drawing only;
* ``chase_controls.py``, ``rams_controls.py`` -- input to moves (their letters in the
  language: ``game.view.keys``);
* ``tip_panel.py`` -- the first game's tips on the table;
* ``peek.py`` -- at a phone table, the person at the screen's cards on request.

``game.scenes.table`` puts the parts of one game together as a scene.
"""
