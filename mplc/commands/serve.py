"""``mplc serve``: forms json-schemas and model builders over HTTP, as Murano's API serves them.

Starlette on Hypercorn (mplc/server/app.py has the routes). Connections that send no complete
request within ``--idle-timeout`` are closed, bodies are bounded in size and time, and model
builders run in worker processes that are stopped after ``--timeout`` seconds.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sys

from hypercorn.asyncio import serve
from hypercorn.config import Config

from mplc.commands import UsageError
from mplc.commands.shared import check_loose_format, shown_diagnostics
from mplc.commands.schema import load_needed_forms
from mplc.diagnostics import CompileError, DiagnosticSink, render
from mplc.server.app import ServeService, create_app
from mplc.server.builders import BuilderPool


def _listen(host: str, port: int) -> socket.socket:
    try:
        return socket.create_server((host, port), backlog=128)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    except OverflowError:
        raise UsageError(f"--port {port} is not a port number (0 to 65535)") from None


def _server_config(listener: socket.socket, idle_timeout: float) -> Config:
    config = Config()
    config.bind = [f"fd://{listener.fileno()}"]
    config.keep_alive_timeout = idle_timeout
    config.h11_max_incomplete_size = 64 * 1024
    config.accesslog = None
    config.errorlog = None
    return config


async def _serve_until_stopped(app, config: Config) -> None:
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopped.set)
    await serve(app, config, shutdown_trigger=stopped.wait)


def main(args) -> int:
    if not args.all_paths:
        raise UsageError("no PATH given")
    check_loose_format(args)
    if min(args.timeout, args.idle_timeout, args.body_timeout) <= 0 or args.workers < 1:
        raise UsageError("--timeout, --idle-timeout and --body-timeout must be positive, "
                         "--workers at least 1")
    sink = DiagnosticSink()
    try:  # packages with errors are left out: a class that needs one is not found
        forms, _ = load_needed_forms(args.all_paths, args.format, sink)
    except CompileError as error:
        render(error.diagnostics, sys.stderr)
        return 1
    render(shown_diagnostics(args, [], sink.diagnostics), sys.stderr)
    listener = _listen(args.host, args.port)
    builders = BuilderPool(args.all_paths, args.format, args.cache_dir, args.workers, args.timeout)
    try:
        app = create_app(ServeService(forms.packages, builders, body_seconds=args.body_timeout))
        host, port = listener.getsockname()[:2]
        sys.stderr.write(f"mplc serve: listening on http://{host}:{port}\n")
        sys.stderr.flush()
        asyncio.run(_serve_until_stopped(app, _server_config(listener, args.idle_timeout)))
    finally:
        builders.close()
        listener.detach()  # the server closed the socket it was given
    return 0
