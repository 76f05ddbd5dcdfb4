"""CLI conventions: README lists every command, every option says what it does."""

from __future__ import annotations

import argparse
import os
import re

import pytest

from mplc.cli import build_parser, main

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_readme_lists_the_commands_of_mplc_help():
    text = open(README, encoding="utf-8").read()
    block = text[text.index("## Commands"):]
    block = block[block.index("```") + 3:]
    block = block[:block.index("```")]
    listed = {match.group(1) for match in re.finditer(r"^mplc ([a-z-]+)", block, re.MULTILINE)}
    assert listed == set(_commands())


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_option_has_help_text(command):
    parser = _commands()[command]
    missing = [action.option_strings or action.dest for action in parser._actions
               if action.help is None and not isinstance(action, argparse._HelpAction)]
    assert missing == []


def test_a_model_path_that_does_not_exist_is_a_usage_error_naming_it(capsys, tmp_path):
    for model in (str(tmp_path / "nofile.json"), "nofile.json", "models/app"):
        code = main(["run", "--path", str(tmp_path), "--model", model])
        _, err = capsys.readouterr()
        assert code == 2 and f"model file {model} does not exist" in err
