"""The table's turn flow without a display: whose decision it is, move sources
(people, levels, bots, records, another thread), privacy hand-offs, pacing, failures,
and the news it publishes. Time is whatever the test passes to ``update``; workers
run when the test says. No pygame is imported here or by the modules under test."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from game import games, records, store
from game.ai.bots import BotPlayer
from game.ai.registry import make_player
from game.records import Seat
from game.rules.rams import AS_WRITTEN
from game.turn import flow as F
from game.turn import hooks as H
from game.turn.bookkeeping import Bookkeeper
from game.turn.flow import Pacing, TurnFlow
from game.turn.hooks import Hooks
from game.turn.sources import (
    BotSource,
    ChannelSource,
    HumanSource,
    LevelSource,
    RecordSource,
    SourceFailure,
)
from game.turn.workers import InlineWorker, ManualWorker

ROOT = Path(__file__).resolve().parents[1]


class FakeView:
    """Shows events instantly (or holds them while ``animating``) and notes every call."""

    def __init__(self) -> None:
        self.shown: list = []
        self.offers: list = []
        self.handoffs: list[int] = []
        self.viewers: list = []
        self.finished_calls = 0
        self.failures: list[SourceFailure] = []
        self.busy = False

    def animating(self) -> bool:
        return self.busy

    def show(self, event) -> None:
        self.shown.append(event)

    def offer(self, decision) -> None:
        self.offers.append(decision)

    def hand_off(self, seat: int) -> None:
        self.handoffs.append(seat)

    def viewer_changed(self, viewer) -> None:
        self.viewers.append(viewer)

    def finished(self) -> None:
        self.finished_calls += 1

    def failed(self, failure: SourceFailure) -> None:
        self.failures.append(failure)


def news_log(hooks: Hooks) -> list:
    seen: list = []
    for kind in H.KINDS:
        hooks.subscribe(kind, seen.append)
    return seen


def computers(game_id: str, n: int, worker, level: str = "easy") -> dict:
    return {s: LevelSource(make_player(game_id, level), worker, name=level) for s in range(n)}


def run(flow: TurnFlow, dt: float = 0.1, steps: int = 100_000) -> None:
    for _ in range(steps):
        if flow.phase in (F.DONE, F.FAILED):
            return
        flow.update(dt)
    raise AssertionError(f"the flow did not end (phase {flow.phase})")


def total_events(game) -> int:
    """Every event of ``game`` again, from its record replayed in a fresh engine."""
    twin = games.new_game(game.game_id, game.rules, game.n_seats, seed=game.seed,
                          bot_seed=game.bot_seed)
    n = len(twin.start())
    for seat, move in game.moves:
        n += len(twin.apply(seat, move))
    return n


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_computers_play_to_the_end_and_every_moment_is_published(game_id):
    game = games.new_game(game_id, {"lives": 1}, 4, seed=5, bot_seed=5)
    view = FakeView()
    hooks = Hooks()
    seen = news_log(hooks)
    flow = TurnFlow(game, computers(game_id, 4, InlineWorker()), view, hooks=hooks,
                    pacing=lambda: Pacing(think=0.3, over_hold=0.5))
    flow.start()
    run(flow)
    assert flow.phase == F.DONE and view.finished_calls == 1 and game.finished
    assert len(view.shown) == total_events(game)          # every event, each once
    kinds = Counter(n.kind for n in seen)
    assert kinds[H.GAME_STARTED] == 1 and kinds[H.GAME_OVER] == 1
    assert kinds[H.MOVE_APPLIED] == len(game.moves)
    assert kinds[H.ROUND_OVER] == len(game.rounds)
    assert [n.data["round"] for n in seen if n.kind == H.ROUND_OVER] == \
        list(range(len(game.rounds)))
    applied = [(n.seat, n.move) for n in seen if n.kind == H.MOVE_APPLIED]
    assert applied == list(game.moves)
    assert seen[-1].kind == H.GAME_OVER and seen[-1].data["winner"] == game.winner
    assert not view.offers and not view.handoffs and not view.failures


def test_thinking_pause_and_the_end_hold_count_the_time_given():
    game = games.new_game("chase", {}, 3, seed=2, bot_seed=2)
    view = FakeView()
    pace = {"p": Pacing(think=1.0, over_hold=2.0)}
    flow = TurnFlow(game, computers("chase", 3, InlineWorker()), view,
                    pacing=lambda: pace["p"])
    flow.start()
    flow.update(0.0)                      # shows the deal, then the first decision
    assert flow.phase == F.THINKING and not game.moves
    flow.update(0.6)
    assert not game.moves                 # 0.6 s of thinking: too early
    flow.update(0.6)
    assert len(game.moves) == 1           # 1.2 s: the move is through
    pace["p"] = Pacing(think=1.0, over_hold=2.0, instant=True)
    run(flow, dt=0.0)                     # animations off: no waiting at all
    assert game.finished and view.finished_calls == 1


def test_the_end_holds_until_its_time_has_passed():
    game = games.new_game("chase", {"lives": 1}, 3, seed=4, bot_seed=4)
    view = FakeView()
    flow = TurnFlow(game, computers("chase", 3, InlineWorker()), view,
                    pacing=lambda: Pacing(think=0.0, over_hold=1.0))
    flow.start()
    for _ in range(100_000):
        flow.update(0.0)
        if flow.phase == F.OVER:
            break
    assert flow.phase == F.OVER
    flow.update(0.7)
    assert flow.phase == F.OVER and view.finished_calls == 0
    flow.update(0.4)
    assert flow.phase == F.DONE and view.finished_calls == 1


def test_nothing_is_shown_while_an_animation_blocks():
    game = games.new_game("rams", {}, 3, seed=1, bot_seed=1)
    view = FakeView()
    flow = TurnFlow(game, computers("rams", 3, InlineWorker()), view,
                    pacing=lambda: Pacing(think=10.0))
    flow.start()
    view.busy = True
    for _ in range(10):
        flow.update(0.5)
    assert not view.shown and flow.queue and flow.phase == F.IDLE
    view.busy = False
    flow.update(0.0)
    assert view.shown and not flow.queue and flow.phase == F.THINKING


def test_a_person_decides_and_the_engine_explains_a_refusal():
    game = games.new_game("rams", {"must_trump": True}, 3, seed=3, bot_seed=3)
    view = FakeView()
    sources = computers("rams", 3, InlineWorker())
    sources[0] = HumanSource()
    hooks = Hooks()
    seen = news_log(hooks)
    flow = TurnFlow(game, sources, view, hooks=hooks)
    assert flow.humans == [0] and flow.viewer == 0
    flow.start()
    refused = 0
    for _ in range(10_000):
        flow.update(0.1)
        if game.finished or refused >= 3:
            break
        if flow.phase != F.HUMAN_TURN:
            continue
        d = view.offers[-1]
        assert d.seat == 0 and d.pending == flow.pending == game.to_move()
        assert d.view == game.view(0)
        bad = [c for c in game.view(0)["hand"] if c not in d.pending.legal]
        if d.pending.decision == "trick" and bad:
            moves = len(game.moves)
            r = flow.human_move(bad[0])
            assert r is not None and r == game.why_illegal(0, bad[0])
            assert r.code in ("follow_suit", "must_trump", "must_beat")
            assert len(game.moves) == moves and flow.phase == F.HUMAN_TURN
            refused += 1
        assert flow.human_move(sorted(d.pending.legal)[0]) is None
        assert flow.phase == F.IDLE
        assert seen[-1].kind in (H.MOVE_APPLIED, H.ROUND_OVER, H.GAME_OVER)
    assert refused >= 1


def test_a_person_cannot_move_for_a_computer():
    game = games.new_game("chase", {}, 3, seed=1, bot_seed=1)
    view = FakeView()
    worker = ManualWorker()
    flow = TurnFlow(game, computers("chase", 3, worker), view)
    flow.start()
    flow.update(0.0)
    assert flow.phase == F.THINKING
    p = flow.pending
    r = flow.human_move(p.legal[0])
    assert r is not None and r.code == "not_your_turn" and not game.moves


def test_privacy_hand_off_between_people_at_one_screen():
    game = games.new_game("chase", {"lives": 1}, 4, seed=7, bot_seed=7)
    view = FakeView()
    sources = computers("chase", 4, InlineWorker())
    sources[0], sources[2] = HumanSource(), HumanSource()
    flow = TurnFlow(game, sources, view)
    assert flow.humans == [0, 2] and flow.viewer is None
    flow.start()
    handoffs = 0
    for _ in range(20_000):
        flow.update(0.1)
        if flow.phase == F.DONE:
            break
        if flow.phase == F.HANDOFF:
            seat = view.handoffs[-1]
            assert seat == flow.pending.seat and flow.viewer is None
            assert view.viewers[-1] is None          # everything private hidden first
            assert flow.human_move(flow.pending.legal[0]) is not None   # not yet
            flow.confirm_handoff(seat)
            handoffs += 1
            assert flow.viewer == seat and view.viewers[-1] == seat
            assert flow.phase == F.HUMAN_TURN and view.offers[-1].seat == seat
        if flow.phase == F.HUMAN_TURN:
            assert flow.viewer == flow.pending.seat
            flow.human_move(flow.pending.legal[0])
    assert game.finished and handoffs >= 2


class OrderView(FakeView):
    """Notes the order of viewer changes and shown events in one list."""

    def __init__(self) -> None:
        super().__init__()
        self.order: list = []

    def show(self, event) -> None:
        super().show(event)
        self.order.append(("show", event.type))

    def viewer_changed(self, viewer) -> None:
        super().viewer_changed(viewer)
        self.order.append(("viewer", viewer))


def test_a_persons_cards_are_hidden_as_soon_as_they_have_decided():
    """Several people at one screen: the decider's cards hide before anything of their
    move is shown; the next person (or the same one after a computer) needs the privacy
    screen; the same person deciding again with nobody in between does not."""
    game = games.new_game("chase", {"lives": 1, "domino": "low"}, 4, seed=3, bot_seed=3)
    view = OrderView()
    sources = computers("chase", 4, InlineWorker())
    sources[0], sources[1], sources[2] = HumanSource(), HumanSource(), HumanSource()
    flow = TurnFlow(game, sources, view)
    flow.start()
    again = 0
    moves = 0
    for _ in range(50_000):
        flow.update(0.1)
        if flow.phase == F.DONE:
            break
        if flow.phase == F.HANDOFF:
            flow.confirm_handoff(view.handoffs[-1])
        if flow.phase == F.HUMAN_TURN:
            seat = flow.pending.seat
            if flow.pending.decision == "domino":
                again += 1
            mark = len(view.order)
            flow.human_move("swap" if "swap" in flow.pending.legal else flow.pending.legal[0])
            moves += 1
            assert flow.viewer is None
            assert view.order[mark] == ("viewer", None), view.order[mark:mark + 3]
            before = len(view.handoffs)
            for _ in range(200):             # until the next decision of anybody
                flow.update(0.1)
                if flow.phase != F.IDLE:
                    break
            if flow.phase == F.HUMAN_TURN:   # offered without a hand-off: same person
                assert len(view.handoffs) == before and flow.pending.seat == seat
                assert game.moves[-1][0] == seat
            elif flow.phase == F.HANDOFF:
                assert flow.viewer is None and view.viewers[-1] is None
    assert game.finished and moves > 5
    assert again > 0, "no domino demand came up: pick another seed"


#: What the whole table watches (the test's own list): a trick swept, a showdown, a
#: round reckoned, a new deal. A person's cards after one of these need a hand-off.
EVERYONE_WATCHES = {"trick", "showdown", "lose_life", "void_round", "round_start"}


@pytest.mark.parametrize("game_id,rules", [
    # Rams as written: the first legal move ends a game there (under counters a dealer
    # who always announces General Rams never does)
    ("rams", {**AS_WRITTEN, "lives": 2}),
    ("rams", {**AS_WRITTEN, "lives": 2, "dealer_takes_trump": True, "hand_size": 3}),
    ("chase", {"lives": 2, "domino": "low"}),
])
def test_the_same_person_again_after_a_trick_or_a_round_passes_the_privacy_screen(
        game_id, rules):
    """Three people and a computer at one screen, whole games: a person's cards show
    again without the privacy screen only within their own turn (nobody else moved,
    nothing the table watches happened). The last person of a round who is also the
    first of the next, and a trick's winner who leads the next, pass the screen."""
    within = after = 0
    for seed in range(12):
        game = games.new_game(game_id, rules, 4, seed=seed, bot_seed=seed)
        view = OrderView()
        sources = computers(game_id, 4, InlineWorker())
        for s in (0, 1, 2):
            sources[s] = HumanSource()
        flow = TurnFlow(game, sources, view)
        flow.start()
        confirm: tuple[int, int] | None = None     # who passed the screen, moves then
        watched = False                            # everyone watched something since
        seen = 0
        for _ in range(200_000):
            flow.update(0.1)
            watched |= any(kind == "show" and what in EVERYONE_WATCHES
                           for kind, what in view.order[seen:])
            seen = len(view.order)
            if flow.phase == F.DONE:
                break
            if flow.phase == F.HANDOFF:
                seat = view.handoffs[-1]
                after += bool(game.moves) and game.moves[-1][0] == seat
                flow.confirm_handoff(seat)
                confirm, watched = (seat, len(game.moves)), False
            if flow.phase == F.HUMAN_TURN:
                seat = flow.pending.seat
                assert confirm is not None and confirm[0] == seat and not watched and all(
                    s == seat for s, _ in game.moves[confirm[1]:]), (
                    f"seed {seed}: seat {seat}'s cards offered without the privacy screen "
                    f"(confirmed {confirm}, watched since: {watched}, move "
                    f"{len(game.moves)})")
                within += len(game.moves) > confirm[1]
                legal = flow.pending.legal       # swaps bring domino demands
                flow.human_move("swap" if "swap" in legal else sorted(legal)[0])
        assert game.finished, seed
    # both came up: the same person again within a turn (no screen) and after a
    # trick or a round (the screen)
    assert after > 0 and (within > 0 or game_id == "rams"), (within, after)


