"""Natives of the io.murano classes the reference implements in Python, against a local,
simulated cloud (see ``cloud.py``), and the engine's yaql functions mplc adds."""

from mplc.runtime.system import cloud, core, garbage, logger, resources, services, testing  # noqa: F401
