"""The built-in MuranoPL package type: classes are files under Classes/ listed by the manifest.

The front end reads MuranoPL packages itself (with positions and every diagnostic); this type
is the same package seen through the Package interface."""

from __future__ import annotations

import os

from mplc.packagetypes.base import PackageBase, PackageTypeError, secure_join


class MuranoPlPackage(PackageBase):
    @property
    def classes(self) -> tuple[str, ...]:
        return tuple(self._class_files())

    @property
    def requirements(self) -> dict:
        return dict(self._manifest.get("Require") or {})

    @property
    def ui(self) -> bytes | None:
        path = secure_join(os.path.join(self._source_directory, "UI"),
                           self._manifest.get("UI") or "ui.yaml", self._source_directory)
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as handle:
            return handle.read()

    @property
    def meta(self):
        return self._manifest.get("Meta")

    def get_class(self, name: str) -> tuple[bytes, str]:
        file_name = self._class_files().get(name)
        if file_name is None:
            raise PackageTypeError(f"class {name} is not defined in package {self.full_name}")
        path = secure_join(os.path.join(self._source_directory, "Classes"), str(file_name),
                           self._source_directory)
        if not os.path.isfile(path):
            raise PackageTypeError(f"class {name}: file Classes/{file_name} does not exist")
        with open(path, "rb") as handle:
            return handle.read(), path

    def _class_files(self) -> dict:
        classes = self._manifest.get("Classes") or {}
        return classes if isinstance(classes, dict) else {}
