"""Packaging checks of ``mplc check``: what murano-pkg-check reports beyond the language.

The engine never reads most of what is checked here (the dashboard reads UI forms, the
catalog reads Logo, Tags and images.lst, muranoclient builds the zip), so every finding is a
warning, and only ``mplc check`` runs these checks: compiling or running a package is about its
code. Each check names the murano-pkg-check code it matches (docs/diagnostics.md).
"""

from __future__ import annotations

import re

from mplc import ir
from mplc.diagnostics import DiagnosticSink
from mplc.frontend.yaml_source import Mapping, Scalar, Sequence, read_documents
from mplc.versioning import Version

KNOWN_TOP_FILES = frozenset({"manifest.yaml", "LICENSE", "images.lst", "README.rst"})
UI_TEXT_ATTRIBUTES = frozenset({"name", "label", "description", "descriptionTitle",
                                "regexpValidator", "helpText"})
UI_BOOL_ATTRIBUTES = frozenset({"required", "hidden"})
UI_INT_ATTRIBUTES = frozenset({"minValue", "maxValue"})  # min/maxLength: E-UI-ATTRIBUTE
IMAGE_KEYS = ("Name", "DiskFormat", "ContainerFormat")
FQN = re.compile(r"^([a-zA-Z_$][\w$]*\.)*[a-zA-Z_$][\w$]*$")
NAME = re.compile(r"^[A-Za-z_]\w*$")
SPECIAL_METHODS = frozenset({".init", ".destroy"})


def _file_pos(path: str) -> ir.Pos:
    return ir.Pos(path, 1, 1, 1, 1)


def _entries(node) -> dict[str, tuple]:
    """A mapping's string keys -> (key node, value node); the last of repeated keys."""
    if not isinstance(node, Mapping):
        return {}
    return {key.value: (key, value) for key, value in node.items
            if isinstance(key, Scalar) and isinstance(key.value, str)}


def _is_text(node) -> bool:
    return isinstance(node, Scalar) and (isinstance(node.value, str) or node.expression is not None)


def _is_null(node) -> bool:
    return isinstance(node, Scalar) and node.value is None and node.expression is None


def _shown(node) -> str:
    if isinstance(node, Scalar):
        return str(node.value) if node.expression is None else str(node.expression)
    return "a list" if isinstance(node, Sequence) else "a mapping"


def _yaml(source, relative: str) -> list | None:
    """The documents of a file of the package, read quietly: its YAML errors are reported by
    the checks that need it to load (E-YAML of the UI form, class files)."""
    data = source.read(relative, DiagnosticSink())
    if data is None:
        return None
    return read_documents(data, source.display(relative), DiagnosticSink())


