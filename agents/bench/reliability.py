"""Reliability under repeats: pass@k, pass^k and flip rates of runs with ``repeats = k``.

An *instance* is one env (or checkpoint) × policy × run × seed; a run with ``repeats = k``
runs each instance k times. Over an instance's n repeats with c successes (an episode that
crashed, was refused or is unsupported counts as a failure):

- ``pass@k``: the chance that at least one of k repeats succeeds, 1 - C(n-c, k) / C(n, k)
  (the unbiased estimator of Chen et al. 2021; with n = k: whether any succeeded);
- ``pass^k``: the chance that all k succeed, C(c, k) / C(n, k) (tau-bench's; with n = k:
  whether all did) — what a user who runs the agent k times can count on;
- *flipped*: the instance's repeats disagree (some succeed, some fail); the flip rate is the
  share of a task's instances that flipped.

Each is averaged over a task's instances, with k the fewest repeats any instance has.

>>> pass_at(2, 1, 2), pass_hat(2, 1, 2), pass_hat(3, 3, 2)
(1.0, 0.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from agents.bench.tables import Table, label, rate, succeeded


def pass_at(n: int, c: int, k: int) -> float:
    """The chance that some of ``k`` of the ``n`` repeats (``c`` successes) succeeds."""
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat(n: int, c: int, k: int) -> float:
    """The chance that all of ``k`` of the ``n`` repeats (``c`` successes) succeed."""
    return comb(c, k) / comb(n, k)


def instances(records: Sequence[dict[str, Any]]) -> dict[tuple[Any, ...], list[bool]]:
    """Each instance's outcomes (success or not), in file order."""
    out: dict[tuple[Any, ...], list[bool]] = {}
    for r in records:
        key = (label(r), r["policy"], r.get("run"), r.get("env_id"), r.get("seed"))
        out.setdefault(key, []).append(succeeded(r))
    return out


def repeats_table(records: Sequence[dict[str, Any]]) -> Table | None:
    """Per env (or checkpoint) × policy with repeats: instances, k, success over every episode
    (rate [95 % CI]), pass@k, pass^k and the flip rate; then each policy over all its tasks.
    None when no instance was repeated."""
    inst = instances(records)
    if not any(len(v) >= 2 for v in inst.values()):
        return None
    rows: dict[tuple[str, str], list[list[bool]]] = {}
    for (name, policy, *_), outcomes in inst.items():
        if len(outcomes) >= 2:
            rows.setdefault((name, policy), []).append(outcomes)
    body = [_row(name, policy, outs) for (name, policy), outs in rows.items()]
    names = {name for name, _ in rows}
    if len(names) > 1:
        for policy in dict.fromkeys(p for _, p in rows):
            outs = [o for (_, p), os in rows.items() if p == policy for o in os]
            body.append(_row("(all)", policy, outs))
    return Table(
        "repeats",
        "Reliability under repeats: pass@k (any of k succeeds), pass^k (all k do) and the "
        "share of instances (env seeds) whose repeats disagree",
        ("env", "policy", "instances", "k", "success rate", "pass@k", "pass^k", "flip rate"),
        tuple(body),
    )


def _row(name: str, policy: str, outs: list[list[bool]]) -> tuple[Any, ...]:
    k = min(len(o) for o in outs)
    at = sum(pass_at(len(o), sum(o), k) for o in outs) / len(outs)
    hat = sum(pass_hat(len(o), sum(o), k) for o in outs) / len(outs)
    flips = sum(0 < sum(o) < len(o) for o in outs)
    return (
        name,
        policy,
        len(outs),
        k,
        rate(x for o in outs for x in o),
        round(at, 3),
        round(hat, 3),
        f"{flips}/{len(outs)}",
    )
