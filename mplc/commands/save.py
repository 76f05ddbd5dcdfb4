"""``mplc save``: an offline copy of packages with everything they require, as zips.

    mplc save NAME... --repo URL -o DIR [--version SPEC]
    mplc save --bundle NAME --repo URL -o DIR
    mplc save PACKAGE_DIR_OR_ZIP... [--repo URL] -o DIR

Like ``murano package-save`` / ``bundle-save``: DIR receives ``FullName.zip`` for each package
and each package it requires (resolved from the repository; a local package directory is
zipped as ``mplc package`` zips it), ``NAME.bundle`` for a bundle, and ``images.lst`` listing
the images the packages' own images.lst files name (images are not downloaded: import them
into Glance from there). DIR is then a PATH mplc reads, and each zip is what Murano's API
imports. Exit 1 on a repository or package error, with nothing written.
"""

from __future__ import annotations

import io
import json
import os
import sys
import zipfile

import yaml

from mplc.build import load_checked
from mplc.commands import UsageError
from mplc.commands.package import package_files
from mplc.diagnostics import DiagnosticSink, render
from mplc.repository import Repository, RepositoryError, resolve


def _local_zip(path: str) -> tuple[str, dict, bytes]:
    """(FullName, Require, zip bytes) of a local package directory or .zip, read by the front
    end; a package with errors is refused."""
    sink = DiagnosticSink()
    sources: dict[str, str] = {}
    packages = load_checked([path], sink, sources=sources)
    if sink.has_errors or len(packages) != 1:
        render([d for d in sink.diagnostics if d.severity == "error"], sys.stderr, sources)
        raise RepositoryError(f"{path}: not one package without errors")
    manifest = packages[0].manifest
    if os.path.isfile(path):
        with open(path, "rb") as handle:
            data = handle.read()
    else:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, file_path in package_files(path, ""):
                archive.write(file_path, name)
        data = buffer.getvalue()
    require = {r.package: r.spec for r in manifest.requirements if r.package != "io.murano"}
    return manifest.full_name, require, data


def _images(data: bytes) -> list:
    """The Images of a package zip's images.lst (none when it has none or it is unreadable)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            member = "images.lst" if "images.lst" in names else next(
                (name for name in names if name.count("/") == 1 and name.endswith("/images.lst")), None)
            if member is None:
                return []
            document = yaml.safe_load(archive.read(member))
    except (zipfile.BadZipFile, yaml.YAMLError, OSError, ValueError):
        return []
    images = document.get("Images") if isinstance(document, dict) else None
    return [image for image in images or () if isinstance(image, dict) and image.get("Name")]


def main(args) -> int:
    local = [name for name in args.names if os.path.exists(name)]
    if args.bundle and local:
        raise UsageError("--bundle takes bundle names, not paths")
    if args.version and len(args.names) > 1:
        raise UsageError("--version needs a single NAME")
    remote = [name for name in args.names if name not in local]
    if remote and not args.repo:
        raise UsageError(f"{remote[0]} is no local package: --repo URL (or $MURANO_REPO_URL) is needed")
    try:
        files: dict[str, bytes] = {}
        roots: list[tuple[str, object]] = []
        bundles: dict[str, list] = {}
        for path in local:
            full_name, require, data = _local_zip(path)
            files[f"{full_name}.zip"] = data
            roots.extend(require.items())
        repository = Repository(args.repo, timeout=args.timeout) if args.repo else None
        for name in remote:
            if args.bundle:
                entries = repository.bundle(name)
                bundles[name] = entries
                roots.extend(entries)
            else:
                roots.append((name, args.version))
        roots = [(name, spec) for name, spec in roots if f"{name}.zip" not in files]
        if roots and repository is None:
            raise RepositoryError(f"{roots[0][0]} is required but is no given package: give --repo URL")
        for archive in resolve(repository, roots) if roots else ():
            files.setdefault(f"{archive.name}.zip", archive.data)
    except RepositoryError as error:
        sys.stderr.write(f"mplc save: error: {error}\n")
        return 1
    images: dict[str, dict] = {}
    for name, data in files.items():
        for image in _images(data):
            images.setdefault(str(image["Name"]), image)
    os.makedirs(args.output, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(args.output, name), "wb") as handle:
            handle.write(data)
        print(f"{name[:-4]} -> {os.path.join(args.output, name)}")
    for name, entries in bundles.items():
        with open(os.path.join(args.output, f"{name}.bundle"), "w", encoding="utf-8") as handle:
            json.dump({"Packages": [{"Name": package, **({"Version": str(version)} if version else {})}
                                    for package, version in entries]}, handle, indent=1)
    if images:
        with open(os.path.join(args.output, "images.lst"), "w", encoding="utf-8") as handle:
            yaml.safe_dump({"Images": list(images.values())}, handle, default_flow_style=False)
        for name in images:
            print(f"image {name} (listed in {os.path.join(args.output, 'images.lst')}; not downloaded)")
    return 0
