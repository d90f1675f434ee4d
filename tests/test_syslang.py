"""The language of a first start: the desktop's, read where each system keeps it."""

from __future__ import annotations

import os
import plistlib
import sys

import pytest

from game import i18n, syslang

QUIET = {key: "" for key in syslang.ENV_KEYS}


@pytest.fixture
def no_env(monkeypatch):
    """A program started from the Start menu or the Finder: no locale variables."""
    for key in syslang.ENV_KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(syslang.locale, "getlocale", lambda *a: (None, "UTF-8"))


@pytest.mark.parametrize("names,lang", [
    (["de_DE.UTF-8"], "de"), (["de_AT"], "de"), (["German_Germany", "en_US"], "de"),
    (["", "C", "POSIX", "C.UTF-8", "de_CH.UTF-8"], "de"), (["en_GB.UTF-8", "de_DE"], "en"),
    (["fr_FR"], "en"), ([], "en"), (["", "C"], "en"), (["de:en"], "de"), (["de-DE"], "de"),
])
def test_the_first_name_that_names_a_language_decides(names, lang):
    assert syslang.language_of(names) == lang


def test_the_environment_wins_where_it_names_a_language(monkeypatch, no_env):
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(syslang, "windows_language", lambda: "de_DE")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert i18n.system_lang() == "en"
    monkeypatch.setenv("LANG", "C.UTF-8")            # names no language: Windows decides
    assert i18n.system_lang() == "de"


@pytest.mark.parametrize("langid,name", [(0x0407, "de_DE"), (0x0C07, "de_AT"),
                                         (0x0807, "de_CH"), (0x0409, "en_US"),
                                         (0x5007, "de"), (0x0000, "")])
def test_windows_display_language(langid, name):
    assert syslang.windows_language(langid) == name


def test_a_windows_desktop_in_german_starts_in_german(monkeypatch, no_env):
    """Started from the Start menu no variable is set, and Python's locale is the
    region's formats: the display language decides."""
    monkeypatch.setattr(sys, "platform", "win32")
    german = syslang.windows_language(0x0407)                       # LANGID of de_DE
    monkeypatch.setattr(syslang, "windows_language", lambda: german)
    assert i18n.system_lang() == "de"
    monkeypatch.setattr(syslang, "windows_language", lambda: "")   # unreadable: English
    assert i18n.system_lang() == "en"


def prefs(tmp_path, data, fmt=plistlib.FMT_BINARY):
    path = tmp_path / ".GlobalPreferences.plist"
    path.write_bytes(plistlib.dumps(data, fmt=fmt))
    return path


@pytest.mark.parametrize("fmt", [plistlib.FMT_BINARY, plistlib.FMT_XML])
def test_macos_preferred_languages(tmp_path, fmt):
    path = prefs(tmp_path, {"AppleLanguages": ["de-DE", "en-US"], "AppleLocale": "en_US"}, fmt)
    assert syslang.mac_language(path) == "de-DE"


def test_a_macos_desktop_in_german_starts_in_german(monkeypatch, tmp_path, no_env):
    """From the Finder: no variables, and Python's locale is only 'UTF-8'."""
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(syslang, "MAC_PREFS", prefs(tmp_path, {"AppleLanguages": ["de-DE"]}))
    assert i18n.system_lang() == "de"


@pytest.mark.parametrize("content", [b"", b"not a plist", b"bplist00\xff\xff\xff",
                                     b"<?xml version='1.0'?><plist><dict><key>",
                                     b"<plist>" + b"<array>" * 5000 + b"</plist>"])
def test_unreadable_macos_preferences_are_skipped(tmp_path, content):
    path = tmp_path / "prefs.plist"
    path.write_bytes(content)
    assert syslang.mac_language(path) == ""


@pytest.mark.parametrize("data", [{}, {"AppleLanguages": []}, {"AppleLanguages": "de"},
                                  {"AppleLanguages": [1, "de"]}, ["de-DE"]])
def test_macos_preferences_without_a_language(tmp_path, data):
    assert syslang.mac_language(prefs(tmp_path, data)) == ""


def test_macos_preferences_that_are_not_a_file_are_not_read(tmp_path):
    assert syslang.mac_language(tmp_path / "missing.plist") == ""
    assert syslang.mac_language(tmp_path) == ""                  # a folder
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.plist"
        os.mkfifo(fifo)
        assert syslang.mac_language(fifo) == ""                   # would block on open
