"""The documents say what the library does: every Python example in the README and in docs/
runs as written, and every ``catbox`` command line shown there or in a command's ``--help``
names a command and options that exist. Docs that drift from the code mislead the users who
read them first."""

from __future__ import annotations

import random
import re
import shlex
from pathlib import Path
from typing import Any, cast

import click
import pytest
from click.testing import CliRunner

from catbox_solver.cli import main
from catbox_solver.formats.notation import position_from_notation
from catbox_solver.model.deal import first_lead
from catbox_solver.model.position import Position
from catbox_solver.model.rules import Ruleset

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.S | re.M)


def fenced(path: Path) -> list[tuple[str, str]]:
    """(language, text) of every fenced block of a Markdown file."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(path.read_text(encoding="utf-8"))]


PYTHON_BLOCKS = [
    pytest.param(path, i, text, id=f"{path.name}-{i}")
    for path in DOCS
    for i, (lang, text) in enumerate(fenced(path))
    if lang == "python"
]


def test_the_examples_are_found() -> None:
    # the README, search, records and pictures pages each show the library in Python
    assert {cast(Path, p.values[0]).name for p in PYTHON_BLOCKS} >= {
        "README.md",
        "search.md",
        "records.md",
        "pictures.md",
    }


def small_position_where_3b_is_legal() -> Position:
    """A 3-player position with 3 tricks left where the player to move may play 3b (the
    README's example plays it), reached by seeded random plays."""
    for seed in range(200):
        rng = random.Random(seed)
        pos = first_lead(Ruleset(players=3), seed)
        while pos.tricks_left > 3 and not pos.is_over:
            pos = pos.play(rng.choice(pos.legal_plays()))
        if not pos.is_over and "3b" in {str(p) for p in pos.legal_plays()}:
            return pos
    raise AssertionError("no seed gives such a position")  # pragma: no cover


@pytest.mark.parametrize(("path", "index", "code"), PYTHON_BLOCKS)
def test_python_examples_run(
    path: Path, index: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each block runs on its own; ``pos`` (used unintroduced by some blocks) is a small
    position, and the README's ``position.txt`` is the one its own command writes (the
    README did not say where such a file comes from)."""
    pos = small_position_where_3b_is_legal()
    monkeypatch.chdir(tmp_path)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    made = re.search(r"`catbox (deal [^`]*) > position\.txt`", readme)
    assert made is not None, "the README says how to make position.txt"
    res = CliRunner().invoke(main, shlex.split(made.group(1)))
    assert res.exit_code == 0, res.output
    (tmp_path / "position.txt").write_text(res.stdout, encoding="utf-8")
    first = re.search(r"# \((Play\('\w+'\)), \.\.\.\); str\(play\) == \"(\w+)\"", readme)
    assert first is not None  # (the README's comment on the first legal play, checked)
    play = position_from_notation(res.stdout.strip()).legal_plays()[0]
    assert (repr(play), str(play)) == first.groups()
    namespace: dict[str, Any] = {"pos": pos, "__name__": "docs_example"}
    exec(compile(code, f"{path.name} block {index}", "exec"), namespace)


def command_lines(text: str) -> list[str]:
    """The ``catbox ...`` command lines in a block of text (a ``$`` prompt, ``;`` between
    two commands and ``#`` comments allowed)."""
    found = []
    for line in text.splitlines():
        line = line.strip().removeprefix("$ ").split("  #")[0]
        for part in line.split(";"):
            part = part.strip()
            if part.startswith("catbox "):
                found.append(part)
    return found


DOC_COMMANDS = sorted(
    {
        (path.name, line)
        for path in DOCS
        for lang, text in fenced(path)
        if lang in ("", "sh", "console")
        for line in command_lines(text)
    }
)


def walk(line: str) -> tuple[click.Command, list[str], list[str]]:
    """The command a line names, the words naming it and the options the line passes."""
    line = re.sub(r'"\$\(.*?\)"', "ARG", line)  # a nested command is an argument
    words = line.replace("[", " ").replace("]", " ").split()[1:]
    cmd: click.Command = main
    path = []
    for word in words:
        if isinstance(cmd, click.Group) and word in cmd.commands:
            cmd = cmd.commands[word]
            path.append(word)
        else:
            break
    options = [w.split("=")[0] for w in words if re.fullmatch(r"--?[a-z][a-z0-9-]*(=.*)?", w)]
    return cmd, path, options


def option_names(cmd: click.Command) -> set[str]:
    names = {"--help", "-h"}
    for param in cmd.params:
        if isinstance(param, click.Option):
            names.update(param.opts)
            names.update(param.secondary_opts)
    return names


def test_the_command_lines_are_found() -> None:
    assert len(DOC_COMMANDS) >= 25
    assert ("README.md", "catbox ddtable POSITION [--jobs 4]") in DOC_COMMANDS


@pytest.mark.parametrize(("doc", "line"), DOC_COMMANDS)
def test_command_lines_in_the_docs_exist(doc: str, line: str) -> None:
    cmd, path, options = walk(line)
    assert path, f"{doc}: no such command: {line}"
    assert not isinstance(cmd, click.Group), f"{doc}: a group, not a command: {line}"
    unknown = [o for o in options if o not in option_names(cmd)]
    assert not unknown, f"{doc}: {line}: unknown options {unknown}"


def all_commands(group: click.Group = main, prefix: str = "catbox") -> list[tuple[str, Any]]:
    """Every command and group of the CLI, by its full name, the groups first."""
    found: list[tuple[str, Any]] = [(prefix, group)]
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            found.extend(all_commands(cmd, f"{prefix} {name}"))
        else:
            found.append((f"{prefix} {name}", cmd))
    return found


@pytest.mark.parametrize(("name", "cmd"), all_commands(), ids=lambda x: str(x))
def test_every_help_example_names_real_options(name: str, cmd: click.Command) -> None:
    """Every command's help has an example of itself (a group's, of one of its commands),
    and every example there (some show another command too, as ``play`` shows ``verify``)
    names a command and its options."""
    examples = command_lines(cmd.help or "")
    named = []
    for line in examples:
        found, path, options = walk(line)
        assert path and not isinstance(found, click.Group), f"{name}: no such command: {line}"
        named.append("catbox " + " ".join(path))
        unknown = [o for o in options if o not in option_names(found)]
        assert not unknown, f"{name}: {line}: unknown options {unknown}"
    if isinstance(cmd, click.Group):
        assert any(n.startswith(name + " ") for n in named), f"{name}: no example in --help"
    else:
        assert name in named, f"{name}: no example of itself in --help"


def test_every_players_option_takes_the_same_short_flag() -> None:
    """Every command with --players takes -p for it (deal, play and simulate did; rules diff
    took only -n, prove and puzzle generate no short flag), and a run with it works."""
    having = [
        (name, cmd) for name, cmd in all_commands() if not isinstance(cmd, click.Group)
        for p in cmd.params if isinstance(p, click.Option) and "--players" in p.opts
    ]
    assert {name for name, _ in having} == {
        "catbox deal", "catbox play", "catbox simulate", "catbox rules diff", "catbox prove",
        "catbox puzzle generate", "catbox tournament", "catbox survey run",
    }
    for name, cmd in having:
        (opt,) = [p for p in cmd.params if isinstance(p, click.Option) and "--players" in p.opts]
        assert "-p" in opt.opts, name
    res = CliRunner().invoke(main, ["prove", "--list", "-p", "2"])
    assert res.exit_code == 0 and res.stdout == CliRunner().invoke(
        main, ["prove", "--list", "--players", "2"]
    ).stdout


def test_every_option_says_what_it_is_for() -> None:
    """Every option of every command has help text (simulate --games, puzzle generate
    --count and rules diff --seed had none), and every --ruleset takes -r and the same
    overrides (puzzle generate's said "Ruleset preset." and had no -r)."""
    bare = [f"{name} {p.opts[0]}" for name, cmd in all_commands()
            for p in cmd.params if isinstance(p, click.Option) and not p.help]
    assert bare == []
    rulesets = [(name, p) for name, cmd in all_commands() for p in cmd.params
                if isinstance(p, click.Option) and "--ruleset" in p.opts]
    assert {name for name, _ in rulesets} == {
        "catbox deal", "catbox play", "catbox simulate", "catbox puzzle generate",
        "catbox tournament", "catbox survey run"}
    assert {(tuple(p.opts), p.help) for _, p in rulesets} == {
        (("--ruleset", "-r"), "Ruleset preset, optionally with ,switch=value overrides.")}
