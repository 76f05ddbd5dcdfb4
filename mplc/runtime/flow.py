"""Runtime helpers behind MuranoPL statements: assignment targets, conditions, loops,
Parallel, Throw/Try/Catch, and MuranoPL stack traces built from Python tracebacks."""

from __future__ import annotations

import itertools
import linecache
import os
import re
import sys
import time

import greenlet
from yaql.language import exceptions as yaql_exceptions
from yaql.language import specs, utils, yaqltypes

from mplc.runtime import bridge, errors
from mplc.runtime.model import MuranoObject, MuranoType, TypeParameter, TypeReference

YAML_SUFFIXES = (".yaml", ".yml")


# --- stack traces --------------------------------------------------------------------------------

INSTRUCTIONS = "_INSTRUCTIONS"  # the instruction table of a class module (docs/compiled-modules.md)


def _live_frames(frame):
    """``frame`` and its callers; a Parallel branch continues with the frames of the green
    thread that runs the Parallel."""
    current = greenlet.getcurrent()
    while True:
        while frame is not None:
            yield frame
            frame = frame.f_back
        if type(current) is not _Branch:
            return
        current = current.parent
        frame = current.gr_frame


def running_frames():
    """Every frame of a running stack: the running green thread's (with the Parallels that
    started it) and each live Parallel branch's, suspended where it blocked."""
    yield from _live_frames(sys._getframe(1))
    for branch in list(_live_branches):
        frame = branch.gr_frame
        while frame is not None:
            yield frame
            frame = frame.f_back


