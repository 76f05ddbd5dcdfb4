"""io.murano.system.GC: destruction subscriptions and on-demand collection."""

from __future__ import annotations

from mplc.runtime.model import MuranoObject
from mplc.runtime.natives import native


def _find(publisher, subscriber, handler):
    for record in publisher.destruction_dependencies:
        if record[0] is subscriber and record[1] == handler:
            return record
    return None


@native("io.murano.system.GC")
class GarbageCollector:
    @staticmethod
    def subscribe_destruction(publisher: MuranoObject, subscriber: MuranoObject,
                              handler: str | None = None):
        publisher, subscriber = publisher.real_this, subscriber.real_this
        if handler:
            subscriber.type.find_single_method(handler)
        if _find(publisher, subscriber, handler) is None:
            publisher.destruction_dependencies.append((subscriber, handler))

    @staticmethod
    def unsubscribe_destruction(publisher: MuranoObject, subscriber: MuranoObject,
                                handler: str | None = None):
        publisher, subscriber = publisher.real_this, subscriber.real_this
        if handler:
            subscriber.type.find_single_method(handler)
        record = _find(publisher, subscriber, handler)
        if record is not None:
            publisher.destruction_dependencies.remove(record)

    @staticmethod
    def collect(executor):
        executor.collect_garbage()

    @staticmethod
    def is_doomed(object_: MuranoObject):
        return object_.real_this.destroyed or object_.real_this.doomed

    @staticmethod
    def is_destroyed(object_: MuranoObject):
        return object_.real_this.destroyed

