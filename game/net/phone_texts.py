"""The phone page's texts, taken from the game's own catalogues (``game/locale``).

The page (``web/phone.js``) looks its texts up by short keys (``your_turn``,
``m_keep``, ``r_follow_suit``, …). Each is the catalogue's ``phone.<key>``, or, where
the page says what the window says, the window's own text (:data:`SHARED`: why a
card may not be played, a move's label), so the two never say different things. The
server serves them as one small script (``/texts.js``) that the page runs first.
No pygame.
"""

from __future__ import annotations

import json

from game import i18n

#: Page keys whose text is the window's (the same placeholders).
SHARED = {
    "r_follow_suit": "rams.why.follow",
    "r_must_trump": "rams.why.trump",
    "r_must_beat": "rams.why.beat",
    "m_keep": "move.turn.keep",
    "m_swap": "move.turn.swap",
    "m_draw": "move.dealer.draw",
    "m_accept": "move.queen.accept",
    "m_refuse": "move.queen.refuse",
    "m_play": "rams.move.play",
    "m_drop": "rams.move.drop",
    "m_general": "rams.move.general",
    "m_pass_trump": "rams.move.pass_trump",
    "lone": "rams.mark.lone",
    "defends": "rams.mark.defend",
    "e_rams": "log.rams.rams",
    "e_rams_you": "log.rams.rams_you",
    "m_domino_swap": "move.domino.swap",
    # the log addresses its own seat as the window addresses the one person at its
    # screen ("You swap with Ben.", "Carl swaps with you")
    "you_name": "table.you_name",
    "you_dat": "table.you_dat",
    "you_acc": "table.you_acc",
    "e_keep_you": "log.keep_you",
    "e_swap_you": "log.swap_you",
    "e_show_you": "log.show_you",
    "e_block_you": "log.block_you",
    "e_refuse_you": "log.refuse_you",
    "e_draw_you": "log.draw_you",
    "e_talon_king_you": "log.talon_king_you",
    "e_declare_play_you": "log.rams.play_you",
    "e_declare_drop_you": "log.rams.drop_you",
    "e_declare_general_you": "log.rams.general_you",
    "e_take_trump_you": "log.rams.take_trump_you",
    "e_lost_one_you": "log.rams.lose_life_you",
    "e_lost_you": "log.rams.lose_lives_you",
    # Chase's sudden death, as the window's log, banner and plates say it
    "e_final_tie": "log.final_tie",
    "e_out": "log.out",
    "e_out_you": "log.out_you",
    "e_replay": "log.replay",
    "sudden_round": "banner.sudden_round",
    "sudden": "table.sudden",
    "menu_continue": "menu.continue",
    "ask_turn": "prompt.turn_you",
    "ask_dealer": "prompt.dealer_you",
    "ask_queen": "prompt.queen",
    "ask_domino": "prompt.domino",
    "ask_declare": "rams.prompt.declare",
    "ask_forced_one": "rams.prompt.forced_one",
    "ask_forced": "rams.prompt.forced",
    "ask_dealer_forced": "rams.prompt.dealer_forced",
    "ask_two_forced": "rams.prompt.two_forced",
}
PREFIX = "phone."
#: The name of the page's global the script sets (``web/phone.js`` reads it).
GLOBAL = "STAMMTISCH_TEXTS"


def texts(lang: str) -> dict[str, str]:
    """The page's texts in ``lang`` by page key."""
    cat = i18n.catalogue(lang)
    out = {k[len(PREFIX):]: str(v) for k, v in cat.items() if k.startswith(PREFIX)}
    for key, window_key in SHARED.items():
        if window_key in cat:
            out[key] = str(cat[window_key])
    return out


def script() -> bytes:
    """``/texts.js``: every language's page texts for the page to read."""
    data = json.dumps({lang: texts(lang) for lang in i18n.LANGS}, ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"))
    return f'"use strict";\nwindow.{GLOBAL} = {data};\n'.encode()