class HoldView(FakeView):
    """Holds before every new round after the first."""

    def __init__(self) -> None:
        super().__init__()
        self.holds = 0
        self.ended = 0

    def holds_before(self, event) -> bool:
        return event.type == "round_start" and event.data["round"] > 0

    def hold_started(self) -> None:
        self.holds += 1

    def hold_ended(self) -> None:
        self.ended += 1


def test_a_reveal_is_held_until_the_person_continues():
    game = games.new_game("chase", {"lives": 2}, 3, seed=5, bot_seed=5)
    view = HoldView()
    flow = TurnFlow(game, computers("chase", 3, InlineWorker()), view,
                    pacing=lambda: Pacing(hold=None))
    flow.start()
    for _ in range(2000):
        flow.update(0.5)
        if flow.phase == F.HOLD:
            break
    assert flow.phase == F.HOLD and view.holds == 1
    nxt = flow.queue[0]
    assert nxt.type == "round_start" and nxt.data["round"] == 1
    shown = len(view.shown)
    for _ in range(50):                       # time alone does not end it
        flow.update(10.0)
    assert flow.phase == F.HOLD and len(view.shown) == shown
    flow.release()
    assert view.ended == 1
    flow.update(0.1)
    assert view.shown[shown] is nxt           # the held event comes next, once
    for _ in range(100_000):
        if flow.phase == F.DONE:
            break
        if flow.phase == F.HOLD:
            flow.release()
        flow.update(0.5)
    assert game.finished and view.holds == view.ended
    assert view.holds == sum(1 for e in view.shown if e.type == "round_start") - 1


