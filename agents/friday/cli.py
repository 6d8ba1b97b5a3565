"""``gcc-gym learn``: FRIDAY's self-directed learning; and FRIDAY's flags for ``gcc-gym run``.

    gcc-gym learn GCC/OSWorld --env-kwargs '{"code": "sandbox"}' --policy friday \\
        --objective "spreadsheets with openpyxl" --store friday-store --episodes 5

asks the model for a curriculum, practises it and keeps the tools the critic accepts in the
store folder; the log (``--out``) has each episode's critic verdict beside the env's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from gcc_envs.errors import GCCError


def _env_kwargs(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise argparse.ArgumentTypeError(f"not JSON: {e}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object of env keyword arguments")
    return value


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """FRIDAY's flags on ``gcc-gym run`` (and ``learn``)."""
    p.add_argument(
        "--store",
        metavar="DIR",
        help="--policy friday: the tool repository and memories, a folder of plain files "
        "(made if missing; default: an empty store in memory)",
    )
    p.add_argument(
        "--store-readonly",
        action="store_true",
        help="--policy friday: use the store without learning (nothing is written)",
    )
    p.add_argument(
        "--env-kwargs",
        type=_env_kwargs,
        default={},
        metavar="JSON",
        help='keyword arguments for gym.make, e.g. \'{"code": "sandbox"}\' for GCC/OSWorld',
    )


def policy_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """FRIDAY's keyword arguments from the parsed flags (the LMM flags are shared with cradle)."""
    kwargs: dict[str, Any] = {"model": args.model_name, "store_readonly": args.store_readonly}
    if args.llm_base_url:
        kwargs["base_url"] = args.llm_base_url
    if args.store:
        kwargs["store"] = Path(args.store)
    for flag, key in (("llm_max_calls", "max_llm_calls"), ("llm_max_cost_usd", "max_cost_usd"),
                      ("llm_timeout_s", "llm_timeout_s"), ("llm_max_failed_steps", "max_failed_steps")):  # fmt: skip
        if getattr(args, flag, None) is not None:
            kwargs[key] = getattr(args, flag)
    return kwargs


def _warn(message: str) -> None:
    print(f"gcc-gym: warning: {message}", file=sys.stderr)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "learn",
        help="self-directed learning: practise a model-made curriculum, keep the tools",
        description="FRIDAY's self-directed learning: the model proposes practice tasks for the "
        "objective (easy to hard), the agent attempts them in the env's episodes, and the tools "
        "its critic accepts go into the store. Writes a log with the critic's verdict beside the "
        "env's where the env gives one.",
    )
    p.set_defaults(handler=run)
    p.add_argument("env_id", help="a registered id, e.g. GCC/OSWorld")
    p.add_argument("--objective", required=True, help="what to learn, in words")
    p.add_argument("--policy", default="friday", choices=["friday"], help="who learns")
    p.add_argument("--episodes", type=int, default=5, help="practice episodes (>= 1)")
    p.add_argument("--seed", type=int, default=0, help="first episode's seed (then +1 each)")
    p.add_argument("--out", default="runs/learn", help="folder for log.jsonl and report.json")
    p.add_argument("--llm-base-url", help="OpenAI-compatible endpoint (key from OPENAI_API_KEY)")
    p.add_argument("--model-name", "--llm-model", dest="model_name", default="gpt-4o")
    p.add_argument("--llm-max-calls", type=int, help="LMM requests per episode")
    p.add_argument("--llm-max-cost-usd", type=float, help="LMM cost per episode in USD")
    p.add_argument("--llm-timeout-s", type=float, default=60.0, help="seconds per LMM request")
    p.add_argument("--quiet", action="store_true", help="no line per episode")
    add_run_arguments(p)
    return p


def run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)
    from agents.friday.learn import learn
    from agents.friday.policy import FridayPolicy

    if args.episodes < 1:
        raise GCCError(f"--episodes must be >= 1, got {args.episodes}")
    if args.store_readonly:
        raise GCCError("learn writes the store: leave out --store-readonly")
    if not args.store:
        raise GCCError("learn keeps what it learns in a folder: give --store DIR")
    try:
        env = gym.make(args.env_id, disable_env_checker=True, **args.env_kwargs)
    except gym.error.Error as e:
        raise GCCError(str(e)) from None
    out = Path(args.out)

    def say(ep: Any) -> None:
        if not args.quiet:
            verdict = "-" if ep.env_success is None else ("yes" if ep.env_success else "no")
            print(f"episode {ep.episode}: critic {'yes' if ep.critic_success else 'no'}, env "
                  f"{verdict}, kept {ep.tools_kept or '-'}, {ep.usage['calls']} calls, "
                  f"{ep.usage['prompt_tokens']}+{ep.usage['completion_tokens']} tokens: {ep.task[:60]}")  # fmt: skip

    try:
        policy = FridayPolicy(env, **policy_kwargs(args), on_error=_warn)
        try:
            report = learn(env, policy, args.objective, args.episodes, args.seed,
                           out / "log.jsonl", say)  # fmt: skip
        finally:
            policy.close()
    finally:
        env.close()
    agree, judged = report.critic_accuracy()
    kept = sorted({t for e in report.episodes for t in e.tools_kept})
    print(f"learned {len(kept)} tool(s): {', '.join(kept) or 'none'}; store {args.store}")
    if judged:
        print(f"critic agreed with the env on {agree} of {judged} checked episodes")
    print(f"log: {out / 'log.jsonl'}, {out / 'report.json'}")
    return 0
