"""Why a file could not be used is said in the player's language: the OS's English
reason ("Permission denied") never stands in a German notice for the common causes
(``game.fileio.reason`` and ``game.i18n.Phrase``), while logs keep the OS's words."""

from __future__ import annotations

import errno
import os
import pickle
import sqlite3

import pytest
from hostile import unreadable

from game import fileio, i18n, notices, settings, store
from game.i18n import t
from game.rules.chase import ChaseGame
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.store import database


def os_error(code: int) -> OSError:
    return OSError(code, os.strerror(code), "somewhere/file.json")


def german(key: str, **params: object) -> str:
    with i18n.language("de"):
        return t(key, **params)


def start_app(lang: str, st: settings.Settings | None = None):
    app = T.make_app((960, 600), lang, settings=st or settings.load())
    app.push(MenuScene(app))
    T.frame(app)
    return app


# ----------------------------------------------------------------- the notices


def test_unreadable_settings_are_told_in_german_without_the_english_reason(home,
                                                                             monkeypatch):
    path = settings.config_dir() / settings.FILE_NAME
    path.write_text('{"lang": "de"}', encoding="utf-8")
    with unreadable(path, monkeypatch):
        st = settings.load()
    assert st.notice is not None and st.notice.key == "settings.unreadable"
    assert os.strerror(errno.EACCES) in (st.warning or "")    # the log keeps the OS words
    app = start_app("de", st)
    shown = app.toast[0] if app.toast is not None else ""
    assert "Einstellungsdatei" in shown and "(keine Berechtigung)" in shown, shown
    assert os.strerror(errno.EACCES) not in shown and "Permission denied" not in shown


def test_a_failed_start_up_check_gives_an_os_reason_in_german(home, monkeypatch):
    """An OS error's reason is translated; any other error keeps its own words."""
    def refuse():
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(home))

    def broken():
        raise RuntimeError("broken check")

    monkeypatch.setattr(store, "startup_checks", refuse)
    shown = start_app("de").toast
    assert shown is not None and "ließen sich nicht prüfen (keine Berechtigung)" in shown[0]
    assert os.strerror(errno.EACCES) not in shown[0]
    notices.reset()
    monkeypatch.setattr(store, "startup_checks", broken)
    shown = start_app("de").toast
    assert shown is not None and "(RuntimeError: broken check)" in shown[0]


def test_a_file_in_a_folders_place_is_named_in_german(home):
    (home / "logs").write_text("not a folder", encoding="utf-8")
    shown = start_app("de").toast
    assert shown is not None and str(home / "logs") in shown[0]
    assert "(eine Datei steht an der Stelle eines Ordners)" in shown[0], shown[0]
    assert os.strerror(errno.EEXIST) not in shown[0]


def test_a_fifo_in_the_settings_place_is_named_in_german(home):
    path = settings.config_dir() / settings.FILE_NAME
    os.mkfifo(path)
    st = settings.load()
    assert st.notice is not None
    text = german(st.notice.key, **st.notice.params)
    assert "(keine normale Datei, sondern eine Named Pipe)" in text, text
    assert "not a regular file" not in text and "FIFO" not in text


# ----------------------------------------------------------------- the reasons


#: The common causes a player meets with the game's files, said in their language.
MAPPED = (errno.EACCES, errno.EPERM, errno.ENOENT, errno.ENOSPC, errno.EROFS, errno.EISDIR,
          errno.EFBIG, errno.ENAMETOOLONG, errno.EEXIST, errno.ENOTDIR, errno.EADDRINUSE,
          errno.EADDRNOTAVAIL)


@pytest.mark.parametrize("code", MAPPED, ids=errno.errorcode.get)
def test_every_mapped_errno_reads_in_english_and_says_itself_in_german(code):
    why = fileio.reason(os_error(code))
    assert why == os.strerror(code)                  # logs keep the OS's words
    text = german("settings.save_failed", reason=why)
    assert os.strerror(code) not in text, text
    key = why.key
    de, en = i18n.catalogue("de"), i18n.catalogue("en")
    assert key.startswith("reason.") and key in de and key in en and de[key] != en[key]
    with i18n.language("de"):
        assert f"({t(key, **why.params)})" in text
    with i18n.language("en"):
        assert t("settings.save_failed", reason=why) == \
            f"Your settings could not be saved ({t(key, **why.params)})."


def test_the_mapped_errnos_are_the_documented_ones():
    assert set(fileio.ERRNO_KEYS) | {errno.EISDIR} == set(MAPPED)


