"""Whether a path of a package stays inside it once links are resolved.

A package is untrusted input: a file or folder of it that is a symbolic link leading out of
the package (``Resources/x -> /etc/passwd``) must never be read, copied or hashed. The front
end, codegen and the runtime all ask this one question, here.
"""

from __future__ import annotations

import os


def resolves_inside(root: str, path: str) -> bool:
    """Whether ``path``, every link on the way resolved, is ``root`` (resolved alike) or under it."""
    real_root = os.path.realpath(root)
    real_path = os.path.realpath(path)
    return real_path == real_root or real_path.startswith(real_root.rstrip(os.sep) + os.sep)
