"""The built-in Heat.HOT package type: a package holding a Heat template (template.yaml).

Its one class, named by the package's FullName, is generated as the reference engine generates
it: an io.murano.Application whose ``templateParameters`` property has a contract per template
parameter (type and constraints), whose ``templateOutputs`` receives the stack's outputs, and
whose ``deploy`` pushes the template (read back from the resource named after the class) through
io.murano.system.HeatStack. The dashboard form is generated from the parameters and their
groups. Every generated line records the template node it was made from.
"""

from __future__ import annotations

import os
import sys

import yaml

from mplc.packagetypes.base import (ClassSource, PackageBase, PackageTypeError, Problem, Span,
                                    secure_join)
from mplc.packagetypes.emit import Traced, Yaql, dump

TEMPLATE = "template.yaml"
HOT_FILES = "HotFiles/"
HOT_ENVIRONMENTS = "HotEnvironments/"
TYPE_CONTRACTS = {"string": ".string()", "comma_delimited_list": ".string()", "json": ".string()",
                  "number": ".int()", "boolean": ".bool()"}
UI_TYPES = {"number": "integer", "boolean": "boolean"}
START: Span = (1, 1, 1, 1)


class Template:
    """template.yaml as data, with the span of every mapping key."""

    def __init__(self, path: str, relative: str):
        self.relative = relative
        try:
            with open(path, "rb") as handle:
                self.text = handle.read()
            loader = yaml.SafeLoader(self.text)
            try:
                node = loader.get_single_node()
                self.data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
            span = (mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 1) if mark else None
            raise PackageTypeError(f"invalid YAML: {getattr(error, 'problem', None) or error}",
                                   relative, span, "E-YAML") from None
        except OSError as error:
            raise PackageTypeError(f"cannot read {relative}: {error.strerror or error}",
                                   relative) from None
        self.root = node
        if not isinstance(self.data, dict) or "resources" not in self.data:
            raise PackageTypeError("Not a HOT template: it has no resources section", relative,
                                   _span(node) if node is not None else None, "E-HOT")

    def key_span(self, *path) -> Span:
        """The span of the key at ``path`` (mapping keys only); the nearest found parent's
        when the path does not lead to a key."""
        node, span = self.root, START
        for name in path:
            if not isinstance(node, yaml.MappingNode):
                break
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(name):
                    node, span = value_node, _span(key_node)
                    break
            else:
                break
        return span


def _span(node: yaml.Node) -> Span:
    start, end = node.start_mark, node.end_mark
    if end.line > start.line:
        return (start.line + 1, start.column + 1, start.line + 1, start.column + 2)
    return (start.line + 1, start.column + 1, end.line + 1, end.column + 1)


class HotPackage(PackageBase):
    def __init__(self, format_name, runtime_version, source_directory, manifest):
        super().__init__(format_name, runtime_version, source_directory, manifest)
        self._template: Template | None = None

    @property
    def classes(self) -> tuple[str, ...]:
        return (self.full_name,)

    @property
    def requirements(self) -> dict:
        return {}

    @property
    def template(self) -> Template:
        if self._template is None:
            path = secure_join(self._source_directory, TEMPLATE)
            if not os.path.isfile(path):
                raise PackageTypeError(f"{self.full_name}: {TEMPLATE} with the Heat template is "
                                       "missing", "manifest.yaml", code="E-HOT")
            self._template = Template(path, TEMPLATE)
        return self._template

    @property
    def generated_files(self) -> dict[str, bytes]:
        """Files the compiled package carries besides the source's: the template as the
        resource its class reads, and the generated dashboard form."""
        return {f"Resources/{self.full_name}": self.template.text, "UI/ui.yaml": self.ui.encode("utf-8")}

    def get_class(self, name: str) -> ClassSource:
        if name != self.full_name:
            raise PackageTypeError(f"class {name} is not defined in package {self.full_name}")
        template = self.template
        problems: list[Problem] = []
        properties = self._properties(template, problems)
        if problems:
            raise PackageTypeError(problems[0].message, problems=tuple(problems))
        translated = {"Name": self.full_name, "Extends": "io.murano.Application",
                      "Properties": properties,
                      "Methods": Traced(_methods(self._hot_files()), template.key_span("resources"))}
        text, origins = dump(translated, START)
        return ClassSource(text, TEMPLATE, origins)

    @property
    def ui(self) -> str:
        template = self.template
        groups = _ui_groups(template.data, self.description)
        forms = [{f"group{index}": {"fields": fields}} for index, (fields, _) in enumerate(groups)]
        translated = {"Version": 2, "Application": _application(groups, self.full_name, str(self.version)),
                      "Forms": forms}
        return dump(translated, START)[0]

    def _validates_parameters(self) -> bool:
        """Parameters of a package with HOT environments are not checked by contracts (the
        contract's values would override the environment's)."""
        environments = os.path.join(self._source_directory, "Resources", HOT_ENVIRONMENTS)
        return not os.path.isdir(environments) or not os.listdir(environments)

    def _properties(self, template: Template, problems: list[Problem]) -> dict:
        string = Yaql("$.string()")
        parameters: dict = {}
        if self._validates_parameters():
            for name, spec in _section(template, "parameters", problems).items():
                span = template.key_span("parameters", name)
                contract = _parameter_contract(name, spec, span, problems)
                if contract is not None:
                    parameters[name] = Traced(Yaql(contract), span)
        outputs = {name: Traced(string, template.key_span("outputs", name))
                   for name in _section(template, "outputs", problems)}
        return {
            "generatedHeatStackName": {"Contract": string, "Usage": "Out"},
            "hotEnvironment": {"Contract": string, "Usage": "In"},
            "name": {"Contract": Yaql("$.string().notNull()"), "Usage": "In"},
            "templateParameters": Traced({"Contract": parameters, "Default": {}, "Usage": "In"},
                                         template.key_span("parameters")),
            "templateOutputs": Traced({"Contract": outputs, "Default": {}, "Usage": "Out"},
                                      template.key_span("outputs")),
        }

    def _hot_files(self) -> list[str]:
        """Files under Resources/HotFiles/, relative to it, '/'-separated."""
        base = os.path.join(self._source_directory, "Resources", HOT_FILES)
        found = []
        for directory, subdirectories, files in os.walk(base):
            subdirectories.sort()
            found.extend(os.path.relpath(os.path.join(directory, name), base).replace(os.sep, "/")
                         for name in sorted(files))
        return found


