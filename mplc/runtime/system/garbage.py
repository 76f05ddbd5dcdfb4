"""io.murano.system.GC: destruction subscriptions and on-demand collection."""

from __future__ import annotations

from mplc.runtime.objects import MuranoObject
from mplc.runtime.natives import checked_first, native


@native("io.murano.system.GC")
class GarbageCollector:
    @staticmethod
    @checked_first("handler", "subscriber", "publisher")
    def subscribe_destruction(publisher: MuranoObject, subscriber: MuranoObject,
                              handler: str | None = None):
        publisher, subscriber = publisher.real_this, subscriber.real_this
        publisher.subscribe_destruction(subscriber, handler)

    @staticmethod
    @checked_first("handler", "subscriber", "publisher")
    def unsubscribe_destruction(publisher: MuranoObject, subscriber: MuranoObject,
                                handler: str | None = None):
        publisher, subscriber = publisher.real_this, subscriber.real_this
        publisher.unsubscribe_destruction(subscriber, handler)

    @staticmethod
    def collect(executor):
        executor.collect_garbage()

    @staticmethod
    def is_doomed(object_: MuranoObject):
        return object_.real_this.destroyed or object_.real_this.doomed

    @staticmethod
    def is_destroyed(object_: MuranoObject):
        return object_.real_this.destroyed

