"""The documents stay true: the README is short and starts with the two commands,
every document the code or the documents cite exists (down to the section), and the
references list everything the code has: every rules key with its default and range,
every view key and event, every phone message and refusal code, every error kind,
every command-line option and every benchmark script."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game import games
from game.cli import SUBCOMMANDS
from game.cli import main as cli_main
from game.net import protocol
from game.rules import chase, rams
from game.rules.base import VIEW_PRIVATE, VIEW_PUBLIC, Key

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"


def tracked() -> list[str]:
    """The repository's files (git's list; without git, every file on disk)."""
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True, timeout=60).stdout.split()
        if out:
            return [p for p in out if (ROOT / p).exists()]
    except (OSError, subprocess.SubprocessError):
        pass
    return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()
            and ".git" not in p.parts]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"#{1,6} (.+)", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def section(path: Path, heading: str) -> str:
    """The text of one section (up to the next heading of the same or a higher level)."""
    text = path.read_text(encoding="utf-8")
    m = re.search(rf"^(#+) {re.escape(heading)}\s*$", text, re.M)
    assert m is not None, f"{path.name} has no section {heading!r}"
    level = len(m.group(1))
    rest = text[m.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[:end.start()] if end else rest


def table_rows(text: str) -> dict[str, list[str]]:
    """Rows of the markdown tables in ``text`` whose first cell is one backticked name:
    name -> the other cells."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\|\s*`([^`]+)`\s*\|(.*)\|\s*$", line)
        if m:
            rows[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return rows


# ----------------------------------------------------------------- the README


def test_readme_is_short_and_starts_with_both_commands():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"the README has {len(lines)} lines"
    first_screen = "\n".join(lines[:45])
    assert "python3 -m pip install -e . && stammtisch" in first_screen
    assert ci_test_command() in first_screen


def ci_lines() -> list[str]:
    """The commands of `.ci/run`, without comments and blank lines."""
    return [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()
            if ln.strip() and not ln.strip().startswith("#")]


def ci_test_command() -> str:
    """The command `.ci/run` runs the suite with: its one line that runs pytest, run
    whatever happens (at the script's top level, not inside an ``if``)."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    runs = [ln for ln in lines if re.search(r"(^|&&\s*)python3? -m pytest\b", ln.strip())
            and not ln.lstrip().startswith("#")]
    assert len(runs) == 1, runs
    assert not runs[0][:1].isspace(), f"the suite's line is conditional: {runs[0]!r}"
    return runs[0].strip()


def test_readme_test_command_is_what_ci_runs():
    readme = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", readme, re.S)
    assert ci_test_command() in [b.strip() for b in blocks]


def test_the_readme_names_every_other_step_of_ci():
    """What `.ci/run` runs besides the suite (the Windows build under Wine) is named in
    the README's *Test* section, so the one command to test stays honest."""
    tools = set(re.findall(r"tools/[\w/]+\.py(?: --[\w-]+)*", "\n".join(ci_lines())))
    assert tools, "no other step found in .ci/run"
    test = section(README, "Test")
    for step in tools:
        assert step in test, step


def test_readme_pictures_exist_and_are_small():
    readme = README.read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert len(pictures) >= 2
    for p in pictures:
        path = ROOT / p
        assert path.is_file(), p
        assert path.stat().st_size < 400_000, (p, path.stat().st_size)


# ----------------------------------------------------------------- citations


MD_TOKEN = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)(#[\w-]+)?")


def cited(paths: list[str]) -> list[tuple[str, str, str]]:
    """(file, cited document, anchor) for every markdown document the files mention."""
    out = []
    for rel in paths:
        text = (ROOT / rel).read_text(encoding="utf-8", errors="replace")
        for m in MD_TOKEN.finditer(text):
            out.append((rel, m.group(1), (m.group(2) or "")[1:]))
    return out


def resolve(doc: str, source: str, names: dict[str, list[str]]) -> Path | None:
    for base in (ROOT, (ROOT / source).parent, DOCS):
        if (base / doc).is_file():
            return base / doc
    if "/" not in doc and len(names.get(doc, [])) == 1:
        return ROOT / names[doc][0]
    return None


def test_every_document_the_code_cites_exists():
    files = tracked()
    names: dict[str, list[str]] = {}
    for p in files:
        names.setdefault(Path(p).name, []).append(p)
    code = [p for p in files if p.startswith(("game/", "tests/", "tools/", ".ci/", ".github/"))
            or p == "build.spec"]
    code = [p for p in code if p.endswith((".py", ".sh", ".js", ".html", ".css", ".spec",
                                           ".yml", ".yaml", ".md", "run"))]
    found = cited(code)
    assert len(found) >= 80, len(found)      # the code cites its documents
    missing = [(f, d + (f"#{a}" if a else "")) for f, d, a in found
               if resolve(d, f, names) is None]
    assert not missing, missing
    bad_anchor = [(f, d, a) for f, d, a in found
                  if a and a not in anchors(resolve(d, f, names))]   # type: ignore[arg-type]
    assert not bad_anchor, bad_anchor


def test_every_link_in_the_documents_resolves():
    docs = [README, *sorted(DOCS.glob("*.md"))]
    broken = []
    for path in docs:
        for target in re.findall(r"\]\(([^)]+)\)", path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):          # https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                broken.append((path.name, target))
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append((path.name, target))
    assert not broken, broken


def test_every_document_is_listed_in_the_index():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for path in DOCS.glob("*.md"):
        if path.name != "README.md":
            assert f"]({path.name})" in index, path.name


# ----------------------------------------------------------------- rules keys


def accepts(key: Key) -> str:
    """The "accepts" cell of a rules key, from the engine's own check."""
    if key.boolean:
        return "`true`, `false`"
    parts = []
    if key.int_range is not None:
        lo, hi = key.int_range
        parts.append(f"{lo} … {hi}" if hi < 10**9 else f"{lo} or more")
    if key.choices is not None:
        parts.append(", ".join(f"`{c}`" for c in key.choices))
    return " or ".join(parts)


def default(key: Key) -> str:
    return f"`{json.dumps(key.default) if isinstance(key.default, bool) else key.default}`"


@pytest.mark.parametrize("entry", list(games.entries()), ids=lambda e: e.id)
def test_every_rules_key_is_documented_with_its_default_and_range(entry):
    title = {"chase": "Every rules key of Chase the Ace",
             "rams": "Every rules key of Rams"}[entry.id]
    rows = table_rows(section(DOCS / "rules.md", title))
    assert set(rows) == set(entry.rules_keys), set(rows) ^ set(entry.rules_keys)
    for name, key in entry.rules_keys.items():
        cells = rows[name]
        assert cells[0] == default(key), (name, cells[0], default(key))
        assert cells[1] == accepts(key), (name, cells[1], accepts(key))
        assert cells[2], name            # what it does


def test_the_documented_range_is_the_one_the_engine_checks():
    """The "accepts" cell is made from the same Key the engine checks with: a value
    inside the documented range passes, one outside is refused."""
    from game.rules.base import RulesError

    key = rams.RAMS_RULES["drop_limit"]
    assert accepts(key) == "1 … 5 or `none`"
    for ok in (1, 5, "none"):
        assert key.check("drop_limit", ok) == ok
    for bad in (0, 6, "never", True):
        with pytest.raises(RulesError):
            key.check("drop_limit", bad)


# ----------------------------------------------------------------- the view


def test_every_view_key_and_event_is_documented():
    text = (DOCS / "view.md").read_text(encoding="utf-8")
    rows = table_rows(text)
    for key in (*chase.VIEW_KEYS, *rams.VIEW_KEYS):
        assert key in rows, f"view key {key!r} is not in docs/view.md"
    for kind in VIEW_PUBLIC | VIEW_PRIVATE:
        assert kind in rows, f"event {kind!r} is not in docs/view.md"


def test_the_view_keys_are_what_a_view_has():
    """The lists checked above are the keys a real view carries."""
    for game_id, keys in (("chase", chase.VIEW_KEYS), ("rams", rams.VIEW_KEYS)):
        g = games.new_game(game_id, {}, 4, seed=3)
        g.start()
        assert set(g.view(0)) == set(keys)


# ----------------------------------------------------------------- the phone


def test_every_phone_message_and_code_is_documented():
    doc = DOCS / "phone.md"
    from_phone = table_rows(section(doc, "From the phone"))
    from_table = table_rows(section(doc, "From the table"))
    codes = table_rows(section(doc, "Refusal codes"))
    sent = {"hello": {"token": "abc"}, "join": {"code": "abc"},
            "claim": {"code": "abc", "seat": 0, "name": "Anna"}, "name": {"name": "Anna"},
            "move": {"id": "a", "step": 0, "move": "keep"}, "advice": {"step": 0},
            "ping": {}}
    for kind, fields in sent.items():      # every type the parser accepts ...
        assert protocol.parse(json.dumps({"type": kind, **fields}))["type"] == kind
        assert kind in from_phone, kind
    with pytest.raises(protocol.Refused):  # ... and no other
        protocol.parse(json.dumps({"type": "shout"}))
    net = ROOT / "game" / "net"
    told = set()
    for name in ("server.py", "link.py"):
        told |= set(re.findall(r'"type": "(\w+)"', (net / name).read_text(encoding="utf-8")))
    told.add(protocol.refused("malformed")["type"])
    assert told >= {"welcome", "state", "ack", "refused", "advice", "seats", "claimed",
                    "pong", "bye", "history"}
    for kind in told:
        assert kind in from_table, f"message {kind!r} is not in docs/phone.md"
    for code in protocol.CODES:
        assert code in codes, f"refusal code {code!r} is not in docs/phone.md"


# ----------------------------------------------------------------- records


def test_every_error_kind_is_documented():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from fuzz_records import KINDS
    finally:
        sys.path.remove(str(ROOT / "tools"))
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    rows = table_rows(text)
    for kind in KINDS:
        assert kind in rows or f"{kind}: " in text, kind


# ----------------------------------------------------------------- command line


def options_of(argv: list[str], capsys) -> set[str]:
    with pytest.raises(SystemExit):
        cli_main([*argv, "--help"])
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", capsys.readouterr().out)) - {"--help"}


def test_the_documented_window_sizes_are_the_windows():
    from game import winsize

    assert winsize.describe_range() in (DOCS / "command-line.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["", *SUBCOMMANDS])
def test_every_command_line_option_is_documented(command, capsys):
    text = (DOCS / "command-line.md").read_text(encoding="utf-8")
    if command:
        assert f"stammtisch {command}" in text
    options = options_of([command] if command else [], capsys)
    assert options
    missing = [o for o in options if not re.search(rf"{re.escape(o)}(?![a-z-])", text)]
    assert not missing, (command, missing)


# ----------------------------------------------------------------- benchmarks


def test_every_benchmark_is_documented():
    text = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    for script in sorted((ROOT / "tools").glob("bench_*.py")):
        assert f"tools/{script.name}" in text, script.name


def synopses(command: str) -> list[set[str]]:
    """The options of every synopsis of ``stammtisch COMMAND`` in the documents that
    names three options or more (a mention such as `stammtisch host --names` is none)."""
    found = []
    for path in [README, *sorted(DOCS.glob("*.md"))]:
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")
        for span in re.findall(rf"(?:`|^)(stammtisch {command}\b[^`\n]*)", text, re.M):
            options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", span))
            if len(options) >= 3:
                found.append(options)
    return found


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_synopsis_names_the_required_options(command, capsys):
    """A synopsis a reader copies holds every option the command cannot do without."""
    with pytest.raises(SystemExit):
        cli_main([command, "--help"])
    usage = capsys.readouterr().out.split("\n\n")[0]
    while re.search(r"\[[^\[\]]*\]", usage):
        usage = re.sub(r"\[[^\[\]]*\]", "", usage)
    required = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", usage))
    for options in synopses(command):
        assert required <= options, (command, required - options)


def test_the_pipe_example_stops_quietly():
    """The command-line.md example of a reader that stops early runs as it says:
    status 1, no traceback."""
    text = (DOCS / "command-line.md").read_text(encoding="utf-8")
    m = re.search(r"`stammtisch ([^`|]+)\| head -c (\d+)`", text)
    assert m is not None
    proc = subprocess.Popen([sys.executable, "-m", "game", *m.group(1).split()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    head = proc.stdout.read(int(m.group(2)))
    proc.stdout.close()         # more is on its way than a pipe holds (92 kB)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1, err
    assert head and "Traceback" not in err


# ----------------------------------------------------------------- keys


def locale(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "game" / "locale" / f"{lang}.json").read_text(encoding="utf-8"))


PYGAME_NAMES = {"ESCAPE": "Esc", "RETURN": "Enter", "SPACE": "Space", "LEFT": "←",
                "RIGHT": "→", "UP": "↑", "DOWN": "↓", "DELETE": "Delete", "TAB": "Tab"}


def hotkeys() -> set[str]:
    """Every key the window answers to, as the documents write it: the letters of the
    catalogues' ``key.*`` entries (both languages) and every ``pygame.K_*`` the code
    of the screens names."""
    keys = {v.upper() for lang in ("en", "de") for k, v in locale(lang).items()
            if k.startswith("key.") and isinstance(v, str)}
    for path in (ROOT / "game").rglob("*.py"):
        for name in re.findall(r"pygame\.K_(\w+)", path.read_text(encoding="utf-8")):
            keys.add(PYGAME_NAMES.get(name, name.upper() if len(name) == 1 else name))
    return keys


def test_every_key_of_the_readme_controls_is_a_hotkey():
    controls = section(README, "Controls")
    rows = [ln for ln in controls.splitlines() if ln.startswith("| ") and "---" not in ln]
    assert len(rows) >= 10, rows
    known = hotkeys()
    documented = set()
    for row in rows[1:]:
        documented |= set(re.findall(r"`([^`]+)`", row.split("|")[1]))
    elsewhere = re.search(r"^Elsewhere:.*?(?=\n\n)", controls, re.S | re.M)
    assert elsewhere is not None
    documented |= set(re.findall(r"`([^`]+)`", elsewhere.group(0)))
    keys = set()
    for token in documented:
        keys |= {k.strip() for k in token.split("+")}   # `Shift+Delete`
    keys -= {"Shift"}
    missing = sorted(k for k in keys if k not in known)
    assert not missing, missing


def test_the_readme_letters_are_each_languages():
    """`F` (German `V`): the English and the German letter of one catalogue entry; and
    the moves' letters of the first row in both languages."""
    en, de = locale("en"), locale("de")
    controls = section(README, "Controls")
    pairs = re.findall(r"`(\w)` \(German `(\w)`\)", controls)
    assert len(pairs) >= 2
    for e, d in pairs:
        assert any(en[k] == e and de.get(k) == d for k in en if k.startswith("key.")), (e, d)
    m = re.search(r"`(\w)` keep, `(\w)` swap, `(\w)` draw \(German: `(\w)` behalten, "
                  r"`(\w)` tauschen, `(\w)` ziehen\)", controls)
    assert m is not None
    assert m.groups() == tuple(lang[f"key.{move}"] for lang in (en, de)
                               for move in ("keep", "swap", "draw"))


def test_the_results_screen_keys_are_documented():
    """docs/playing.md and docs/review.md give the results screen's letters as the
    catalogues have them, in both languages."""
    en, de = locale("en"), locale("de")
    buttons = ("menu", "export", "again", "review")
    text = " ".join((DOCS / "playing.md").read_text(encoding="utf-8").split())
    m = re.search(r"`(\w)` main menu \(`Esc` too\), `(\w)` export, `(\w)` play again and "
                  r"`(\w)` review; in German `(\w)` \*(\w+)\*, `(\w)` \*(\w+)\*, `(\w)` "
                  r"\*([\w ]+)\* and `(\w)` \*(\w+)\*", text)
    assert m is not None
    assert m.groups()[:4] == tuple(en[f"key.results.{b}"] for b in buttons)
    german = m.groups()[4:]
    labels = ("results.menu", "store.export", "results.again", "review.button")
    for i, (b, label) in enumerate(zip(buttons, labels)):
        assert german[2 * i] == de[f"key.results.{b}"], b
        assert german[2 * i + 1].lower() in de[label].lower(), (b, de[label])
    review = (DOCS / "review.md").read_text(encoding="utf-8")
    assert (f"*Review* ({en['key.results.review']}, German {de['key.results.review']} "
            f"for *{de['review.button']}*)") in review



def test_the_buttons_letters_table_is_the_catalogues():
    """docs/playing.md's table of the buttons' letters: each English letter and the
    German one beside it are one ``key.*`` entry's, and each is a letter of the label
    written with it."""
    en, de = locale("en"), locale("de")
    rows = [ln for ln in section(DOCS / "playing.md", "The buttons' letters").splitlines()
            if ln.startswith("| ") and "---" not in ln][1:]
    assert len(rows) >= 12, rows
    pair = re.compile(r"`(\w)` \*([^*]+)\*")
    for row in rows:
        _, english, german = (c.strip() for c in row.strip("|").split("|"))
        e, d = pair.findall(english), pair.findall(german)
        assert e and len(e) == len(d), row
        for (le, label_e), (ld, label_d) in zip(e, d):
            assert le.lower() in label_e.lower() and ld.lower() in label_d.lower(), row
            assert any(en[k] == le and de.get(k) == ld for k in en
                       if k.startswith("key.")), (le, ld, row)

# ----------------------------------------------------------------- files


def test_the_file_names_are_the_codes():
    from game import crash, settings, shelf
    from game.store import database, files, owner

    text = (DOCS / "files.md").read_text(encoding="utf-8")
    for name in (settings.FILE_NAME, database.STATS_NAME, f"saves/{files.AUTOSAVE_NAME}",
                 f"saves/{shelf.SHELF}/", f"saves/{files.EXPORTS}/", f"logs/{crash.LOG_NAME}",
                 f"saves/{owner.LOCK_NAME}"):
        assert f"`{name}`" in text, name


# ----------------------------------------------------------------- errors


def test_the_count_of_broad_catches_is_todays():
    """docs/errors.md's count of the broad catches is what its own grep finds, so a
    new one cannot go in without its row."""
    text = " ".join((DOCS / "errors.md").read_text(encoding="utf-8").split())
    m = re.search(r"now (\d+) and (none|\d+), each in the table above", text)
    assert m is not None
    broad = re.compile(r"except( \(?(Exception|BaseException)\b[^:]*)?:")
    found = suppressed = 0
    for path in (ROOT / "game").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip().startswith("#"):
                continue
            found += bool(broad.search(line))
            suppressed += "suppress(Exception)" in line
    assert int(m.group(1)) == found
    assert (0 if m.group(2) == "none" else int(m.group(2))) == suppressed
