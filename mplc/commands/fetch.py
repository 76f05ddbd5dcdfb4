"""``mplc fetch`` and ``mplc bundle``: import packages from a Murano package repository.

    mplc fetch NAME [--version SPEC] --repo URL -o DIR
    mplc bundle NAME --repo URL -o DIR

Each fetched package (and everything it requires) is unpacked into ``DIR/FullName-Version``.
Exit 0 when everything was installed, 1 on a repository error (nothing is written then).
"""

from __future__ import annotations

import os
import sys

from mplc.repository import Repository, RepositoryError, fetch


def main(args) -> int:
    try:
        repository = Repository(args.repo, timeout=args.timeout)
        if args.command == "bundle":
            roots = repository.bundle(args.name)
        else:
            roots = [(args.name, args.version)]
        installed = fetch(repository, roots, args.output)
    except RepositoryError as error:
        sys.stderr.write(f"mplc {args.command}: error: {error}\n")
        return 1
    for archive in installed:
        print(f"{archive.name} {archive.version} -> {os.path.join(args.output, archive.directory_name)}")
    return 0
