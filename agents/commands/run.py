"""``gcc-gym run``: a policy on an env for some episodes; results, videos, a dataset."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agents.commands.options import DefaultsFormatter, positive_float, positive_int, say
from agents.friday import cli as friday_cli
from gcc_envs.errors import GCCError

POLICIES = ("random", "scripted", "sb3", "cradle", "friday")


def add_parser(sub: Any) -> None:
    r = sub.add_parser(
        "run",
        help="run a policy on an env for some episodes",
        description="Run a policy on an env for some episodes; write results.json/.csv, videos "
        "and (with --record) a trajectory dataset.",
        formatter_class=DefaultsFormatter,
    )
    r.set_defaults(handler=run)
    r.add_argument("env_id", help="a registered id, e.g. GCC/Stardew-Cultivation (gcc-gym list)")
    r.add_argument("--policy", default="scripted", choices=POLICIES, help="who acts")
    friday_cli.add_run_arguments(r)
    _add_llm_arguments(r)
    r.add_argument("--model", help="model.zip for --policy sb3 (from gcc-gym train)")
    r.add_argument("--episodes", type=positive_int, default=5, help="episodes to run (>= 1)")
    r.add_argument("--seed", type=int, default=0, help="first episode's seed (then +1 each)")
    r.add_argument("--out", default="runs/latest", help="folder for results and videos")
    r.add_argument(
        "--record",
        metavar="DIR",
        help="also record every episode as a trajectory dataset here (for replay and export)",
    )
    r.add_argument(
        "--obs-size",
        type=int,
        nargs=2,
        metavar=("H", "W"),
        help="observation size in pixels (default: the env's)",
    )
    r.add_argument(
        "--time-mode",
        default="lockstep",
        choices=["lockstep", "paused", "realtime"],
        help="how game time relates to steps (lockstep: simulators only)",
    )
    r.add_argument(
        "--action-mode",
        choices=["state", "event"],
        help="action space shape (default: the env's)",
    )
    r.add_argument(
        "--video",
        action=argparse.BooleanOptionalAction,
        help="an MP4 per episode (default: on when moviepy, the video extra, is installed)",
    )
    r.add_argument(
        "--no-privileged",
        action="store_true",
        help="scripted policy may not read the simulator's state",
    )
    r.add_argument(
        "--script",
        metavar="MODULE:CLASS",
        help="--policy scripted: run this script instead of the task's own (a baseline)",
    )
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.add_argument(
        "--per-task",
        action="store_true",
        help="run each checkpoint of a mission alone and print success per checkpoint",
    )


def _add_llm_arguments(r: argparse.ArgumentParser) -> None:
    r.add_argument(
        "--llm-base-url",
        help="OpenAI-compatible endpoint for --policy cradle or friday (key from OPENAI_API_KEY; "
        "default: api.openai.com)",
    )
    r.add_argument(
        "--model-name",
        "--llm-model",
        dest="model_name",
        default="gpt-4o",
        help="model for --policy cradle or friday",
    )
    r.add_argument(
        "--llm-max-calls",
        type=positive_int,
        help="--policy cradle/friday: LMM requests per episode, failed ones included; when spent the "
        "agent answers DONE (default: no limit)",
    )
    r.add_argument(
        "--llm-max-cost-usd",
        type=float,
        help="--policy cradle/friday: LMM cost per episode in USD; when spent the agent answers DONE "
        "(default: no limit)",
    )
    r.add_argument(
        "--llm-timeout-s",
        type=positive_float,
        default=60.0,
        help="--policy cradle/friday: seconds one LMM request may take before it is retried",
    )
    r.add_argument(
        "--llm-max-failed-steps",
        type=positive_int,
        default=3,
        help="--policy cradle/friday: end the episode after this many steps in a row whose LMM "
        "requests all failed",
    )
    r.add_argument(
        "--cradle-fused",
        action="store_true",
        help="--policy cradle: one LMM request per step for all modules",
    )


def run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)

    try:
        return _run(args)
    except gym.error.Error as e:  # e.g. a misspelled id: Gymnasium's message says what it meant
        raise GCCError(str(e)) from None


def env_kwargs_of(args: argparse.Namespace) -> dict[str, Any]:
    """The env's keyword arguments the flags ask for."""
    env_kwargs: dict[str, Any] = {"time_mode": args.time_mode, **args.env_kwargs}
    if args.obs_size:
        env_kwargs["obs_size"] = tuple(args.obs_size)
    if args.action_mode:
        env_kwargs["action_mode"] = args.action_mode
    if args.policy == "sb3" and not args.obs_size and args.model:
        from agents.sb3.policy import train_meta  # the frames the model was trained on

        env_kwargs["obs_size"] = tuple(train_meta(args.model)["obs_size"])
    return env_kwargs


