"""``gcc-gym``: list envs, run policies on them, replay and export recorded datasets.

It sits on top of every package (envs, wrappers, agents), which is why it lives in ``agents``.
"""

from __future__ import annotations

import argparse
import inspect
import os
import re
import sys
from pathlib import Path

from agents.bench import cli as bench_cli
from agents.friday import cli as friday_cli
from agents.sb3 import cli as sb3_cli
from gcc_envs.errors import GCCError

_RST_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]*\.)?([^`]+)`")
_PLACEHOLDER = re.compile(r"\$\{?(\w+)\}?")


def plain(text: str) -> str:
    """Card or instruction text for a terminal: no RST markup, placeholders shown as <name>.

    >>> plain("Type '$phrase' at ${url}/x with :class:`~gcc.core.Env` or ``live=True``.")
    "Type '<phrase>' at <url>/x with Env or live=True."
    """
    text = _RST_ROLE.sub(r"\1", text).replace("``", "")
    return " ".join(_PLACEHOLDER.sub(r"<\1>", text).split())


def _instruction(spec: object, task: object) -> str:
    """A task's instruction: its row's, else its task class's (a game) or its task file's."""
    from gcc_envs.core.spec import GameSpec, load

    if task is None:
        return ""
    text = getattr(task, "instruction", "")
    if not text and isinstance(spec, GameSpec):
        text = getattr(load(spec.make_task)(task.key), "instruction", "")  # type: ignore[attr-defined]
    if not text and getattr(spec, "key", None) == "osworld":
        from gcc_envs.osworld.taskfile import load_task

        text = load_task(task.key).instruction  # type: ignore[attr-defined]
    return str(text)


def _card_line(env_id: str, width: int = 160) -> str:
    """The card's first line, then the task's instruction (cut at ``width``), which tells
    apart the ids that share a card."""
    from gcc_envs.core.spec import load
    from gcc_envs.registration import spec_of, task_of

    spec = spec_of(env_id)
    doc = inspect.getdoc(load(spec.env_class)) or ""
    first = plain(doc.splitlines()[0]) if doc else ""
    task = task_of(env_id)
    if task is None:
        return first
    what = plain(_instruction(spec, task))
    what = what if len(what) <= width else what[: width - 1].rstrip() + "…"
    return f"{first} — {what or task.name}"


def cmd_list(args: argparse.Namespace) -> int:
    import gcc_envs

    for env_id in gcc_envs.env_ids():
        print(f"{env_id:<28} {_card_line(env_id)}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)

    try:
        return _run(args)
    except gym.error.Error as e:  # e.g. a misspelled id: Gymnasium's message says what it meant
        raise GCCError(str(e)) from None


def _say(message: str) -> None:
    """A warning printed at once, above a progress bar if one is drawn."""
    from tqdm import tqdm

    tqdm.write(f"gcc-gym: warning: {message}", file=sys.stderr)


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
        _say("no videos: moviepy is missing (pip install -e '.[video]'; --no-video hides this)")
        return False
    return True


def _run(args: argparse.Namespace) -> int:
    from agents.evaluate import evaluate, format_table, write_results

    out = Path(args.out)
    env_kwargs: dict = {"time_mode": args.time_mode, **args.env_kwargs}
    if args.obs_size:
        env_kwargs["obs_size"] = tuple(args.obs_size)
    if args.action_mode:
        env_kwargs["action_mode"] = args.action_mode
    policy_kwargs: dict = {} if args.policy in ("cradle", "friday") else {"seed": args.seed}
    if args.policy == "friday":
        policy_kwargs = friday_cli.policy_kwargs(args) | {"on_error": _say}
    if args.policy == "cradle":
        policy_kwargs["model"] = args.model_name
        if args.llm_base_url:
            policy_kwargs["base_url"] = args.llm_base_url
        policy_kwargs["max_llm_calls"] = args.llm_max_calls
        policy_kwargs["max_cost_usd"] = args.llm_max_cost_usd
        policy_kwargs["llm_timeout_s"] = args.llm_timeout_s
        policy_kwargs["max_failed_steps"] = args.llm_max_failed_steps
        policy_kwargs["on_error"] = _say
        if args.cradle_fused:
            from agents.cradle import CradleConfig

            policy_kwargs["config"] = CradleConfig(fused=True)
    if args.policy == "scripted":
        policy_kwargs["privileged"] = not args.no_privileged
        if args.script:
            policy_kwargs["script"] = args.script
    if args.policy == "sb3":
        if not args.model:
            raise GCCError("--policy sb3 needs --model PATH/model.zip (from gcc-gym train)")
        policy_kwargs["model_path"] = args.model
        if not args.obs_size:  # the frames the model was trained on
            from agents.sb3.policy import train_meta

            env_kwargs["obs_size"] = tuple(train_meta(args.model)["obs_size"])
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


def cmd_replay(args: argparse.Namespace) -> int:
    from gcc_envs.datasets import Episode, episode_folders
    from gcc_envs.datasets.video import replay_to_video

    folders = episode_folders(args.dir)
    if len(folders) != 1:
        raise GCCError(
            f"{args.dir} holds {len(folders)} episodes; give one episode folder, e.g. {folders[0]}"
        )
    ep = Episode(folders[0])
    first_diff = replay_to_video(ep, args.out, fps=args.fps, progress=not args.quiet)
    verdict = "identical to the recording"
    if first_diff is not None:
        verdict = f"DIFFERENT from the recording from frame {first_diff} on"
    print(f"replayed {ep.path.name}: {len(ep)} steps, frames {verdict}")
    if args.out:
        print(f"video: {args.out}")
    return 0 if first_diff is None else 1


def cmd_export(args: argparse.Namespace) -> int:
    from gcc_envs.datasets import export_minari

    ds = export_minari(args.dir, args.minari, actions=args.actions, data_format=args.data_format)
    kind = type(ds.action_space).__name__
    print(
        f"Minari dataset {args.minari}: {ds.total_episodes} episodes, {ds.total_steps} steps, "
        f"actions {kind}"
    )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from agents.play import play

    env_kwargs: dict = {}
    if args.obs_size:
        env_kwargs["obs_size"] = tuple(args.obs_size)
    steps = play(
        args.env_id,
        seed=args.seed,
        fps=args.fps,
        record=args.record,
        state_file=args.state_file,
        max_seconds=args.max_seconds,
        env_kwargs=env_kwargs,
        title=args.title,
        pause_on_blur=args.pause_on_blur,
        pause_key=args.pause_key,
        keep_final=args.keep_final,
    )
    print(f"played {steps} steps" + (f"; recorded in {args.record}" if args.record else ""))
    return 0


def warn_token_in_argv(token: str | None) -> None:
    """A token given with --token is in the command line, which ps shows every user."""
    if token:
        print(
            "gcc-gym: warning: --token is visible to every user of this machine in ps; "
            "prefer --token-file PATH or GCC_REMOTE_TOKEN",
            file=sys.stderr,
        )


def cmd_serve_desktop(args: argparse.Namespace) -> int:
    import os

    from gcc_envs.backends.desktop.server import ServerConfig, serve
    from gcc_envs.backends.desktop.service import ServiceConfig
    from gcc_envs.httpd import read_token

    config = ServerConfig(
        token=read_token(args.token, args.token_file, os.environ),
        host=args.host,
        port=args.port,
        service=ServiceConfig(
            display=args.display,
            screen_size=tuple(args.screen_size),
            pause=args.pause,
            target=args.target,
            allow_launch=args.allow_launch,
            idle_s=args.idle_s,
            judge=args.judge,
        ),
    )
    warn_token_in_argv(args.token)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"gcc-gym: warning: listening on {args.host}: anyone who can reach it with the token "
            "controls this desktop, and plain HTTP carries the token unencrypted (prefer an SSH "
            "tunnel to the loopback default)",
            file=sys.stderr,
        )
    serve(config, announce=lambda url: print(f"serving on {url}", flush=True))
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)
    from agents.calibrate import calibrate

    env_kwargs: dict = {}
    if args.obs_size:
        env_kwargs["obs_size"] = tuple(args.obs_size)
    env = gym.make(args.env_id, **env_kwargs)
    try:
        cal = calibrate(env, args.hfov, moves=args.moves, seed=args.seed)
    finally:
        env.close()
    for px, shift, deg in cal.samples:
        print(f"mouse {px:+5d} px -> picture {shift:+8.2f} px -> {deg:6.2f} deg")
    print(
        f"pixels per degree: {cal.pixels_per_degree:.3f} at width {cal.width} "
        f"(fit rms {cal.rms_deg:.3f} deg, {len(cal.samples)} moves)"
    )
    return 0


class _DefaultsFormatter(argparse.HelpFormatter):
    """Help that names each option's default, unless there is none or the text says it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if default is None or default is False or default == argparse.SUPPRESS or "default" in text:
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return f"{text} (default: %(default)s)"
        return text


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gcc-gym", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list registered env ids: their cards' first lines and their tasks")
    r = sub.add_parser(
        "run",
        help="run a policy on an env for some episodes",
        description="Run a policy on an env for some episodes; write results.json/.csv, videos "
        "and (with --record) a trajectory dataset.",
        formatter_class=_DefaultsFormatter,
    )
    r.add_argument("env_id", help="a registered id, e.g. GCC/Stardew-Cultivation (gcc-gym list)")
    r.add_argument(
        "--policy",
        default="scripted",
        choices=["random", "scripted", "sb3", "cradle", "friday"],
        help="who acts",
    )
    friday_cli.add_run_arguments(r)
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
        type=_positive_int,
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
        type=_positive_float,
        default=60.0,
        help="--policy cradle/friday: seconds one LMM request may take before it is retried",
    )
    r.add_argument(
        "--llm-max-failed-steps",
        type=_positive_int,
        default=3,
        help="--policy cradle/friday: end the episode after this many steps in a row whose LMM "
        "requests all failed",
    )
    r.add_argument(
        "--cradle-fused",
        action="store_true",
        help="--policy cradle: one LMM request per step for all modules",
    )
    r.add_argument("--model", help="model.zip for --policy sb3 (from gcc-gym train)")
    r.add_argument("--episodes", type=_positive_int, default=5, help="episodes to run (>= 1)")
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
    rp = sub.add_parser("replay", help="re-run a recorded lockstep episode; check it, render MP4")
    rp.add_argument("dir", help="an episode folder (episode-NNNNNN-seed-S)")
    rp.add_argument("--out", help="write the replayed frames to this MP4")
    rp.add_argument("--fps", type=float, default=4.0, help="video frames per second (1 per step)")
    rp.add_argument("--quiet", action="store_true", help="no progress bar")
    ex = sub.add_parser("export", help="export a recorded dataset (to Minari)")
    ex.add_argument("dir", help="a dataset folder (or one episode folder)")
    ex.add_argument(
        "--minari", required=True, metavar="ID", help="Minari dataset id, e.g. gcc/demo-v0"
    )
    ex.add_argument(
        "--actions",
        default="auto",
        choices=["auto", "space", "code", "events"],
        help="actions as space members or as the JSON event log (auto: space when possible)",
    )
    ex.add_argument("--data-format", default="arrow", choices=["arrow", "hdf5", "parquet"])
    sb3_cli.add_parser(sub, _DefaultsFormatter)
    pl = sub.add_parser("play", help="play an env yourself in a window (play extra: pygame)")
    pl.add_argument("env_id")
    pl.add_argument("--seed", type=int, default=0, help="first episode's seed (then +1 each)")
    pl.add_argument("--record", metavar="DIR", help="write the session as a dataset here")
    pl.add_argument(
        "--state-file", metavar="PATH", help="publish the simulator's state as JSON each step"
    )
    pl.add_argument("--fps", type=float, default=30.0, help="steps per second")
    pl.add_argument("--max-seconds", type=float, help="end the session after this many seconds")
    pl.add_argument("--obs-size", type=int, nargs=2, metavar=("H", "W"))
    pl.add_argument("--title", help="window title (default: gcc-gym play ENV_ID: instruction)")
    pl.add_argument("--pause-on-blur", action="store_true", help="freeze game time while unfocused")
    pl.add_argument("--pause-key", metavar="KEY", help="key that toggles a PAUSED screen")
    pl.add_argument(
        "--keep-final", action="store_true", help="keep an ended episode on screen (no reset)"
    )
    sd = sub.add_parser("serve-desktop", help="serve this desktop to RemoteBackend over HTTP")
    sd.add_argument("--token-file", help="file holding the bearer token clients must send")
    sd.add_argument("--token", help="the token itself (shown by ps; or GCC_REMOTE_TOKEN)")
    sd.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback)")
    sd.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    sd.add_argument("--display", help="X display to serve, e.g. :0 (default: start own Xvfb)")
    sd.add_argument("--screen-size", type=int, nargs=2, default=(1280, 720), metavar=("W", "H"))
    sd.add_argument("--pause", default="signal", choices=["signal", "focus", "none"])
    sd.add_argument("--target", help="title regex of the window to drive (default: the screen)")
    sd.add_argument("--idle-s", type=float, default=30.0, help="release held input after idle")
    sd.add_argument("--judge", help="judge clients may use, e.g. state-file:/path/state.json")
    sd.add_argument(
        "--allow-launch", action="store_true", help="let clients start programs (argv, no shell)"
    )
    ca = sub.add_parser(
        "calibrate", help="measure a camera-mouse game's mouse pixels per degree of turn"
    )
    ca.add_argument("env_id")
    ca.add_argument("--hfov", type=float, default=90.0, help="horizontal field of view (deg)")
    ca.add_argument(
        "--moves", type=int, nargs="+", default=[20, -20, 40, -40, 60, -60], metavar="PX"
    )
    ca.add_argument("--obs-size", type=int, nargs=2, metavar=("H", "W"))
    ca.add_argument("--seed", type=int, default=0)
    from agents.osworld_cli import add_osworld_parser

    add_osworld_parser(sub)
    bench_cli.add_parsers(sub)
    friday_cli.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        commands = {
            "list": cmd_list,
            "run": cmd_run,
            "replay": cmd_replay,
            "export": cmd_export,
            "train": sb3_cli.run,
            "play": cmd_play,
            "calibrate": cmd_calibrate,
            "serve-desktop": cmd_serve_desktop,
            "osworld": lambda a: a.func(a),
            **bench_cli.COMMANDS,
            "learn": friday_cli.run,
        }
        return commands[args.command](args)
    except GCCError as e:
        print(f"gcc-gym: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader left (gcc-gym list | head): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
