"""Settings file and language catalogues (no window needed)."""

import json
import re
from pathlib import Path

from game import i18n, settings  # noqa: E402


def test_defaults_when_missing(tmp_path):
    st = settings.load(tmp_path / "settings.json")
    assert st["anim_speed"] == "normal"
    assert st["setup"]["players"] == 4
    assert st.warning is None


def test_round_trip(tmp_path):
    path = tmp_path / "sub" / "settings.json"
    st = settings.load(path)
    st["lang"] = "de"
    st["volume"] = 0.3
    st["setup"]["players"] = 7
    assert st.save()
    again = settings.load(path)
    assert again["lang"] == "de" and again["volume"] == 0.3
    assert again["setup"]["players"] == 7


def test_damaged_file_is_moved_aside_not_overwritten(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    st = settings.load(path)
    assert st.warning
    assert st["anim_speed"] == "normal"
    bad = list(tmp_path.glob("settings.json.bad-*"))
    assert len(bad) == 1 and bad[0].read_text() == "{not json"
    assert not path.exists()
    st.save()
    assert json.loads(path.read_text())["anim_speed"] == "normal"
    assert bad[0].read_text() == "{not json"


def test_bad_values_fall_back_one_by_one(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"anim_speed": "warp", "volume": 7, "muted": True,
                                "setup": {"players": 99, "seats": [{"name": "Eva",
                                                                    "human": True}]}}))
    st = settings.load(path)
    assert st["anim_speed"] == "normal" and st["volume"] == 0.7 and st["muted"] is True
    assert st["setup"]["players"] == 4 and st["setup"]["seats"][0]["name"] == "Eva"
    assert st.warning is None


def test_a_phone_seat_stays_a_phone_seat_after_a_restart(tmp_path):
    path = tmp_path / "settings.json"
    st = settings.load(path)
    st["setup"]["seats"][1].update(human=True, phone=True)
    assert st.save()
    again = settings.load(path)["setup"]["seats"]
    assert again[1].get("phone") is True and again[1]["human"] is True
    assert not again[2].get("phone")


def test_config_dir_honours_stammtisch_home(monkeypatch, tmp_path):
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    assert str(settings.config_dir()).startswith(str(tmp_path))


def test_catalogues_have_the_same_keys_and_placeholders():
    de, en = i18n.catalogue("de"), i18n.catalogue("en")
    assert set(de) == set(en)
    for k in en:
        a = set(re.findall(r"{(\w+)}", json.dumps(en[k])))
        b = set(re.findall(r"{(\w+)}", json.dumps(de[k])))
        assert a == b, k


def test_every_key_used_in_the_code_exists():
    root = Path(__file__).resolve().parents[1] / "game"
    en = i18n.catalogue("en")
    used = set()
    for f in list((root / "scenes").glob("*.py")) + list((root / "view").glob("*.py")) + \
            list((root / "table").glob("*.py")) + [root / "app.py"]:
        used |= set(re.findall(r'\bt\(\s*"([a-z_]+\.[a-z0-9_.]*[a-z0-9])"', f.read_text()))
    missing = sorted(k for k in used if k not in en)
    assert not missing, missing
    for key in ("keep", "swap", "draw", "accept", "refuse"):
        assert any(k.endswith("." + key) and k.startswith("move.") for k in en)
    for dec in ("turn", "dealer", "queen", "domino"):
        assert "prompt." + dec in en


def test_rules_keys_have_labels_and_help():
    from game.rules.chase import CHASE_RULES

    for lang in ("de", "en"):
        cat = i18n.catalogue(lang)
        for key, spec in CHASE_RULES.items():
            assert f"rule.{key}" in cat and f"rule.{key}.help" in cat
            for c in spec.choices or ():
                if isinstance(c, str):
                    assert f"rule.{key}.{c}" in cat, (lang, key, c)


def test_t_formats_and_falls_back():
    before = i18n.get_lang()
    with i18n.language("de"):
        assert i18n.t("handoff.title", name="Anna") == "Weiter an Anna"
    assert i18n.get_lang() == before                # the language is put back
    with i18n.language("en"):
        assert i18n.t("handoff.title", name="Anna") == "Pass to Anna"
        assert i18n.t("no.such.key") == "no.such.key"
