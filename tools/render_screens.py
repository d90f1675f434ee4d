"""Render every scene and the main table states to PNG for review.

    python tools/render_screens.py [--sizes 960x600,1920x1080] [--langs de,en] [--out out/screens]
    python tools/render_screens.py --readme      # the README's two pictures, docs/images/
    python tools/render_screens.py --tips [--sizes ...] [--langs ...]   # the first game's tips
    python tools/render_screens.py --fit [--sizes ...] [--langs ...]    # every screen, checked

Runs headless (dummy video/audio drivers, a throw-away STAMMTISCH_HOME). Each table
state is reached by playing real games (computers and random human moves) with
animations off up to the moment of interest, then animating at normal speed for a
moment before the picture is taken.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("STAMMTISCH_HOME", tempfile.mkdtemp(prefix="stammtisch-screens-"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.turn.options import TableOptions  # noqa: E402

_FILLED = False


def seats(n: int = 5, humans: int = 1, lang: str = "en"):
    from game.scenes.testing import mixed_seats

    return mixed_seats(n, humans, lang)


def play_to_results(app, tb, max_steps: int) -> None:
    """Play ``tb`` until the results screen (humans at random, seeded, so every run
    shoots the same game), at most ``max_steps`` steps."""
    T.play_to_results(app, tb, random.Random(1), max_steps)


class Shooter:
    def __init__(self, out: Path, size: tuple[int, int], lang: str) -> None:
        self.out = out
        self.size = size
        self.lang = lang
        self.count = 0

    def app(self, speed: str = "off"):
        app = T.make_app(self.size, self.lang, speed=speed, reveal_hold=None)
        app.push(MenuScene(app))
        return app

    def save(self, app, name: str) -> None:
        app.draw()
        path = self.out / f"{self.size[0]}x{self.size[1]}_{self.lang}_{name}.png"
        pygame.image.save(app.screen, str(path))
        self.count += 1

    def table(self, app, n=5, humans=1, rules=None, seed=1, game="chase"):
        # a fixed seed for the computers' choices too: the same pictures every run
        tb = app.scene("table", game_id=game, seats=seats(n, humans, self.lang),
                       rules=rules or {}, seed=seed, options=TableOptions(bot_seed=seed))
        app.push(tb)
        return tb

    def animate(self, app, tb, seconds: float) -> None:
        tb.stop_before = None
        app.settings["anim_speed"] = "normal"
        tb.anim.speed = "normal"
        T.pump(app, seconds, dt=1 / 60, draw=False)

    def at_event(self, name: str, kind: str, seconds: float, rules=None, n=5, humans=1,
                 pred=None, tries: int = 60, game: str = "chase", after=None) -> bool:
        for seed in range(1, tries + 1):
            app = self.app()
            tb = self.table(app, n, humans, rules, seed, game)
            stop, until = T.next_event_is(kind, pred)
            tb.stop_before = stop
            if T.drive(app, until, random.Random(seed)):
                self.animate(app, tb, seconds)
                if after is not None:
                    after(app, tb)
                self.save(app, name)
                return True
        print(f"  (no {kind} found for {name})")
        return False

    def at_decision(self, name: str, decision: str, rules=None, n=5, humans=1,
                    tries: int = 60, game: str = "chase", pred=None, before=None,
                    choose=None) -> bool:
        for seed in range(1, tries + 1):
            app = self.app()
            tb = self.table(app, n, humans, rules, seed, game)

            def until(t, app=app) -> bool:
                return t.state == "human" and t.pending is not None and \
                    t.pending.decision == decision and app.top is t and \
                    (pred is None or pred(t))

            if T.drive(app, until, random.Random(seed), choose=choose):
                app.settings["anim_speed"] = "normal"
                tb.anim.speed = "normal"
                T.pump(app, 0.5, dt=1 / 60, draw=False)
                if before is not None:
                    before(tb)
                self.save(app, name)
                return True
        print(f"  (no {decision} decision found)")
        return False

    def run_all(self) -> None:
        from game.scenes.rules import RulesScene
        from game.scenes.settings_scene import SettingsScene
        from game.scenes.setup import SetupScene

        app = self.app()
        self.save(app, "01_menu")
        app.push(SetupScene(app))
        self.save(app, "02_setup")
        app.pop()
        app.push(SettingsScene(app))
        self.save(app, "03_settings")
        app.pop()
        app.push(RulesScene(app))
        self.save(app, "04_rules")
        for _ in range(12):
            T.key(app, pygame.K_PAGEDOWN)
        self.save(app, "05_rules_end")
        self.chart_screens()

        # the first-dealer search, mid-way
        app = self.app()
        tb = self.table(app, 6, 1, {}, seed=4)
        self.animate(app, tb, 1.4)
        self.save(app, "06_first_dealer")
        self.at_event("07_deal", "deal", 0.08, n=7)
        self.at_decision("10_decision_turn", "turn")
        self.at_decision("11_decision_dealer", "dealer", n=3)
        self.at_decision("12_decision_queen", "queen", rules={"queen_refuses_once": True},
                         n=3)
        self.at_decision("13_decision_domino", "domino", rules={"domino": "low"}, n=3)
        # the coach's hint (H) on a turn and on the dealer's decision
        self.at_decision("14_hint_turn", "turn", before=self.show_hint)
        self.at_decision("15_hint_dealer", "dealer", n=3, before=self.show_hint)
        self.at_decision("16_hint_queen", "queen", rules={"queen_refuses_once": True}, n=3,
                         before=self.show_hint)
        self.at_event("20_swap", "swap", 0.6)
        self.at_event("21_block", "block", 0.75, n=8)
        self.at_event("22_refuse", "refuse", 0.5, rules={"queen_refuses_once": True}, n=6)
        self.at_event("23_show_low", "show", 0.55, rules={"reveal_low_on_pass": True}, n=6)
        self.at_event("24_talon_king", "talon_king", 0.9, rules={"talon_king_blocks": True},
                      n=4, tries=200)
        self.at_event("25_draw", "draw", 0.6, n=4)
        self.at_event("30_showdown", "showdown", 1.4, n=10)
        self.at_event("31_lose_life", "lose_life", 0.3, n=6, rules={"stake": 5})
        self.at_event("32_out", "out", 0.5, n=5, rules={"lives": 1})
        self.at_event("33_sudden_death", "sudden_death", 0.5, n=3, rules={"lives": 1},
                      tries=300)
        self.at_event("34_final_tie_restart", "final_tie", 0.6, n=3,
                      rules={"lives": 1, "final_tie": "restart"}, tries=300)
        self.at_event("35_game_over", "game_over", 1.2, n=4, rules={"lives": 1, "stake": 2})
        # a held reveal (waits for the player), fast-forward offered
        app = T.make_app(self.size, self.lang, speed="off", reveal_hold=None)
        app.push(MenuScene(app))
        tb = self.table(app, 5, 1, {}, seed=6)
        T.drive(app, lambda t: t.state == "hold", random.Random(6))
        self.animate(app, tb, 0.3)
        self.save(app, "36_showdown_held")
        # the story of a card in hot-seat play (a swap before the person's turn)
        for seed in range(1, 40):
            app = self.app()
            tb = self.table(app, 5, 3, {}, seed=seed)
            if T.drive(app, lambda t, app=app: t.state == "human" and app.top is t
                       and bool(t.controls.story), random.Random(seed),
                       choose=lambda p: "swap" if "swap" in p.legal else p.legal[0]):
                T.pump(app, 0.3, draw=False)
                self.save(app, "43_hotseat_card_story")
                break
        # privacy screen with two humans
        app = self.app()
        tb = self.table(app, 4, 2, {}, seed=2)
        T.drive(app, lambda t: app.top is not None and app.top.name == "handoff",
                random.Random(2))
        self.save(app, "40_privacy")
        app.top.ready()
        T.pump(app, 0.3, draw=False)
        self.save(app, "41_hotseat_after_privacy")
        # pause overlay
        T.key(app, pygame.K_ESCAPE)
        self.save(app, "42_pause")
        # results
        app = self.app()
        tb = self.table(app, 5, 1, {"lives": 1}, seed=3)
        T.play_game(app)
        self.save(app, "50_results")
        # demo (ten seats)
        app = self.app("normal")
        from game.scenes.table_chase import demo_scene

        app.push(demo_scene(app, 10, seed=5))
        T.pump(app, 9.0, dt=1 / 30, draw=False)
        self.save(app, "60_demo_10")
        self.store_screens()

    def run_rams(self) -> None:
        """Every state of the Rams table."""
        from game.scenes.rules import RulesScene
        from game.scenes.setup import SetupScene

        app = self.app()
        app.push(SetupScene(app, "rams"))
        self.save(app, "r01_setup")
        app.pop()
        app.push(RulesScene(app, "rams"))
        self.save(app, "r02_rules")
        for _ in range(12):
            T.key(app, pygame.K_PAGEDOWN)
        self.save(app, "r03_rules_end")
        app.pop()
        from game.rules.rams import AS_WRITTEN, rams_rules

        # opened from a table: that table's rules first (the default, and as written)
        app.push(RulesScene(app, "rams", rules=rams_rules({})))
        self.save(app, "r04_rules_this_table")
        app.pop()
        app.push(RulesScene(app, "rams", rules=rams_rules(dict(AS_WRITTEN))))
        self.save(app, "r05_rules_this_table_as_written")
        app.pop()
        setup = SetupScene(app, "rams")
        app.push(setup)
        setup._step_preset(1)
        self.save(app, "r06_setup_as_written")
        R = {"game": "rams"}
        W = dict(AS_WRITTEN)
        self.at_event("r10_deal", "deal", 0.05, n=5, pred=lambda e: True, **R)
        self.at_event("r11_trump", "trump", 0.6, n=5, **R)
        self.at_decision("r12_declare", "declare", **R)

        def drop_all(p):
            return "drop" if "drop" in p.legal else p.legal[0]

        self.at_decision("r13_declare_forced", "declare", choose=drop_all, rules=W,
                         pred=lambda t: tuple(t.pending.legal) == ("play",), **R)
        def dealer_forced(tb) -> bool:
            from game.turn.rams_texts import forced_why

            d = tb.controls.decision
            return d is not None and "drop" not in tb.pending.legal and forced_why(
                d.view, tb.pending.seat, 0) == "dealer_must_play"

        # the computers drop whenever they may under the drop-out limit: quick to find
        self.at_decision("r13b_dealer_forced", "declare", choose=drop_all, n=3,
                         rules={**W, "dealer_must_play": True}, pred=dealer_forced, **R)
        self.at_decision("r14_take", "take", rules={"dealer_takes_trump": True}, n=3,
                         **R)
        self.at_event("r15_take_trump", "take_trump", 0.5, rules={"dealer_takes_trump": True},
                      n=4, humans=0, tries=100, **R)
        self.at_event("r16_declare", "declare", 0.3, n=5, pred=lambda e: e.data["choice"] ==
                      "drop", **R)
        self.at_event("r17_void_round", "void_round", 0.6, n=3, humans=0, tries=200,
                      rules={**W, "drop_limit": "none"}, **R)
        self.at_event("r17b_general_rams", "general_rams", 0.6, n=4, humans=1, tries=200,
                      **R)
        self.at_event("r18_rams", "rams", 0.7, n=4, humans=0, tries=200, **R)

        def show_illegal(tb):
            c = tb.controls
            bad = [i for i, sp in enumerate(c.hand()) if c.card_move(sp) not in tb.pending.legal]
            if bad:
                c.focus = bad[0]

        self.at_decision("r20_trick_illegal", "trick", rules={"must_trump": True},
                         pred=lambda t: any(t.controls.card_move(sp) not in t.pending.legal
                                            for sp in t.controls.hand()),
                         before=show_illegal, **R)
        self.at_decision("r21_trick_lead", "trick", pred=lambda t: not t.model.trick_sprites,
                         **R)
        # the coach's hint (H): on the declaration buttons, above the cards, on taking
        self.at_decision("r28_hint_declare", "declare", before=self.show_hint,
                         pred=lambda t: len(t.pending.legal) > 1, **R)
        self.at_decision("r29_hint_trick", "trick", before=self.show_hint,
                         pred=lambda t: len(t.pending.legal) > 2, **R)
        self.at_decision("r29b_hint_take", "take", rules={"dealer_takes_trump": True}, n=3,
                         before=self.show_hint, **R)
        self.at_event("r22_play", "play", 0.12, n=6, humans=0, **R)
        self.at_event("r23_trick_sweep", "trick", 0.85, n=5, **R)
        self.at_event("r24_summary", "round_start", 0.8, n=5,
                      pred=lambda e: e.data["round"] > 0, **R)
        self.at_event("r25_lose_life", "lose_life", 0.3, n=5, rules=W, **R)
        self.at_event("r25c_counters", "score", 0.3, n=5, **R)
        self.at_event("r26_out", "out", 0.5, n=5, rules={**W, "lives": 1}, **R)
        def go_on(app, tb) -> None:      # past the held reckoning to the winner
            T.key(app, pygame.K_SPACE)
            self.animate(app, tb, 2.5)

        self.at_event("r27_game_over", "game_over", 4.0, n=4, rules={"counters": 4},
                      after=go_on, **R)
        # the results strip: every round's result stays, the unseen ones in gold
        app = self.app()
        tb = self.table(app, 4, 1, {}, seed=9, game="rams")
        T.drive(app, lambda t: len(t.model.results) >= 6 and t.state == "human"
                and app.top is t, random.Random(9),
                choose=lambda p: "drop" if "drop" in p.legal else p.legal[0])
        self.animate(app, tb, 0.3)
        self.save(app, "r32_results_strip")
        # the reckoning held until the player continues; the last trick; fast-forward
        app = T.make_app(self.size, self.lang, speed="off", reveal_hold=None)
        app.push(MenuScene(app))
        tb = self.table(app, 5, 1, {}, seed=6, game="rams")
        T.drive(app, lambda t: t.state == "hold", random.Random(6))
        self.animate(app, tb, 0.4)
        self.save(app, "r24b_summary_held")
        app = self.app()
        tb = self.table(app, 5, 1, {}, seed=2, game="rams")
        if T.drive(app, lambda t: t.model.last_trick is not None and t.state == "human"
                   and app.top is t, random.Random(3)):
            T.key(app, tb.controls.last_key)
            self.save(app, "r25b_last_trick")
        app = self.app("normal")
        tb = self.table(app, 6, 1, {}, seed=7, game="rams")
        T.drive(app, lambda t: t.state == "human" and t.pending.decision == "declare"
                and "drop" in t.pending.legal, random.Random(7))
        tb.human_move("drop")
        tb.toggle_skip()
        self.animate(app, tb, 0.5)
        tb.anim.speed = tb.anim_speed()
        self.save(app, "r26b_fast_forward")
        app = self.app()
        tb = self.table(app, 4, 2, {}, seed=2, game="rams")
        T.drive(app, lambda t: app.top is not None and app.top.name == "handoff",
                random.Random(2))
        self.save(app, "r30_privacy")
        app.top.ready()
        T.pump(app, 0.3, draw=False)
        self.save(app, "r31_hotseat_after_privacy")
        app = self.app()
        tb = self.table(app, 5, 1, {"lives": 1}, seed=3, game="rams")
        play_to_results(app, tb, 100000)
        self.save(app, "r40_results")
        app = self.app("normal")
        from game.scenes.table_rams import demo_scene as rams_demo

        app.push(rams_demo(app, 10, seed=5))
        T.pump(app, 12.0, dt=1 / 30, draw=False)
        self.save(app, "r50_demo_10")

    @staticmethod
    def show_hint(tb) -> None:
        tb.toggle_hint()
        tb.ensure_layout(tb.app.size)

    def chart_screens(self) -> None:
        """The strategy chart (from the rules scene): 5 seats, its second view, 10, 2."""
        from game.scenes.rules import RulesScene

        app = self.app()
        app.push(RulesScene(app))
        T.click_button(app, app.top.list.by_name("chart"))
        chart = app.top
        chart.change(5 - chart.players)
        self.save(app, "08_chart_5")
        chart.toggle()
        self.save(app, "08b_chart_5_after_swap")
        chart.change(5)
        self.save(app, "08c_chart_10_after_swap")
        chart.toggle()
        self.save(app, "08d_chart_10")
        chart.change(-8)
        self.save(app, "08e_chart_2")

    def store_screens(self) -> None:
        """Continue, statistics, replays (game.store, scenes/stats.py, scenes/replay.py)."""
        from game import store
        from game.scenes.replay import ReplayScene
        from game.scenes.replay_list import ReplayListScene
        from game.scenes.stats import StatsScene

        app = self.app()
        app.push(StatsScene(app))
        self.save(app, "70_stats_empty")
        global _FILLED
        if not _FILLED:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            import bench_stats

            bench_stats.fill(240, seed=3, distinct=60, you="Du" if self.lang == "de" else "You")
            _FILLED = True
        # a game in progress: the menu offers Continue
        app = self.app()
        self.table(app, 5, 1, {}, seed=21)
        T.drive(app, lambda t: len(t.game.moves) >= 25, random.Random(21))
        # a second game shelves the first: Continue lists both
        app = self.app()
        self.table(app, 4, 1, {}, seed=22, game="rams")
        T.drive(app, lambda t: len(t.game.moves) >= 6, random.Random(22))
        app = self.app()
        self.save(app, "71_menu_continue")
        T.click_button(app, app.top.list.by_name("continue"))
        self.save(app, "71b_unfinished")
        lst = app.top
        T.click_button(app, lst.list.by_name("discard_0"))
        self.save(app, "71c_discard_question")
        T.key(app, pygame.K_ESCAPE)
        T.click_button(app, lst.list.by_name("resume_1"))
        T.pump(app, 1.0, dt=1 / 30, draw=False)
        self.save(app, "72_continued")
        app = self.app()
        app.push(StatsScene(app))
        self.save(app, "73_stats")
        app.push(ReplayListScene(app))
        self.save(app, "74_replays")
        rec = store.game_record(store.recent_games(1)[0].id)
        app = self.app("normal")
        app.push(ReplayScene(app, rec, title="chase-demo.json"))
        T.pump(app, 6.0, dt=1 / 30, draw=False)
        self.save(app, "75_replay_playing")
        app.top.toggle()
        app.top.speed_i = 2
        self.save(app, "76_replay_paused")
        # the results screen after exporting
        app = self.app()
        self.table(app, 4, 1, {"lives": 1}, seed=8)
        T.play_game(app)
        T.click_button(app, app.top.list.by_name("export"))
        self.save(app, "77_results_exported")
        # notices from code without a screen (game.notices): a folder, a failed save
        from game import notices
        from game.i18n import t

        app = self.app()
        notices.post("folder.unusable", path="/home/anna/.local/share/stammtisch/saves",
                     reason="Read-only file system", what=t("folder.keeps.saves"))
        notices.post("store.save.failed", reason="No space left on device")
        T.frame(app)
        self.save(app, "78_notices")
        # statistics written by a newer version: the screen says why it shows nothing
        scene = StatsScene(app)
        scene.data = store.StatsSummary()
        scene.unavailable = t("stats.unavailable.newer")
        app.toast = None
        app.push(scene)
        self.save(app, "79_stats_unavailable")

    def review_screens(self) -> None:
        """The game review (scenes/review.py) after a Chase and a Rams game: the
        review, one decision, one player's decisions, the jump to the table, the
        progress bar; and the statistics' accuracy chart. The review is computed with
        fewer deals than the game's coach uses (the pictures need numbers, not good
        ones)."""
        from game import store
        from game.review import compute, history
        from game.review.job import Reviews
        from game.scenes.stats import StatsScene
        from game.turn.workers import InlineWorker, ManualWorker

        for game, prefix in (("chase", "80"), ("rams", "r60")):
            app = self.app()
            app._reviews = Reviews(InlineWorker, history.keep, samples=REVIEW_SAMPLES)
            tb = self.table(app, 4, 1, {"lives": 2}, seed=3, game=game)
            play_to_results(app, tb, 200000)
            T.click_button(app, app.top.list.by_name("review"))
            self.save(app, f"{prefix}_review")
            T.key(app, pygame.K_DOWN)
            T.key(app, pygame.K_DOWN)
            self.save(app, f"{prefix}b_review_decision")
            T.key(app, pygame.K_RIGHT)
            self.save(app, f"{prefix}c_review_player")
            T.key(app, pygame.K_t)
            T.pump(app, 1.0, draw=False)
            self.save(app, f"{prefix}d_review_on_table")
            if game == "chase":
                manual = ManualWorker()
                app = self.app()
                app._reviews = Reviews(lambda m=manual: m, history.keep,
                                       samples=REVIEW_SAMPLES)
                app.open("review", record=tb.session.record())
                for _ in range(12):
                    manual.run_next()
                T.pump(app, 1.0, draw=False)
                self.save(app, f"{prefix}e_review_progress")
        # the statistics with the accuracy of a dozen reviewed games
        for row in store.recent_games(12):
            rec = store.game_record(row.id)
            history.keep(row.game_id, compute.review(rec, samples=REVIEW_SAMPLES))
        app = self.app()
        app.push(StatsScene(app))
        self.save(app, "86_stats_accuracy")


#: deals per move for the pictures' reviews
REVIEW_SAMPLES = 40


#: the README's pictures: rendered at this size, saved at ``README_WIDTH`` pixels wide
README_SIZE = (1280, 720)
README_WIDTH = 800


def readme_pictures(out: Path) -> list[Path]:
    """One picture of each table, as a newcomer first meets it: a Chase the Ace turn
    among four computers, and a Rams trick in play (English, scaled down)."""
    shooter = Shooter(out, README_SIZE, "en")
    made = []
    for game, decision, pred in (
            ("chase", "turn", None),
            ("rams", "trick", lambda t: len(t.model.trick_sprites) >= 2)):
        for seed in range(1, 40):
            app = shooter.app()
            tb = shooter.table(app, 5, 1, {}, seed, game)
            def ready(t, app=app, decision=decision, pred=pred) -> bool:
                return (t.state == "human" and app.top is t and t.pending is not None
                        and t.pending.decision == decision and (pred is None or pred(t)))

            if T.drive(app, ready, random.Random(seed)):
                app.settings["anim_speed"] = "normal"
                tb.anim.speed = "normal"
                T.pump(app, 0.6, dt=1 / 60, draw=False)
                app.draw()
                w, h = app.screen.get_size()
                small = pygame.transform.smoothscale(
                    app.screen, (README_WIDTH, round(h * README_WIDTH / w)))
                path = out / f"table_{game}.png"
                pygame.image.save(small, str(path))
                made.append(path)
                break
    return made


def tip_pictures(out: Path, size: tuple[int, int], lang: str) -> list[Path]:
    """A first game of each game, solo against three computers, with the tips on: a
    picture of the table each time a tip shows (the person drops out of the first Rams
    round, so the drop limit comes up too). The game is played as the tips' tests play
    it (``tests/test_tips.py``)."""
    from tests.test_tips import play_first_game

    made: list[Path] = []
    for game, seed in (("chase", 4), ("rams", 3)):
        app = T.make_app(size, lang, speed="off", reveal_hold=None, tips=True)
        app.push(MenuScene(app))
        tb = app.scene("table", game_id=game, seats=seats(4, 1, lang), rules={}, seed=seed,
                       options=TableOptions(bot_seed=seed))
        app.push(tb)

        def shoot(tb, tip, app=app) -> None:
            app.settings["anim_speed"] = tb.anim.speed = "normal"   # the tip fades in
            T.pump(app, 0.4, dt=1 / 60, draw=False)
            path = out / f"{size[0]}x{size[1]}_{lang}_tip_{len(made):02d}_{tip.id}.png"
            app.draw()
            pygame.image.save(app.screen, str(path))
            made.append(path)
            app.settings["anim_speed"] = tb.anim.speed = "off"

        play_first_game(app, tb, random.Random(seed), shoot)
    return made


def fit_pictures(out: Path, size: tuple[int, int], lang: str) -> tuple[int, list[str]]:
    """Every screen of the layout tests' tour (``tests/screens_tour.py``) at ``size``
    in ``lang``, saved, and what ``tests/screen_check.py`` finds wrong on each: text
    cut off by the window, text on text or on a button, buttons on each other, labels
    that do not fit."""
    from tests.screen_check import problems, recording
    from tests.screens_tour import tour

    count, found = 0, []
    for name, app in tour(size, lang):
        with recording(app) as frame:
            app.draw()
        pygame.image.save(app.screen, str(out / f"{size[0]}x{size[1]}_{lang}_{name}.png"))
        count += 1
        found += problems(frame, f"{size[0]}x{size[1]} {lang} {name}")
    return count, found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="960x600,1280x720,1920x1080,3840x2160")
    ap.add_argument("--langs", default="de,en")
    ap.add_argument("--out", default="out/screens")
    ap.add_argument("--games", default="chase,rams,review",
                    help="which screens (chase, rams: the tables; review)")
    ap.add_argument("--readme", action="store_true",
                    help="only the README's pictures, into docs/images/ (or --out)")
    ap.add_argument("--tips", action="store_true",
                    help="only the first game's tips, one picture per tip")
    ap.add_argument("--fit", action="store_true",
                    help="every screen of the layout tests, saved and checked for text "
                         "cut off or lying on something else")
    args = ap.parse_args(argv)
    if args.tips:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for size_text in args.sizes.split(","):
            w, h = (int(x) for x in size_text.lower().split("x"))
            for lang in args.langs.split(","):
                made = tip_pictures(out, (w, h), lang)
                print(f"{w}x{h} {lang}: {len(made)} tips: "
                      + ", ".join(p.stem.split("_tip_")[1] for p in made))
        return 0
    if args.fit:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        faults = []
        for size_text in args.sizes.split(","):
            w, h = (int(x) for x in size_text.lower().split("x"))
            for lang in args.langs.split(","):
                count, found = fit_pictures(out, (w, h), lang)
                faults += found
                print(f"{w}x{h} {lang}: {count} screens, {len(found)} faults")
        print("\n".join(faults))
        return 1 if faults else 0
    if args.readme:
        out = Path(args.out if args.out != "out/screens" else
                   Path(__file__).resolve().parents[1] / "docs" / "images")
        out.mkdir(parents=True, exist_ok=True)
        for path in readme_pictures(out):
            print(f"{path} ({path.stat().st_size // 1024} KB)")
        return 0
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    total = 0
    for size_text in args.sizes.split(","):
        w, h = (int(x) for x in size_text.lower().split("x"))
        for lang in args.langs.split(","):
            shooter = Shooter(out, (w, h), lang)
            if "chase" in args.games:
                shooter.run_all()
            if "rams" in args.games:
                shooter.run_rams()
            if "review" in args.games:
                shooter.review_screens()
            total += shooter.count
            print(f"{w}x{h} {lang}: {shooter.count} pictures")
    print(f"{total} pictures in {out} ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
