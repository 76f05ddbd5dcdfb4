"""``mplc package``: build a package .zip as ``murano package-create`` does.

    mplc package DIR -o NAME.zip
    mplc package --template HOT.yaml [-o NAME.zip] [--name N] [--full-name F] [--author A]
                 [--tags T...] [--description D] [--resources-dir DIR] [--logo PNG]

The zip has the package's files at its top (manifest.yaml, Classes/, UI/, Resources/, ...),
the layout muranoclient writes and Murano's API imports. A package is read with the front end
first: one with errors is reported and no zip is written. From a Heat template, the manifest
is generated as muranoclient generates it (Format Heat.HOT/1.0; the name from the template's
file name, FullName ``io.murano.apps.generated.<Name>``, the description from the template's
``description``, tags ``Heat-generated``) next to ``template.yaml``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import zipfile

import yaml

from mplc.build import load_checked
from mplc.commands import UsageError
from mplc.diagnostics import Diagnostic, DiagnosticSink, render

GENERATED_PREFIX = "io.murano.apps.generated"


def package_files(directory: str, output: str) -> list[tuple[str, str]]:
    """(name in the zip, path) of every regular file of a package directory, sorted. Hidden
    files and folders (.git, .tox) and caches stay out, and so does the output itself; links
    are no part of a package (a link could lead out of it)."""
    found = []
    for root, folders, files in os.walk(directory):
        folders[:] = sorted(name for name in folders if not name.startswith(".") and name != "__pycache__"
                            and not os.path.islink(os.path.join(root, name)))
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.startswith(".") or os.path.islink(path) or not os.path.isfile(path) \
                    or os.path.abspath(path) == os.path.abspath(output):
                continue
            found.append((os.path.relpath(path, directory).replace(os.sep, "/"), path))
    return found


def write_zip(output: str, files: list[tuple[str, str | bytes]]) -> str:
    """Write ``(name, path or bytes)`` members (deflate) into a new file next to ``output``;
    its path (``os.replace`` it onto ``output`` once it is found good)."""
    folder = os.path.dirname(os.path.abspath(output))
    handle, scratch = tempfile.mkstemp(prefix=".mplc-package-", suffix=".zip", dir=folder)
    os.close(handle)
    try:
        with zipfile.ZipFile(scratch, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, content in files:
                if isinstance(content, bytes):
                    archive.writestr(name, content)
                else:
                    archive.write(content, name)
    except BaseException:
        os.unlink(scratch)
        raise
    return scratch


def hot_manifest(args, template: dict) -> dict:
    """The manifest muranoclient generates for a Heat template."""
    file_name = os.path.basename(args.template)
    name = args.name or os.path.splitext(file_name)[0]
    words = name.replace("_", " ").replace("-", " ").title().replace(" ", "")
    description = args.description or template.get(
        "description", f'Heat-defined application for a template "{file_name}"')
    return {"Format": "Heat.HOT/1.0", "Type": "Application",
            "FullName": args.full_name or f"{GENERATED_PREFIX}.{words}", "Name": name,
            "Description": description, "Author": args.author or os.environ.get("OS_USERNAME"),
            "Tags": args.tags or ["Heat-generated"]}


def hot_files(args) -> list[tuple[str, str | bytes]]:
    if not os.path.isfile(args.template):
        raise UsageError(f"template {args.template} does not exist")
    try:
        with open(args.template, "rb") as handle:
            template = yaml.safe_load(handle)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise UsageError(f"{args.template}{where}: the Heat template is not valid YAML") from None
    if not isinstance(template, dict):
        raise UsageError(f"{args.template}: a Heat template is a YAML mapping")
    manifest = yaml.safe_dump(hot_manifest(args, template), default_flow_style=False).encode("utf-8")
    files: list[tuple[str, str | bytes]] = [("manifest.yaml", manifest), ("template.yaml", args.template)]
    if args.resources_dir:
        if not os.path.isdir(args.resources_dir):
            raise UsageError(f"--resources-dir {args.resources_dir} is not a directory")
        files += [("Resources/" + name, path) for name, path in package_files(args.resources_dir, "")]
    if args.logo:
        if not os.path.isfile(args.logo):
            raise UsageError(f"--logo {args.logo} does not exist")
        files.append(("logo.png", args.logo))
    return files


def _named(diagnostic: Diagnostic, scratch: str, output: str) -> Diagnostic:
    """The diagnostic with the zip's final name in its path (not the scratch file's)."""
    if not diagnostic.pos.file.startswith(scratch):
        return diagnostic
    pos = dataclasses.replace(diagnostic.pos, file=output + diagnostic.pos.file[len(scratch):])
    return dataclasses.replace(diagnostic, pos=pos)


def main(args) -> int:
    if bool(args.template) == bool(args.directory):
        raise UsageError("give a package DIR, or --template HOT.yaml for a Heat package")
    if args.directory:
        if not os.path.isfile(os.path.join(args.directory, "manifest.yaml")):
            raise UsageError(f"{args.directory} is no package directory (no manifest.yaml)")
        if not args.output:
            raise UsageError("-o NAME.zip is required with a package DIR")
        output = args.output
        files = package_files(args.directory, output)
    else:
        output = args.output or os.path.splitext(os.path.basename(args.template))[0] + ".zip"
        files = hot_files(args)
    scratch = write_zip(output, files)
    try:
        sink = DiagnosticSink()
        sources: dict[str, str] = {}
        load_checked([args.directory or scratch], sink, sources=sources)
        sink.diagnostics = [_named(d, scratch, output) for d in sink.diagnostics]
        sources = {path.replace(scratch, output, 1): text for path, text in sources.items()}
        if sink.has_errors:
            render([d for d in sink.diagnostics if d.severity == "error"], sys.stderr, sources)
            sys.stderr.write(f"mplc package: error: the package has errors; {output} is not written\n")
            return 1
        if not args.quiet:
            render(sink.diagnostics, sys.stderr, sources)
        os.replace(scratch, output)
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)
    print(f"Application package is available at {os.path.abspath(output)}")
    return 0
