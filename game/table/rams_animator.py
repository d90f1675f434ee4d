"""Rams' events as animations (see :mod:`game.table.animator`): hands dealt, the
trump card turned, declarations, tricks played and swept, the round's summary.

What shows face up: played cards, the turned trump card, and the *viewer*'s hand (the
person at the screen). Cards that leave a hand are pinned where they were drawn
(``TableLayout.pin``: fractions of the window, so a resize before they fly on keeps
them in place), so the layout must be current when an event is shown. No pygame.
"""

from __future__ import annotations

from functools import partial

from game.rules.base import Event
from game.table.animator import EventAnimator, chip_colour
from game.table.model import RamsModel
from game.turn.rams_texts import suit_name
from game.view import anim, timing
from game.view.anim import Call, Parallel, Sequence, Tween, Wait
from game.view.sprites import Chip, HandCard, flip, move, show_faces

SUIT_SORT = "CHSD"          # alternating colours; trumps go to the right end


class RamsAnimator(EventAnimator):
    model: RamsModel

    # ------------------------------------------------------------------ faces & hands

    def sort_key(self, code: str | None) -> tuple[int, int]:
        if code is None:
            return (9, 0)
        trump = self.model.trump
        suits = [s for s in SUIT_SORT if s != trump] + [trump]
        return (suits.index(code[1]) if code[1] in suits else 8, self.host.game.rank[code])

    def sort_hand(self, seat: int) -> None:
        self.model.hands[seat].sort(key=lambda sp: self.sort_key(sp.card))

    def visible(self, seat: int, sp: HandCard) -> str | None:
        if seat in self.model.folded:
            return None
        viewer = self.host.viewer
        return sp.card if viewer is not None and seat == viewer else None

    def refresh_faces(self, animated: bool = True) -> anim.Anim | None:
        """Turn every hand's card to what may show now (after a change of viewer: at once)."""
        return show_faces(((sp, self.visible(seat, sp))
                           for seat, lst in self.model.hands.items() for sp in lst), animated)

    def take_out(self, seat: int, card: str | None) -> HandCard | None:
        """Remove the sprite of ``card`` (or any) from ``seat``'s hand, pinned where it is."""
        lst = self.model.hands.get(seat, [])
        if not lst:
            return None
        pick = None
        for sp in lst:
            if card is not None and sp.card == card:
                pick = sp
        if pick is None:
            pick = lst[-1]
        layout = self.host.table_layout
        x, y = pick.pos(layout.resolve, layout.geo.ch)
        lst.remove(pick)
        pick.a = pick.b = layout.pin(x, y)
        pick.t = 1.0
        if seat == layout.base:
            pick.scale = layout.geo.big[1] / max(1, layout.geo.ch)
        return pick

    def record_result(self, void: bool = False) -> None:
        """The round just finished, for the results strip (once per round)."""
        m = self.model
        n = m.round + 1
        if m.results and m.results[-1]["round"] == n:
            return
        m.results.append({"round": n, "void": void, "changes": dict(m.round_lost)})
        m.unseen += 1

    def log_loss(self, seat: int, amount: int) -> None:
        self.add_log("log.rams.lose_life" if amount == 1 else "log.rams.lose_lives",
                     seat=seat, n=amount)

    def _fly_away(self, sprites: list[HandCard]) -> None:
        self.model.flying.extend(sprites)

    def _landed(self, sprites: list[HandCard]) -> None:
        flying = self.model.flying
        for sp in sprites:
            if sp in flying:
                flying.remove(sp)

    # ------------------------------------------------------------------ a round

    def ev_first_dealer(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        m = self.model
        m.dealer = seat
        self.add_log("log.rams.first_dealer", seat=seat)
        m.button.a = m.button.b = ("dealer", seat)
        return Tween(m.button, "alpha", 1.0, timing.BUTTON_FADE, start=0.0)

    def _collect(self) -> anim.Anim | None:
        m = self.model
        old = [sp for lst in m.hands.values() for sp in lst] + [sp for _, sp in m.trick_sprites]
        if m.trump_sprite is not None:
            old.append(m.trump_sprite)
        if not old:
            return None
        for s in m.hands:
            m.hands[s] = []
        m.trick_sprites = []
        m.trump_sprite = None
        self._fly_away(old)
        layout = self.host.table_layout
        steps = []
        for i, sp in enumerate(old):
            x, y = sp.pos(layout.resolve, layout.geo.ch)
            sp.a = sp.b = layout.pin(x, y)
            sp.highlight = False
            steps.append(Sequence(
                flip(sp, None, timing.FLIP_QUICK),
                Parallel(move(sp, ("stock",), timing.COLLECT,
                              delay=i * timing.RAMS_COLLECT_STAGGER),
                         Tween(sp, "scale", 1.0, timing.COLLECT))))
        return Sequence(Parallel(*steps), Call(lambda: self._landed(old)))

    def _build_summary(self) -> bool:
        """The reckoning of the round just played (who declared what, tricks, lives
        lost) into the model; False if no tricks were played."""
        m = self.model
        if not m.players:
            return False
        self.record_result()
        rows = []
        for s in m.active:
            choice = m.declared.get(s, "")
            if m.lone is not None:
                choice = "lone" if s == m.lone else "defend"
            elif m.general is not None:
                choice = "general" if s == m.general else "play"
            rows.append((s, choice, m.tricks.get(s, 0) if s in m.players else None,
                         m.round_lost.get(s, 0)))
        m.summary = {"round": m.round + 1, "rows": rows}
        m.players = []
        return True

    def hold_started(self) -> anim.Anim | None:
        """The reckoning stays up while the round's reveal is held."""
        if not self._build_summary():
            return None
        return Tween(self.model, "summary_alpha", 1.0, timing.SUMMARY_IN, start=0.0)

    def _round_summary(self) -> anim.Anim | None:
        """The reckoning of the round: already up (it was held) it goes now; otherwise
        it shows for a while (the demo, a table that does not hold)."""
        m = self.model

        def clear() -> None:
            m.summary = None

        fade_out = Sequence(Tween(m, "summary_alpha", 0.0, timing.SUMMARY_OUT), Call(clear))
        if m.summary is not None:
            return fade_out
        if not self._build_summary():
            return None
        hold = timing.SUMMARY_HOLD_DEMO if self.host.demo else timing.SUMMARY_HOLD
        return Sequence(Tween(m, "summary_alpha", 1.0, timing.SUMMARY_IN, start=0.0),
                        Wait(hold), fade_out)

    def ev_round_start(self, ev: Event) -> anim.Anim:
        d = ev.data
        m = self.model
        summary = self._round_summary()
        m.rounds_played = d["round"] + 1

        def reset() -> anim.Anim:
            m.round = d["round"]
            m.active = list(d["active"])
            m.declared = {}
            m.tricks = {}
            m.lone = None
            m.general = None
            m.players = []
            m.round_lost = {}
            m.folded.clear()
            m.codes = {}
            m.trump = ""
            m.log = []
            m.last_trick = None
            collect = self._collect()
            dealer_move = self.place_button(d["dealer"])
            self.add_log("log.round", seat=d["dealer"], n=d["round"] + 1)
            banner = self.banner("banner.round", hold=timing.ROUND_BANNER, big=False,
                                 blocking=False, n=d["round"] + 1)
            return Parallel(collect, dealer_move, banner)

        return Sequence(summary, Call(reset))

    def ev_shuffle(self, ev: Event) -> anim.Anim:
        self.host.cue("shuffle")
        m, step = self.model, timing.RAMS_RIFFLE_STEP
        cut = ev.data.get("cut_by")
        steps: list[anim.Anim | None] = [
            Tween(m, "stock_split", 1.0, step, start=0.0), Tween(m, "stock_split", 0.0, step),
            Tween(m, "stock_split", 1.0, step), Tween(m, "stock_split", 0.0, step)]
        if cut is not None:
            steps.append(self.say(cut, "say.cut", hold=timing.RAMS_CUT_SAY, kind="small"))
        return Sequence(*steps)

    def ev_deal(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        sp = HandCard(("stock",))
        self.model.hands[seat].append(sp)
        sp.b = ("hand", seat, sp.uid)
        sp.t = 0.0
        self.host.cue("deal")
        self.anim.play_background(Tween(sp, "t", 1.0, timing.RAMS_DEAL_FLY, anim.ease_out,
                                        start=0.0))
        return Wait(timing.RAMS_DEAL_GAP)

    def ev_dealt(self, ev: Event) -> anim.Anim | None:
        if ev.to is None:
            return None
        seat = ev.to
        cards = list(ev.data["cards"])
        self.model.codes[seat] = cards
        for sp, code in zip(self.model.hands.get(seat, []), cards):
            sp.card = code
        self.sort_hand(seat)
        return self.refresh_faces()

    def ev_trump(self, ev: Event) -> anim.Anim:
        card, suit = ev.data["card"], ev.data["suit"]
        m = self.model
        m.trump = suit
        for s in m.hands:
            self.sort_hand(s)
        sp = HandCard(("stock",), card)
        m.trump_sprite = sp
        self.add_log("log.rams.trump", card=card, suit=partial(suit_name, suit))
        self.host.cue("flip")
        self.banner("banner.rams.trump", hold=timing.TRUMP_BANNER, big=False, blocking=False,
                    suit=partial(suit_name, suit))
        return Sequence(move(sp, ("trump",), timing.TRUMP_MOVE), flip(sp, card),
                        Wait(timing.TRUMP_PAUSE))

    # ------------------------------------------------------------------ decisions

    def ev_take_trump(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        m = self.model
        layout = self.host.table_layout
        disc = None
        for e in self.host.upcoming():
            if e.type == "discarded" and e.to == seat:
                disc = e.data["card"]
                break
            if e.type in ("declare", "round_start"):
                break
        self.add_log("log.rams.take_trump", seat=seat, card=card)
        steps: list[anim.Anim | None] = [self.say(seat, "say.rams.take", hold=timing.TAKE_SAY,
                                                  card=card)]
        sp = m.trump_sprite
        m.trump_sprite = None
        out = self.take_out(seat, disc)
        if sp is None:
            sp = HandCard(("stock",), card)
        sp.card = card
        codes = m.codes.get(seat, [])
        if disc in codes:
            codes[codes.index(disc)] = card
        x, y = sp.pos(layout.resolve, layout.geo.ch)
        sp.a = sp.b = layout.pin(x, y)
        m.hands[seat].append(sp)
        self.sort_hand(seat)
        grow = None
        if seat == layout.base:
            sp.scale = layout.geo.ch / max(1, layout.geo.big[1])
            grow = Tween(sp, "scale", 1.0, timing.TAKE_MOVE)
        steps.append(Parallel(move(sp, ("hand", seat, sp.uid), timing.TAKE_MOVE), grow))
        steps.append(self.refresh_faces())
        if out is not None:
            self._fly_away([out])
            steps.append(Sequence(flip(out, None),
                                  Parallel(move(out, ("stock",), timing.TAKE_MOVE),
                                           Tween(out, "scale", 1.0, timing.TAKE_MOVE)),
                                  Call(lambda: self._landed([out]))))
        self.host.cue("swap")
        return Sequence(*steps)

    def ev_discarded(self, ev: Event) -> None:
        if ev.to is not None:
            self.add_log("log.rams.discarded", to=ev.to, card=ev.data["card"])

    def ev_pass_trump(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.add_log("log.rams.pass_trump", seat=seat)
        return self.say(seat, "say.rams.pass_trump", hold=timing.PASS_SAY)

    def ev_declare(self, ev: Event) -> anim.Anim:
        seat, choice = ev.data["seat"], ev.data["choice"]
        m = self.model
        m.declared[seat] = choice
        self.add_log("log.rams." + choice, seat=seat)
        self.host.cue("knock")
        steps: list[anim.Anim | None] = [self.say(seat, "say.rams." + choice,
                                                  hold=timing.DECLARE_SAY)]
        if choice == "general":
            self.host.cue("win")
        if choice == "drop":
            m.folded.add(seat)
            steps.append(Parallel(*[flip(sp, None) for sp in m.hands.get(seat, [])]))
        return Sequence(*steps)

    def ev_void_round(self, ev: Event) -> anim.Anim | None:
        self.add_log("log.rams.void")
        self.record_result(void=True)
        return self.banner("banner.rams.void", "banner.rams.void.sub", hold=timing.VOID_BANNER)

    def ev_general_rams(self, ev: Event) -> anim.Anim:
        """General Rams: everyone plays (those who dropped take their cards back)."""
        seat = ev.data["seat"]
        m = self.model
        m.general = seat
        m.folded.clear()                    # the declaration said it in the log already
        sub = ("banner.rams.general.sub_counters" if m.counting else
               "banner.rams.general.sub")
        return Sequence(self.banner("banner.rams.general", sub, hold=timing.RAMS_BANNER,
                                    name=partial(self.names.name, seat)),
                        Call(lambda: self.refresh_faces()))

    def ev_rams(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        m = self.model
        m.lone = seat
        m.folded.clear()
        self.add_log("log.rams.rams", seat=seat)
        self.host.cue("win")
        sub = "banner.rams.rams.sub_one" if self.rules["lone_needs_one"] else \
            "banner.rams.rams.sub"
        return Sequence(self.banner("banner.rams.rams", sub, hold=timing.RAMS_BANNER,
                                    name=partial(self.names.name, seat)),
                        Call(lambda: self.refresh_faces()))

    # ------------------------------------------------------------------ tricks

    def ev_lead(self, ev: Event) -> None:
        m = self.model
        if not m.players:
            m.players = list(m.active) if m.lone is not None or m.general is not None \
                else [s for s in m.active if m.declared.get(s) == "play"]
            for s in m.players:
                m.tricks.setdefault(s, 0)

    def ev_play(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        m = self.model
        sp = self.take_out(seat, card)
        if sp is None:
            sp = HandCard(("fan", seat), card)
            layout = self.host.table_layout
            sp.a = sp.b = layout.pin(*layout.geo.fan[seat])
        sp.card = card
        codes = m.codes.get(seat, [])
        if card in codes:
            codes.remove(card)
        m.trick_sprites.append((seat, sp))
        self.host.cue("deal")
        return Parallel(move(sp, ("trick", seat), timing.PLAY_MOVE, ease=anim.ease_out),
                        Tween(sp, "scale", 1.0, timing.PLAY_MOVE),
                        flip(sp, card, timing.PLAY_FLIP))

    def ev_trick(self, ev: Event) -> anim.Anim:
        winner = ev.data["winner"]
        m = self.model
        wcard = ev.data.get("cards", {}).get(str(winner), "")
        self.add_log("log.rams.trick", seat=winner, card=wcard)
        sprites = [sp for _, sp in m.trick_sprites]
        best = next((sp for s, sp in m.trick_sprites if s == winner), None)
        steps: list[anim.Anim | None] = [Wait(timing.TRICK_PAUSE)]
        if best is not None:
            steps.append(Tween(best, "scale", 1.15, timing.TRICK_WINNER_GROW,
                               anim.ease_out_back))
        steps.append(Wait(timing.TRICK_HOLD))

        def sweep() -> anim.Anim:
            m.trick_sprites = []
            self._fly_away(sprites)
            self.host.cue("swap")
            d, gap = timing.TRICK_SWEEP, timing.TRICK_SWEEP_STAGGER
            return Parallel(*[Parallel(move(sp, ("pile", winner), d, delay=i * gap),
                                       Tween(sp, "scale", 0.3, d, delay=i * gap),
                                       Tween(sp, "alpha", 0.2, d, delay=i * gap))
                              for i, sp in enumerate(sprites)])

        played = [(s, sp.card) for s, sp in m.trick_sprites]

        def count_it() -> None:
            self._landed(sprites)
            m.tricks[winner] = m.tricks.get(winner, 0) + 1
            m.last_trick = {"cards": played, "winner": winner}

        steps += [Call(sweep), Call(count_it)]
        return Sequence(*steps)

    # ------------------------------------------------------------------ the end

    def ev_score(self, ev: Event) -> anim.Anim:
        """``counters``: a seat sheds counters (chips fly to the middle) or adds the
        penalty (chips fly from the middle)."""
        m = self.model
        seat, amount, counters = ev.data["seat"], ev.data["amount"], ev.data["counters"]
        m.round_lost[seat] = m.round_lost.get(seat, 0) + amount
        key = "log.rams.adds" if amount > 0 else "log.rams.sheds"
        self.add_log(key + (".one" if abs(amount) == 1 else ".other"), seat=seat,
                     n=abs(amount))
        flying = []
        for i in range(min(abs(amount), 5)):
            chip = Chip(("chip", seat) if amount < 0 else ("pot",), chip_colour(seat))
            m.chips.append(chip)

            def gone(c: Chip = chip) -> None:
                if c in m.chips:
                    m.chips.remove(c)

            flying.append(Sequence(move(chip, ("pot",) if amount < 0 else ("chip", seat),
                                        timing.CHIP_FLY, delay=i * timing.CHIP_STAGGER,
                                        arc=0.3),
                                   Tween(chip, "alpha", 0.0, timing.CHIP_FADE), Call(gone)))

        def update() -> None:
            m.lives[seat] = counters

        self.host.cue("chip")
        return Sequence(Parallel(*flying, Sequence(Wait(timing.LIVES_UPDATE_DELAY),
                                                   Call(update))),
                        Wait(timing.AFTER_LOSS))

    def ev_lose_life(self, ev: Event) -> anim.Anim:
        m = self.model
        seat = ev.data["seat"]
        m.round_lost[seat] = m.round_lost.get(seat, 0) + ev.data["amount"]
        return super().ev_lose_life(ev)

    def ev_game_over(self, ev: Event) -> anim.Anim:
        return Sequence(self._round_summary(), Call(lambda: super(RamsAnimator, self)
                                                    .ev_game_over(ev)))