@pytest.mark.parametrize("hold,expect", [(0.0, 0), (2.0, 1)])
def test_a_timed_hold_goes_on_by_itself_and_zero_never_holds(hold, expect):
    game = games.new_game("chase", {"lives": 1}, 3, seed=5, bot_seed=5)
    view = HoldView()
    flow = TurnFlow(game, computers("chase", 3, InlineWorker()), view,
                    pacing=lambda: Pacing(hold=hold))
    flow.start()
    for _ in range(200):
        flow.update(0.5)
        if view.holds:
            break
    run(flow, dt=0.5)
    assert game.finished and (view.holds > 0) == bool(expect)
    assert view.holds == view.ended


@pytest.mark.parametrize("bad", ["raises", "illegal"])
def test_a_failing_level_stops_the_game_and_is_reported(bad):
    class Broken:
        name = "broken"

        def choose(self, view):
            if bad == "raises":
                raise RuntimeError("the level fell over")
            return "not-a-move"

    game = games.new_game("chase", {}, 3, seed=3, bot_seed=3)
    view = FakeView()
    hooks = Hooks()
    seen = news_log(hooks)
    sources = {s: LevelSource(Broken(), InlineWorker(), name="broken") for s in range(3)}
    flow = TurnFlow(game, sources, view, hooks=hooks)
    flow.start()
    moves = len(game.moves)
    seat = None
    for _ in range(5):
        flow.update(0.1)
        seat = seat if flow.pending is None else flow.pending.seat
    assert flow.phase == F.FAILED and len(game.moves) == moves     # no stand-in move
    (failure,) = view.failures
    assert failure.seat == seat and failure.player == "broken"
    if bad == "raises":
        assert isinstance(failure.error, RuntimeError)
    else:
        assert "not-a-move" in str(failure.error)
    assert [n.kind for n in seen].count(H.FAILED) == 1


