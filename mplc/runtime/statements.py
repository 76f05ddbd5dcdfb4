"""Runtime helpers behind MuranoPL statements: assignment targets, conditions, loops,
Parallel, Throw/Try/Catch, and MuranoPL stack traces built from Python tracebacks."""

from __future__ import annotations

import collections
import contextvars
import heapq
import itertools
import linecache
import os
import sys
import time

import greenlet
from yaql.language import exceptions as yaql_exceptions
from yaql.language import expressions as yaql_expressions
from yaql.language import specs, utils, yaqltypes

from mplc.runtime import expressions, errors, limits
from mplc.runtime.activation import current_executor, running_executor
from mplc.runtime.yaql_adapter import context_data, frozen_dict_items, own_data, set_in_place
from mplc.runtime.objects import MuranoObject, MuranoType, TypeParameter, TypeReference
from mplc.versioning import TYPE_NAME

YAML_SUFFIXES = (".yaml", ".yml")


# --- stack traces --------------------------------------------------------------------------------

_CURRENT_METHOD_KEY = expressions.stored_key(expressions.CURRENT_METHOD)
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
        current = current.owner
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


def method_bodies() -> dict:
    """The running executor's record of its method bodies: code -> the locals holding variables
    (``MethodSpec.body`` and ``local_variables``, registered as its types are built)."""
    executor = running_executor()
    return {} if executor is None else executor.method_bodies


def running_method(frame, bodies):
    """The method whose body ``frame`` runs (a body of ``bodies``, ``method_bodies()``), once
    the body holds its call context or, taken the direct way in, its variables (after checking
    its arguments), else None."""
    if frame.f_code not in bodies:
        return None
    context = frame.f_locals.get("context")
    if type(context) is dict:
        return context_data(context[expressions.METHOD_CONTEXT_KEY])[_CURRENT_METHOD_KEY]
    if type(context) not in expressions.CALL_CONTEXTS:
        return None
    return expressions.lookup(context, _CURRENT_METHOD_KEY)


def running_bodies(executor):
    """The method bodies ``executor`` is running, as (call context, values of the variables
    kept as Python locals, ``MethodSpec.local_variables``): those of the method frames on the
    running green thread's stack and on every live Parallel branch's (the garbage collector's
    roots; found when it runs, so calls register nothing). A body waiting for its Parallel's
    branches has no such values: its branches write its variables through the context, and its
    locals, read back when the Parallel ends, are stale until then."""
    callee = None
    bodies = executor.method_bodies
    for frame in running_frames():
        method = running_method(frame, bodies)
        if method is not None and method.declaring_type.executor is executor:
            frame_locals = frame.f_locals
            in_parallel = callee is not None and callee.f_code is parallel.__code__
            yield (expressions.as_context(frame_locals["context"]),
                   [] if in_parallel else
                   [frame_locals[name] for name in bodies[frame.f_code] if name in frame_locals])
        callee = frame

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


def _yaml_frame(frame, line, instruction_offset, python_error=False):
    """A MuranoPL frame for YAML code: the instruction the module's table gives for the running
    position (``resolved``; for a Python error raised there, the entry's own instruction for
    one), else that position itself with no instruction text."""
    code = frame.f_code
    position = _position(code, instruction_offset)
    entry = _instruction(frame, position)
    if entry is not None:
        text, line, column = entry[5:8] if python_error and len(entry) > 5 else entry[:3]
        return {"instruction": text, "file": None if text is None else code.co_filename,
                "line": line, "column": column, "method": None, "class": None}, True
    column = None if position is None or position[2] is None else position[2] + 1
    return {"instruction": None, "file": code.co_filename, "line": line, "column": column,
            "method": None, "class": None}, False


def _frames_outward(innermost_first, python_error=False):
    """MuranoPL frames, innermost first, one per running method as the reference's: the
    instruction the method runs (the innermost frame of its code that the instruction table
    knows, else its innermost YAML code location). A body still checking the arguments it was
    given directly is no frame yet. ``python_error``: the stack of a Python error, which the
    innermost method raised (a MuranoPL exception was converted in the method it came from)."""
    bodies = method_bodies()
    result = []
    pending = None
    resolved = False
    for frame, line, instruction_offset in innermost_first:
        code = frame.f_code
        if code is _DEFERRED_EVALUATION:
            # the reference shows the statement that read a Throw's Extra, not its expressions
            pending = None
            resolved = False
            continue
        if code is _DETACHED_CALL:
            break
        method = running_method(frame, bodies)
        if method is None and code in bodies:
            continue
        if not resolved and code.co_filename.endswith(YAML_SUFFIXES):
            candidate, resolved = _yaml_frame(frame, line, instruction_offset, python_error)
            if resolved or pending is None:
                pending = candidate
        if method is not None:
            if pending is not None:
                pending["method"] = method.name
                pending["class"] = method.declaring_type.name
                result.append(pending)
            pending = None
            resolved = False
            python_error = False
    else:
        return result if pending is None else result + [pending]
    return (result if pending is None else result + [pending]) + [{
        "instruction": None, "file": None, "line": None, "column": None, "method": None, "class": None}]


