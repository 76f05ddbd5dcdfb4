"""The kinds of values the runtime tells apart by their Python type, each written once.

The lowest layer of the runtime (it imports only yaql's ``FrozenDict``): sets that name
MuranoPL objects too are made from these where the object classes are defined."""

from yaql.language.utils import FrozenDict

NONE_TYPE = type(None)

SCALARS = frozenset((str, int, float, bool, NONE_TYPE))
"""Plain values: freezing keeps them as they are, a model holds them and serialization writes
them unchanged (JSON's scalars)."""

SCALAR_CLASSES = tuple(SCALARS)
"""``SCALARS`` for ``isinstance`` (their subclasses too)."""

FINITE_SCALARS = SCALARS - {float}
"""Scalars that are never NaN nor infinite."""

NUMBERS = (int, float)
SEQUENCES = (list, tuple)

SIZED = frozenset((str, tuple, list, FrozenDict, dict))
"""What yaql's ``len`` counts the items of."""

ALWAYS_SMALL = frozenset((bool, float, NONE_TYPE, FrozenDict))
"""Values any memory quota admits whatever their value: yaql measures a value's shallow size
(``sys.getsizeof``, slow to call), and a FrozenDict's never grows."""

SHORT = 1000
SHORT_SIZED = frozenset((str, tuple, list))
"""Values any memory quota admits when shorter than ``SHORT`` (far below any quota: 512 KiB
here, 20000 in yaql's tests)."""

SMALL_INT = 1 << 4096
MINUS_SMALL_INT = -SMALL_INT  # computed once: negating a 4096-bit int allocates
"""Ints between these are far below any memory quota."""
