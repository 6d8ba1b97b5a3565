"""The tasks are fair tests: the expert succeeds on held-out seeds through the skills, the
baselines do less, random play and doing nothing fail, seed 0's inputs fail on seed 1."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import agents
import gcc_envs  # noqa: F401  (registers the ids)
from agents.evaluate import run_episode
from gcc_envs.games.dealers_life2 import GAME
from gcc_envs.games.dealers_life2.metrics import NINE
from gcc_envs.games.dealers_life2.tasks import Day
from wrappers import UseSkills

ACCEPT_FIRST = "agents.scripted.dealers_life2_screen:AcceptFirstScript"
HELD_OUT = [910, 911, 912, 913, 914]  # not used while tuning


def play(env_id, episode_seed, policy="scripted", **kw):
    env = gym.make(env_id)
    pol = agents.make_policy(policy, env, **kw)
    rec = run_episode(env, pol, episode_seed)
    env.close()
    return rec


def test_the_spec_rows_match_the_registry():
    for t in GAME.tasks:
        spec = gym.spec(t.env_id(GAME.title))
        assert spec.max_episode_steps == t.max_steps and spec.kwargs["task"] == t.key
    assert GAME.max_skill_calls == 1 and GAME.perf.steps_per_s_720p == 150


def test_info_carries_the_nine_metrics_every_step():
    env = gym.make("GCC/DealersLife2-Day", obs_size=(72, 128))
    _, info = env.reset(seed=0)
    for _ in range(3):
        assert set(NINE) <= set(info["metrics"])
        assert {"deal_share", "mean_rounds", "total_profit_pct", "deal_rate",
                "normalized_profit"} <= set(info["metrics"])  # fmt: skip
        info = env.step("open_shop()")[-1]


def test_the_expert_trader_makes_a_profit_on_held_out_days():
    recs = [play("GCC/DealersLife2-Day", s, privileged=True) for s in HELD_OUT]
    assert sum(r.success for r in recs) >= 4, [r.metrics["profit"] for r in recs]
    assert all(r.invalid_actions == 0 and r.steps < GAME.task("day").max_steps for r in recs)


@pytest.mark.slow
def test_the_expert_closes_most_deals_and_profits_over_a_held_out_week():
    rec = play("GCC/DealersLife2-Week", 915, privileged=True)
    m = rec.metrics
    assert rec.success and m["days_finished"] == 7 and rec.invalid_actions == 0
    assert m["deal_share"] >= 0.8 and m["total_profit_pct"] >= 30
    assert rec.steps <= GAME.task("week").max_steps // 2
    worse = play("GCC/DealersLife2-Week", 915, script=ACCEPT_FIRST)
    assert worse.metrics["total_profit_pct"] < m["total_profit_pct"] - 30
    assert worse.metrics["ROI"] < m["ROI"]


def test_accepting_the_first_offer_earns_less_than_haggling():
    expert = [play("GCC/DealersLife2-Day", s, privileged=True) for s in HELD_OUT[:3]]
    naive = [play("GCC/DealersLife2-Day", s, script=ACCEPT_FIRST) for s in HELD_OUT[:3]]
    assert sum(r.metrics["profit"] for r in naive) < sum(r.metrics["profit"] for r in expert)
    assert all(r.metrics["mean_rounds"] <= 1 for r in naive)


def test_the_screen_reading_trader_profits_without_the_state():
    recs = [play("GCC/DealersLife2-Day", s, privileged=False) for s in HELD_OUT[:3]]
    assert sum(r.success for r in recs) >= 2


def test_random_play_and_doing_nothing_fail():
    for seed in HELD_OUT[:2]:
        rec = play("GCC/DealersLife2-Day", seed, policy="random", seed=seed)
        assert not rec.success
    env = gym.make("GCC/DealersLife2-Day", obs_size=(72, 128))
    env.reset(seed=HELD_OUT[0])
    done, steps = False, 0
    while not done:
        _, r, term, trunc, info = env.step("")
        done, steps = term or trunc, steps + 1
    assert trunc and not info["success"] and steps == GAME.task("day").max_steps
    assert info["metrics"]["profit"] == 0 and info["progress"] == 0


def test_seed_zeros_inputs_replayed_open_loop_on_seed_one_do_not_reach_the_expert():
    env = gym.make("GCC/DealersLife2-Day")
    pol = agents.make_policy("scripted", env, privileged=True)
    obs, info = env.reset(seed=0)
    pol.reset(info)
    actions, done = [], False
    while not done:
        a = pol.act(obs, info)
        actions.append(a)
        obs, _, term, trunc, info = env.step(a)
        done = term or trunc
    expert_1 = play("GCC/DealersLife2-Day", 1, privileged=True)
    env.reset(seed=1)
    info = {}
    for a in actions:
        _, _, term, trunc, info = env.step(a)
        if term or trunc:
            break
    replayed = info["metrics"]
    assert not (info["success"] and replayed["profit"] >= expert_1.metrics["profit"])
    assert replayed["profit"] < expert_1.metrics["profit"]


def test_bad_input_through_the_env_returns_and_moves_no_money():
    env = gym.make("GCC/DealersLife2-Day", action_mode="event")
    env.reset(seed=2)
    s = env.unwrapped.backend.sim.state
    cash = s.cash
    for code in ["pyautogui.write('abc$%')", "pyautogui.press('enter')", "pyautogui.click(5, 700)",
                 "pyautogui.press('nosuchkey')", "open_shop(", "give_price(price=-1)"]:  # fmt: skip
        _, _, term, trunc, info = env.step(code)
        assert not (term or trunc) and info["held_keys"] == []
    assert s.cash == cash
    env.step("open_shop()")
    env.step("process_dialog()")
    env.step("close_description_page()")
    for code in ["pyautogui.write('12ab')", "pyautogui.press('backspace')",
                 "pyautogui.press('backspace')", "pyautogui.press('enter')"]:  # fmt: skip
        info = env.step(code)[-1]
    assert s.dialog is not None and s.dialog.kind == "warning" and s.cash == cash
    assert info["last_action_error"] is None


def test_lockstep_rollouts_of_skill_calls_are_deterministic():
    def run():
        env = gym.make("GCC/DealersLife2-Day", obs_size=(90, 160))
        obs, _ = env.reset(seed=8)
        pol = agents.make_policy("scripted", env, privileged=True)
        frames, infos = [obs], []
        for _ in range(25):
            obs, r, term, trunc, info = env.step(pol.act(obs, {}))
            frames.append(obs)
            infos.append({k: v for k, v in info.items() if k not in ("t_wall", "t_paused")})
            if term or trunc:
                break
        return frames, infos

    (f1, i1), (f2, i2) = run(), run()
    assert i1 == i2 and all(np.array_equal(a, b) for a, b in zip(f1, f2))


def _blind_policies():
    path = Path(__file__).parents[3] / "benchmarks" / "blind" / "dealers_life2.py"
    spec = importlib.util.spec_from_file_location("_dl2_blind", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.POLICIES


@pytest.mark.parametrize("name", ["accept-all", "ask-150", "overpay-fixed"])
def test_blind_policies_lose_a_day_at_true_worth(name):
    make = _blind_policies()[name]
    for seed in HELD_OUT[:2]:
        env = UseSkills(gym.make("GCC/DealersLife2-Day", obs_size=(90, 160)))
        obs, info = env.reset(seed=seed)
        act = make(seed)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(act(obs, info))
            done = term or trunc
        assert not info["success"], (name, seed, info["metrics"]["profit"])
        assert info["metrics"]["profit"] < Day.min_profit


def test_overpaying_loses_at_true_worth_though_the_books_show_no_loss():
    from dl2_helpers import to_haggle

    env = UseSkills(gym.make("GCC/DealersLife2-Day", obs_size=(90, 160)))
    env.reset(seed=6)
    sim = env.unwrapped.backend.sim
    to_haggle(sim, "seller")
    c = sim.state.customer
    price = 3 * c.offer
    assert price < sim.state.cash
    info = env.step(f"counter_offer(price={price})")[-1]
    m = info["metrics"]
    assert sim.state.dialog.kind == "deal" and m["profit_at_cost"] == 0
    assert m["profit"] == c.item.value - price < 0
