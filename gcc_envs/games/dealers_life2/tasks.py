"""Dealer's Life 2's task table: the paper's week of shop management, and one day.

Both read the simulator's state (the backend's probe). ``info["metrics"]`` carries, on every
step, the nine financial metrics (:mod:`.metrics`), the paper's headline figures, the
bargaining measures and the counts behind them. Reward is the profit made (change of the
shop's worth: cash + shelf at cost + loans out) in units of :data:`PROFIT_UNIT` dollars,
plus 1 on success.
"""

from __future__ import annotations

from typing import Any

from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import GCCError
from gcc_envs.games.dealers_life2.metrics import Talk, Trip, financial, headline

#: Reward per this many dollars of profit.
PROFIT_UNIT = 100.0
#: Deals a day that count as a full day of trading for ``info["progress"]``.
DEALS_PER_DAY = 5
LOSS = "the shop closed its last day without a profit"


def shop_metrics(s: Any) -> dict[str, float]:
    """Every metric of the shop's ledger so far (a pure function of the state)."""
    sold = {x.uid for x in s.sales}
    trips = [Trip(x.bought, x.sold, x.value) for x in s.sales]
    failed = {o.item for o in s.outcomes if not o.closed} - sold
    talks = [
        Talk(o.closed, o.haggled, o.rounds, o.price, o.opening, o.reserve, o.role == "buyer")
        for o in s.outcomes
    ]
    out = financial(trips, len(failed))
    out.update(headline(talks, s.profit, s.start_worth))
    out.update(
        {
            "n_traded": float(len(trips)),
            "m_untraded": float(len(failed)),
            "profit": float(s.profit),
            "cash": float(s.cash),
            "worth": float(s.worth),
            "days_finished": float(s.days_closed),
            "deals_closed": float(s.deals_closed),
            "potential_deals": float(len(s.outcomes)),
            "reputation": float(s.reputation),
            "stock": float(len(s.stock)),
        }
    )
    return out


class ShopTask(Task):
    """Run the shop for ``days`` days; success: all of them finished with a profit."""

    days = 7
    success_reward = 1.0

    def __init__(self) -> None:
        self._cache: tuple[int, int, TaskStatus] | None = None
        self._worth0 = 0.0

    def reset_options(self) -> dict[str, Any]:
        return {"days": self.days}

    def begin(self, probe: Any) -> None:
        self._cache = None
        self._worth0 = float(probe.worth)

    def evaluate(self, probe: Any) -> TaskStatus:
        s = probe
        if self._cache is not None and self._cache[:2] == (id(s), s.base_version):
            return self._cache[2]
        metrics = shop_metrics(s)
        done = s.days_closed
        finished = done >= self.days
        days_part = done / self.days
        deals_part = min(s.deals_closed, DEALS_PER_DAY * self.days) / (DEALS_PER_DAY * self.days)
        flags = {f"day{d}": d <= done for d in range(1, self.days + 1)}
        flags["profit"] = s.profit > 0
        status = TaskStatus(
            progress=min(1.0, 0.5 * days_part + 0.5 * deals_part),
            success=finished and s.profit > 0,
            failure=LOSS if finished and s.profit <= 0 else None,
            checkpoint=done,
            flags=flags,
            metrics=metrics,
        )
        self._cache = (id(s), s.base_version, status)
        return status

    def reward(self, before: TaskStatus, after: TaskStatus) -> float:
        r = (after.metrics["profit"] - before.metrics["profit"]) / PROFIT_UNIT
        if after.success and not before.success:
            r += self.success_reward
        return float(r)


class Week(ShopTask):
    name = "Week"
    instruction = (
        "Manage the pawn shop for a week (7 days): buy items from sellers for less than they "
        "are worth and sell them to buyers for more, to end the week with as much profit as "
        "possible."
    )
    days = 7


class Day(ShopTask):
    name = "Day"
    instruction = (
        "Manage the pawn shop for one day: buy items from sellers for less than they are "
        "worth and sell them to buyers for more, to close the day with a profit."
    )
    days = 1


TASKS: dict[str, type[Task]] = {"week": Week, "day": Day}


def make_task(key: str) -> Task:
    """A fresh task for ``key`` (``"week"`` or ``"day"``)."""
    if key not in TASKS:
        raise GCCError(f"unknown Dealer's Life 2 task {key!r}; known: {list(TASKS)}")
    return TASKS[key]()
