"""The metrics page reads the job scheduler through its public counts and
`pending_computers()` (no private attribute of the service or the scheduler)."""

from __future__ import annotations

from bot import metrics


class Jobs:
    """What the page reads of a JobScheduler."""

    claimed, late, lateness_sum = 7, 1, 2.5
    redelivery = None

    def pending_computers(self) -> frozenset[int]:
        return frozenset({3, 5})


async def test_the_jobs_running_are_the_pending_computers():
    before = metrics.SCHEDULER.scheduler
    metrics.SCHEDULER.scheduler = Jobs()
    try:
        page = (await metrics.render()).decode()
    finally:
        metrics.SCHEDULER.scheduler = before
    assert "rummy_jobs_running 2.0" in page and "rummy_jobs_claimed_total 7.0" in page