def detached_call(function, *args):
    """``function(*args)``, code the reference runs in a context cut from its callers' (the
    ``.init`` of an object a model, a Default or a class() contract loads): its stack trace
    ends, outside it, with one frame of no method."""
    return function(*args)


_DETACHED_CALL = detached_call.__code__


def _native_frames(innermost_first):
    """The Python frames of a Python error inside the innermost method, innermost first, as
    the reference lists them after its MuranoPL frames (file, line, function, source line)."""
    bodies = method_bodies()
    result = []
    for frame, line, _ in innermost_first:
        code = frame.f_code
        if running_method(frame, bodies) is not None:
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
    return _native_frames(inner) + _frames_outward(inner + live, python_error=True)


def _through_frozen_module(traceback) -> bool:
    """Did a Python error pass through a frozen module's frame inside the innermost method?"""
    if traceback is None:
        return False
    bodies = method_bodies()
    frames = []
    while traceback is not None:
        frames.append(traceback.tb_frame)
        traceback = traceback.tb_next
    for frame in reversed(frames):
        if running_method(frame, bodies) is not None:
            return False
        if frame.f_code.co_filename.startswith("<frozen "):
            return True
    return False


def to_murano_exception(error, traceback=None):
    """A MuranoPL exception for any error raised by code of a method (a yaql-wrapped error is
    unwrapped, as a yaql statement does)."""
    if isinstance(error, errors.MuranoPlException):
        return error
    if isinstance(error, yaql_exceptions.WrappedException):
        error = error.wrapped
    if not isinstance(error, errors.MuranoError) and _through_frozen_module(traceback):
        # the reference's StackTrace reads each native frame's source line, which a frozen
        # module (the Mapping ABC's ``in``/``get`` on a FrozenDict) has none of: building the
        # trace fails, and that TypeError is what the MuranoPL code sees
        error = TypeError("'NoneType' object is not subscriptable")
    if isinstance(error, errors.MuranoError):
        names = [error.qualified_name]
    elif type(error).__module__ == "builtins":
        names = [type(error).__name__]
    else:
        names = [f"{type(error).__module__}.{type(error).__name__}"]
    return errors.MuranoPlException(names, str(error), current_stack(1, traceback), original=error)


_ENGINE, _NO_VALUE, _SCALARS = expressions.ENGINE, expressions.NO_VALUE, expressions.SCALARS
_finalize = expressions.finalize


def evaluate(function, context, engine=None):
    """Evaluate a whole expression with yaql's statement semantics (``#finalize``, unwrapping).

    Python exceptions become MuranoPL exceptions here, as the reference converts them per
    statement, so a MuranoPL ``Try`` in the same method can catch them.
    """
    if engine is None:
        engine = context[_ENGINE]
    try:
        value = function(_NO_VALUE, context, engine)
        return value if type(value) in _SCALARS else _finalize(value)
    except yaql_exceptions.WrappedException as wrapped:
        error = wrapped.wrapped
        raise to_murano_exception(error, wrapped.__traceback__) from None
    except Exception as error:
        raise to_murano_exception(error, sys.exc_info()[2]) from None


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
    function = getattr(root, "function", None)
    name = getattr(function, "mplc_variable", None)
    if name is None and isinstance(root, yaql_expressions.GetContextValue):
        name = root.path.value
    return name


def variable(name: str):
    """The root of a target that is a plain variable ``$name``."""
    def read(receiver, context, engine):
        return context[name]
    read.mplc_variable = name
    return expressions.lazy(read)


def _set_variable(context, name, value, source):
    if not name or name in ("$", "$this"):
        raise errors.InvalidLhsTargetError(source or name)
    scope = context
    while scope is not None and type(scope) not in expressions.CALL_CONTEXTS:
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


