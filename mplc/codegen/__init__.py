"""Code generation: IR -> Python ast (positions stamped) -> code objects -> compiled package."""

from mplc.codegen.output import (BUILD_FILE, SOURCE_SUFFIX, PackageBuild, abandon_build, build_key,
                                 built_by_this_compiler, cache_key, compile_package, finish_build,
                                 package_dir_name, package_directory, read_build_key, start_build,
                                 write_modules, write_package)

__all__ = ["BUILD_FILE", "SOURCE_SUFFIX", "PackageBuild", "abandon_build", "build_key",
           "built_by_this_compiler", "cache_key", "compile_package", "finish_build",
           "package_dir_name", "package_directory", "read_build_key", "start_build", "write_modules",
           "write_package"]
