"""Which declarations of a name a class sees through its inheritance graph, as Murano's engine
chooses them. Shared by the runtime's classes and the forms generator's IR classes, so a
property or method is found (or is ambiguous) the same way in both."""

from __future__ import annotations

import collections
from typing import Any, Callable, Iterable, Iterator, TypeVar

Class = TypeVar("Class")


def _declaration_chains(start: Class, parents_of: Callable[[Class], Iterable[Class]],
                        lookup: Callable[[Class], Any]) -> Iterator[tuple]:
    """Per path from ``start`` to a class without parents, the declarations met on it, nearest
    first (paths declaring nothing yield nothing)."""
    queue = collections.deque([(start, ())])
    while queue:
        current, path = queue.popleft()
        declaration = lookup(current)
        if declaration is not None:
            path = path + (declaration,)
        parents = parents_of(current)
        if not parents and path:
            yield path
        for parent in parents:
            queue.append((parent, path))


def visible_declarations(start: Class, parents_of: Callable[[Class], Iterable[Class]],
                         lookup: Callable[[Class], Any]) -> list:
    """Per inheritance path the nearest declaration, minus those overridden on another path (a
    path's declarations being the tail of a longer path's). One: the declaration; several: the
    name is ambiguous; none: it is not declared."""
    chains = sorted(_declaration_chains(start, parents_of, lookup), key=len)
    chosen = []
    for index, chain in enumerate(chains):
        if chain[0] in chosen:
            continue
        overridden = any(
            len(other) >= len(chain) and all(a is b for a, b in zip(reversed(chain), reversed(other)))
            for other in chains[index + 1:])
        if not overridden:
            chosen.append(chain[0])
    return chosen