def _set_in_place(context, name, key, value) -> bool:
    """``$d[key]: value`` / ``$d.key: value`` as a store into the dictionary itself when nothing
    but the variable refers to it (nobody can see the difference): building a dictionary key
    by key is then linear, not quadratic (the reference copies it each time). An int key on a
    dictionary is a key like any other, as in ``_step_set``."""
    scope = context
    while scope is not None and type(scope) not in expressions.CALL_CONTEXTS:
        scope = scope.parent
    data = own_data(scope or context)
    stored_name = name if name.startswith("$") else "$" + name
    if type(data) is not dict or type(data.get(stored_name)) is not utils.FrozenDict \
            or context[name] is not data[stored_name]:  # shadowed in an inner scope
        return False
    if _references(data, stored_name) > _SOLE_REFERENCES:
        return False
    mapping = data[stored_name]
    if type(frozen_dict_items(mapping)) is not dict or _inner_references(mapping) > _SOLE_INNER_REFERENCES:
        return False
    try:
        set_in_place(mapping, key, value)
    except TypeError:  # an unhashable key: the usual path reports it
        return False
    return True


def _references(data, key) -> int:
    """How many references the value under ``key`` has, seen from here; compared with what a
    value only ``data`` holds has (``_SOLE_REFERENCES``, measured the same way at import)."""
    value = data[key]
    return sys.getrefcount(value)


def _inner_references(mapping) -> int:
    inner = frozen_dict_items(mapping)
    return sys.getrefcount(inner)


_SOLE_REFERENCES = _references({"$probe": utils.FrozenDict()}, "$probe")
_SOLE_INNER_REFERENCES = _inner_references(utils.FrozenDict())


def _set_attribute(source, key, value, context):
    """The new value of ``source`` after ``source.key = value`` (None when set in place)."""
    if isinstance(source, utils.MappingType):
        items = dict(frozen_dict_items(source) if type(source) is utils.FrozenDict else source.items())
        items[key] = value
        return utils.FrozenDict(items)
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
    engine = context[expressions.ENGINE]
    name = _variable_name(destination.root)
    if name is None:
        base = _target_root(destination, context, engine)
    if not destination.steps:
        _set_variable(context, name, value, destination.source)
        return
    if len(destination.steps) == 1 and name and name not in ("$", "$this"):
        kind, argument = destination.steps[0]
        key = argument if kind == "attr" else argument(utils.NO_VALUE, context, engine)
        if _set_in_place(context, name, key, value):
            return
        destination = Target(destination.root, ((kind, lambda *_: key),), destination.source) \
            if kind == "index" else destination
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
    scope = context[expressions.NAMES_SCOPE]
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
        _target_context = expressions.empty_context()
        for function in _TARGET_FUNCTIONS:
            _target_context.register_function(function)
    target_context = _target_context.create_child_context()
    target_context[ROOT_CONTEXT] = context
    target_context[expressions.NAMES_SCOPE] = context[expressions.NAMES_SCOPE]
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
#
# The reference runs Parallel branches as eventlet green threads, and its event loop decides
# which one runs when. Branches interleave only where one blocks, so the order of everything a
# program traces depends on that loop; this is a model of it, exact for programs without timed
# sleeps. The loop runs callbacks ("timers") in the order of when they were scheduled (sleep(0)
# and starting a green thread schedule one for now); a timer scheduled while the loop fires
# timers runs in its next turn. A Parallel (and pselect) runs its branches as the reference's
# ``GreenPool.imap``: a spawner green thread starts each branch when the pool has a free slot
# and hands it to a queue the Parallel's thread takes the branches from, in order, waiting for
# each to end; the queue and the wake-ups between these threads are scheduled as eventlet's.

SELECT_POOL_SIZE = 1000  # the pool of the reference's pselect and psuper (parallel_select)

_timers: list = []     # heap of (when, order, callback) the loop fires in this turn or later
_scheduled: list = []  # timers scheduled during this turn: they join the heap at the next one
_order = itertools.count()
_hub = None            # the greenlet running the loop; its parent is the thread outside Parallels


def _schedule(callback, seconds=0.0):
    _scheduled.append((time.monotonic() + seconds, next(_order), callback))