def test_a_user_bot_that_fails_forfeits_and_the_incident_is_published(tmp_path):
    bot = tmp_path / "bad_bot.py"
    bot.write_text("def choose(view):\n    raise ValueError('no idea')\n")
    game = games.new_game("chase", {"lives": 1}, 3, seed=6, bot_seed=6)
    view = FakeView()
    hooks = Hooks()
    seen = news_log(hooks)
    sources = computers("chase", 3, InlineWorker())
    sources[1] = BotSource(BotPlayer(str(bot)), InlineWorker(), name=f"bot:{bot}")
    flow = TurnFlow(game, sources, view, hooks=hooks)
    flow.start()
    run(flow)
    assert flow.phase == F.DONE and not view.failures
    incidents = [n for n in seen if n.kind == H.INCIDENT]
    bot_moves = [m for s, m in game.moves if s == 1]
    assert incidents and len(incidents) == len(bot_moves)
    assert all(n.seat == 1 and n.data["kind"] == "raised" for n in incidents)
    assert all("no idea" in n.data["detail"] for n in incidents)


def test_a_record_plays_through_its_gate_and_stops_at_its_end():
    src = games.new_game("rams", {}, 4, seed=9, bot_seed=9)
    src.start()
    for _ in range(25):
        p = src.to_move()
        src.apply(p.seat, sorted(p.legal)[0])
    rec = records.record_of(src, [Seat(f"S{i}", "ai", "easy") for i in range(4)], seed=9,
                            bot_seed=9)
    open_until = {"step": 10}
    game = records.new_engine(rec)
    view = FakeView()
    gate = lambda step: step < open_until["step"]  # noqa: E731
    flow = TurnFlow(game, {s: RecordSource(rec.moves, gate) for s in range(4)}, view)
    flow.start()
    for _ in range(200):
        flow.update(0.1)
    assert len(game.moves) == 10 and flow.phase == F.THINKING
    open_until["step"] = 10_000
    for _ in range(200):
        flow.update(0.1)
    assert game.moves == rec.moves and flow.phase == F.THINKING and not view.failures
    assert game.summary() == src.summary()


