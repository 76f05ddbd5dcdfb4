"""Natives of the io.murano classes the reference implements in Python, against a local,
simulated cloud (see ``cloud.py``), and the engine's yaql functions mplc adds."""

from mplc.runtime.system import (  # noqa: F401
    cloud, core, garbage, logger, networking_sfc, resources, services, testing)


def plugin_packages(given_names=()) -> list:
    """The packages of the Murano plugins mplc simulates (each as the reference's plugin loader
    registers an installed plugin distribution), but those named in ``given_names``."""
    return [package for package in (networking_sfc.plugin_package(),)
            if package.full_name not in given_names]
