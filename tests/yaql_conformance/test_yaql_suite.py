"""yaql's own test classes, collected here so they run with compiled evaluation (conftest.py)."""

from yaql.tests.test_boolean import *  # noqa: F401,F403
from yaql.tests.test_branching import *  # noqa: F401,F403
from yaql.tests.test_collections import *  # noqa: F401,F403
from yaql.tests.test_common import *  # noqa: F401,F403
from yaql.tests.test_contexts import *  # noqa: F401,F403
from yaql.tests.test_datetime import *  # noqa: F401,F403
from yaql.tests.test_engine import *  # noqa: F401,F403
from yaql.tests.test_legacy import *  # noqa: F401,F403
from yaql.tests.test_math import *  # noqa: F401,F403
from yaql.tests.test_miscellaneous import *  # noqa: F401,F403
from yaql.tests.test_queries import *  # noqa: F401,F403
from yaql.tests.test_regex import *  # noqa: F401,F403
from yaql.tests.test_resolution import *  # noqa: F401,F403
from yaql.tests.test_strings import *  # noqa: F401,F403
from yaql.tests.test_system import *  # noqa: F401,F403
from yaql.tests.test_type_aggregation import *  # noqa: F401,F403
from yaql.tests.test_yaql_interface import *  # noqa: F401,F403
from yaql.tests.test_yaqlization import *  # noqa: F401,F403
