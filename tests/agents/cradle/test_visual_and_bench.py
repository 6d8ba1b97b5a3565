"""Stardew's visual prompts reach the model; the cost benchmark measures what it claims."""

from __future__ import annotations

import base64
import importlib.util
import sys
from pathlib import Path

import cv2
import gymnasium as gym
import numpy as np

import gcc_envs  # noqa: F401  (registers the ids)
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from wrappers import ChunkVideo
from wrappers.add_side_bands import BLUE, YELLOW

KEY = "GCC_TEST_OPENAI_KEY"
MOVE = "Action:\n```python\nmove_right(duration=1.5)\n```"
BENCH = Path(__file__).parents[3] / "benchmarks" / "perf_cradle.py"


def decode(url: str) -> np.ndarray:
    png = np.frombuffer(base64.b64decode(url.split(",", 1)[1]), np.uint8)
    return cv2.cvtColor(cv2.imdecode(png, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def test_stardew_screens_carry_the_grid_and_side_bands_but_reflection_frames_do_not(server):
    server.default = MOVE
    env = ChunkVideo(gym.make("GCC/Stardew-Shopping", obs_size=(180, 320)), max_frames=4)
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY,
                          llm=LLMConfig(backoff_s=0.01), config=CradleConfig(fused=True))  # fmt: skip
    assert policy.visual.kinds == ("grid", "side_bands")
    obs, info = env.reset(seed=0)
    policy.reset(info)
    for _ in range(2):
        obs, *_, info = env.step(policy.act(obs, info))
    last = server.chat_requests()[-1]
    sheet, screen = (decode(u) for u in last.urls)
    assert tuple(screen[90, 0]) == BLUE and tuple(screen[90, -1]) == YELLOW
    assert tuple(sheet[sheet.shape[0] // 2, 0]) != BLUE
    assert "blue" in last.body["messages"][0]["content"][0]["text"]


def test_the_benchmark_counts_one_fused_request_per_step_and_prices_images(server, monkeypatch):
    spec = importlib.util.spec_from_file_location("perf_cradle", BENCH)
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "perf_cradle", bench)
    spec.loader.exec_module(bench)
    paper = bench.measure("GCC/Stardew-Shopping", False, 3, (90, 160))
    fused = bench.measure("GCC/Stardew-Shopping", True, 3, (90, 160))
    assert fused.total().calls == 3 and paper.total().calls >= 3 * 3
    # 160x90 at high detail scales to 1365x768: 85 + 6 tiles * 170
    assert paper.modules["action_planning"].image == 3 * 1105
    assert fused.modules["fused"].image >= 3 * 1105
    assert "fused/paper calls" in bench.table([paper, fused])