def _loop():
    """The event loop: each turn fires the timers due when it starts, then sleeps until the
    next one is due. Nothing left to fire while threads wait is a deadlock, raised in the thread
    outside every Parallel."""
    while True:
        for timer in _scheduled:
            heapq.heappush(_timers, timer)
        _scheduled.clear()
        if not _timers:
            raise errors.DslInvalidOperationError("Deadlock: every green thread waits for a lock")
        now = time.monotonic()
        while _timers and _timers[0][0] <= now:
            heapq.heappop(_timers)[2]()
        if _timers and not _scheduled:
            delay = _timers[0][0] - time.monotonic()
            if delay > 0:
                limits.sleep(delay)


def _loop_greenlet():
    """The loop's greenlet; a thread outside Parallels starts a new one unless it runs it."""
    global _hub
    current = greenlet.getcurrent()
    if not isinstance(current, _Thread) and (_hub is None or _hub.dead or _hub.parent is not current):
        _timers.clear()
        _scheduled.clear()
        _hub = greenlet.greenlet(_loop, parent=current)
    return _hub


def _suspend():
    """Block the running thread until a timer switches back to it (the value it passes)."""
    return _loop_greenlet().switch()


def _switcher(thread):
    """A timer resuming ``thread`` if it still waits where it waited (``thread.waits_on``)."""
    def resume():
        if thread.waits_on is not None:
            thread.waits_on = None
            thread.switch()
    return resume


class _Thread(greenlet.greenlet):
    """A green thread the loop runs (a Parallel's spawner, or a branch). ``waits_on``: what it
    waits for, while a timer may wake it. It runs in a copy of the context that made it, so it
    sees the executor that runs its Parallel (``activation``)."""

    waits_on = None

    def __init__(self, run, parent):
        super().__init__(run, parent)
        self.gr_context = contextvars.copy_context()


class _Branch(_Thread):
    """A branch of a Parallel; ``owner`` is the thread running that Parallel (its frames
    continue the branch's stack)."""

    owner = None


class _Ending:
    """The end of a green thread of a pool (eventlet's GreenThread exit event): whoever waits
    for it is woken by a timer scheduled when it ends."""

    __slots__ = ("ended", "waiter")

    def __init__(self):
        self.ended = False
        self.waiter = None

    def end(self):
        self.ended = True
        if self.waiter is not None:
            _schedule(_switcher(self.waiter))

    def wait(self):
        if not self.ended:
            self.waiter = current = greenlet.getcurrent()
            current.waits_on = self
            try:
                _suspend()
            finally:
                self.waiter = current.waits_on = None


class _Pool:
    """The pool and result queue of the reference's ``GreenPool.imap``: ``size`` slots (a
    semaphore only the spawner waits on) and a queue of at most ``size`` started green threads
    the Parallel's thread takes in order (it waits as the getter, the spawner as the putter)."""

    def __init__(self, size):
        self.size = size
        self.free = size
        self.spawner_waits = None
        self.started = collections.deque()
        self.getter = None
        self.putter = None  # (thread, item) while the spawner waits to queue an item
        self.unlock_scheduled = False

    def acquire(self):
        if self.free <= 0 or self.spawner_waits is not None:
            self.spawner_waits = current = greenlet.getcurrent()
            try:
                while True:
                    current.waits_on = self
                    _suspend()
                    if self.free > 0:
                        break
            finally:
                self.spawner_waits = None
        self.free -= 1

    def release(self):
        self.free += 1
        if self.spawner_waits is not None:
            _schedule(self._wake_spawner)

    def _wake_spawner(self):
        spawner = self.spawner_waits
        if spawner is not None and self.free > 0:
            self.spawner_waits = None
            spawner.waits_on = None
            spawner.switch()

    def put(self, item):
        if len(self.started) < self.size:
            self.started.append(item)
            if self.getter is not None:
                self._schedule_unlock()
            return
        current = greenlet.getcurrent()
        self.putter = [current, item]
        if self.getter is not None:
            self._schedule_unlock()
        current.waits_on = self
        try:
            _suspend()
        finally:
            current.waits_on = None
        if self.putter[1] is not None:
            self.started.append(item)
        self.putter = None

    def get(self):
        if self.started:
            if self.putter is not None:
                self._schedule_unlock()
            return self.started.popleft()
        self.getter = current = greenlet.getcurrent()
        if self.putter is not None:
            self._schedule_unlock()
        current.waits_on = self
        try:
            return _suspend()
        finally:
            self.getter = current.waits_on = None

    def _schedule_unlock(self):
        if not self.unlock_scheduled:
            self.unlock_scheduled = True
            _schedule(self._unlock)

    def _unlock(self):
        """Hand queued items to the waiting getter and let a waiting putter queue its item."""
        try:
            while True:
                getter, putter = self.getter, self.putter
                waiting_putter = putter is not None and putter[0].waits_on is self
                if self.started and getter is not None:
                    self.getter = None
                    if getter.waits_on is self:
                        getter.waits_on = None
                        getter.switch(self.started.popleft())
                elif waiting_putter and getter is not None:
                    item, putter[1] = putter[1], None
                    self.started.append(item)
                    self.getter = None
                    getter.waits_on = None
                    getter.switch(self.started.popleft())
                    putter[0].waits_on = None
                    putter[0].switch()
                elif waiting_putter and len(self.started) < self.size:
                    putter[0].waits_on = None
                    putter[0].switch()
                else:
                    break
        finally:
            self.unlock_scheduled = False