def _section(template: Template, name: str, problems: list[Problem]) -> dict:
    section = template.data.get(name) or {}
    if not isinstance(section, dict):
        problems.append(Problem("E-HOT", f"the template's {name} must be a mapping", TEMPLATE,
                                template.key_span(name)))
        return {}
    return section


def _parameter_contract(name, spec, span: Span, problems: list[Problem]) -> str | None:
    if not isinstance(spec, dict) or "type" not in spec:
        problems.append(Problem("E-HOT-PARAMETER", f"template parameter {name} has no type",
                                TEMPLATE, span))
        return None
    contract = TYPE_CONTRACTS.get(spec["type"]) if isinstance(spec["type"], str) else None
    if contract is None:
        problems.append(Problem("E-HOT-PARAMETER", f"template parameter {name} has unsupported "
                                f"type {spec['type']!r}; supported: "
                                f"{', '.join(TYPE_CONTRACTS)}", TEMPLATE, span))
        return None
    contract = "$" + contract
    for constraint in spec.get("constraints") or []:
        try:
            contract += _constraint_check(constraint)
        except (TypeError, ValueError) as error:
            problems.append(Problem("E-HOT-PARAMETER", f"template parameter {name}: bad "
                                    f"constraint {constraint!r}: {error}", TEMPLATE, span))
    return contract


def _constraint_check(constraint) -> str:
    """``.check(...)`` for one HOT constraint; the first of allowed_values, length, range,
    allowed_pattern it has (others add nothing)."""
    if not isinstance(constraint, dict):
        return ""
    if "allowed_values" in constraint:
        return f".check($ in list({_values(constraint['allowed_values'])}))"
    if "length" in constraint or "range" in constraint:
        tests = (_bounds("len($)", constraint["length"], int) if "length" in constraint
                 else _bounds("$", constraint["range"], int))
        return f".check({tests})" if tests else ""
    if "allowed_pattern" in constraint:
        return f".check(matches($, '{constraint['allowed_pattern']}'))"
    return ""


def _bounds(subject: str, limits, convert) -> str:
    """``subject >= min and subject <= max`` for the limits given; empty for none."""
    if not isinstance(limits, dict):
        raise ValueError("expected a mapping with min and/or max")
    tests = []
    if "min" in limits:
        tests.append(f"{subject} >= {convert(limits['min'])}")
    if "max" in limits:
        tests.append(f"{subject} <= {convert(limits['max'])}")
    return " and ".join(tests)


def _values(values) -> str:
    if not isinstance(values, list):
        raise ValueError("allowed_values must be a list")
    return ", ".join(f"'{value}'" if isinstance(value, str) else str(value) for value in values)