class PackageLint:
    def __init__(self, source, manifest_node: Mapping, manifest: ir.Manifest, sink: DiagnosticSink):
        self.source = source
        self.node = manifest_node
        self.manifest = manifest
        self.sink = sink
        self.entries = _entries(manifest_node)
        self.application = manifest.type == "Application"

    def warn(self, code: str, message: str, pos: ir.Pos) -> None:
        self.sink.warning(code, message, pos)

    def run(self, classes: bool) -> None:
        self.manifest_values()
        self.top_files()
        self.logo_and_ui()
        self.images()
        for relative in self.source.listing("UI"):
            if relative.endswith(".yaml"):
                self.ui_file("UI/" + relative)
        if classes:
            self.orphan_class_files()
            self.class_files()

    # -- manifest (murano-pkg-check E020, E030, E040, E070, E072, E074, E005) ----------------

    def manifest_values(self) -> None:
        for key in ("Name", "Author", "Description"):
            found = self.entries.get(key)
            if found is not None and not _is_text(found[1]) and not _is_null(found[1]):
                self.warn("W-MANIFEST", f"{key} should be text, not {_shown(found[1])}", found[1].pos)
        if "Description" not in self.entries:
            self.warn("W-MANIFEST", "the manifest has no Description (the catalog shows it)",
                      self.node.pos)
        tags = self.entries.get("Tags")
        if tags is not None and not isinstance(tags[1], Sequence):
            self.warn("W-MANIFEST", f"Tags should be a list, not {_shown(tags[1])}", tags[1].pos)
        for key in ("UI", "Logo"):
            found = self.entries.get(key)
            if found is not None and not _is_text(found[1]):
                self.warn("W-MANIFEST", f"{key} should be a file name, not {_shown(found[1])}",
                          found[1].pos)
        require = self.entries.get("Require")
        if require is not None and isinstance(require[1], Mapping):
            for key, _ in require[1].items:
                if isinstance(key, Scalar) and isinstance(key.value, str) and not FQN.match(key.value):
                    self.warn("W-MANIFEST", f"Require key '{key.value}' is not a package name",
                              key.pos)

    # -- files of the package (W120, W121, W073, W074) ----------------------------------------

    def top_files(self) -> None:
        tops = set(self.source.top_files())
        logo = self.entries.get("Logo")
        logo_name = logo[1].value if logo is not None and _is_text(logo[1]) else "logo.png"
        for name in sorted(tops - KNOWN_TOP_FILES - {logo_name}):
            self.warn("W-UNKNOWN-FILE", f"'{name}' is no file a package has at its top "
                      f"(manifest.yaml, LICENSE, README.rst, images.lst, the logo)",
                      _file_pos(self.source.display(name)))
        if "LICENSE" not in tops:
            self.warn("W-NO-LICENSE", "the package has no LICENSE file", self.node.pos)

    def logo_and_ui(self) -> None:
        if not self.application:
            return
        for key, default, folder, code in (("Logo", "logo.png", "", "W-LOGO-MISSING"),
                                           ("UI", "ui.yaml", "UI/", "W-UI-MISSING")):
            found = self.entries.get(key)
            if found is not None and not _is_text(found[1]):
                continue
            name = found[1].value if found is not None else default
            if not self.source.exists(folder + str(name)):
                where = found[1].pos if found is not None else self.node.pos
                given = "" if found is not None else f" (no {key} given: the default)"
                self.warn(code, f"{key} file {folder}{name} does not exist{given}", where)

    def images(self) -> None:
        if not self.source.exists("images.lst"):
            return
        documents = _yaml(self.source, "images.lst")
        path = self.source.display("images.lst")
        if not documents:
            self.warn("W-IMAGES", "images.lst is not YAML (muranoclient then imports no images)",
                      _file_pos(path))
            return
        images = _entries(documents[0]).get("Images")
        if images is None or not isinstance(images[1], Sequence):
            self.warn("W-IMAGES", "images.lst should be a mapping with an Images list",
                      images[1].pos if images else documents[0].pos)
            return
        for image in images[1].items:
            keys = _entries(image)
            missing = [key for key in IMAGE_KEYS if key not in keys]
            if missing:
                self.warn("W-IMAGES", f"image without {', '.join(missing)}: muranoclient skips it",
                          image.pos)

    # -- UI forms (E081, E082, E083, E084, E100, W082, W100, E021, W010, E005) --------------

    def ui_file(self, relative: str) -> None:
        """What the dashboard's own checks (``mplc.forms``: versions, sections, form keys, field
        types and attributes) leave to murano-pkg-check: Application's property names and the
        types of field attributes."""
        documents = _yaml(self.source, relative)
        if not documents:
            return  # E-YAML / E-UI come from reading the form
        entries = _entries(documents[0])
        application = entries.get("Application")
        if application is not None:
            self.ui_application(application[1])
        forms = entries.get("Forms")
        if forms is not None and isinstance(forms[1], Sequence):
            for named in forms[1].items:
                for _, form in _entries(named).items():
                    self.ui_form(form[1])

    def ui_application(self, node) -> None:
        if not isinstance(node, Mapping):
            if not _is_text(node):  # a YAQL expression is a template the dashboard evaluates
                self.warn("W-UI-APPLICATION", "Application should be a mapping (the object "
                          "model template)", node.pos)
            return
        for key, _ in node.items:
            name = key.value if isinstance(key, Scalar) else None
            if name != "?" and not (isinstance(name, str) and NAME.match(name)) \
                    and not (isinstance(key, Scalar) and key.expression is not None):
                self.warn("W-UI-APPLICATION", f"'{_shown(key)}' is no property name", key.pos)

    def ui_form(self, form) -> None:
        fields = _entries(form).get("fields")
        if fields is None or not isinstance(fields[1], Sequence):
            return
        for field in fields[1].items:
            for key, (key_node, value) in _entries(field).items():
                if isinstance(value, Scalar) and value.expression is not None:
                    continue  # evaluated by the dashboard
                if key in UI_TEXT_ATTRIBUTES and not _is_text(value):
                    self.warn("W-UI-VALUE", f"{key} should be text, not {_shown(value)}", value.pos)
                elif key in UI_BOOL_ATTRIBUTES and not (isinstance(value, Scalar)
                                                         and isinstance(value.value, bool)):
                    self.warn("W-UI-VALUE", f"{key} should be true or false, not {_shown(value)}",
                              value.pos)
                elif key in UI_INT_ATTRIBUTES and not (isinstance(value, Scalar)
                                                        and isinstance(value.value, int)):
                    self.warn("W-UI-VALUE", f"{key} should be an integer, not {_shown(value)}",
                              value.pos)

    # -- classes (W020, W011, E054, E044, W045, E052) ------------------------------------------

    def orphan_class_files(self) -> None:
        listed = {relative for _, relative in self.manifest.classes}
        for relative in self.source.listing("Classes"):
            if relative not in listed:
                self.warn("W-ORPHAN-CLASS-FILE", f"Classes/{relative} is not listed in the "
                          f"manifest's Classes: the engine never loads it",
                          _file_pos(self.source.display("Classes/" + relative)))

    def class_files(self) -> None:
        format_version = Version.coerce(self.manifest.format_version)
        for relative in sorted({relative for _, relative in self.manifest.classes}):
            if not self.source.exists("Classes/" + relative):
                continue
            for document in _yaml(self.source, "Classes/" + relative) or ():
                self.class_document(_entries(document), format_version)

    def class_document(self, entries: dict, format_version: Version) -> None:
        name = entries.get("Name")
        if name is not None and isinstance(name[1].value if isinstance(name[1], Scalar) else None, str):
            short = name[1].value.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
            if short and (not short[0].isupper() or (len(short) > 3 and short == short.upper())):
                self.warn("W-CLASS-NAME-STYLE", f"class name '{name[1].value}' is not CamelCase",
                          name[1].pos)
        properties = entries.get("Properties")
        for _, (_, declaration) in _entries(properties[1] if properties else None).items():
            contract = _entries(declaration).get("Contract")
            if contract is not None:
                self.contract(contract[1])
        methods = entries.get("Methods")
        for method_name, (key, method) in _entries(methods[1] if methods else None).items():
            if method_name not in SPECIAL_METHODS and not NAME.match(method_name):
                self.warn("W-METHOD-NAME", f"method name '{method_name}' is no identifier: "
                          f"MuranoPL code cannot call it", key.pos)
            body = _entries(method)
            scope = body.get("Scope")
            if scope is not None and format_version < Version("1.4.0"):
                self.warn("W-FORMAT-FEATURE", f"Scope is a Format 1.4 feature; this package is "
                          f"Format {self.manifest.format_version}", scope[0].pos)
            usage = body.get("Usage")
            usage_value = usage[1].value if usage is not None and isinstance(usage[1], Scalar) else None
            if usage_value == "Action" and format_version >= Version("1.4.0"):
                self.warn("W-FORMAT-FEATURE", "Usage: Action is deprecated since Format 1.4 "
                          "(use Scope: Public)", usage[1].pos)
            elif usage_value in ("Static", "Extension") and format_version < Version("1.3.0"):
                self.warn("W-FORMAT-FEATURE", f"Usage: {usage_value} is a Format 1.3 feature; "
                          f"this package is Format {self.manifest.format_version}", usage[1].pos)
            arguments = body.get("Arguments")
            items = arguments[1].items if arguments and isinstance(arguments[1], Sequence) else \
                [arguments[1]] if arguments and isinstance(arguments[1], Mapping) else []
            for argument in items:
                for argument_name, (argument_key, declaration) in _entries(argument).items():
                    if not NAME.match(argument_name):
                        self.warn("W-METHOD-NAME", f"argument name '{argument_name}' is no "
                                  f"identifier", argument_key.pos)
                    contract = _entries(declaration).get("Contract")
                    if contract is not None and not _falsy(contract[1]):
                        self.contract(contract[1])
                    argument_usage = _entries(declaration).get("Usage")
                    if argument_usage is not None and format_version < Version("1.4.0"):
                        self.warn("W-FORMAT-FEATURE", f"argument Usage is a Format 1.4 feature; "
                                  f"this package is Format {self.manifest.format_version}",
                                  argument_usage[0].pos)

    def contract(self, node) -> None:
        """murano-pkg-check's W048: every leaf of a contract is a YAQL expression on ``$``
        (``$.string()``, ``$``); a list's integer bounds (``[$.int(), 1, 3]``) are no leaves."""
        if isinstance(node, Sequence):
            items = node.items
            bounds = items[1:] if len(items) in (2, 3) else []
            if bounds and all(isinstance(item, Scalar) and type(item.value) is int for item in bounds):
                return
            for item in items:
                self.contract(item)
        elif isinstance(node, Mapping):
            for key, value in node.items:
                if not _is_text(key):
                    self.warn("W-CONTRACT-EXPRESSION", f"a contract key should be text or an "
                              f"expression, not {_shown(key)}", key.pos)
                self.contract(value)
        else:
            if not (node.expression is not None and isinstance(node.value, str)
                    and (node.value.startswith("$.") or node.value == "$")):
                self.warn("W-CONTRACT-EXPRESSION", f"contract {_shown(node)!r} is no YAQL expression "
                          f"on $ (such as $.string() or $)", node.pos)


def _falsy(node) -> bool:
    if isinstance(node, Scalar):
        return node.expression is None and not node.value
    return not node.items


def lint_package(source, manifest_node: Mapping, manifest: ir.Manifest, sink: DiagnosticSink,
                 classes: bool = True) -> None:
    """murano-pkg-check's packaging checks on one package; warnings into ``sink``.
    ``classes``: the package is MuranoPL (its Classes are checked too)."""
    PackageLint(source, manifest_node, manifest, sink).run(classes)
