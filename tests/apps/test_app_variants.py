"""Every software twin task draws its values from pools large enough that two seeds rarely
share a variant (DESIGN §10): over seeds 0..99 the share of seed pairs drawing the same
variant is at most 1 % (``fairness.MAX_COLLISION``). A dry draw of the tasks' ``choose`` steps: no display, no program
(``benchmarks/apps_variants.py`` prints the table)."""

from __future__ import annotations

import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.apps.software import fairness
from gcc_envs.apps.software.suite_env import live_only
from gcc_envs.registration import specs

FACTORY = "gcc_envs.apps.software.suite_env:make_software_env"
TWINS = [
    pytest.param(row, id=row.env_id(suite.title))
    for suite in specs().values()
    if getattr(suite, "env_class", None) == FACTORY
    for row in suite.tasks
    if row.registered and row.key not in live_only(suite)
]


def test_every_software_suite_is_covered():
    assert {p.id.split("/")[1].split("-")[0] for p in TWINS} >= {
        "Chrome", "Outlook", "CapCut", "Meitu", "Feishu"}  # fmt: skip


@pytest.mark.parametrize("row", TWINS)
def test_two_seeds_rarely_share_a_variant(row):
    rate = fairness.collision_rate(row, range(100))
    assert rate <= fairness.MAX_COLLISION, (
        f"{rate:.3f} of seed pairs share a variant: widen the task's pools"
    )
