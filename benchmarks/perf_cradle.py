"""Cradle's LMM cost per step: the paper's modular mode vs. ``fused`` mode, per module.

Run: ``python -m benchmarks.perf_cradle [--steps N] [--obs-size H W] [--top-k K] [--env ID ...]``
(needs the ``cradle`` extra). CradlePolicy plays each env against the loopback
OpenAI-compatible server (``agents.cradle.testing.FakeOpenAI``) with scripted, realistic replies
(``agents.cradle.testing.replies``; Stardew's actions come from the scripted shopping expert,
RDR2's from a fixed cycle of Mission 1 skills). The server reports text tokens only
(characters / 4), like a local server that does not count images, so image tokens are computed
here from each request's images with OpenAI's published formula
(:func:`agents.cradle.image_tokens.image_tokens`). Prints, per env, mode and module: LMM calls,
prompt text, image and completion tokens, all per step, and the cost at gpt-4o prices; then
the ratios fused / paper. Both modes show planning the same skills: the game's settings
(``top_k``, e.g. RDR2's 12 most relevant; Stardew: all), or ``--top-k`` (0: all). Targets: fused ≤ 1/3 of the calls and ≤ 1/2 of the tokens per step.
"""

from __future__ import annotations

import argparse
import itertools
import os
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import gymnasium as gym

import gcc_envs
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from agents.cradle.game_settings import load_settings
from agents.cradle.image_tokens import image_tokens, png_size
from agents.cradle.llm import DEFAULT_PRICES
from agents.cradle.testing import FakeOpenAI
from agents.cradle.testing.replies import module_of, scripted
from wrappers import ChunkVideo

KEY_ENV = "GCC_BENCH_OPENAI_KEY"
RDR2_CYCLE = (
    "follow(duration=20)", "turn_and_move_forward(degree=-15, duration=2)",
    "navigate_path(duration=20)", "turn(degree=30)", "move_forward(duration=1.5)",
)  # fmt: skip


@dataclass
class ModuleCost:
    calls: int = 0
    text: int = 0
    image: int = 0
    completion: int = 0

    @property
    def tokens(self) -> int:
        return self.text + self.image + self.completion


@dataclass
class RunCost:
    env_id: str
    mode: str
    steps: int
    modules: dict[str, ModuleCost] = field(default_factory=lambda: defaultdict(ModuleCost))

    def total(self) -> ModuleCost:
        t = ModuleCost()
        for m in self.modules.values():
            t.calls, t.text = t.calls + m.calls, t.text + m.text
            t.image, t.completion = t.image + m.image, t.completion + m.completion
        return t

    def cost_usd(self, model: str = "gpt-4o") -> float:
        p, c = DEFAULT_PRICES[model]
        t = self.total()
        return ((t.text + t.image) * p + t.completion * c) / 1e6


def actions_for(env: gym.Env, env_id: str) -> Callable[[], list[str]]:
    if env_id.startswith("GCC/Stardew"):
        from agents.cradle.testing.stardew_expert import expert_calls
        from agents.scripted.stardew import ShoppingScript

        sc = ShoppingScript(env.unwrapped, privileged=True)
        return lambda: expert_calls(sc)
    cycle = itertools.cycle(RDR2_CYCLE)
    return lambda: [next(cycle)]


def measure(
    env_id: str, fused: bool, steps: int, obs_size: Sequence[int], top_k: int | None = None
) -> RunCost:
    """Run ``steps`` steps of CradlePolicy and account every request the server received."""
    os.environ.setdefault(KEY_ENV, "bench-token")
    server = FakeOpenAI(token=os.environ[KEY_ENV], count_images=False).start()
    env = ChunkVideo(gym.make(env_id, obs_size=tuple(obs_size)), max_frames=8)
    game = "stardew" if env_id.startswith("GCC/Stardew") else "rdr2"
    top_k = load_settings(game).top_k if top_k is None else (top_k or None)
    server.default = scripted(game, actions_for(env, env_id))
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY_ENV,
                          llm=LLMConfig(model="gpt-4o"), config=CradleConfig(fused=fused, top_k=top_k,
                                                              embed_skills=False))  # fmt: skip
    run = RunCost(env_id, "fused" if fused else "paper", steps)
    try:
        obs, info = env.reset(seed=0)
        policy.reset(info)
        for _ in range(steps):
            obs, _, terminated, truncated, info = env.step(policy.act(obs, info))
            if terminated or truncated:
                obs, info = env.reset()
                policy.reset(info)
            for name, u in policy.client.ledger.step_by_module.items():
                m = run.modules[name]
                m.calls, m.text = m.calls + u.calls, m.text + u.prompt_tokens
                m.completion += u.completion_tokens
        for r in server.chat_requests():
            run.modules[module_of(r.body)].image += sum(
                image_tokens(*png_size(u), d) for u, d in zip(r.urls, r.details)
            )
    finally:
        policy.close()
        env.close()
        server.stop()
    return run


def table(runs: Sequence[RunCost]) -> str:
    head = f"{'env':<22} {'mode':<6} {'module':<22} {'calls':>6} {'text':>7} {'image':>7} " \
           f"{'compl':>6} {'tokens':>7} {'usd':>8}"  # fmt: skip
    lines = [head, "-" * len(head)]
    for r in runs:
        rows = [*sorted(r.modules.items()), ("TOTAL per step", r.total())]
        for name, m in rows:
            n = r.steps
            usd = f"{r.cost_usd() / n:.4f}" if name == "TOTAL per step" else ""
            lines.append(f"{r.env_id:<22} {r.mode:<6} {name:<22} {m.calls / n:>6.2f} "
                         f"{m.text / n:>7.0f} {m.image / n:>7.0f} {m.completion / n:>6.0f} "
                         f"{m.tokens / n:>7.0f} {usd:>8}")  # fmt: skip
    by_env: dict[str, dict[str, RunCost]] = defaultdict(dict)
    for r in runs:
        by_env[r.env_id][r.mode] = r
    lines.append("")
    for env_id, modes in by_env.items():
        if {"paper", "fused"} <= set(modes):
            p, f = modes["paper"].total(), modes["fused"].total()
            lines.append(
                f"{env_id}: fused/paper calls {f.calls / p.calls:.2f} (target <= 0.33), "
                f"tokens {f.tokens / p.tokens:.2f} (target <= 0.50), "
                f"image tokens {f.image / max(p.image, 1):.2f}, "
                f"text tokens {f.text / max(p.text, 1):.2f}"
            )
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=12)
    p.add_argument("--obs-size", type=int, nargs=2, default=(720, 1280), metavar=("H", "W"))
    p.add_argument(
        "--top-k",
        type=int,
        help="skills shown to planning, both modes (default: the game's settings; 0: all)",
    )
    p.add_argument("--env", nargs="*", help="env ids (default: Stardew-Shopping, RDR2-Mission1)")
    args = p.parse_args()
    ids = args.env or [i for i in ("GCC/Stardew-Shopping", "GCC/RDR2-Mission1")
                       if i in gcc_envs.env_ids()]  # fmt: skip
    runs = [measure(i, fused, args.steps, args.obs_size, args.top_k)
            for i in ids for fused in (False, True)]  # fmt: skip
    print(f"per step, averaged over {args.steps} steps (step 1 has no reflection), "
          f"obs {args.obs_size[1]}x{args.obs_size[0]}, skills shown (both modes): "
          f"{'game settings' if args.top_k is None else args.top_k or 'all'} "
          "(lexical retrieval)")  # fmt: skip
    print(table(runs))


if __name__ == "__main__":
    main()
