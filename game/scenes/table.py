"""The card table as a scene: a thin screen over :mod:`game.turn` (the turn flow) and
:mod:`game.table` (the drawing).

It wires one game's parts together and does nothing itself:

* the **turn flow** (``game.turn.flow``) decides whose turn it is and talks to the
  move sources (people through the controls, levels and bots in a worker, a record);
  this scene is its :class:`~game.turn.flow.FlowView`;
* the **animator** turns the engine's events into tweens on the **model**;
* the **layout** places everything for the window size (the layout step), the
  **painter** draws the model and changes nothing, the **controls** turn input into
  moves;
* the **hooks** carry the news (move applied, round over, game over) to the
  bookkeeping (autosave, statistics) and sound cues to the speakers.

A game's table (``table_chase.py``, ``table_rams.py``) names its engine and makes its
model, layout, animator, painter and controls. At a phone table the phone room, its
panels and its button are ``table_phones.py``'s. Other screens are opened by name
through the app (``app.open("results", ...)``): scenes never import each other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game import crash, games, notices, seeds
from game.i18n import has, t
from game.rules.base import Event, Refusal
from game.scenes.base import Scene
from game.scenes.table_phones import ServedWhileCovered, TablePhones, start_room
from game.table.peek import PeekGuard, PrivateHand
from game.table.tip_panel import TipPanel
from game.turn import flow as F
from game.turn import hooks as H
from game.turn.bookkeeping import Bookkeeper
from game.turn.coach import Coach
from game.turn.flow import Pacing, TurnFlow
from game.turn.hooks import Hooks, News
from game.turn.options import RESULTS, TableOptions
from game.turn.seats import sources_for
from game.turn.sources import BOT, HUMAN, RECORD, REMOTE, Decision, SourceFailure
from game.turn.texts import SeatNames
from game.turn.workers import InlineWorker
from game.view import timing
from game.view.anim import Animator
from game.view.keys import move_key
from game.view.widgets import Button


def _phones(attr: str, doc: str) -> property:
    """A name of the table that its phones hold (the privacy mixin, tests and tools
    read it; tools set it to draw a panel)."""
    return property(lambda self: getattr(self.phone_room, attr),
                    lambda self, value: setattr(self.phone_room, attr, value), doc=doc)


class TableScene(ServedWhileCovered, PrivateHand, Scene):
    name = "table"
    #: the engine class (its ``game_id`` finds the game's registry entry)
    engine: Any = None
    handoff_button = "handoff.button"     # the privacy screen's button text
    click_hurries = False                 # a click finishes the running animation
    shows_last_trick = False              # L shows the last trick (the pause menu says so)

    def __init__(self, app, seats: list[dict[str, Any]], rules: dict[str, Any] | None = None,
                 seed: int | None = None, demo: bool = False, *, game: Any = None,
                 options: TableOptions | None = None) -> None:
        super().__init__(app)
        opts = options or TableOptions()
        self.options = opts
        self.demo = demo or opts.demo
        #: fast-forward: the computers play at high speed until a person decides
        self.skipping = False
        self.seats = seats
        self.n = len(seats)
        # a secret shuffle seed if none is given; the computers' apart (game.seeds)
        self.seed = seed if seed is not None else seeds.fresh()
        self.rules_given = dict(rules or {})
        self.entry = games.entry(self.engine.game_id)
        self.game = game if game is not None else self.entry.new_game(
            self.rules_given, self.n, seed=self.seed,
            bot_seed=opts.bot_seed if opts.bot_seed is not None else seeds.fresh())
        # computers and the coach think beside the window (the app's worker process);
        # tests decide in the loop's own thread
        self._own_worker = opts.worker is None and app.ai_sync
        self.worker = opts.worker or (InlineWorker() if app.ai_sync else app.ai_worker())
        self.hooks = Hooks()
        # the phone seats' server and link, their panels and button, when the table has
        # phone seats (a port it cannot open is a CannotListen the setup screen shows)
        phone_table = opts.sources is None and not self.demo and any(
            s.get("phone") for s in seats)
        if opts.phone_room is not None:         # Play again: the phones stay
            room = opts.phone_room.take(self.game, seats, self.hooks, on_name=self._phone_named,
                                        saving=self.saving)
        else:
            room = start_room(self.game, seats, self.hooks, bind=opts.phone_bind,
                              on_name=self._phone_named, saving=self.saving
                              ) if phone_table else None
        self.phone_room = TablePhones(room, app.play, self.entry.id, self.worker)
        sources = opts.sources if opts.sources is not None else sources_for(
            self.entry.id, seats, self.worker, given=self.phone_room.sources)
        self.flow = TurnFlow(self.game, sources, self, hooks=self.hooks,
                             pacing=opts.pacing or self.pacing, viewer=opts.viewer)
        self.names = SeatNames([s["name"] for s in seats], self.flow.humans,
                               [s.get("role") for s in seats])
        self.model = self.make_model()
        self.anim = Animator(self.anim_speed())
        bottom = opts.bottom if opts.bottom is not None else (
            self.flow.humans[0] if self.flow.humans else 0)
        self.table_layout = self.make_layout(bottom)
        self.animator = self.make_animator()
        self.painter = self.make_painter()
        self.controls = self.make_controls()
        self.coach = Coach(self.worker, self.hint_decision, on_answer=self.controls.suggest)
        self.menu_button = Button(lambda: t(opts.menu_key), self.open_pause, name="menu",
                                  hint="Esc")
        hint_key, hint_letter = move_key("hint")      # H Hint, German I Tipp
        self.hint_button = Button(lambda: t("coach.button"), self.toggle_hint, name="hint",
                                  hotkey=hint_key, hint=hint_letter)
        fast_key, fast_letter = move_key("fast")
        # while on, the button says how to stop (its gold ring alone went unnoticed)
        self.fast_button = Button(
            lambda: t("table.fast_forward_stop" if self.skipping else "table.fast_forward"),
            self.toggle_skip, name="fast", hotkey=fast_key, hint=fast_letter)
        self.clock = 0.0
        self.catching_up = opts.resume is not None
        self._catch_up_left = 0
        self.bookkeeper: Bookkeeper | None = None
        self.report: Path | None = None
        self.tips = TipPanel(self)              # the first game's tips
        self.peek = PeekGuard(self.phones is not None)   # phones: others watch the screen
        self._showing = True
        self.hooks.subscribe(H.CUE, lambda news: app.play(news.data["name"]))
        self.hooks.subscribe(H.INCIDENT, self._incident)

    # ------------------------------------------------------------------ per game

    def make_model(self) -> Any:  # pragma: no cover - every game
        raise NotImplementedError

    def make_layout(self, bottom: int) -> Any:  # pragma: no cover
        raise NotImplementedError

    def make_animator(self) -> Any:  # pragma: no cover
        raise NotImplementedError

    def make_painter(self) -> Any:  # pragma: no cover
        raise NotImplementedError

    def make_controls(self) -> Any:  # pragma: no cover
        raise NotImplementedError

    def offer_controls(self, decision: Decision) -> None:
        self.controls.offer(decision)

    # ------------------------------------------------------------------ what others read

    phones = _phones("room", "The phone seats' room (game.net.room), or None.")
    show_phones = _phones("showing", "The join panel lies over the table.")
    away_seat = _phones("away_seat", "The phone seat the table asks about, or None.")
    join_panel = _phones("join_panel", "The phones' codes to join by.")
    away_prompt = _phones("away_prompt", "Wait for an away phone, or let a computer play.")
    phones_button = _phones("button", "F2: the join panel again.")

    @property
    def game_id(self) -> str:
        return self.entry.id

    @property
    def state(self) -> str:
        return self.flow.phase

    @property
    def pending(self) -> Any:
        return self.flow.pending

    @property
    def decision(self) -> Decision | None:
        return self.flow.decision

    @property
    def humans(self) -> list[int]:
        return self.flow.humans

    @property
    def thinking_seat(self) -> int | None:
        return self.flow.thinking_seat

    @property
    def queue(self) -> Any:
        return self.flow.queue

    @property
    def stop_before(self) -> Any:
        """Tools and tests: stop before showing an event for which this is true."""
        return self.flow.stop_before

    @stop_before.setter
    def stop_before(self, pred: Any) -> None:
        self.flow.stop_before = pred

    @property
    def actions(self) -> Any:
        return self.controls.actions

    @property
    def session(self) -> Any:
        return self.bookkeeper.session if self.bookkeeper is not None else None

    def saving(self) -> bool:
        """Whether this game is autosaved, to be continued later (what the table and
        the phones may promise): a demo or a session with its autosave off is not."""
        return self.session is not None and self.session.saving

    def seat_name(self, seat: int) -> str:
        return self.names.name(seat)

    def upcoming(self) -> Any:
        return self.flow.queue

    def seat_tag(self, s: int) -> str:
        """The plate's note for a seat: "you", a computer's level, "human" in a replay,
        "phone" (away, or a computer standing in)."""
        src = self.flow.source(s)
        level = str(self.seats[s].get("level", "medium"))
        if src.kind == REMOTE and self.phones is not None:
            return self.phone_room.tag(s)
        if src.kind == HUMAN:
            if s == self.flow.viewer and len(self.humans) == 1:
                return "" if self.seats[s].get("role") == "you" else t("table.you")
            return ""
        if src.kind == RECORD and self.seats[s].get("human"):
            return t("setup.human")
        if src.kind == BOT or level.startswith("bot:"):
            return Path(level[4:]).stem
        return t("level." + level)

    # ------------------------------------------------------------------ pacing

    def anim_speed(self) -> str:
        if self.options.anim_speed is not None:
            return self.options.anim_speed()
        speed = str(self.app.settings["anim_speed"])
        return "skip" if self.skipping and speed != "off" else speed

    def pacing(self) -> Pacing:
        """The player's pacing: the computers' thinking pause, how long a round's
        reveal stays (until the person continues, or some seconds; the demo does not
        hold), and no pauses while fast-forwarding."""
        hold = 0.0 if self.demo or not self.humans else self.app.settings["reveal_hold"]
        think = float(self.app.settings["think_pause"])
        if self.skipping:
            think, hold = 0.0, timing.SKIP_HOLD
        return Pacing(think=think,
                      over_hold=timing.DEMO_END_HOLD if self.demo else timing.END_HOLD,
                      instant=self.anim_speed() == "off", hold=hold)

    # ------------------------------------------------------------------ fast-forward

    def skip_allowed(self) -> bool:
        """People at the table may let the computers play on at high speed while none
        of them decides (out of the game, dropped out of a Rams round, or waiting)."""
        return (self.options.fast_forward and not self.demo and bool(self.humans)
                and self.state in (F.IDLE, F.THINKING, F.HOLD))

    def toggle_skip(self) -> None:
        if not self.skipping and not self.skip_allowed():
            return
        self.app.play("click")
        self.skipping = not self.skipping
        if self.skipping and self.state == F.HOLD:
            self.flow.release()

    def _stop_skipping(self) -> None:
        self.skipping = False

    def cue(self, name: str) -> None:
        """A sound cue from an animation; a game being caught up to stays silent."""
        if not self.catching_up:
            self.hooks.publish(News(H.CUE, self.game, data={"name": name}))

    # ------------------------------------------------------------------ lifecycle

    def enter(self) -> None:
        if self.flow.started:
            return
        resume = self.options.resume
        if self.options.keep_records and not self.demo:
            try:
                record, saved = resume if resume is not None else (None, None)
                self.bookkeeper = Bookkeeper.for_game(self.game, self.seats, record,
                                                      saved).attach(self.hooks)
            except Exception as exc:  # noqa: BLE001 - a boundary: bookkeeping never stops a game
                notices.unexpected("store", exc, "starting a game's bookkeeping")
        self.flow.start(resume[0].moves if resume is not None else ())
        # a resumed game shows the events of its saved moves at once and in silence
        self._catch_up_left = len(self.flow.queue) if resume is not None else 0
        self.catching_up = self._catch_up_left > 0

    def exit(self) -> None:
        self.flow.close()
        self.coach.forget()
        if self._own_worker:
            self.worker.shutdown()
        self.phone_room.close()

    # ------------------------------------------------------------------ phone seats

    def _phone_named(self, seat: int, name: str) -> None:
        """A guest sat down at a phone seat under ``name``, or the phone at a seat
        with a default name chose its own: the name replaces the default's role too
        ("Player 1" would follow the language over the name)."""
        self.seats[seat]["name"] = name
        self.seats[seat].pop("role", None)
        self.seats[seat].pop("open_name", None)
        self.names.names[seat] = name
        self.names.roles[seat] = None
        if self.session is not None:
            self.session.seats[seat].name = name
            self.session.seats[seat].role = None
            if not self.game.finished:   # continued later, the game shows the name
                self.session.save()

    def resume(self) -> None:
        super().resume()
        self.anim.speed = self.anim_speed()

    def busy(self) -> bool:
        m = self.model
        return (self.anim.moving or bool(self.flow.queue) or self.phone_room.covering()
                or self.state in (F.THINKING, F.IDLE) or m.confetti is not None
                or (self.state == F.OVER and self.demo) or self.coach.waiting())

    def update(self, dt: float) -> None:
        self.clock += dt
        self.phone_room.update(held=self.state == F.HOLD)
        self._sync_privacy()
        self.coach.poll()
        self.ensure_layout(self.app.size)    # events pin cards where they are drawn
        self.anim.speed = "off" if self.catching_up else self.anim_speed()
        self.anim.update(dt)
        if self.model.confetti is not None and self.model.confetti.done:
            self.model.confetti = None
        if not self.tips.showing():          # the game waits while a tip is read
            self.flow.update(dt)

    # ------------------------------------------------------------------ the flow's view

    def animating(self) -> bool:
        return self.anim.busy

    def show(self, event: Event) -> None:
        self.anim.play(self.animator.animate(event))
        self.tips.event(event)
        if self.catching_up:
            self._catch_up_left -= 1
            if self._catch_up_left <= 0:     # caught up: what follows is new, and heard
                self.catching_up = False
                self.anim.speed = self.anim_speed()

    def offer(self, decision: Decision) -> None:
        self._stop_skipping()              # a person decides: back to the normal pace
        self.offer_controls(decision)
        self._layout_actions()
        self.tips.decision(decision)

    def holds_before(self, event: Event) -> bool:
        """A round's reveal (its showdown or reckoning) stays until the person
        continues: before the next round and before the end of the game -- not while a
        resumed game catches up on the rounds it had already shown."""
        if self.catching_up and self._catch_up_left > 0:
            return False
        return event.type == "game_over" or (
            event.type == "round_start" and event.data.get("round", 0) > 0)

    def hold_started(self) -> None:
        self.anim.play(self.animator.hold_started())

    def hold_ended(self) -> None:
        self.app.play("click")

    def hold_note(self) -> str:
        """What the table says while a reveal is held: how to go on (and when it goes
        on by itself)."""
        if self.state != F.HOLD:
            return ""
        limit = self.flow.pacing().hold
        if limit is None:
            return t("table.continue")
        left = max(1, int(limit - self.flow.held + 0.999))
        return t("table.continue_in", n=left)

    def hand_off(self, seat: int) -> None:
        self._stop_skipping()
        self.phone_room.when_clear(lambda: self.app.open(  # not over the join codes
            "handoff", player=lambda: self.names.name(seat), on_menu=self.open_pause,
            on_ready=lambda: self.flow.confirm_handoff(seat), button_key=self.handoff_button,
            peek=self.peek.guarded))       # phones: the cards wait to be asked for

    def viewer_changed(self, viewer: int | None) -> None:
        self.animator.refresh_faces(animated=False)
        if viewer is not None and viewer != self.table_layout.base:
            self.table_layout.base = viewer
            self._size = (0, 0)      # lay the table out again around the new viewer

    def finished(self) -> None:
        self._stop_skipping()
        if self.demo:
            forced = getattr(self.app.opts, "game", None)
            self.app.open("demo", how="replace", game_id=forced or games.other(self.game_id),
                          players=self.n, seed=self.seed + 1)
        elif self.options.after_game == RESULTS:
            self.app.open("results", table=self)

    def decided(self) -> bool:
        """The game is decided and its results screen still to come (the last round
        being reckoned): leaving it goes to the results (:meth:`conclude`)."""
        return (self.game.finished and not self.demo and self.options.after_game == RESULTS
                and self.state not in (F.DONE, F.FAILED))

    def conclude(self) -> bool:
        """Show what is left of a decided game at once and in silence, then its
        results; whether it did (False: not :meth:`decided`)."""
        if not self.decided():
            return False
        self.anim.speed = "off"
        self.anim.finish_all()
        self._catch_up_left = len(self.flow.queue)
        self.catching_up = self._catch_up_left > 0
        return self.flow.conclude()

    def failed(self, failure: SourceFailure) -> None:
        """A built-in computer player failed: a bug. Report it; the game stops here
        (the autosave, when on, keeps every move before it)."""
        self._stop_skipping()
        self.controls.clear()
        self.report = crash.report(failure.error, dialog=False,
                                   context=f"computer player {failure.player!r} at seat "
                                           f"{failure.seat}")

    def failure_lines(self) -> list[str]:
        """What the table shows after a computer player failed (else nothing)."""
        f = self.flow.failure
        if self.state != F.FAILED or f is None:
            return []
        player = t("level." + f.player) if has("level." + f.player) else f.player
        report = t("table.failed.report", path=str(self.report)) if self.report else \
            t("table.failed.no_report")
        return [t("table.failed" if self.saving() else "table.failed.unsaved",
                  name=self.names.name(f.seat), player=player,
                  error=f"{type(f.error).__name__}: {f.error}"), report,
                t("table.failed.hint")]

    def _incident(self, news: News) -> None:
        """A user bot forfeited a decision (docs/bots.md): say so in the log and a toast."""
        d = news.data
        self.animator.add_log("log.bot_forfeit", seat=news.seat, kind=d.get("kind", "?"),
                              detail=str(d.get("detail", "")))
        self.app.notify(lambda: t("table.bot_forfeit", name=self.names.name(news.seat or 0),
                                  detail=str(d.get("detail", ""))))

    # ------------------------------------------------------------------ moves

    def human_move(self, move: str) -> Refusal | None:
        """The person at the screen plays ``move`` (from the controls); the engine's
        reason if it refuses, else ``None``."""
        refusal = self.flow.human_move(move)
        if refusal is None:
            self.app.play("click")
            self.peek.hide()                 # decided: the cards go face down again
            self.controls.clear()
            self.coach.forget()
        return refusal

    # ------------------------------------------------------------------ the coach

    def hint_decision(self) -> tuple | None:
        """The decision the hint may answer now: a person decides and is the one at
        the screen (never a computer, never behind the privacy screen, never the demo)."""
        p = self.flow.pending
        if (self.state != F.HUMAN_TURN or p is None or self.demo
                or not self.flow.is_human(p.seat) or self.viewer != p.seat):
            return None
        return (p.seat, p.decision, tuple(p.legal), len(self.game.moves))

    def hint_allowed(self) -> bool:
        return self.coach.allowed()

    def toggle_hint(self) -> None:
        if not self.coach.allowed():
            return
        self.app.play("click")
        seat = self.flow.pending.seat
        self.coach.toggle(lambda: self.game.view(seat))
        self._layout_actions()

    def hint_event(self, ev: pygame.event.Event) -> bool:
        """The hint button's letter or a click on it (only on a person's turn)."""
        if not self.coach.allowed():
            return False
        if self.hint_button.pressed(ev):
            self.hint_button.action()
            return True
        return False

    # ------------------------------------------------------------------ layout, input, draw

    def layout(self, size: tuple[int, int]) -> None:
        geo = self.table_layout.fit(size, self.u, self.app.art)
        self.painter.prepare(geo, self.app.background())
        self.menu_button.rect = geo.menu.copy()
        self.hint_button.rect = geo.hint.copy()
        self.phone_room.layout(geo.menu, self.hint_button.rect, self.u)
        # fast-forward takes the hint's place (one is offered only when the other is not)
        self.fast_button.rect = self.hint_button.rect.copy()
        self.fast_button.rect.width = int(geo.hint.width * 1.7)   # "Vorspulen stoppen"
        self._layout_actions()

    def rekey(self) -> None:
        """Letter keys follow a language chosen mid-game (fast-forward F, German V; hint
        H, German I; peek; the moves'): the button said "Vorspulen F" and V did nothing."""
        self.fast_button.hotkey, self.fast_button.hint = move_key("fast")
        self.hint_button.hotkey, self.hint_button.hint = move_key("hint")
        self.peek.key, self.peek.letter = move_key("peek")
        self.controls.rekey()

    def _layout_actions(self) -> None:
        if self.table_layout.ready:
            self.controls.layout(self.table_layout.geo, self.coach.visible(),
                                 self.painter.hint_badge_h())

    def open_pause(self) -> None:
        if self.app.top is not None and self.app.top.name == "pause":
            return
        self.app.play("click")
        self.app.open("pause")

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if self.tips.handle(ev):
            return True
        taken = self.phone_room.handle(ev)   # None: the phones let it through
        if taken is not None:
            return taken
        if self.peek.handle(ev, self.hand_hit, self.state == F.HUMAN_TURN
                            and self.picks_cards()):
            self._sync_privacy()
            return True
        human = self.state == F.HUMAN_TURN
        p_plays = human and any(b.hotkey == pygame.K_p for b in self.actions.buttons)
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE and self.close_overlay():
            return True                      # Esc goes back: first out of the overlay
        if ev.type == pygame.KEYDOWN and (ev.key == pygame.K_ESCAPE or (
                ev.key == pygame.K_p and not p_plays)):   # P pauses unless it is a move
            self.open_pause()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and \
                self.menu_button.rect.collidepoint(ev.pos):
            self.open_pause()
            return True
        if human:
            return self.hint_event(ev) or self.extra_event(ev) or self.controls.handle(ev)
        if self.skip_allowed() or self.skipping:
            if self.fast_button.pressed(ev):
                self.fast_button.action()
                return True
        if self.state == F.HOLD and (
                (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_SPACE,
                                                          pygame.K_KP_ENTER))
                or (ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1)):
            self.flow.release()              # the person has seen the reveal
            return True
        if self.extra_event(ev):
            return True
        if self.anim.busy and (
                (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_SPACE))
                or (self.click_hurries and ev.type == pygame.MOUSEBUTTONDOWN
                    and ev.button == 1)):
            self.anim.finish_all()   # hurry the current animation along
            return True
        return False

    def extra_event(self, ev: pygame.event.Event) -> bool:
        """A game's own input outside a person's decision (Rams: the last trick)."""
        return False

    def close_overlay(self) -> bool:
        """Close what a game shows over its table on request (Rams: the last trick);
        whether there was something to close."""
        return False

    def draw(self, surf: pygame.Surface) -> None:
        self._sync_privacy()
        self.tips.lay_out(surf.get_rect())   # the painter's bubbles keep clear of it
        self.painter.draw(surf)
        self.tips.draw(surf)
        self.phone_room.draw(surf, self.u, self.names.name)