def _position(code, instruction_offset):
    """(line, end_line, col_offset, end_col_offset) of the instruction at ``instruction_offset``."""
    if instruction_offset < 0:
        return None
    return next(itertools.islice(code.co_positions(), instruction_offset // 2, None), None)


def _instruction(frame, position):
    """The module's instruction table entry for a code position: the entry starting there, else
    the innermost one whose span holds it (CPython moves a multi-line method call's position)."""
    table = frame.f_globals.get(INSTRUCTIONS)
    if not table or position is None or position[0] is None or position[2] is None:
        return None
    point = (position[0], position[2])
    entry = table.get(point)
    if entry is None:
        holding = [(key, value) for key, value in table.items() if key <= point <= value[3:5]]
        if holding:
            entry = max(holding, key=lambda item: (item[0], (-item[1][3], -item[1][4])))[1]
    return entry


def _yaml_frame(frame, line, instruction_offset):
    """A MuranoPL frame for YAML code: the instruction the module's table gives for the running
    position (``resolved``), else that position itself with no instruction text."""
    code = frame.f_code
    position = _position(code, instruction_offset)
    entry = _instruction(frame, position)
    if entry is not None:
        text, line, column = entry[:3]
        return {"instruction": text, "file": None if text is None else code.co_filename,
                "line": line, "column": column, "method": None, "class": None}, True
    column = None if position is None or position[2] is None else position[2] + 1
    return {"instruction": None, "file": code.co_filename, "line": line, "column": column,
            "method": None, "class": None}, False


def _frames_outward(innermost_first):
    """MuranoPL frames, innermost first, one per running method as the reference's: the
    instruction the method runs (the innermost frame of its code that the instruction table
    knows, else its innermost YAML code location)."""
    from mplc.runtime.executor import run_body
    result = []
    pending = None
    resolved = False
    for frame, line, instruction_offset in innermost_first:
        code = frame.f_code
        if code is run_body.__code__:
            method = frame.f_locals.get("method")
            if pending is not None:
                pending["method"] = method.name
                pending["class"] = method.declaring_type.name
                result.append(pending)
            pending = None
            resolved = False
        elif not resolved and code.co_filename.endswith(YAML_SUFFIXES):
            candidate, resolved = _yaml_frame(frame, line, instruction_offset)
            if resolved or pending is None:
                pending = candidate
    return result if pending is None else result + [pending]


def _native_frames(innermost_first):
    """The Python frames of a Python error inside the innermost method, innermost first, as
    the reference lists them after its MuranoPL frames (file, line, function, source line)."""
    from mplc.runtime.executor import run_body
    result = []
    for frame, line, _ in innermost_first:
        code = frame.f_code
        if code is run_body.__code__:
            break
        if not code.co_filename.endswith(YAML_SUFFIXES):
            result.append({"instruction": linecache.getline(code.co_filename, line).strip(),
                           "file": os.path.abspath(code.co_filename), "line": line, "column": None,
                           "method": code.co_name, "class": None})
    return result


def current_stack(skip=1, traceback=None):
    """The MuranoPL stack, innermost first: the frames of ``traceback`` (a Python error's:
    its Python frames come first, as the reference's native frames), then the live stack; a
    live frame the error passed through (the body whose Catch converts it) is where it was
    when the error passed."""
    live = [(frame, frame.f_lineno, frame.f_lasti) for frame in _live_frames(sys._getframe(skip + 1))]
    if traceback is None:
        return _frames_outward(live)
    on_stack = {id(frame) for frame, _, _ in live}
    inner = []
    passed = {}
    while traceback is not None:
        entry = (traceback.tb_frame, traceback.tb_lineno, traceback.tb_lasti)
        if id(traceback.tb_frame) in on_stack:
            passed[id(traceback.tb_frame)] = entry
        else:
            inner.append(entry)
        traceback = traceback.tb_next
    inner.reverse()
    live = [passed.get(id(entry[0]), entry) for entry in live]
    return _native_frames(inner) + _frames_outward(inner + live)


def to_murano_exception(error, traceback=None):
    """A MuranoPL exception for any error raised by code of a method (a yaql-wrapped error is
    unwrapped, as a yaql statement does)."""
    if isinstance(error, errors.MuranoPlException):
        return error
    if isinstance(error, yaql_exceptions.WrappedException):
        error = error.wrapped
    if isinstance(error, errors.MuranoError):
        names = [error.qualified_name]
    elif type(error).__module__ == "builtins":
        names = [type(error).__name__]
    else:
        names = [f"{type(error).__module__}.{type(error).__name__}"]
    return errors.MuranoPlException(names, str(error), current_stack(1, traceback), original=error)


# --- statements ----------------------------------------------------------------------------------

def condition(value) -> bool:
    """If/While/Switch test: the reference uses Python truth of the (finalized) value."""
    return bool(value)


def iterate(value):
    if value is None:
        raise TypeError("'NoneType' object is not iterable")
    return value


def repeat_count(value) -> int:
    return value


def match_equals(left, right) -> bool:
    return left == right


class Target:
    """An assignment target: a root (variable, or any expression) and attribute/index steps."""

    __slots__ = ("root", "steps", "source")

    def __init__(self, root, steps, source=""):
        self.root = root
        self.steps = tuple(steps)
        self.source = source


def target(root, steps, source=""):
    return Target(root, steps, source)


def _variable_name(root):
    from yaql.language import expressions
    function = getattr(root, "function", None)
    name = getattr(function, "mplc_variable", None)
    if name is None and isinstance(root, expressions.GetContextValue):
        name = root.path.value
    return name


def variable(name: str):
    """The root of a target that is a plain variable ``$name``."""
    def read(receiver, context, engine):
        return context[name]
    read.mplc_variable = name
    return bridge.lazy(read)


def _set_variable(context, name, value, source):
    if not name or name in ("$", "$this"):
        raise errors.InvalidLhsTargetError(source or name)
    scope = context
    while scope is not None and not scope.get_data(bridge.VARIABLE_SCOPE, False, False):
        scope = scope.parent
    (scope or context)[name] = value


def _get_attribute(source, key, context):
    if isinstance(source, utils.MappingType):
        return source.get(key, {})
    if isinstance(source, MuranoObject):
        try:
            return source.get_property(key, context)
        except errors.UninitializedPropertyAccessError:
            return {}
    if isinstance(source, (TypeReference, MuranoType)):
        murano_type = source.type if isinstance(source, TypeReference) else source
        return murano_type.executor.get_static_property(murano_type, key, context)
    raise ValueError("attribution may only be applied to objects and dictionaries")


def _set_attribute(source, key, value, context):
    """The new value of ``source`` after ``source.key = value`` (None when set in place)."""
    if isinstance(source, utils.MappingType):
        return utils.FrozenDict(list(source.items()) + [(key, value)])
    if isinstance(source, MuranoObject):
        source.set_property(key, value, context)
        return None
    if isinstance(source, (TypeReference, MuranoType)):
        murano_type = source.type if isinstance(source, TypeReference) else source
        murano_type.executor.set_static_property(murano_type, key, value, context)
        return None
    raise ValueError("attribution may only be applied to objects and dictionaries")


def assign(context, destination: Target, value):
    """Store ``value`` at ``destination`` as the reference's LHS expressions do: dictionaries and
    lists are rebuilt (frozen) and stored back; objects and static properties are set in place."""
    try:
        _assign(context, destination, value)
    except errors.MuranoPlException:
        raise
    except Exception as error:
        raise to_murano_exception(error, sys.exc_info()[2]) from None


def _assign(context, destination, value):
    engine = context[bridge.ENGINE]
    name = _variable_name(destination.root)
    if name is None:
        base = _target_root(destination, context, engine)
    if not destination.steps:
        _set_variable(context, name, value, destination.source)
        return
    chain = [context[name] if name is not None else base]
    keys = []
    for kind, argument in destination.steps:
        key = argument if kind == "attr" else argument(utils.NO_VALUE, context, engine)
        keys.append((kind, key))
    for kind, key in keys[:-1]:
        chain.append(_step_get(chain[-1], kind, key, context))
    for (kind, key), source in zip(reversed(keys), reversed(chain)):
        value = _step_set(source, kind, key, value, context)
        if value is None:
            return
    if name is None:
        raise errors.InvalidLhsTargetError(destination.source)
    _set_variable(context, name, value, destination.source)


class _Slot:
    """A value reached in an assignment target, as the reference's target evaluation sees it."""

    __slots__ = ("read", "is_type")

    def __init__(self, read, is_type=False):
        self.read = read
        self.is_type = is_type


ROOT_CONTEXT = "#root_context"


@specs.parameter("name", yaqltypes.StringConstant())
@specs.name("#get_context_data")
def _target_variable(context, name):
    return _Slot(lambda: context[ROOT_CONTEXT][name])


@specs.parameter("slot", _Slot)
@specs.parameter("key", yaqltypes.Keyword())
@specs.name("#operator_.")
def _target_attribute(context, slot, key):
    return _Slot(lambda: _get_attribute(slot.read(), key, context[ROOT_CONTEXT]))


@specs.parameter("slot", _Slot)
@specs.parameter("index", yaqltypes.Lambda(with_context=True))
@specs.name("#indexer")
def _target_index(context, slot, index):
    key = index(context[ROOT_CONTEXT])
    return _Slot(lambda: _step_get(slot.read(), "index", key, context[ROOT_CONTEXT]))


@specs.parameter("prefix", yaqltypes.Keyword())
@specs.parameter("name", yaqltypes.Keyword())
@specs.name("#operator_:")
def _target_namespaced_type(context, prefix, name):
    scope = context[bridge.NAMES_SCOPE]
    reference = scope.executor.find_class(f"{prefix}:{name}", scope).reference
    return _Slot(lambda: reference, is_type=True)


@specs.parameter("name", yaqltypes.Keyword())
@specs.name("#unary_operator_:")
def _target_own_namespace_type(context, name):
    return _target_namespaced_type(context, "", name)


@specs.parameter("object_", MuranoObject)
@specs.name("type")
def _target_type_of(object_):
    reference = object_.real_this.type.reference
    return _Slot(lambda: reference, is_type=True)


@specs.parameter("cls", TypeParameter())
@specs.name("type")
def _target_type_named(cls):
    return _Slot(lambda: cls, is_type=True)


_TARGET_FUNCTIONS = (_target_variable, _target_attribute, _target_index, _target_namespaced_type,
                     _target_own_namespace_type, _target_type_of, _target_type_named)
_target_context = None


def _target_root(destination, context, engine):
    """The object or type an assignment target not starting at a variable writes into.

    The root is evaluated as the reference evaluates targets: only variables, ``.``, indexing,
    ``ns:Name`` and ``type()`` exist, and each yields a slot rather than a value (so
    ``type($this)`` finds no matching ``type``); a ``ns:Name`` resolved at compile time is the
    type itself."""
    global _target_context
    if _target_context is None:
        _target_context = bridge.empty_context()
        for function in _TARGET_FUNCTIONS:
            _target_context.register_function(function)
    target_context = _target_context.create_child_context()
    target_context[ROOT_CONTEXT] = context
    target_context[bridge.NAMES_SCOPE] = context[bridge.NAMES_SCOPE]
    root = destination.root(utils.NO_VALUE, target_context, engine)
    if isinstance(root, _Slot):
        root = root.read()
    elif not isinstance(root, TypeReference):
        raise errors.InvalidLhsTargetError(destination.source)
    if not destination.steps:
        raise errors.InvalidLhsTargetError(destination.source)
    return root


def _step_get(source, kind, key, context):
    """An int index (a bool is one, as for the reference) reads a list item, else fails."""
    if kind == "index" and isinstance(key, int):
        if utils.is_sequence(source):
            return source[key]
        raise ValueError("indexation may only be applied to lists")
    return _get_attribute(source, key, context)


def _step_set(source, kind, key, value, context):
    """An int index into anything but a list or dictionary (null, a number, a string) is
    silently ignored, as by the reference's target setter (None: nothing to store back)."""
    if kind == "index" and isinstance(key, int):
        if utils.is_sequence(source):
            source = tuple(source)
            return source[:key] + (value,) + source[key + 1:]
        if not isinstance(source, utils.MappingType):
            return None
    return _set_attribute(source, key, value, context)


# --- Parallel ------------------------------------------------------------------------------------

class _Branch(greenlet.greenlet):
    """A green thread of a Parallel: it runs until it blocks (``sleep``, a held lock), then
    switches back to the Parallel that started it. ``wake_at``: when it may run again (ready
    branches run earliest first, as the reference's event loop runs what it scheduled)."""

    wake_at = 0.0


class ParallelReturn(BaseException):
    """A ``Return`` inside a Parallel branch. It ends the branch, and once every branch has
    ended the method returns its value, as in the reference (where Return is a control-flow
    exception no Catch takes, hence BaseException)."""

    def __init__(self, value):
        super().__init__()
        self.value = value


def parallel(context, branches, limit=None):
    """Run branch functions ``branch(context)`` as green threads, at most ``limit`` at a time.

    Branches interleave only where one blocks. When every branch waits for a timer, the
    Parallel itself sleeps until the earliest one (yielding to an enclosing Parallel, if any).
    The first failure (in branch order) is re-raised after all branches ended. Started in a
    branch, it lets the other ready branches take two turns before its own branches start (the
    reference's pool spawns a green thread that spawns the branches, each behind those already
    scheduled), so an empty one resumes there, and one more turn after its branches end (the
    wake-up of the waiting branch). A nested Parallel also yields after each round of its
    branches, so green threads of all levels take turns as in the reference's single run queue."""
    branches = list(branches)
    in_branch = isinstance(greenlet.getcurrent(), _Branch)
    if in_branch:
        sleep(0)
        sleep(0)
    if not branches:
        return None
    global _running_parallels
    _running_parallels += 1
    try:
        results = _run_branches(context, branches, limit)
    finally:
        _running_parallels -= 1
    if in_branch:
        sleep(0)
    return results


def _run_branches(context, branches, limit):
    """The rounds of a Parallel, as the reference's event loop runs its green threads: every
    ready branch runs once per round, in the order it was scheduled (``wake_at``).

    Branches queued behind ``limit`` are started by the pool's spawner, as in the reference: a
    branch ending frees a slot and schedules the spawner's wake-up then, so in the next round
    the spawner runs at that point (after the branches scheduled before it) and starts as many
    queued branches as there are free slots, each scheduled then, to run from the round after."""
    limit = len(branches) if limit is None else max(int(limit), 1)
    results = [None] * len(branches)
    failures = [None] * len(branches)
    hub = greenlet.getcurrent()
    nested = isinstance(hub, _Branch)
    queue = list(enumerate(branches))
    running = []

    def start(index, branch, wake_at):
        def run():
            try:
                results[index] = branch(context.create_child_context())
            except BaseException as error:  # noqa: BLE001 - re-raised in the parent
                failures[index] = error
        worker = _Branch(run, parent=hub)
        worker.wake_at = wake_at
        running.append(worker)
        _live_branches.add(worker)

    def spawn():
        wake_at = time.monotonic()
        while queue and len(running) < limit:
            start(*queue.pop(0), wake_at)

    try:
        while queue and len(running) < limit:
            start(*queue.pop(0), 0.0)
        spawner_wakes = None  # when a slot freed last round, if the spawner waits for one
        while queue or running:
            now = time.monotonic()
            ready = sorted((worker for worker in running if worker.wake_at <= now),
                           key=lambda worker: worker.wake_at)
            spawner_runs, spawner_wakes = spawner_wakes, None
            for worker in ready:
                if spawner_runs is not None and worker.wake_at > spawner_runs:
                    spawn()
                    spawner_runs = None
                worker.switch()
                if worker.dead:
                    running.remove(worker)
                    _live_branches.discard(worker)
                    if queue and spawner_wakes is None:
                        spawner_wakes = time.monotonic()
            if spawner_runs is not None:
                spawn()
            if not ready and spawner_wakes is None and running:
                sleep(min(worker.wake_at for worker in running) - now)
            elif nested and running:
                sleep(0)
    finally:
        _live_branches.difference_update(running)
    for failure in failures:
        if failure is not None:
            raise failure
    return results


_FOREVER = float("inf")


_running_parallels = 0
_live_branches: set = set()  # the green threads of running Parallels (running_frames)


def branches_running() -> bool:
    """Whether any Parallel is running (cheaper than asking which green thread runs)."""
    return _running_parallels > 0


def in_parallel_branch() -> bool:
    """Whether the running code is a Parallel branch (calls there take the reference's
    per-object method locks; elsewhere nothing can contend for them)."""
    return type(greenlet.getcurrent()) is _Branch


def sleep(seconds):
    """Wait ``seconds``: inside a Parallel branch the other branches run meanwhile."""
    seconds = max(float(seconds or 0), 0.0)
    current = greenlet.getcurrent()
    if isinstance(current, _Branch):
        current.wake_at = time.monotonic() + seconds
        current.parent.switch()
    elif seconds == _FOREVER:
        raise errors.DslInvalidOperationError("Deadlock: every green thread waits for a lock")
    else:
        time.sleep(seconds)


class GreenLock:
    """A re-entrant lock of green threads (Synchronize): a waiting branch blocks until the
    holder releases it. ``users`` counts the holder's entries and the branches waiting, so
    the lock can be forgotten once nobody uses it."""

    def __init__(self):
        self.holder = None
        self.depth = 0
        self.waiting = []
        self.users = 0

    def __enter__(self):
        current = greenlet.getcurrent()
        self.users += 1
        try:
            while self.holder is not None and self.holder is not current:
                self.waiting.append(current)
                sleep(_FOREVER)
        except BaseException:
            self.users -= 1
            raise
        self.holder = current
        self.depth += 1
        return self

    def __exit__(self, *exc_info):
        self.users -= 1
        self.depth -= 1
        if not self.depth:
            self.holder = None
            now = time.monotonic()
            for waiter in self.waiting:
                _wake(waiter, now)
            self.waiting.clear()


def _wake(branch, when):
    """Make a waiting branch ready at ``when``, and the branches running the Parallels it is
    nested in: a Parallel whose branches all waited put its own branch to sleep for good, so
    its parent would never switch back to it."""
    while isinstance(branch, _Branch) and branch.wake_at > when:
        branch.wake_at = when
        branch = branch.parent


# --- Throw / Catch -------------------------------------------------------------------------------

def throw(context, names, message=None, extra=None, cause=None):
    """The exception a ``Throw`` raises; ``cause`` is an exception object from ``As``."""
    if isinstance(names, str):
        names = [names]
    scope = context[bridge.TYPE]
    executor = scope.executor if scope is not None else None
    names = [_exception_name_text(name) for name in names]
    resolved = [executor.resolve_name(n, scope) if executor else n for n in names]
    native_cause = None
    if isinstance(cause, MuranoObject):
        native_cause = cause.real_this.properties.get("nativeException")
    elif isinstance(cause, errors.MuranoPlException):
        native_cause = cause
    return errors.MuranoPlException(resolved, message, current_stack(), dict(extra or {}), native_cause)


_TYPE_NAME = re.compile(r"^([a-zA-Z_]\w*:|:)?[a-zA-Z_]\w*(\.[a-zA-Z_]\w*)*$")


def _exception_name_text(name) -> str:
    """A Throw name as the reference reads an evaluated one: a class (an unquoted ``ns:Name``
    that exists) stands as its repr, which is no valid name, like any other non-name text."""
    if isinstance(name, TypeReference):
        name = f"*MuranoClass({name.type.name}/{name.type.version})"
    name = str(name)
    if not _TYPE_NAME.match(name):
        raise ValueError(f'Invalid type name "{name}"')
    return name


def catch_matches(exception, names, context) -> bool:
    """Does a ``Catch`` with ``With: names`` (empty: any) take this exception? Names match
    exactly, as in the reference; the matched name is what ``As`` reports."""
    original = exception
    if not isinstance(exception, errors.MuranoPlException):
        exception = to_murano_exception(exception, exception.__traceback__)
    scope = context[bridge.TYPE]
    wanted = None if not names else {scope.executor.resolve_name(str(n), scope) if scope else str(n)
                                     for n in names}
    for name in exception.names:
        if wanted is None or name in wanted:
            original.mplc_caught = (exception, name)
            return True
    return False



def misplaced(kind: str) -> Exception:
    """The error the reference raises for Break/Continue at method level or a stray Rethrow."""
    if kind == "Rethrow":
        return TypeError("Rethrow must be inside Catch")
    return errors.DslInvalidOperationError(f"{kind} cannot be used on method level")


_FAILURES = {
    "ValueError": ValueError, "TypeError": TypeError, "KeyError": KeyError,
    "SyntaxError": SyntaxError, "DslSyntaxError": errors.DslSyntaxError,
    "DslContractSyntaxError": errors.DslContractSyntaxError,
    "DslInvalidOperationError": errors.DslInvalidOperationError,
    "InvalidLhsTargetError": errors.InvalidLhsTargetError,
    "NoFunctionRegisteredException": yaql_exceptions.NoFunctionRegisteredException,
    "NoMatchingFunctionException": yaql_exceptions.NoMatchingFunctionException,
}


def failure(error: str, detail: str | None) -> Exception:
    """The error of a statement that always fails when it runs (``ir.Fail``): the reference's
    exception class ``error``, built from the same constructor argument."""
    exception_class = _FAILURES[error]
    return exception_class() if detail is None else exception_class(detail)


def stack_frames(stack_trace):
    """The ``frames`` of an io.murano.StackTrace, outermost first, as the reference's: the
    instruction text, its location (file, line, column; null when unknown), method and class."""
    return tuple(
        utils.FrozenDict({
            "instruction": frame["instruction"],
            "location": None if frame["file"] is None else utils.FrozenDict(
                {"file": frame["file"], "line": frame["line"], "column": frame["column"]}),
            "methodName": frame["method"], "typeName": frame["class"]})
        for frame in reversed(stack_trace))


def stack_trace_object(executor, stack_trace, owner):
    """An io.murano.StackTrace holding the frames of ``stack_trace`` (innermost first)."""
    obj = executor.load_object({executor.find_class("io.murano.StackTrace").reference: {}}, owner)
    obj.real_this.properties["frames"] = stack_frames(stack_trace)
    return obj


def exception_value(exception):
    """The io.murano.Exception object ``As`` binds: name, message, stackTrace, extra."""
    from mplc.runtime.executor import Executor
    executor = Executor.current()
    exception, name = getattr(exception, "mplc_caught", (exception, None))
    if not isinstance(exception, errors.MuranoPlException):
        exception = to_murano_exception(exception, exception.__traceback__)
    name = name or (exception.names[0] if exception.names else None)
    obj = executor.load_object({executor.find_class("io.murano.Exception").reference: {}}, None)
    values = {"name": name, "message": exception.message,
              "stackTrace": stack_trace_object(executor, exception.stack_trace, obj),
              "extra": utils.FrozenDict(exception.extra), "nativeException": exception}
    part = obj.real_this
    for key, value in values.items():
        part.properties[key] = value
    return obj
