"""Score a task's final state the way OSWorld does: getters, metrics, ``conj``, ``infeasible``.

* ``infeasible``: 1 when the agent's last action was ``FAIL``, else 0.
* A feasible task whose last action was ``FAIL`` scores 0 before anything is read.
* One metric: ``metric(result, expected, **options)`` (``expected`` left out when the task
  gives none). Several: in order, ``conj="and"`` stops at the first 0 and otherwise averages;
  ``conj="or"`` stops at the first 1 and otherwise takes the best.
* A getter or metric that fails (a missing file, a refused command, a rule it does not know)
  scores its slot 0 and leaves a note; it never raises.

>>> from gcc_envs.osworld.taskfile import load_task
>>> score(load_task("3720f614").evaluator, None, "FAIL").score
1.0
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from gcc_envs.errors import GCCError
from gcc_envs.osworld.getters import GETTERS, Context
from gcc_envs.osworld.metrics import METRICS
from gcc_envs.osworld.taskfile import Evaluator, localize

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Slot:
    """One metric's reading: what it compared and what it gave."""

    func: str
    result: Any
    expected: Any
    score: float


@dataclass(frozen=True)
class Verdict:
    """A task's score with how it was reached."""

    score: float
    slots: tuple[Slot, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def success(self) -> bool:
        return self.score >= 1.0


def unknown_parts(evaluator: Evaluator) -> list[str]:
    """Metric and getter names an evaluator uses that this package lacks."""
    missing = [f for f in evaluator.funcs if f != "infeasible" and f not in METRICS]
    for cfg in (*evaluator.results, *evaluator.expected):
        kind = cfg.get("type")
        if cfg and kind not in GETTERS:
            missing.append(f"getter {kind}")
    return list(dict.fromkeys(missing))


def _read(ctx: Context, config: Any, notes: list[str]) -> Any:
    kind = config.get("type")
    getter = GETTERS.get(kind)
    if getter is None:
        raise GCCError(f"getter {kind!r} is not implemented")
    return getter(ctx, localize(dict(config), ctx.home))


def _slot(ctx: Context, ev: Evaluator, i: int, notes: list[str]) -> Slot:
    func = ev.funcs[i]
    metric = METRICS.get(func)
    result = expected = None
    try:
        if metric is None:
            raise GCCError(f"metric {func!r} is not implemented")
        result = _read(ctx, ev.results[i], notes) if ev.results[i] else None
        if ev.expected[i]:
            expected = _read(ctx, ev.expected[i], notes)
            value = metric(result, expected, **ev.options[i])
        else:
            value = metric(result, **ev.options[i])
        return Slot(func, result, expected, float(value))
    except Exception as e:  # noqa: BLE001 - OSWorld's metrics raise anything on odd input
        notes.append(f"{func}: {type(e).__name__}: {e}")
        return Slot(func, result, expected, 0.0)


def score(evaluator: Evaluator, ctx: Context | None, last_action: str | None) -> Verdict:
    """The task's score for the final state ``ctx`` reads (``last_action``: DONE, FAIL, ...)."""
    if evaluator.infeasible:
        return Verdict(1.0 if last_action == "FAIL" else 0.0, notes=("infeasible task",))
    if last_action == "FAIL":
        return Verdict(0.0, notes=("the agent declared FAIL on a feasible task",))
    if ctx is None:
        raise GCCError("a feasible task needs a probe context to be scored")
    notes: list[str] = []
    slots: list[Slot] = []
    for i in range(len(evaluator.funcs)):
        slot = _slot(ctx, evaluator, i, notes)
        slots.append(slot)
        if len(evaluator.funcs) > 1:
            if evaluator.conj == "and" and slot.score == 0.0:
                return Verdict(0.0, tuple(slots), tuple(notes + ctx.notes))
            if evaluator.conj == "or" and slot.score == 1.0:
                return Verdict(1.0, tuple(slots), tuple(notes + ctx.notes))
    values = [s.score for s in slots]
    total = sum(values) / len(values) if evaluator.conj == "and" else max(values)
    return Verdict(float(total), tuple(slots), tuple(notes + ctx.notes))
