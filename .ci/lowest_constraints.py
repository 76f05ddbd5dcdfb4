"""Print pip constraints pinning each runtime dependency to the lowest version pyproject allows.

CI installs the newest versions the ranges allow (what a newcomer gets) and, with these
constraints, the lowest ones, so a range that admits an untested version fails here first.
"""

import pathlib
import re
import tomllib

project = tomllib.loads(pathlib.Path(__file__).resolve().parent.parent.joinpath("pyproject.toml").read_text())
for requirement in project["project"]["dependencies"]:
    match = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*(?:\[[^\]]*\])?\s*.*?>=\s*([^,;\s]+)", requirement)
    if match is None:
        raise SystemExit(f"no lower bound in dependency {requirement!r}: give every range one")
    print(f"{match.group(1)}=={match.group(2)}")
