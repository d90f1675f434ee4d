"""One text catalogue for the window and the phone page: the page takes every text
from ``game/locale/*.json`` (served as ``/texts.js``), every text it uses exists in
both languages, where it says what the window says it uses the window's words, and
no text is left written in the page's script or its HTML."""

from __future__ import annotations

import json
import re

from game import i18n
from game.ai.chase_levels import MOVE_ORDER
from game.net import page, phone_texts, protocol
from game.turn.rams_texts import BUTTON_MOVES

#: The engine's reasons for refusing a move (``game.rules.base.Refusal``).
ENGINE_REASONS = ("not_your_turn", "not_offered", "bad_card", "game_over", "not_in_hand",
                  "follow_suit", "must_trump", "must_beat", "must_play")
#: Server codes only a broken or hostile page causes: the page says "Refused: <code>".
PAGE_NEVER_CAUSES = {"malformed", "too_deep", "too_big", "unknown_type", "bad_field",
                     "not_joined"}
#: Card letters the page writes in the language (the others are digits).
LETTERS = "TJQKA"


def script() -> str:
    return page.page_file("phone.js").body.decode()


def html() -> str:
    return page.page().body.decode()


def served_texts() -> dict[str, dict[str, str]]:
    body = page.page_file("texts.js").body.decode()
    prefix = f"window.{phone_texts.GLOBAL} = "
    start = body.index(prefix) + len(prefix)
    return json.loads(body[start:body.rindex(";")])


def string_literals(js: str) -> list[str]:
    """Every string literal of a script (comments skipped; the page has no regular
    expression literals)."""
    out: list[str] = []
    i, n = 0, len(js)
    while i < n:
        if js.startswith("//", i):
            end = js.find("\n", i)
            i = n if end < 0 else end
        elif js.startswith("/*", i):
            i = js.index("*/", i) + 2
        elif js[i] in "\"'`":
            quote, j, buf = js[i], i + 1, []
            while js[j] != quote:
                step = 2 if js[j] == "\\" else 1
                buf.append(js[j:j + step])
                j += step
            out.append("".join(buf))
            i = j + 1
        else:
            i += 1
    return out


def used_keys() -> set[str]:
    js, doc = script(), html()
    used = set(re.findall(r'\bt\(\s*"([a-z_]+[a-z])"', js))            # t("key", …)
    for pair in re.findall(r'\bt\([^()]*?\?\s*"([a-z_]+)"\s*:\s*"([a-z_]+)"', js):
        used |= set(pair)                                     # t(a ? "key" : "other")
    used |= set(re.findall(r'data-ta?="([a-z_]+)"', doc))
    assert "m_" in string_literals(js) and "r_" in string_literals(js)
    used |= {f"m_{m}" for m in (*MOVE_ORDER, *BUTTON_MOVES)}       # t("m_" + move)
    used |= {f"rank_{r}" for r in LETTERS}                           # t("rank_" + letter)
    used |= {f"r_{c}" for c in (*ENGINE_REASONS, *(set(protocol.CODES) - PAGE_NEVER_CAUSES))}
    return used


def test_the_page_reads_its_texts_from_the_catalogues():
    texts = served_texts()
    assert set(texts) == set(i18n.LANGS)
    for lang in i18n.LANGS:
        cat = i18n.catalogue(lang)
        assert texts[lang] == phone_texts.texts(lang)
        for key, text in texts[lang].items():
            window_key = phone_texts.SHARED.get(key, phone_texts.PREFIX + key)
            assert cat[window_key] == text, (lang, key)
    # the window's words where the page says the same (they once differed)
    assert texts["en"]["r_follow_suit"] == "You must follow {suit}."
    assert texts["de"]["m_pass_trump"] == i18n.catalogue("de")["rams.move.pass_trump"]
    assert "window.STAMMTISCH_TEXTS || " in script()
    assert html().index("/texts.js") < html().index("/phone.js")   # read first


def test_every_text_the_page_uses_exists_in_both_languages():
    texts = served_texts()
    assert set(texts["en"]) == set(texts["de"])
    missing = {lang: sorted(used_keys() - set(texts[lang])) for lang in texts}
    assert missing == {"en": [], "de": []}
    for lang in texts:
        assert all(v.strip() for v in texts[lang].values()), lang
    # nothing in the catalogue's phone block that the page never shows
    unused = set(texts["en"]) - used_keys() - set(phone_texts.SHARED)
    dynamic = {k for k in unused if k.startswith("e_")}   # t("e_" + event type)
    assert unused == dynamic


def test_no_text_is_left_written_in_the_page():
    """A literal of the script is a text key, a technical name (lower case, no space:
    ids, classes, message types), or punctuation; none is a text of the catalogue,
    no word starts with a capital, no words are spaced, nothing is German."""
    keys = set(served_texts()["en"])
    values = {v for lang in i18n.LANGS for v in phone_texts.texts(lang).values()}
    texts_left = []
    for lit in string_literals(script()):
        word = lit.strip()
        if lit in keys or lit == "use strict" or not any(c.isalpha() for c in lit):
            continue
        technical = re.fullmatch(r"[a-z0-9_:/.#\[\]=\-]+", word) is not None
        if not technical or lit in values or word in values:
            texts_left.append(lit)
    assert texts_left == []
    # the HTML: no text but the name, no label written out
    doc = html()
    words = [w.strip() for w in re.findall(r">([^<]*)<", doc) if w.strip()]
    assert set(words) == {"Stammtisch"}
    assert not re.search(r"\b(aria-label|placeholder|alt|title)=", doc)