class ParallelReturn(BaseException):
    """A ``Return`` inside a Parallel branch. It ends the branch, and once every branch has
    ended the method returns its value, as in the reference (where Return is a control-flow
    exception no Catch takes, hence BaseException)."""

    def __init__(self, value):
        super().__init__()
        self.value = value


def parallel(context, branches, limit=None):
    """The Parallel statement: run branch functions ``branch(context)`` as green threads, at
    most ``limit`` (default: all) at a time; an empty one does nothing, as in the reference."""
    branches = list(branches)
    if not branches:
        return None
    return parallel_select(context, branches, len(branches) if limit is None else _pool_size(limit))


def _pool_size(limit):
    """A Parallel's evaluated ``Limit`` as eventlet's GreenPool takes it (its errors included).
    0 is taken as 1: the reference's pool of 0 never starts a branch and the run hangs."""
    try:
        size = int(limit)
    except ValueError as error:
        raise TypeError(f"GreenPool() expect size :: int, actual: {type(limit)} {error}") from None
    if size < 0:
        raise ValueError(f"GreenPool() expect size >= 0, actual: {size!r}")
    return max(size, 1)


def parallel_select(context, branches, size=SELECT_POOL_SIZE):
    """Run branch functions ``branch(context)`` as green threads of a pool of ``size``, as the
    reference's ``parallel_select`` (behind Parallel, pselect and psuper): their results, in
    order. The first failure (in branch order) is re-raised after all branches ended."""
    pool = _Pool(size)
    results = [None] * len(branches)
    failures = [None] * len(branches)
    owner = greenlet.getcurrent()
    started = []
    end_marker = _Ending()

    def branch_thread(index, branch):
        ending = _Ending()

        def run():
            try:
                results[index] = branch(context.create_child_context())
            except BaseException as error:  # noqa: BLE001 - re-raised in the parent
                failures[index] = error
            _live_branches.discard(worker)
            ending.end()
            pool.release()
        worker = _Branch(run, parent=_hub)
        worker.owner = owner
        started.append(worker)
        _live_branches.add(worker)
        _schedule(worker.switch)
        return ending

    def end_marker_thread():
        end_marker.end()
        pool.release()

    def spawn():
        for index, branch in enumerate(branches):
            pool.acquire()
            pool.put(branch_thread(index, branch))
        pool.acquire()
        _schedule(end_marker_thread)
        pool.put(end_marker)

    running_parallels.append(pool)
    try:
        _schedule(_Thread(spawn, parent=_loop_greenlet()).switch)
        while True:
            ending = pool.get()
            ending.wait()
            if ending is end_marker:
                break
    finally:
        running_parallels.remove(pool)
        _live_branches.difference_update(started)
    for failure in failures:
        if failure is not None:
            raise failure
    return results


running_parallels: list = []  # one entry a running Parallel: direct calls check for branches only then
_live_branches: set = set()  # the green threads of running Parallels (running_frames)


def in_parallel_branch() -> bool:
    """Whether the running code is a Parallel branch (calls there take the reference's
    per-object method locks; elsewhere nothing can contend for them)."""
    return type(greenlet.getcurrent()) is _Branch


def sleep(seconds):
    """Wait ``seconds``: inside a Parallel branch the other green threads run meanwhile."""
    seconds = max(float(seconds or 0), 0.0)
    current = greenlet.getcurrent()
    if isinstance(current, _Thread):
        _schedule(current.switch, seconds)
        _suspend()
    else:
        limits.sleep(seconds)


