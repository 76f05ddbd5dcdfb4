"""CLI conventions: README lists every command, every option says what it does."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys

import pytest

from mplc.cli import COMMANDS, build_parser, main

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


@pytest.mark.parametrize("arguments", [
    ["check", "{dir}"],
    ["compile", "{dir}", "-o", "{dir}/out"],
    ["run", "--path", "{dir}", "--model", "A"],
    ["schema", "--path", "{dir}", "A"],
    ["serve", "{dir}"],
], ids=lambda arguments: arguments[0])
def test_a_format_that_is_no_version_is_a_usage_error_of_every_command_that_takes_one(
        capsys, tmp_path, arguments):
    code = main([argument.format(dir=tmp_path) for argument in arguments] + ["--format", "MuranoPL/x"])
    _, err = capsys.readouterr()
    assert code == 2 and f"mplc {arguments[0]}: error: --format: invalid Format 'MuranoPL/x'" in err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_of_the_table_has_a_module_with_a_main(command):
    module = importlib.import_module(f"mplc.commands.{COMMANDS[command][0]}")
    assert callable(module.main)


def test_help_loads_no_command_module_and_no_front_end():
    shown = subprocess.run(
        [sys.executable, "-c", "import sys; from mplc.cli import main\n"
         "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
         "print(' '.join(sorted(name for name in sys.modules if name.startswith(('mplc', 'yaql', 'yaml', 'semantic_version')))), file=sys.stderr)"],
        capture_output=True, text=True, check=True)
    assert "COMMAND" in shown.stdout
    assert shown.stderr.split() == ["mplc", "mplc.cli", "mplc.commands"]
