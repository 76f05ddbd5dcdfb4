"""A real repository: a directory tree served by http.server on 127.0.0.1 in a thread."""

import functools
import http.server
import io
import threading
import zipfile
from pathlib import Path

import pytest
import yaml


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the tree; paths listed in ``failing`` answer 500, and listings can be turned off."""

    failing: set = set()
    listings = True

    def do_GET(self):
        if self.path in self.failing:
            self.send_error(500, "Internal Server Error")
            return
        super().do_GET()

    def list_directory(self, path):
        if not self.listings:
            self.send_error(404, "No listing")
            return None
        return super().list_directory(path)

    def log_message(self, format, *args):
        pass


class ServedRepository:
    """The served tree; ``add_package`` writes apps/ zips, ``add_file`` anything else."""

    def __init__(self, root: Path, url: str, handler):
        self.root = root
        self.url = url
        self.handler = handler

    def add_file(self, relative: str, data: bytes) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    def add_zip(self, relative: str, files: dict) -> None:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, content in files.items():
                archive.writestr(name, content)
        self.add_file(relative, buffer.getvalue())

    def add_package(self, name, version=None, require=None, file_version=None, extra_files=(),
                    **manifest_fields):
        """Write apps/NAME.zip (or apps/NAME.FILE_VERSION.zip): a manifest and one class."""
        manifest = {"FullName": name, "Format": 1.3, "Type": "Application",
                    "Classes": {name: "Main.yaml"}}
        if version is not None:
            manifest["Version"] = version
        if require is not None:
            manifest["Require"] = require
        manifest.update(manifest_fields)
        files = {"manifest.yaml": yaml.safe_dump(manifest),
                 "Classes/Main.yaml": f"Name: {name}\nMethods:\n  deploy:\n    Body: []\n"}
        files.update(extra_files)
        file_name = f"{name}.{file_version}.zip" if file_version else f"{name}.zip"
        self.add_zip(f"apps/{file_name}", files)

    def fail(self, relative: str) -> None:
        self.handler.failing.add("/" + relative)

    def hide_listings(self) -> None:
        self.handler.listings = False


@pytest.fixture
def repository(tmp_path):
    root = tmp_path / "served"
    (root / "apps").mkdir(parents=True)
    handler = type("Handler", (_Handler,), {"failing": set(), "listings": True})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield ServedRepository(root, f"http://127.0.0.1:{server.server_address[1]}/", handler)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
