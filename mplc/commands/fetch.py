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


def add_arguments(subparsers) -> None:
    """Register ``fetch`` and ``bundle`` on the ``mplc`` subcommand parsers."""
    package = subparsers.add_parser("fetch", help="import a package and its requirements from a repository")
    package.add_argument("name", metavar="NAME", help="the package's FullName")
    package.add_argument("--version", default=None, metavar="SPEC",
                         help="version spec (default: the newest version)")
    bundle = subparsers.add_parser("bundle", help="import a bundle of packages from a repository")
    bundle.add_argument("name", metavar="NAME", help="the bundle's name (bundles/NAME.bundle)")
    for parser in (package, bundle):
        parser.add_argument("--repo", default=os.environ.get("MURANO_REPO_URL"),
                            required="MURANO_REPO_URL" not in os.environ, metavar="URL",
                            help="repository URL (default: $MURANO_REPO_URL)")
        parser.add_argument("-o", "--output", required=True, metavar="DIR",
                            help="where packages are unpacked (DIR/FullName-Version)")
        parser.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                            help="network timeout of each request (default 30)")


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
