"""``Verdict``: a judge's answer in place of a probe (success or not, and who said so).

A value both sides share: judges give it, tasks read it; it sits in ``core`` so neither
imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    """A judge's answer in place of a probe: success or not, and who said so."""

    success: bool
    judge: str | None
