"""Errors are never swallowed: what is expected is caught by name and handled, a bug
caught at a boundary is logged with its traceback and told to the player once."""

from __future__ import annotations

import logging

import pygame
import pytest

from game import audio, notices
from game.scenes import testing as T
from game.turn.hooks import Hooks, News


def test_a_missing_sound_device_is_quiet_not_an_error(monkeypatch, caplog):
    def no_device() -> None:
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: False)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    a = audio.Audio(0.5)
    with caplog.at_level(logging.INFO):
        assert a.play("deal") is False
    assert not a.available
    assert not notices.pending()                         # nothing for the player: no sound
    assert "no audio device" in caplog.text


def test_a_bug_in_the_sound_code_is_logged_and_told_once(monkeypatch, caplog):
    app = T.make_app((960, 600), "en")
    notices.reset()

    def broken(name: str) -> bool:
        raise AttributeError("a bug in the sound code")

    monkeypatch.setattr(app.audio, "play", broken)
    with caplog.at_level(logging.ERROR):
        app.play("click")
        app.play("click")                                # the game goes on
    told = notices.drain()
    assert [n.key for n in told] == ["error.internal"]   # once, not on every sound
    assert "AttributeError" in told[0].params["error"]
    assert "a bug in the sound code" in caplog.text and "Traceback" in caplog.text
    pygame.quit()


def test_a_failing_table_listener_is_logged_and_told_and_the_others_still_hear(caplog):
    notices.reset()
    hooks = Hooks()
    heard: list[str] = []

    def broken(news: News) -> None:
        raise KeyError("a bug in a listener")

    hooks.subscribe("move_applied", broken)
    hooks.subscribe("move_applied", lambda n: heard.append(n.kind))
    with caplog.at_level(logging.ERROR):
        hooks.publish(News("move_applied"))
    assert heard == ["move_applied"]
    assert [n.key for n in notices.drain()] == ["error.internal"]
    assert "a bug in a listener" in caplog.text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_internal_error_notice_has_words_in_both_languages(lang):
    from game import i18n

    with i18n.language(lang):
        text = i18n.t("error.internal", where="audio", error="AttributeError: x")
    assert "AttributeError: x" in text and "error.internal" not in text
