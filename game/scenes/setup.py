"""Game setup: players (3–10, each a person at the screen, a person with a phone, or a
computer with a name and a level) and every variant of the chosen game
(docs/rules.md) with a one-line explanation. The last setup of each game is remembered
in the settings file.
With phone seats, a row says where phones join: this computer's main address on the
local network (first), its other local addresses, or this computer only.

Keyboard: Tab cycles players → rules → buttons; Up/Down move, Left/Right change,
Enter edits a name (and confirms it), the letter on *Switch to …* (S, German W)
switches to the other game from any part, Esc goes back.
"""

from __future__ import annotations

import copy
from typing import Any

import pygame

from game import games
from game.i18n import has, t
from game.rules.base import Key
from game.rules.errors import TooFewCards
from game.scenes.base import Scene
from game.scenes.table_phones import CannotListen
from game.settings import default_setup
from game.view import text, widgets
from game.view.keys import key_buttons
from game.view.widgets import Button, FocusList, Form, Row

LOOPBACK = "127.0.0.1"


def rule_values(key: str, spec: Key, offered: dict[str, tuple[Any, ...]] | None = None
                ) -> list[Any]:
    """The values the setup screen cycles through for a rules key: the game's own list
    for it (``offered``, from the registry), else what the key allows."""
    if offered and key in offered:
        return list(offered[key])
    if spec.boolean:
        return [False, True]
    if spec.int_range is not None:
        lo, hi = spec.int_range
        return list(range(lo, min(hi, lo + 20) + 1)) + list(spec.choices or ())
    if spec.choices is not None:
        return list(spec.choices)
    return [spec.default]


def _phone_binds() -> dict[str, str]:
    """Address -> its label, the main local-network address first (the default),
    then the others, then this computer only."""
    from game.net.addresses import lan_choices

    try:
        found = {i.address: i.label() for i in lan_choices()}
    except OSError:        # pragma: no cover - the system would not say
        found = {}
    found[LOOPBACK] = LOOPBACK
    return found


def value_text(key: str, value: Any, prefix: str) -> str:
    if isinstance(value, bool):
        return t("common.on") if value else t("common.off")
    k = f"{prefix}{key}.{value}"
    return t(k) if has(k) else str(value)


