"""What a worker shows at /metrics (Prometheus text, prometheus_client): presses and the time
from a press to its answer, deliveries, the platforms' 429s, background jobs due, claimed and
late, redeliveries (the screens of a worker that died after saving). One registry per process,
not the library's global one (tests build several bots)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
REGISTRY = CollectorRegistry(auto_describe=True)

PRESSES = Counter("rummy_presses", "Button presses answered", ["platform"], registry=REGISTRY)
PRESS_SECONDS = Histogram(
    "rummy_press_answer_seconds",
    "From a press arriving to its answer (the person sees the bot took it)",
    ["platform"],
    buckets=(0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10),
    registry=REGISTRY,
)
DELIVERIES = Counter(
    "rummy_deliveries", "Outcomes delivered to a chat platform", ["platform"], registry=REGISTRY
)
RATE_LIMITED = Counter(
    "rummy_rate_limited",
    "429 answers (flood control) from a platform",
    ["platform"],
    registry=REGISTRY,
)
UPDATES = Counter(
    "rummy_webhook_updates", "Webhook posts by answer status", ["status"], registry=REGISTRY
)
IN_FLIGHT = Gauge("rummy_updates_in_flight", "Updates being handled now", registry=REGISTRY)
JOBS_DUE = Gauge(
    "rummy_jobs_due",
    "Background jobs due now (all workers), read at each scrape",
    registry=REGISTRY,
)


class SchedulerCollector(Collector):
    """The job scheduler's own counts (it keeps them as plain numbers: the core knows no
    metrics library)."""

    def __init__(self) -> None:
        self.scheduler: Any = None

    def collect(self) -> Iterator[Any]:
        s = self.scheduler
        if s is None or not hasattr(s, "claimed"):
            return
        yield CounterMetricFamily(
            "rummy_jobs_claimed", "Jobs this worker claimed and ran", value=s.claimed
        )
        yield CounterMetricFamily(
            "rummy_jobs_late", "Jobs claimed over 2 s after their due time", value=s.late
        )
        yield CounterMetricFamily(
            "rummy_jobs_lateness_seconds",
            "Seconds past due, summed over claimed jobs",
            value=s.lateness_sum,
        )
        redelivery = getattr(s, "redelivery", None)
        if redelivery is not None:
            yield CounterMetricFamily(
                "rummy_redeliveries",
                "Games whose screens this worker delivered for a worker that died after saving",
                value=redelivery.redelivered,
            )
        yield GaugeMetricFamily(
            "rummy_jobs_running",
            "Jobs this worker is running now",
            value=len(s.pending_computers()),
        )


SCHEDULER = SchedulerCollector()
REGISTRY.register(SCHEDULER)


def watch(service: Any) -> None:
    """Report this service's scheduler."""
    SCHEDULER.scheduler = service.scheduler


async def render(store: Any = None, now: float | None = None) -> bytes:
    """The metrics page; with a store, the jobs due now are read first."""
    if store is not None and now is not None and hasattr(store, "jobs_due"):
        JOBS_DUE.set(await store.jobs_due(now))
    return generate_latest(REGISTRY)
