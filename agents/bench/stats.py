"""Means with standard errors, and rates with Wilson intervals, for the report's tables.

>>> stat([1.0, 0.0, 1.0, 1.0], binary=True)
Stat(mean=0.75, se=0.2165, n=4)
>>> str(stat([2.0, 4.0])), str(stat([6100.0, 6300.0]))
('3 ± 1', '6200 ± 100')
>>> str(Rate(0, 10)), str(Rate(10, 10))
('0.00 [0.00, 0.28]', '1.00 [0.72, 1.00]')
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Stat:
    """A mean with its standard error over ``n`` episodes (``se`` NaN when n < 2)."""

    mean: float
    se: float
    n: int

    def __str__(self) -> str:
        if self.n == 0:
            return "-"
        big = abs(self.mean) >= 1000
        mean = f"{self.mean:.0f}" if big else f"{self.mean:.3g}"
        if math.isnan(self.se):
            return mean
        return f"{mean} ± {self.se:.0f}" if big else f"{mean} ± {self.se:.2g}"


def stat(values: Iterable[float], binary: bool = False) -> Stat:
    """Mean and standard error; ``binary``: a rate's SE, sqrt(p(1-p)/n)."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return Stat(float("nan"), float("nan"), 0)
    mean = sum(xs) / n
    if binary:
        se = math.sqrt(mean * (1 - mean) / n)
    elif n < 2:
        se = float("nan")
    else:
        se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)
    return Stat(round(mean, 6), round(se, 4), n)


#: z of a two-sided 95 % interval.
Z95 = 1.959964


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``k`` in ``n`` ((0, 1) when n is 0).

    >>> [round(x, 3) for x in wilson(3, 4)]
    [0.301, 0.954]
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    return lo, 1.0 if k == n else min(1.0, centre + half)


@dataclass(frozen=True)
class Rate:
    """``k`` successes in ``n`` episodes, shown as the rate and its Wilson 95 % interval."""

    k: int
    n: int

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def __str__(self) -> str:
        if self.n == 0:
            return "-"
        lo, hi = self.interval
        return f"{self.rate:.2f} [{lo:.2f}, {hi:.2f}]"


def rate(successes: Iterable[bool]) -> Rate:
    xs = [bool(x) for x in successes]
    return Rate(sum(xs), len(xs))
