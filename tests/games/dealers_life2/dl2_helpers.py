"""Shared helpers of the Dealer's Life 2 tests: a simulator at a screen, frames, skills."""

from __future__ import annotations

import numpy as np

from gcc_envs.games.dealers_life2.sim import DealersLife2Sim, buttons


def sim_at(seed: int = 0, days: int = 7) -> DealersLife2Sim:
    sim = DealersLife2Sim()
    sim.reset(np.random.default_rng(seed), {"days": days})
    return sim


def click(sim: DealersLife2Sim, name: str) -> None:
    """Click the centre of button ``name`` (it must be on screen)."""
    rect = dict(buttons(sim.state))[name]
    sim.pointer_move(*rect.centre)
    sim.mouse_down("left")
    sim.mouse_up("left")


def type_price(sim: DealersLife2Sim, text: str) -> None:
    for ch in text:
        sim.key_down(ch)
        sim.key_up(ch)
    sim.key_down("enter")
    sim.key_up("enter")


def to_haggle(sim: DealersLife2Sim, role: str | None = None, limit: int = 200) -> None:
    """Play (rejecting every deal) until a customer of ``role`` is on the haggle screen."""
    s = sim.state
    for _ in range(limit):
        if s.dialog is not None:
            click(sim, "ok")
        elif s.screen == "news":
            click(sim, "open")
        elif s.screen == "stats":
            click(sim, "close")
        elif s.screen == "customer":
            if s.customer.role == "redeem" or (role and s.customer.role != role):
                click(sim, "option1") if s.customer.role == "redeem" else click(sim, "option2")
            else:
                click(sim, "option1")
                click(sim, "close")
                return
        s = sim.state
    raise AssertionError(f"no {role} customer came")
