"""The help pages read as prose: each command's summary is one paragraph, and no help
text is swallowed by the markdown the help is rendered with."""

import re

import click
import pytest
import typer
from typer.testing import CliRunner

from clausegraph.cli import app

runner = CliRunner()
COMMANDS = typer.main.get_command(app).commands


def _words(text: str) -> list[str]:
    return re.sub(r"[│╭╮╰╯─]", " ", text).split()


def _summary(command: click.Command) -> str:
    return (command.help or "").split("\n\n")[0]


def _summary_lines(output: str) -> dict[str, list[str]]:
    """Each command's lines in the help's command list, borders and name taken off."""
    lines: dict[str, list[str]] = {}
    current = None
    for line in output.splitlines():
        inner = line.strip().strip("│").rstrip()
        first = inner.split()[0] if inner.split() else ""
        if first in COMMANDS and inner.startswith(f" {first} "):
            current = first
            lines[current] = [inner[len(first) + 1:].strip()]
        elif current and inner.startswith("   ") and not line.startswith("╰"):
            lines[current].append(inner.strip())
        else:
            current = None
    return lines


def test_command_list_shows_each_summary_as_one_paragraph():
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    shown = _summary_lines(result.output)
    assert set(shown) == set(COMMANDS)
    width = max(len(line) for lines in shown.values() for line in lines)
    for name, command in COMMANDS.items():
        assert " ".join(shown[name]).split() == _summary(command).split(), name
        # a summary broken where its source line breaks leaves a short line before the
        # last one ("... with the configured model" / "(after a model change)" / "and ...")
        for line in shown[name][:-1]:
            assert len(line) >= width - 16, (name, line)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_option_help_keeps_every_word(name):
    result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    shown = " ".join(_words(result.output))
    for param in COMMANDS[name].params:
        text = getattr(param, "help", None)
        if text:
            # "<out-dir>/plots" would be read as an HTML tag and vanish
            assert not re.search(r"<[A-Za-z][^>]*>", text), (name, text)
            for word in text.split()[:6]:
                assert word.strip("[]`") in shown, (name, word)
