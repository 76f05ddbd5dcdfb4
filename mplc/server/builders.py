"""Model builders (static actions) run in worker processes that can be stopped.

MuranoPL code may loop forever; a thread cannot be stopped, a process can. Each worker holds a
``Runtime`` over the served packages and runs one call at a time on a fresh object store. A call
that outlives its time limit gets its worker killed and replaced, so a looping builder costs
its own request a 503 and nobody else anything.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
from dataclasses import dataclass
from typing import Any

import semantic_version

from mplc.api import Runtime
from mplc.runtime.errors import MuranoError

_NOT_FOUND_ERRORS = frozenset({"NoClassFound", "NoMethodFound", "NoPackageFound",
                               "NoPackageForClassFound", "MethodNotExposed",
                               "NoMatchingMethodException"})
_STARTUP_SECONDS = 600.0


@dataclass(frozen=True)
class BuilderCall:
    """One static method call: the class, its package's exact name and version, the method."""

    package: str
    version: str
    class_name: str
    method: str
    arguments: dict[str, Any]
    actions_only: bool  # Murano's /v1/actions: the method must be an action (Public)


class BuilderError(Exception):
    """A call that did not give a result: an HTTP status, an error type and a message."""

    def __init__(self, status: int, error_type: str, message: str):
        super().__init__(message)
        self.status = status
        self.error_type = error_type


def _status_of(error_type: str) -> int:
    if error_type == "ContractViolationException":
        return 400
    if error_type in _NOT_FOUND_ERRORS:
        return 404
    return 422


def _run_call(runtime: Runtime, call: BuilderCall) -> tuple:
    """What a worker answers for ``call``: ("result", value) or ("error", status, type, text)."""
    executor = runtime.new_executor()
    try:
        with executor.active():
            package = executor.find_package(
                call.package, semantic_version.SimpleSpec(f"=={call.version}"))
            murano_type = executor.type_of(package, call.class_name)
            method = murano_type.find_single_method(call.method)
            if call.actions_only and not method.is_action:
                return ("error", 404, "MethodNotExposed", f"{call.method} is not an action")
            if not method.is_static:
                return ("error", 400, "MethodNotStatic",
                        f"{call.method} is not static: a class instance is required")
            return ("result", executor.render(executor.call(murano_type, call.method, (),
                                                            call.arguments)))
    except MuranoError as error:
        return ("error", _status_of(error.type_name), error.type_name, str(error))


def _worker_main(connection, paths: list[str], default_format: str | None,
                 cache_dir: str | None) -> None:
    """A worker process: build the runtime, say ready, then answer calls until the pipe closes."""
    try:
        runtime = Runtime(paths, cache_dir=cache_dir, default_format=default_format)
    except Exception as error:  # reported to the server, which answers each call with it
        connection.send(("failed", f"{type(error).__name__}: {error}"))
        return
    connection.send(("ready",))
    while True:
        try:
            call = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer = _run_call(runtime, call)
        except Exception as error:  # a bug of ours: the request gets a 500, the worker goes on
            answer = ("error", 500, "InternalError", f"{type(error).__name__}: {error}")
        connection.send(answer)


class _Worker:
    def __init__(self, context, arguments):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, *arguments),
                                       daemon=True, name="mplc-serve-builder")
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self) -> None:
        if self.ready:
            return
        if not self.connection.poll(_STARTUP_SECONDS):
            self.stop()
            raise BuilderError(503, "WorkerUnavailable", "the model builder worker did not start")
        try:
            message = self.connection.recv()
        except (EOFError, OSError):
            raise BuilderError(500, "InternalError", "the model builder worker exited") from None
        if message[0] != "ready":
            raise BuilderError(500, "InternalError", f"the model builder worker failed: {message[1]}")
        self.ready = True

    def stop(self) -> None:
        self.process.kill()
        self.process.join()
        self.connection.close()


class BuilderPool:
    """``size`` worker processes; ``call`` blocks the calling thread (run it off the event loop)."""

    def __init__(self, paths: list[str], default_format: str | None, cache_dir: str | None,
                 size: int, time_limit: float):
        self._context = multiprocessing.get_context("spawn")
        self._arguments = (list(paths), default_format, cache_dir)
        self.time_limit = time_limit
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        for _ in range(size):
            self._idle.put(self._start())

    def _start(self) -> _Worker:
        worker = _Worker(self._context, self._arguments)
        with self._lock:
            self._all.add(worker)
        return worker

    def _retire(self, worker: _Worker) -> None:
        """Stop ``worker`` and put a fresh one in its place."""
        worker.stop()
        with self._lock:
            self._all.discard(worker)
            if self._closed:
                return
        self._idle.put(self._start())

    def call(self, call: BuilderCall) -> Any:
        try:
            worker = self._idle.get(timeout=self.time_limit)
        except queue.Empty:
            raise BuilderError(503, "Busy", "every model builder worker stayed busy for "
                                            f"{self.time_limit:g} s; try again later") from None
        try:
            worker.wait_ready()
            worker.connection.send(call)
            if not worker.connection.poll(self.time_limit):
                self._retire(worker)
                worker = None
                raise BuilderError(503, "Timeout", f"{call.class_name}.{call.method} ran longer "
                                                   f"than {self.time_limit:g} s and was stopped")
            answer = worker.connection.recv()
        except (EOFError, OSError):
            self._retire(worker)
            worker = None
            raise BuilderError(500, "InternalError", "the model builder worker exited") from None
        except BuilderError:
            if worker is not None:
                self._retire(worker)
                worker = None
            raise
        finally:
            if worker is not None:
                self._idle.put(worker)
        if answer[0] == "result":
            return answer[1]
        raise BuilderError(*answer[1:])

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
        for worker in workers:
            worker.stop()