def test_moves_from_another_thread():
    game = games.new_game("chase", {}, 3, seed=8, bot_seed=8)
    view = FakeView()
    sources = computers("chase", 3, InlineWorker())
    phone = sources[0] = ChannelSource("phone")
    flow = TurnFlow(game, sources, view)
    flow.start()
    for _ in range(1000):
        flow.update(0.1)
        if phone.current() is not None:
            break
    seat = 0
    d = phone.current()
    assert d is not None and d.seat == seat and d.view == game.view(seat)
    phone.put(d.step + 5, d.pending.legal[0])           # an answer to a later decision
    flow.update(0.1)
    assert len(game.moves) == d.step
    t = threading.Thread(target=phone.put, args=(d.step, sorted(d.pending.legal)[-1]))
    t.start()
    t.join()
    flow.update(0.1)
    assert game.moves[-1] == (seat, sorted(d.pending.legal)[-1])


def test_a_remote_move_sent_before_its_decision_begins_waits_for_it():
    """A phone may see the new state and answer before the table begins the decision
    (or while its previous decision is being taken): polling in between must not
    throw the move away, or the phone would wait for its answer forever."""
    from game.rules.base import Pending
    from game.turn.sources import Decision

    src = ChannelSource("phone")
    first = Decision(0, Pending(0, ("keep", "swap"), "turn"), {}, 4)
    second = Decision(0, Pending(0, ("keep", "swap"), "domino"), {}, 5)
    src.begin(first)
    src.put(4, "swap")
    assert src.poll() == "swap"
    src.put(5, "keep")                  # early: the next decision has not begun
    assert src.poll() is None           # nothing is pending now; the move is kept
    src.begin(second)
    assert src.poll() == "keep"
    src.put(3, "keep")                  # an answer to a decision long over: dropped
    src.begin(Decision(0, Pending(0, ("keep", "swap"), "turn"), {}, 6))
    assert src.poll() is None


