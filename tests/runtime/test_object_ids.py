"""Object ids: random version 4 UUIDs as uuid4().hex writes them, never repeated, also not by a
forked child process (ids are drawn from the system's random source ahead of use)."""

import os
import uuid

from mplc.runtime.objects import generate_id


def test_ids_are_distinct_version_4_uuids():
    ids = [generate_id() for _ in range(1000)]
    assert len(set(ids)) == len(ids)
    for object_id in ids:
        parsed = uuid.UUID(hex=object_id)
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122 and parsed.hex == object_id


def test_a_forked_child_does_not_repeat_its_parents_ids():
    generate_id()  # ids are drawn ahead now
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(writing, " ".join(generate_id() for _ in range(5)).encode())
        os._exit(0)
    os.close(writing)
    os.waitpid(child, 0)
    with os.fdopen(reading) as pipe:
        child_ids = set(pipe.read().split())
    assert len(child_ids) == 5
    assert not child_ids & {generate_id() for _ in range(5)}
