"""Code generation: IR -> Python ast (positions stamped) -> code objects -> compiled package."""

from mplc.codegen.output import (BUILD_FILE, SOURCE_SUFFIX, build_key, built_by_this_compiler, cache_key,
                                 compile_package, package_dir_name, read_build_key, write_package)

__all__ = ["BUILD_FILE", "SOURCE_SUFFIX", "build_key", "built_by_this_compiler", "cache_key",
           "compile_package", "package_dir_name", "read_build_key", "write_package"]