class SetupScene(Scene):
    name = "setup"

    def __init__(self, app, game_id: str = games.DEFAULT_GAME) -> None:
        super().__init__(app)
        self.entry = games.GAMES.get(game_id) or games.entry(games.DEFAULT_GAME)
        self.game_id = self.entry.id
        self.specs = self.entry.rules_keys
        self.prefix = self.entry.rule_text_prefix
        self.store_key = self.entry.settings_key
        stored = self._stored()
        self.setup = copy.deepcopy(stored) if isinstance(stored, dict) else default_setup()
        try:
            self.rules = self.entry.validate_rules(self.setup.get("rules") or {})
        except ValueError:   # a stored setup the rules refuse (RulesError): defaults
            self.rules = self.entry.validate_rules({})
        #: where phones may join: None (the main local address) or one address
        self.phone_binds = _phone_binds()
        if self.setup.get("phone_bind") not in self.phone_binds:
            self.setup["phone_bind"] = next(iter(self.phone_binds))
        self.seat_form = Form(self._seat_rows(), with_help=False)
        self.rule_form = Form(self._rule_rows(), with_help=True)
        other = games.entry(games.other(self.game_id))
        self.buttons = FocusList([
            Button(lambda: t("common.back"), self.back, name="back", hint="Esc"),
            Button(lambda: t("setup.game", name=t(other.title_key)), self.switch_game,
                   name="game"),
            Button(lambda: t("setup.start"), self.start, name="start", hint="F5"),
        ])
        self.rekey()
        self.buttons.focus = 2
        self.zone = 0        # 0 players, 1 rules, 2 buttons
        self._sync_focus()

    def rekey(self) -> None:
        """*Switch to …* keyed by a letter of its label in the language
        (``key.setup.game``: S *Switch*, German W *wechseln*)."""
        key_buttons([b for b in self.buttons.buttons if b.name == "game"], "key.setup.")

    # ------------------------------------------------------------------ rows

    def _stored(self) -> Any:
        """The last setup of this game (each game keeps its own)."""
        return self.app.settings.get(self.store_key)

    def _default_name(self, i: int) -> str:
        """The name the table will give the seat if none is typed ("Player 1" for the
        first of several people at the screen, as at the table)."""
        from game.turn.seats import default_name

        return default_name(self.setup, i)[0]

    def _seat_rows(self) -> list[Row]:
        rows = [Row(lambda: t("setup.players_heading"), kind="heading"),
                Row(lambda: t("setup.players"), lambda: str(self.setup["players"]),
                    self._step_players, name="players")]
        for i in range(10):
            seat = self.setup["seats"][i]

            def kind_text(s=seat) -> str:
                if s.get("phone"):
                    return t("setup.phone")
                return t("setup.human") if s["human"] else t("setup.computer",
                                                             level=t("level." + s["level"]))

            def step(d: int, s=seat) -> None:
                # a person here, a person with a phone (issue 17), or a computer level
                kinds = ("human",) + self.entry.levels + ("phone",)
                cur = "phone" if s.get("phone") else "human" if s["human"] else s["level"]
                k = kinds[((kinds.index(cur) if cur in kinds else 0) + d) % len(kinds)]
                s["human"] = k in ("human", "phone")
                s["phone"] = k == "phone"
                if not s["human"]:
                    s["level"] = k
                self.app.play("click")

            def set_name(v: str, s=seat) -> None:
                s["name"] = v

            rows.append(Row(lambda i=i: self._default_name(i), kind_text, step, kind="seat",
                            name=f"seat{i}", visible=lambda i=i: i < self.setup["players"],
                            get_text=lambda s=seat: s["name"], set_text=set_name))
        rows.append(Row(lambda: t("setup.phone_address"), self._phone_bind_text,
                        self._step_phone_bind, name="phone_bind", visible=self._has_phones))
        return rows

    def _has_phones(self) -> bool:
        return any(s.get("phone") for s in self.setup["seats"][:self.setup["players"]])

    def _phone_bind_text(self) -> str:
        bind = self.setup.get("phone_bind")
        if bind == LOOPBACK:
            return t("setup.phone_here")
        return self.phone_binds[bind] if bind in self.phone_binds else str(bind)

    def _step_phone_bind(self, d: int) -> None:
        keys = list(self.phone_binds)
        cur = self.setup.get("phone_bind")
        i = keys.index(cur) if cur in keys else 0
        self.setup["phone_bind"] = keys[(i + d) % len(keys)]
        self.app.play("click")

    def _step_players(self, d: int) -> None:
        self.setup["players"] = max(3, min(self.entry.setup_max_seats, self.setup["players"] + d))
        self.app.play("click")
        self._size = (0, 0)

    def _preset(self) -> str:
        """The named rule set the rules now match, or ``custom``."""
        presets = self.entry.presets
        keys = {k for p in presets.values() for k in p}
        for name, given in presets.items():
            want = {k: self.specs[k].default for k in keys} | given
            if all(self.rules[k] == v for k, v in want.items()):
                return name
        return "custom"

    def _step_preset(self, d: int) -> None:
        presets = self.entry.presets
        names = list(presets)
        cur = self._preset()
        i = names.index(cur) if cur in names else (-1 if d > 0 else 0)
        name = names[(i + d) % len(names)]
        for k in {k for p in presets.values() for k in p}:
            self.rules[k] = self.specs[k].default
        self.rules.update(presets[name])
        self.app.play("click")
        self._size = (0, 0)          # rows shown or hidden: lay the form out again

    def _shown(self, key: str) -> bool:
        """Rams: the start count of the scoring not in use is hidden."""
        if key == "counters" and "scoring" in self.rules:
            return self.rules["scoring"] == "counters"
        if key == "lives" and "scoring" in self.rules:
            return self.rules["scoring"] != "counters"
        return True

    def _rule_rows(self) -> list[Row]:
        rows = [Row(lambda: t("setup.rules_heading"), kind="heading")]
        pre = self.prefix
        if self.entry.presets:
            base = f"setup.{self.game_id}_preset"
            rows.append(Row(lambda: t(base), lambda: t(f"{base}.{self._preset()}"),
                            self._step_preset, help=lambda: t(f"{base}.help"),
                            name="preset"))
        for key in self.specs:
            def val(k=key) -> str:
                return value_text(k, self.rules[k], pre)

            def step(d: int, k=key) -> None:
                vals = rule_values(k, self.specs[k], self.entry.setup_values)
                cur = self.rules[k]
                i = vals.index(cur) if cur in vals else 0
                self.rules[k] = vals[(i + d) % len(vals)]
                self.app.play("click")
                self._size = (0, 0)      # a row may be shown or hidden now

            rows.append(Row(lambda k=key: t(f"{pre}{k}"), val, step,
                            help=lambda k=key: t(f"{pre}{k}.help"), name=key,
                            visible=lambda k=key: self._shown(k)))
        return rows

    # ------------------------------------------------------------------ actions

    def _store(self) -> None:
        given = {k: v for k, v in self.rules.items() if v != self.specs[k].default}
        self.setup["rules"] = given
        self.app.settings[self.store_key] = copy.deepcopy(self.setup)
        self.app.save_settings()

    def back(self) -> None:
        self.seat_form.stop_edit()
        self._store()
        self.app.play("click")
        self.app.pop()

    def switch_game(self) -> None:
        self.seat_form.stop_edit()
        self._store()
        self.app.play("click")
        self.app.open("setup", how="replace", game_id=games.other(self.game_id))

    def start(self) -> None:
        from game.rules.base import GameError
        from game.turn.seats import seats_from_setup

        self.seat_form.stop_edit()
        self._store()
        self.app.play("click")
        from game.turn.options import TableOptions

        seats = seats_from_setup(self.setup)
        seed = getattr(self.app.opts, "seed", None)
        bind = self.setup.get("phone_bind")
        # the first choice is the default (loopback and the main address)
        options = TableOptions(phone_bind=None if bind == next(iter(self.phone_binds))
                               else bind)
        try:
            table = self.app.scene("table", game_id=self.game_id, seats=seats,
                                   rules=self.setup["rules"], seed=seed, options=options)
        except CannotListen as exc:              # the phones' port: not the rules
            self.app.show_toast(str(exc))
            return
        except TooFewCards as exc:               # e.g. the Skat deck for ten players
            self.app.show_toast(t("setup.too_few_cards", cards=exc.cards, players=exc.seats,
                                  hand=exc.hand_size, need=exc.need))
            return
        except (GameError, ValueError) as exc:   # a rule the setup cannot offer
            self.app.show_toast(t("setup.rams_bad", error=str(exc)))
            return
        self.app.replace(table)

    # ------------------------------------------------------------------ layout & input

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        title_h = int(64 * u)
        bh = int(max(28, 50 * u))
        bottom = h - bh - int(24 * u) - int(22 * u)
        gap = int(24 * u)
        margin = int(24 * u)
        left_w = int((w - 2 * margin - gap) * 0.44)
        left = pygame.Rect(margin, title_h, left_w, bottom - title_h)
        right = pygame.Rect(left.right + gap, title_h, w - margin - left.right - gap - int(8 * u),
                            bottom - title_h)
        self.seat_form.layout(left, u)
        self.rule_form.layout(right, u)
        widgets.layout_row(self.buttons.buttons, w // 2, h - int(12 * u) - bh // 2,
                           int(min(w * 0.4, 280 * u)), bh, int(24 * u))

    def _sync_focus(self) -> None:
        self.seat_form.active = self.zone == 0
        self.rule_form.active = self.zone == 1

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if self.seat_form.editing is not None:
            if self.seat_form.handle_event(ev):
                return True
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.back()
                return True
            if ev.key == pygame.K_TAB:
                self.zone = (self.zone + (-1 if ev.mod & pygame.KMOD_SHIFT else 1)) % 3
                self._sync_focus()
                return True
            if ev.key == pygame.K_F5 or (ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
                                         and ev.mod & pygame.KMOD_CTRL):
                self.start()
                return True
            target = (self.seat_form, self.rule_form, self.buttons)[self.zone]
            if any(b.hotkey == ev.key for b in self.buttons.buttons):
                target = self.buttons     # a button's key (S) from every part of the screen
            return target.handle_event(ev)
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if self.seat_form.rect.collidepoint(ev.pos):
                self.zone = 0
            elif self.rule_form.rect.collidepoint(ev.pos):
                self.zone = 1
            self._sync_focus()
        if ev.type in (pygame.MOUSEWHEEL,):
            pos = getattr(ev, "pos", None)
            form = self.rule_form
            if pos is not None and self.seat_form.rect.collidepoint(pos):
                form = self.seat_form
            return form.handle_event(ev)
        if self.buttons.handle_event(ev):
            if ev.type == pygame.MOUSEBUTTONDOWN:
                self.zone = 2
                self._sync_focus()
            return True
        if ev.type == pygame.MOUSEMOTION:
            return False
        for f in (self.seat_form, self.rule_form):
            if f.handle_event(ev):
                return True
        return False

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t(self.entry.setup_title_key)
        widgets.title(surf, title, int(44 * u), int(12 * u), share=0.6)
        for f in (self.seat_form, self.rule_form):
            widgets.panel(surf, f.rect.inflate(int(12 * u), int(12 * u)), u, 200,
                          border=widgets.GOLD if f.active else (90, 80, 60))
            f.draw(surf)
        hint = t("setup.hint")
        hs = text.fit(hint, max(15, int(18 * u)), int(w * 0.96))
        self.buttons.draw(surf, u, show_focus=self.zone == 2)
        y = self.buttons.buttons[0].rect.top - int(4 * u)
        text.blit(surf, hint, hs, (w // 2, y), widgets.DIM, "midbottom")