class GreenLock:
    """A re-entrant lock of green threads (Synchronize), as the reference's method locks: a
    waiting thread blocks until the holder releases it, which wakes every waiter (each takes
    it if still free when it runs, else waits again). ``users`` counts the holder's entries
    and the threads waiting, so the lock can be forgotten once nobody uses it."""

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
                current.waits_on = self
                try:
                    _suspend()
                finally:
                    current.waits_on = None
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
            for waiter in self.waiting:
                _schedule(_switcher(waiter))
            self.waiting.clear()


# --- Throw / Catch -------------------------------------------------------------------------------

def throw(context, names, message=None, extra=None, cause=None):
    """The exception a ``Throw`` raises; ``cause`` is an exception object from ``As``; ``extra``
    is the Extra data as written, its expressions ``DeferredExpression``s (generated code
    passes ``cause`` first: the reference evaluates it before the names and the message)."""
    if isinstance(names, str):
        names = [names]
    scope = context[expressions.TYPE]
    executor = scope.executor if scope is not None else None
    names = [_exception_name_text(name) for name in names]
    resolved = [executor.resolve_name(n, scope) if executor else n for n in names]
    native_cause = None
    if isinstance(cause, MuranoObject):
        native_cause = cause.real_this.properties.get("nativeException")
    elif isinstance(cause, errors.MuranoPlException):
        native_cause = cause
    return errors.MuranoPlException(resolved, message, current_stack(), extra, native_cause)


class DeferredExpression(expressions.Deferred):
    """An expression of a Throw's Extra, kept unevaluated as the reference keeps it: yaql's
    ``#finalize`` evaluates it in the context of the statement whose value holds it
    (``$e.extra.a`` in a Catch sees the Catch's variables), every time one does. Anything else
    sees an opaque value whose text is the expression's."""

    __slots__ = ("function", "engine", "source")

    def __init__(self, function, engine, source):
        self.function = function
        self.engine = engine
        self.source = source

    def __str__(self):
        return self.source

    def __repr__(self):
        return f"YAQL({self.source})"

    def evaluate(self):
        context = _statement_context(sys._getframe(1))
        if context is None:
            return self
        return evaluate(self.function, context, self.engine)


deferred = DeferredExpression
_DEFERRED_EVALUATION = DeferredExpression.evaluate.__code__


def exception_cause(cause):
    """The native exception of a Throw's ``Cause`` (an exception object from ``As``), read as
    the reference reads it: any other value fails, null included."""
    if isinstance(cause, MuranoObject):
        return cause.get_property("nativeException")
    raise AttributeError(f"'{type(cause).__name__}' object has no attribute 'get_property'")


def _statement_context(frame):
    """The context of the innermost generated function running (a method body's, a branch's or
    an expression's): the context of the statement being evaluated."""
    for running in _live_frames(frame):
        code = running.f_code
        if code.co_filename.endswith(YAML_SUFFIXES) and "context" in code.co_varnames[:code.co_argcount]:
            return expressions.as_context(running.f_locals["context"])
    return None




def _exception_name_text(name) -> str:
    """A Throw name as the reference reads an evaluated one: a class (an unquoted ``ns:Name``
    that exists) stands as its repr, which is no valid name, like any other non-name text."""
    if isinstance(name, TypeReference):
        name = f"*MuranoClass({name.type.name}/{name.type.version})"
    name = str(name)
    if not TYPE_NAME.match(name):
        raise ValueError(f'Invalid type name "{name}"')
    return name


def catch_matches(exception, names, context) -> bool:
    """Does a ``Catch`` with ``With: names`` (empty: any) take this exception? Names match
    exactly, as in the reference; the matched name is what ``As`` reports."""
    original = exception
    if not isinstance(exception, errors.MuranoPlException):
        exception = to_murano_exception(exception, exception.__traceback__)
    scope = context[expressions.TYPE]
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
    executor = current_executor()
    exception, name = getattr(exception, "mplc_caught", (exception, None))
    if not isinstance(exception, errors.MuranoPlException):
        exception = to_murano_exception(exception, exception.__traceback__)
    name = name or (exception.names[0] if exception.names else None)
    obj = executor.load_object({executor.find_class("io.murano.Exception").reference: {}}, None)
    values = {"name": name, "message": exception.message,
              "stackTrace": stack_trace_object(executor, exception.stack_trace, obj),
              "extra": exception.extra, "nativeException": exception}
    part = obj.real_this
    for key, value in values.items():
        if key in ("name", "message", "extra"):
            part.set_property(key, value)  # their contracts: a Throw's Message 5 reads '5'
        else:
            part.properties[key] = value
    return obj
