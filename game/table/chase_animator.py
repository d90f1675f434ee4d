"""Chase the Ace's events as animations (see :mod:`game.table.animator`).

What shows face up: cards the engine made public (a King's block, a Queen's refusal,
a low card shown, the showdown) and the card of the *viewer*, the person at the
screen. No pygame.
"""

from __future__ import annotations

from functools import partial

from game.i18n import plural_key
from game.rules.base import Event
from game.table.animator import EventAnimator
from game.table.model import ChaseModel
from game.view import anim, timing
from game.view.anim import Call, Parallel, Sequence, Tween, Wait
from game.view.sprites import CardSprite, flip, move, show_faces


class ChaseAnimator(EventAnimator):
    model: ChaseModel

    # ------------------------------------------------------------------ faces

    def visible_face(self, seat: int) -> str | None:
        m = self.model
        code = m.cards.get(seat)
        if code is None:
            return None
        viewer = self.host.viewer
        if seat in m.public_up or (viewer is not None and seat == viewer):
            return code
        return None

    def refresh_faces(self, animated: bool = True) -> anim.Anim | None:
        """Turn every card to what may show now (after a change of viewer: at once)."""
        return show_faces(((sp, self.visible_face(seat)) for seat, sp in self.model.hand.items()),
                          animated)

    def ask(self, asker: int, target: int, hold: float = timing.ASK_SAY) -> anim.Anim:
        if self.names.solo(target):
            return self.say(asker, "say.swap_you", hold=hold)
        return self.say(asker, "say.swap", hold=hold, other=partial(self.names.name, target))

    def log_loss(self, seat: int, amount: int) -> None:
        self.add_log("log.lose_life" if amount == 1 else "log.lose_lives", seat=seat,
                     n=amount, card=self.model.cards.get(seat, ""))

    # ------------------------------------------------------------------ the first dealer

    def ev_first_dealer_card(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        m = self.model
        k = sum(1 for sp in m.extras if sp.b[0] == "stack" and sp.b[1] == seat)
        sp = CardSprite(("talon",), None)
        m.extras.append(sp)
        self.host.cue("deal")
        return Parallel(move(sp, ("stack", seat, k), timing.FIRST_DEALER_DEAL),
                        Sequence(Wait(timing.FIRST_DEALER_FLIP_DELAY),
                                 flip(sp, card, timing.FIRST_DEALER_FLIP)))

    def ev_first_dealer(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        m = self.model
        m.dealer = seat
        steps: list[anim.Anim | None] = []
        if m.extras:
            jack = m.extras[-1]
            jack.highlight = True
            steps.append(self.say(seat, "say.first_dealer", hold=timing.FIRST_DEALER_SAY))
            steps.append(Tween(jack, "scale", 1.15, timing.HIGHLIGHT_GROW))
        self.add_log("log.first_dealer", seat=seat)
        m.button.a = m.button.b = ("dealer", seat)
        steps.append(Tween(m.button, "alpha", 1.0, timing.BUTTON_FADE, start=0.0))
        if m.extras:
            def plain(sp: CardSprite) -> None:      # the Jack goes back like any card
                sp.highlight = False
                sp.scale = 1.0

            back = [Sequence(Call(lambda sp=sp: plain(sp)), flip(sp, None, timing.FLIP_QUICK),
                             move(sp, ("talon",), timing.COLLECT,
                                  delay=i * timing.FIRST_DEALER_COLLECT_STAGGER))
                    for i, sp in enumerate(m.extras)]
            steps.append(Parallel(*back))
            steps.append(Call(m.extras.clear))
        return Sequence(*steps)

    # ------------------------------------------------------------------ a round

    def ev_round_start(self, ev: Event) -> anim.Anim:
        d = ev.data
        m = self.model
        m.round = d["round"]
        m.rounds_played = d["round"] + 1
        m.active = list(d["active"])
        m.pot = d.get("pot", m.pot)
        m.sudden = bool(d.get("sudden_death"))
        m.log = []
        m.highlight.clear()
        m.blocked.clear()
        m.public_up.clear()
        m.cards.clear()
        dest = ("discard",) if self.rules["deck_policy"] == "continue" else ("talon",)
        collect = []
        old = list(m.hand.values()) + list(m.discards)
        for i, sp in enumerate(old):
            sp.highlight = False
            collect.append(Sequence(flip(sp, None, timing.FLIP_QUICK),
                                    move(sp, dest, timing.COLLECT,
                                         delay=i * timing.COLLECT_STAGGER)))
        m.hand = {}

        def drop_old() -> None:
            for sp in old:
                if sp in m.discards:
                    m.discards.remove(sp)
            if dest == ("discard",):
                m.discards[:] = m.discards[-3:] + old[-3:]

        dealer_move = self.place_button(d["dealer"])
        self.add_log("log.round", seat=d["dealer"], n=d["round"] + 1)
        if m.sudden:
            banner = self.banner("banner.sudden_round", hold=timing.SUDDEN_ROUND_BANNER,
                                 blocking=False, n=d["round"] + 1)
        else:
            banner = self.banner("banner.round", hold=timing.ROUND_BANNER, big=False,
                                 blocking=False, n=d["round"] + 1)
        return Sequence(Parallel(*collect, dealer_move, banner), Call(drop_old))

    def _riffle(self) -> anim.Anim:
        self.host.cue("shuffle")
        m, step = self.model, timing.CHASE_RIFFLE_STEP
        return Sequence(Tween(m, "talon_split", 1.0, step, start=0.0),
                        Tween(m, "talon_split", 0.0, step),
                        Tween(m, "talon_split", 1.0, step),
                        Tween(m, "talon_split", 0.0, step))

    def ev_shuffle(self, ev: Event) -> anim.Anim:
        cut = ev.data.get("cut_by")
        steps = [self._riffle()]
        if cut is not None:
            steps.append(self.say(cut, "say.cut", hold=timing.CUT_SAY, kind="small"))
        return Sequence(*steps)

    def ev_reshuffle(self, ev: Event) -> anim.Anim:
        m = self.model
        self.add_log("log.reshuffle")
        discards = list(m.discards)
        gather = Parallel(*[move(sp, ("talon",), timing.COLLECT) for sp in discards])
        return Sequence(gather, Call(m.discards.clear),
                        Parallel(self._riffle(),
                                 self.banner("banner.reshuffle", hold=timing.RESHUFFLE_BANNER,
                                             big=False)))

    def ev_deal(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        sp = CardSprite(("talon",), None)
        self.model.hand[seat] = sp
        self.host.cue("deal")
        return move(sp, ("seat", seat), timing.DEAL, ease=anim.ease_out)

    def ev_dealt(self, ev: Event) -> anim.Anim | None:
        if ev.to is not None:
            self.model.cards[ev.to] = ev.data["cards"][0]
            self.add_log("log.dealt", to=ev.to, card=ev.data["cards"][0])
        return self.refresh_faces()

    # ------------------------------------------------------------------ decisions

    def ev_keep(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        self.add_log("log.keep", seat=seat)
        self.host.cue("knock")
        key = "say.keep_dealer" if seat == self.model.dealer else "say.keep"
        return self.say(seat, key)

    def ev_show(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        m = self.model
        self.add_log("log.show", seat=seat, card=card)
        sp = m.hand.get(seat)
        m.cards[seat] = card
        steps: list[anim.Anim | None] = [self.say(seat, "say.show", hold=timing.SHOW_SAY,
                                                  card=card)]
        if sp is not None:
            steps.append(flip(sp, card))
            steps.append(Wait(timing.SHOW_HOLD))

            def back() -> anim.Anim | None:
                return flip(sp, self.visible_face(seat))

            steps.append(Call(back))
        return Sequence(*steps)

    def ev_swap(self, ev: Event) -> anim.Anim:
        a, b = ev.data["seat"], ev.data["with"]
        m = self.model
        self.add_log("log.swap", seat=a, other=partial(self.names.obj, b, "dat"))
        sa, sb = m.hand.get(a), m.hand.get(b)
        steps: list[anim.Anim | None] = [self.ask(a, b)]
        if sa is None or sb is None:
            return Sequence(*steps)
        hide = [flip(sp, None) for sp in (sa, sb) if sp.code is not None]
        if hide:
            steps.append(Parallel(*hide))

        def cross() -> anim.Anim:
            self.host.cue("swap")
            return Parallel(move(sa, ("seat", b), timing.SWAP, arc=0.5),
                            move(sb, ("seat", a), timing.SWAP, arc=0.5))

        def settle() -> None:
            m.hand[a], m.hand[b] = sb, sa

        steps += [Call(cross), Call(settle)]
        return Sequence(*steps)

    def ev_exchange(self, ev: Event) -> anim.Anim | None:
        if ev.to is not None:
            self.model.cards[ev.to] = ev.data["got"]
            self.add_log("log.exchange", to=ev.to, card=ev.data["got"],
                         other=partial(self.names.name, ev.data["with"]))
        return self.refresh_faces()

    def ev_block(self, ev: Event) -> anim.Anim:
        seat, by, card = ev.data["seat"], ev.data["by"], ev.data["card"]
        m = self.model
        self.add_log("log.block", seat=seat, other=partial(self.names.obj, by, "acc"),
                     card=card)
        m.cards[seat] = card
        m.public_up.add(seat)
        m.blocked.add(seat)
        sp = m.hand.get(seat)
        key = "say.block_cuckoo" if card == "Cuckoo" else "say.block"
        self.host.cue("knock")
        return Sequence(self.ask(by, seat, hold=timing.BLOCK_ASK_SAY),
                        Parallel(flip(sp, card) if sp else None,
                                 self.say(seat, key, hold=timing.REVEAL_SAY)))

    def ev_refuse(self, ev: Event) -> anim.Anim:
        seat, by, card = ev.data["seat"], ev.data["by"], ev.data["card"]
        m = self.model
        self.add_log("log.refuse", seat=seat, other=partial(self.names.obj, by, "acc"))
        m.cards[seat] = card
        m.public_up.add(seat)
        sp = m.hand.get(seat)
        self.host.cue("knock")
        return Parallel(flip(sp, card) if sp else None,
                        self.say(seat, "say.refuse", hold=timing.REVEAL_SAY))

    def ev_draw(self, ev: Event) -> anim.Anim:
        seat = ev.data["seat"]
        m = self.model
        self.add_log("log.draw", seat=seat)
        king = self.peek({"talon_king"}, {"round_start", "showdown", "game_over"})
        say = self.say(seat, "say.draw", hold=timing.DRAW_SAY)
        if king:
            return say
        old = m.hand.get(seat)
        new = CardSprite(("talon",), None)
        steps: list[anim.Anim | None] = [say]
        if old is not None:
            steps.append(flip(old, None))
            m.discards.append(old)
            steps.append(move(old, ("discard",), timing.DRAW_MOVE))
        m.hand[seat] = new
        m.cards.pop(seat, None)
        self.host.cue("deal")
        steps.append(move(new, ("seat", seat), timing.DRAW_MOVE))
        return Sequence(*steps)

    def ev_drew(self, ev: Event) -> anim.Anim | None:
        if ev.to is not None:
            self.model.cards[ev.to] = ev.data["card"]
            self.add_log("log.drew", to=ev.to, card=ev.data["card"])
        return self.refresh_faces()

    def ev_talon_king(self, ev: Event) -> anim.Anim:
        seat, card = ev.data["seat"], ev.data["card"]
        m = self.model
        self.add_log("log.talon_king", seat=seat, card=card)
        sp = CardSprite(("talon",), None)
        m.extras.append(sp)
        m.discards.append(sp)

        def done() -> None:
            if sp in m.extras:
                m.extras.remove(sp)

        return Sequence(move(sp, ("peek",), timing.DRAW_MOVE), flip(sp, card),
                        self.say(seat, "say.talon_king_cuckoo" if card == "Cuckoo"
                                 else "say.talon_king", hold=timing.BUBBLE),
                        flip(sp, None), move(sp, ("discard",), timing.DRAW_MOVE), Call(done))

    # ------------------------------------------------------------------ the showdown

    def ev_showdown(self, ev: Event) -> anim.Anim:
        m = self.model
        cards = {int(s): c for s, c in ev.data["cards"].items()}
        m.cards.update(cards)
        m.public_up.update(cards)
        until = {"round_start", "game_over"}
        losers = {e.data["seat"] for e in self.peek({"lose_life", "out"}, until)}
        for e in self.peek({"final_tie"}, until):
            losers.update(e.data["seats"])
        m.highlight = losers
        base, n = self.host.table_layout.base, m.n
        flips = []
        for i, seat in enumerate(sorted(cards, key=lambda s: (s - base) % n)):
            sp = m.hand.get(seat)
            if sp is not None:
                f = flip(sp, cards[seat])
                if f is not None:
                    flips.append(Sequence(Wait(i * timing.SHOWDOWN_STAGGER), f))
        self.host.cue("flip")

        def mark() -> anim.Anim:  # the losers' cards
            ups = []
            for s in losers:
                sp = m.hand.get(s)
                if sp is not None:
                    sp.highlight = True
                    ups.append(Tween(sp, "scale", 1.15, timing.LOSER_GROW, anim.ease_out_back))
            return Parallel(*ups)

        self.banner("banner.showdown", hold=timing.SHOWDOWN_BANNER, big=False, blocking=False)
        return Sequence(Parallel(*flips), Wait(timing.SHOWDOWN_PAUSE), Call(mark),
                        Wait(timing.SHOWDOWN_HOLD))

    def ev_final_tie(self, ev: Event) -> anim.Anim | None:
        policy = ev.data["policy"]
        names = partial(self.names.listing, ev.data["seats"])   # named when drawn
        self.add_log("log.final_tie", names=names)
        return self.banner("banner.final_tie", "banner.final_tie." + policy, names=names)

    def ev_sudden_death(self, ev: Event) -> anim.Anim | None:
        self.model.sudden = True
        names = partial(self.names.listing, ev.data["seats"])
        return self.banner("banner.sudden_death", "banner.sudden_death.sub", names=names)

    def ev_replay_round(self, ev: Event) -> anim.Anim | None:
        self.add_log("log.replay")
        return self.banner("banner.replay")

    def ev_restart(self, ev: Event) -> anim.Anim:
        lives = ev.data["lives"]
        m = self.model
        self.add_log(plural_key("log.restart", lives), n=lives)

        def reset() -> None:
            m.lives = [lives] * m.n
            m.out = [False] * m.n
            m.out_order.clear()
            m.out_round.clear()
            m.pot = self.host.game.pot

        return Sequence(self.banner("banner.restart", plural_key("banner.restart.sub", lives),
                                    n=lives),
                        Call(reset))
