"""Front end: package and manifest reading, class YAML -> IR, YAQL parsing, diagnostics.

Never imports mplc.runtime, mplc.codegen or mplc.contracts.
"""

from mplc.frontend.checks import check_packages
from mplc.frontend.expressions import parse_expression_text
from mplc.frontend.packages import load_packages

__all__ = ["load_packages", "check_packages", "parse_expression_text"]