def test_stop_before_an_event():
    game = games.new_game("chase", {}, 3, seed=1, bot_seed=1)
    view = FakeView()
    flow = TurnFlow(game, computers("chase", 3, InlineWorker()), view)
    flow.stop_before = lambda ev: ev.type == "deal"
    flow.start()
    for _ in range(20):
        flow.update(0.1)
    assert flow.queue and flow.queue[0].type == "deal"
    assert all(e.type != "deal" for e in view.shown)


def test_bookkeeping_subscribes_autosave_and_statistics(tmp_path, monkeypatch):
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    game = games.new_game("chase", {"lives": 1}, 3, seed=11, bot_seed=11)
    seats = [{"name": n, "human": False, "level": "easy"} for n in "ABC"]
    view = FakeView()
    hooks = Hooks()
    keeper = Bookkeeper.for_game(game, seats, fsync=False).attach(hooks)
    saves: list[int] = []
    hooks.subscribe(H.MOVE_APPLIED, lambda n: saves.append(
        len(store.read_autosave()[0].record.moves) if store.has_autosave() else -1))
    flow = TurnFlow(game, computers("chase", 3, InlineWorker()), view, hooks=hooks)
    flow.start()
    assert store.has_autosave()                       # the fresh game is saved at once
    run(flow)
    # every move was on disk before anyone else heard of it; the last one, game over,
    # cleared the autosave and counted the game once
    assert saves[:-1] == list(range(1, len(game.moves)))
    assert not store.has_autosave()
    s = store.summarize()
    assert s.total == 1 and keeper.session.recorded
    keeper.session.finish()
    assert store.summarize().total == 1


def test_the_turn_flow_needs_no_pygame():
    code = ("import sys; import game.turn.flow, game.turn.sources, game.turn.hooks, "
            "game.turn.workers, game.turn.bookkeeping, game.table.model, "
            "game.table.chase_animator, game.table.rams_animator, game.turn.coach, "
            "game.turn.seats, game.turn.options, game.view.timing; "
            "assert 'pygame' not in sys.modules, sorted(m for m in sys.modules "
            "if m.startswith('pygame'))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert result.returncode == 0, result.stderr


def test_every_module_of_the_turn_package_needs_no_pygame():
    """``game.turn`` is the table's pure side: every module of it, imported in a fresh
    interpreter, leaves pygame unloaded (the layer test keeps it from importing the
    drawing; this catches a module that reaches pygame some other way)."""
    names = sorted(p.stem for p in (ROOT / "game" / "turn").glob("*.py") if p.stem != "__init__")
    assert {"flow", "sources", "hooks", "workers", "texts", "tips"} <= set(names)
    code = ("import sys; import " + ", ".join(f"game.turn.{n}" for n in names) + "; "
            "assert 'pygame' not in sys.modules, sorted(m for m in sys.modules "
            "if m.startswith('pygame'))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert result.returncode == 0, result.stderr
