"""Errors the runtime raises, named like the reference engine's exception classes.

Every error derives from ``MuranoError``; ``type_name`` is the reference class name, which is
what ``mplc run`` reports as ``error.type``. ``MuranoPlException`` is a MuranoPL-level exception
(thrown by ``Throw`` or converted from a Python exception inside a method).
"""

from __future__ import annotations


class MuranoError(Exception):
    """Base of every runtime error; ``type_name`` mirrors the reference engine's class name."""

    @property
    def type_name(self) -> str:
        return type(self).__name__

    @property
    def qualified_name(self) -> str:
        """The name a converted error has inside MuranoPL (``Catch With:`` matches it)."""
        return "murano.dsl.exceptions." + self.type_name


def _message(template: str):
    """Give an error class the reference's message, built from its constructor arguments."""
    def build(cls):
        def __init__(self, *values):
            MuranoError.__init__(self, template.format(*values))
        cls.__init__ = __init__
        return cls
    return build


class DslInvalidOperationError(MuranoError): pass
class MethodNotExposed(MuranoError): pass
class DslContractSyntaxError(MuranoError): pass
class ValueIsMissingError(MuranoError): pass
class DslSyntaxError(MuranoError): pass
class CircularExpressionDependenciesError(MuranoError): pass
class InvalidInheritanceError(MuranoError): pass
class PropertyAccessError(MuranoError): pass


@_message('Method "{0}" is not found')
class NoMethodFound(MuranoError): pass


@_message('Property "{0}" is not found')
class NoPropertyFound(MuranoError): pass


@_message('Package "{0}" is not found')
class NoPackageFound(MuranoError): pass


@_message('Package for class "{0}" is not found')
class NoPackageForClassFound(MuranoError): pass


class PackageFormatError(MuranoError): pass


class NoObjectFoundError(MuranoError):
    """``referenced_at``: the model paths whose value is the missing id, when a model load
    fails on it."""

    def __init__(self, object_id, referenced_at=()):
        where = f" (referenced at {', '.join(referenced_at)})" if referenced_at else ""
        super().__init__(f'Object "{object_id}" is not found in object store{where}')
        self.object_id = object_id


class ObjectIdInUse(MuranoError):
    """A model loaded into a Runtime that already holds an object of one of its ids: the
    reference's engine would keep that object's old values silently (within one deployment a
    loaded id is reused, its new values only checked); a redeployment starts from a fresh
    engine, which mplc offers as a new Runtime (or ``Runtime.new_executor()``)."""

    def __init__(self, object_id):
        super().__init__(f'Object "{object_id}" is already loaded in this Runtime: loading a model '
                         f"again would keep its old values; load the new model into a new Runtime "
                         f"(a redeployment starts from the serialized model)")
        self.object_id = object_id


@_message('Found more than one method "{0}"')
class AmbiguousMethodName(MuranoError): pass


@_message('Found more than one version of class "{0}"')
class AmbiguousClassName(MuranoError): pass


@_message('Found more than one property "{0}"')
class AmbiguousPropertyNameError(PropertyAccessError): pass


@_message('Property "{0}" is immutable to the caller')
class NoWriteAccessError(PropertyAccessError): pass


@_message('Property "{0}" in class "{1}" cannot be read')
class PropertyReadError(PropertyAccessError): pass


@_message('Property "{0}" in class "{1}" cannot be written')
class PropertyWriteError(PropertyAccessError): pass


@_message(
        'Access to uninitialized property "{0}" in class "{1}" is forbidden')
class UninitializedPropertyAccessError(PropertyAccessError): pass


@_message('Invalid assignment target "{0}"')
class InvalidLhsTargetError(MuranoError): pass


@_message("Object {0} is already destroyed")
class ObjectDestroyedError(MuranoError): pass


class NoClassFound(MuranoError):
    def __init__(self, name, packages=()):
        listed = ", ".join(f"{p.name}/{p.version}" for p in packages)
        super().__init__(f'Class "{name}" is not found in {listed}')


class ContractViolationException(MuranoError):
    """A value broke a contract. ``path`` locates it inside the value (``[0]``, ``['key']``):
    where the contract expression that refused it sits. None: a list or dict contract's own
    check refused it (a length, a constant, not a mapping), which the reference reports at the
    contract's root, however deep."""

    def __init__(self, message="", path=""):
        super().__init__(message)
        self.path = path


ContractViolation = ContractViolationException


class MuranoPlException(MuranoError):
    """A MuranoPL exception: ``names`` (first is the thrown type), message, extra, cause.

    ``extra`` is a Throw's Extra as written (any value; its expressions unevaluated), checked
    against io.murano.Exception's ``extra`` contract only when a Catch binds it with ``As``.

    ``stack_trace`` is a list of frames, innermost first, each a dict with ``instruction`` (the
    source text the reference shows, or None), ``file``, ``line``, ``column`` (None when
    unknown), ``method`` and ``class`` (None for Python frames).
    ``original`` is the Python exception this one was converted from, if any.
    """

    def __init__(self, names, message, stack_trace=(), extra=None, cause=None, original=None):
        names = list(names) if isinstance(names, (list, tuple)) else [names]
        super().__init__(f"[{', '.join(map(str, names))}]: {message}")
        self.names = names
        self.message = message
        self.stack_trace = list(stack_trace)
        self.extra = extra or {}
        self.cause = cause
        self.original = original

    @property
    def type_name(self) -> str:
        if self.original is not None:
            return getattr(self.original, "type_name", type(self.original).__name__)
        return str(self.names[0]) if self.names else "MuranoPlException"

    def format(self, prefix: str = "") -> str:
        """The reference's text: name and message, the frames outermost first, then the cause."""
        name = "" if not self.names else self.names[0] if len(self.names) == 1 else self.names
        frames = "\n".join(
            format_frame(frame["instruction"], frame["file"], frame["line"], frame["column"],
                         frame["method"], frame["class"], prefix + "  ")
            for frame in reversed(self.stack_trace))
        text = f"{prefix}{name}: {self.message}\n{prefix}Traceback (most recent call last):\n{frames}"
        if self.cause is not None:
            text += f"\n\n{prefix} Caused by " + self.cause.format(prefix + " ").lstrip()
        return text


def format_frame(instruction, file, line, column, method, type_name, prefix="") -> str:
    """One stack frame as the reference's StackTrace.toString writes it: the location and
    method, then the instruction on its own line."""
    if type_name:
        method = f"{method} of type {type_name}"
    if file is None:
        return f"{prefix}File <unknown> in method {method}\n{prefix}    {instruction}"
    column = "" if column is None else f":{column}"
    return f'{prefix}File "{file}", line {line}{column} in method {method}\n{prefix}    {instruction}'
