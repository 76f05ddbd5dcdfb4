"""Code generation: IR -> Python ast (positions stamped) -> code objects -> compiled package."""
