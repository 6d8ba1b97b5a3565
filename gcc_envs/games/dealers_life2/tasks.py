"""Dealer's Life 2's task table: the paper's week of shop management, and one day.

Both read the simulator's state (the backend's probe). ``info["metrics"]`` carries, on every
step, the nine financial metrics (:mod:`.metrics`), the paper's headline figures, the
bargaining measures and the counts behind them.

Profit is counted at **true worth**: cash + unsold stock at the items' true market value +
loans at what they bring back (:attr:`~.sim.state.ShopState.true_worth`). The paper's
figure, the shelf at what was paid, is ``profit_at_cost`` beside it: it hides overpaying
(buying at any price leaves it unchanged), so it decides nothing. Success needs the
episode's profit at true worth to reach the task's ``min_profit``, a bar that blind play
misses (``benchmarks/blind/dealers_life2.py``). Reward is the change of profit at true
worth in units of :data:`PROFIT_UNIT` dollars, plus 1 on success.
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
LOSS = (
    "the shop closed its last day with ${profit:,} profit at true worth, under the ${need:,} needed"
)


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
    out.update(headline(talks, s.true_profit, s.start_value))
    out.update(
        {
            "n_traded": float(len(trips)),
            "m_untraded": float(len(failed)),
            "profit": float(s.true_profit),
            "profit_at_cost": float(s.profit),
            "total_profit_pct_at_cost": 100.0 * s.profit / s.start_worth if s.start_worth else 0.0,
            "cash": float(s.cash),
            "worth": float(s.true_worth),
            "worth_at_cost": float(s.worth),
            "days_finished": float(s.days_closed),
            "deals_closed": float(s.deals_closed),
            "potential_deals": float(len(s.outcomes)),
            "reputation": float(s.reputation),
            "stock": float(len(s.stock)),
        }
    )
    return out


class ShopTask(Task):
    """Run the shop for ``days`` days; success: all of them finished with at least
    ``min_profit`` dollars of profit at true worth."""

    days = 7
    #: Least profit at true worth ($) that counts as success.
    min_profit = 0
    success_reward = 1.0

    def __init__(self) -> None:
        self._cache: tuple[int, int, TaskStatus] | None = None

    def reset_options(self) -> dict[str, Any]:
        return {"days": self.days}

    def begin(self, probe: Any) -> None:
        self._cache = None

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
        profit = s.true_profit
        won = profit >= self.min_profit
        flags["profit"] = won
        status = TaskStatus(
            progress=min(1.0, 0.5 * days_part + 0.5 * deals_part),
            success=finished and won,
            failure=LOSS.format(profit=profit, need=self.min_profit)
            if finished and not won
            else None,
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
        "possible, at least $1,000 (unsold stock counts at what it is truly worth)."
    )
    days = 7
    # Measured on seeds 1000-1029 (benchmarks/blind/dealers_life2.py): the privileged trader
    # makes $2,890 or more on 95 % of weeks; every blind policy loses over $1,500 on 95 % of
    # weeks and never ends above $0; the frame-only trader made $1,267-$3,232 on seeds
    # 1000-1005 (720x1280).
    min_profit = 1000


class Day(ShopTask):
    name = "Day"
    instruction = (
        "Manage the pawn shop for one day: buy items from sellers for less than they are "
        "worth and sell them to buyers for more, to close the day with at least $50 profit "
        "(unsold stock counts at what it is truly worth)."
    )
    days = 1
    # Measured on seeds 1000-1099: the privileged trader makes $50 or more on 98 of 100 days,
    # each blind policy on 3 or fewer (accept-all on none); the frame-only trader (720x1280)
    # on 36 of 40 (seeds 1030-1069).
    min_profit = 50


TASKS: dict[str, type[Task]] = {"week": Week, "day": Day}


def make_task(key: str) -> Task:
    """A fresh task for ``key`` (``"week"`` or ``"day"``)."""
    if key not in TASKS:
        raise GCCError(f"unknown Dealer's Life 2 task {key!r}; known: {list(TASKS)}")
    return TASKS[key]()