def test_an_unmapped_errno_keeps_the_os_words_where_a_mapped_one_is_translated():
    unmapped = fileio.reason(os_error(errno.EIO))
    mapped = fileio.reason(os_error(errno.EROFS))
    assert type(unmapped) is str and unmapped == os.strerror(errno.EIO)
    text = german("folder.unusable", path="x", what="y", reason=unmapped)
    assert f"({os.strerror(errno.EIO)})" in text
    text = german("folder.unusable", path="x", what="y", reason=mapped)
    assert "(der Datenträger ist schreibgeschützt)" in text


def test_a_file_in_use_on_windows_is_not_called_a_permission_problem():
    exc = PermissionError(errno.EACCES, "The process cannot access the file because it "
                                        "is being used by another process")
    exc.winerror = 32      # set by hand: only Windows fills it in
    why = fileio.reason(exc)
    assert why == exc.strerror
    assert "(von einem anderen Programm geöffnet)" in german("store.save.failed",
                                                              reason=why)


def test_every_refusal_of_the_file_guard_has_both_languages(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "nothing")
    (tmp_path / "big").write_bytes(b"x" * 100)
    reasons = []
    for name, limit in (("folder", None), ("fifo", None), ("link", None), ("big", 10)):
        with pytest.raises(OSError) as err:
            fileio.read_regular(tmp_path / name, limit)
        reasons.append(fileio.reason(err.value))
    reasons.append(fileio.reason(fileio._too_large(tmp_path / "big", fileio.MAX_FILE_BYTES)))
    reasons.append(fileio.reason(os_error(errno.EISDIR)))
    texts = [german("store.save.unreadable", file="x", reason=r) for r in reasons]
    assert [str(r) for r in reasons[:3]] == ["not a regular file but a folder",
                                            "not a regular file but a FIFO",
                                            fileio.DANGLING]
    for expected, text in zip(["keine normale Datei, sondern ein Ordner",
                               "keine normale Datei, sondern eine Named Pipe",
                               "ein symbolischer Link auf eine fehlende Datei",
                               "größer als die Grenze von 10 Bytes",
                               "größer als die Grenze von 128 MB",
                               "keine normale Datei, sondern ein Ordner"], texts):
        assert f"({expected})" in text, text
    for what, key in fileio.KINDS.items():
        for lang in ("de", "en"):
            assert f"reason.kind.{key}" in i18n.catalogue(lang)
        with i18n.language("en"):
            assert fileio.kind_words(what).translated() == what


def test_a_reason_survives_the_notice_queue_and_pickling():
    why = fileio.reason(os_error(errno.ENOSPC))
    notices.post("store.save.failed", reason=why)
    [notice] = notices.drain()
    assert "(kein Platz mehr auf dem Datenträger)" in german(notice.key, **notice.params)
    again = pickle.loads(pickle.dumps(why))
    assert type(again) is fileio.Reason and again.key == why.key and again == why
    assert f"{why}" == os.strerror(errno.ENOSPC)    # pasted into a string: English words


# ----------------------------------------------------------------- the statistics


def finished_game() -> ChaseGame:
    g = ChaseGame({"lives": 1}, 4, seed=3, bot_seed=3)
    g.start()
    while not g.finished:
        p = g.to_move()
        g.apply(p.seat, p.legal[0])
    return g


def test_a_read_only_statistics_database_is_told_in_german(home, monkeypatch):
    assert store.check_stats() is None            # a fresh database, written

    def read_only(path):
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.execute("PRAGMA foreign_keys = ON")
        return con

    monkeypatch.setattr(database, "_connect", read_only)
    session = store.GameSession(finished_game(), [{"name": "Du", "human": True}] +
                                [{"name": n, "human": False} for n in "ABC"], seed=3)
    session.finish()
    [notice] = [n for n in notices.pending() if n.key.startswith("store.stats.")]
    assert notice.params["reason"] == "attempt to write a readonly database"
    text = german(notice.key, **notice.params)
    assert "(die Datenbank ist schreibgeschützt)" in text and "readonly" not in text, text


def test_sqlite_reasons_are_translated_with_or_without_an_error_code(tmp_path):
    try:
        sqlite3.connect(str(tmp_path / "missing" / "stats.sqlite3"))
    except sqlite3.Error as exc:
        cannot_open = exc
    bare = sqlite3.OperationalError("database or disk is full")    # no code (Python 3.10)
    other = sqlite3.OperationalError("no such table: games")
    assert "(die Datenbankdatei lässt sich nicht öffnen)" in german(
        "stats.unavailable.unusable", reason=store.stats_reason(cannot_open))
    assert "(kein Platz mehr auf dem Datenträger)" in german(
        "stats.unavailable.unusable", reason=store.stats_reason(bare))
    assert "(no such table: games)" in german("stats.unavailable.unusable",
                                              reason=store.stats_reason(other))
    assert store.stats_reason(bare) == "database or disk is full"