def policy_kwargs_of(args: argparse.Namespace) -> dict[str, Any]:
    """The policy's keyword arguments the flags ask for (each policy takes its own)."""
    if args.policy == "friday":
        return friday_cli.policy_kwargs(args) | {"on_error": say}
    if args.policy == "cradle":
        kwargs: dict[str, Any] = {
            "model": args.model_name,
            "max_llm_calls": args.llm_max_calls,
            "max_cost_usd": args.llm_max_cost_usd,
            "llm_timeout_s": args.llm_timeout_s,
            "max_failed_steps": args.llm_max_failed_steps,
            "on_error": say,
        }
        if args.llm_base_url:
            kwargs["base_url"] = args.llm_base_url
        if args.cradle_fused:
            from agents.cradle import CradleConfig

            kwargs["config"] = CradleConfig(fused=True)
        return kwargs
    kwargs = {"seed": args.seed}
    if args.policy == "scripted":
        kwargs["privileged"] = not args.no_privileged
        if args.script:
            kwargs["script"] = args.script
    if args.policy == "sb3":
        if not args.model:
            raise GCCError("--policy sb3 needs --model PATH/model.zip (from gcc-gym train)")
        kwargs["model_path"] = args.model
    return kwargs


def _want_video(asked: bool | None) -> bool:
    """``--video`` as asked; unasked, on when moviepy is installed (else a note, no video)."""
    from importlib.util import find_spec

    if asked is not None:
        return asked
    try:
        missing = find_spec("moviepy") is None
    except ValueError:  # a None entry in sys.modules: imports of it fail
        missing = True
    if missing:
        say("no videos: moviepy is missing (pip install -e '.[video]'; --no-video hides this)")
        return False
    return True


def _run(args: argparse.Namespace) -> int:
    from agents.evaluate import evaluate, format_table, write_results

    out = Path(args.out)
    policy_kwargs = policy_kwargs_of(args)
    env_kwargs = env_kwargs_of(args)
    video = _want_video(args.video)
    seeds = range(args.seed, args.seed + args.episodes)
    if args.per_task and args.record:
        raise GCCError("--record records whole episodes; use it without --per-task")
    if args.per_task:
        from agents.per_task import evaluate_per_task, format_per_task, subtasks_of

        by_task = evaluate_per_task(
            args.env_id,
            args.policy,
            seeds,
            out,
            env_kwargs,
            policy_kwargs,
            video=video,
            progress=not args.quiet,
        )
        write_results([r for rs in by_task.values() for r in rs], out)
        print(format_per_task(by_task, subtasks_of(args.env_id, env_kwargs)))
        return 0
    records = evaluate(
        args.env_id,
        args.policy,
        seeds,
        out,
        env_kwargs,
        policy_kwargs,
        video=video,
        progress=not args.quiet,
        record=Path(args.record) if args.record else None,
    )
    write_results(records, out)
    print(format_table(records))
    print(
        f"results: {out / 'results.json'}, {out / 'results.csv'}"
        + (f", videos in {out / 'videos'}" if video else "")
        + (f", dataset in {args.record}" if args.record else "")
    )
    stops = [r.policy_info["stop_reason"] for r in records if r.policy_info.get("stop_reason")]
    failed = [why for why in stops if why.startswith("llm:")]
    if failed:
        print(f"gcc-gym: error: {len(failed)} episode(s) ended by LMM failures: {failed[0]}")
        return 1
    return 0