def _methods(hot_files: list[str]) -> dict:
    files = {name: Yaql(f"$resources.string('{HOT_FILES}{name}')") for name in hot_files}
    stack = Yaql("new('io.murano.system.HeatStack', $environment, "
                 "name => $.getAttr(generatedHeatStackName))")
    environment = {Yaql("$environment"): Yaql("$.find('io.murano.Environment').require()")}
    deploy = [
        environment,
        {Yaql("$reporter"): Yaql("new('io.murano.system.StatusReporter', environment => $environment)")},
        {"If": Yaql("$.getAttr(generatedHeatStackName) = null"),
         "Then": [Yaql("$.setAttr(generatedHeatStackName, "
                       "'{0}_{1}'.format(randomName(), id($environment)))")]},
        {Yaql("$stack"): stack},
        Yaql("$reporter.report($this, 'Application deployment has started')"),
        {Yaql("$resources"): Yaql("new('io.murano.system.Resources')")},
        {Yaql("$template"): Yaql("$resources.yaml(type($this))")},
        Yaql("$stack.setTemplate($template)"),
        {Yaql("$parameters"): Yaql("$.templateParameters")},
        Yaql("$stack.setParameters($parameters)"),
        {Yaql("$files"): files},
        Yaql("$stack.setFiles($files)"),
        {Yaql("$hotEnv"): Yaql("$.hotEnvironment")},
        {"If": Yaql("bool($hotEnv)"),
         "Then": [{Yaql("$envRelPath"): Yaql(f"'{HOT_ENVIRONMENTS}' + $hotEnv")},
                  {Yaql("$hotEnvContent"): Yaql("$resources.string($envRelPath)")},
                  Yaql("$stack.setHotEnvironment($hotEnvContent)")]},
        Yaql("$reporter.report($this, 'Stack creation has started')"),
        {"Try": [Yaql("$stack.push()")],
         "Catch": [{"As": "e", "Do": [Yaql("$reporter.report_error($this, $e.message)"),
                                      {"Rethrow": None}]}],
         "Else": [{Yaql("$.templateOutputs"): Yaql("$stack.output()")},
                  Yaql("$reporter.report($this, 'Stack was successfully created')"),
                  Yaql("$reporter.report($this, 'Application deployment has finished')")]},
    ]
    destroy = [environment, {Yaql("$stack"): stack}, Yaql("$stack.delete()")]
    return {"deploy": {"Body": deploy}, "destroy": {"Body": destroy}}


def _ui_groups(hot: dict, title) -> list[tuple[list, list]]:
    """(form fields, property names) per form page: the name page, one per parameter group,
    and one for the parameters no group mentions."""
    parameters = hot.get("parameters") or {}
    predefined = [
        {"name": "title", "type": "string", "required": False, "hidden": True,
         "description": title},
        {"name": "name", "type": "string", "label": "Application Name", "required": True,
         "description": "Enter a desired name for the application. Just A-Z, a-z, 0-9, and "
                        "dash are allowed"},
    ]
    groups = [(predefined, ["name"])]
    used = set()
    for group in hot.get("parameter_groups") or []:
        fields, names = [], []
        for name in (group.get("parameters") or [] if isinstance(group, dict) else []):
            spec = parameters.get(name) if isinstance(name, str) else None
            if spec:
                fields.append(_ui_field(name, spec))
                names.append(name)
                used.add(name)
        groups.append((fields, names))
    rest = [name for name in parameters if name not in used]
    if rest:
        groups.append(([_ui_field(name, parameters[name]) for name in rest], rest))
    return groups


def _ui_field(name: str, spec) -> dict:
    spec = spec if isinstance(spec, dict) else {}
    field = {"name": name, "label": spec.get("label") or name.title().replace("_", " "),
             "type": UI_TYPES.get(spec.get("type"), "string")}
    if "description" in spec:
        field["description"] = spec["description"]
    if "default" in spec:
        field["initial"] = spec["default"]
    field["required"] = "default" not in spec
    validators = []
    for constraint in spec.get("constraints") or []:
        if not isinstance(constraint, dict):
            continue
        validator = None
        if "length" in constraint and isinstance(constraint["length"], dict):
            limits = constraint["length"]
            if "min" in limits:
                field["minLength"] = max(field.get("minLength", -sys.maxsize - 1), int(limits["min"]))
            if "max" in limits:
                field["maxLength"] = min(field.get("maxLength", sys.maxsize), int(limits["max"]))
        elif "range" in constraint:
            tests = _bounds("$", constraint["range"], str)
            validator = {"expr": Yaql(tests)} if tests else None
        elif "allowed_values" in constraint:
            validator = {"expr": Yaql(f"$ in list({_values(constraint['allowed_values'])})")}
        elif "allowed_pattern" in constraint:
            validator = {"expr": {"regexpValidator": constraint["allowed_pattern"]}}
        if validator is not None:
            if "description" in constraint:
                validator["message"] = constraint["description"]
            validators.append(validator)
    if validators:
        field["validators"] = validators
    return field


def _application(groups, type_name: str, version: str) -> dict:
    """The object model the form builds: page 0 fills the application, later pages its
    templateParameters."""
    application: dict = {"?": {"type": type_name, "package": type_name, "classVersion": version}}
    for index, (_, names) in enumerate(groups):
        section = application if index == 0 else application.setdefault("templateParameters", {})
        for name in names:
            section[name] = Yaql(f"$.group{index}.{name}")
    application["name"] = Yaql("$.group0.name")
    return application
