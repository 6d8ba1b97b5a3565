"""``gcc-gym osworld run``: OSWorld task files through ``GCC/OSWorld``, scores per task and domain.

Results go to ``--out``: ``results.jsonl`` (one record per task, written as each ends, so a
crash loses at most the task in flight), ``results.json`` and ``table.md`` (success rate per
domain and OSWorld's groups: OS, Office, Daily, Professional, Workflow, Overall, the columns of
OSWorld's result tables and of Cradle's Table 16).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym

from gcc_envs.errors import GCCError

#: OSWorld's groups of domains (its result tables' columns).
GROUPS = {
    "OS": ("os",),
    "Office": ("libreoffice_calc", "libreoffice_impress", "libreoffice_writer"),
    "Daily": ("vlc", "thunderbird", "chrome"),
    "Professional": ("vs_code", "gimp"),
    "Workflow": ("multi_apps",),
}
POLICIES = ("noop", "fail", "random", "cradle", "replay:FILE.json")


class ScriptPolicy:
    """Plays per-task action lists (``{"<id8>": ["pyautogui...", "DONE"]}``), else ``DONE``."""

    name = "replay"

    def __init__(self, scripts: dict[str, list[Any]], default: str = "DONE") -> None:
        self.scripts = scripts
        self.default = default
        self.queue: list[Any] = []

    def reset(self, info: dict[str, Any]) -> None:
        self.queue = list(self.scripts.get(str(info.get("task_id", ""))[:8], [self.default]))

    def act(self, obs: Any, info: dict[str, Any]) -> Any:
        return self.queue.pop(0) if self.queue else self.default

    def close(self) -> None:
        pass


def _policy(name: str, env: gym.Env, args: argparse.Namespace) -> Any:
    if name in ("noop", "fail"):
        return ScriptPolicy({}, "DONE" if name == "noop" else "FAIL")
    if name.startswith("replay:"):
        path = Path(name.split(":", 1)[1])
        try:
            scripts = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as e:
            raise GCCError(f"--policy {name}: cannot read the scripts: {e}") from e
        if not isinstance(scripts, dict):
            raise GCCError(f"--policy {name}: expected an object of action lists by task id")
        return ScriptPolicy(scripts)
    from agents import make_policy

    kwargs: dict[str, Any] = {"seed": args.seed} if name == "random" else {}
    if name == "cradle":
        kwargs = {"model": args.model_name, "max_llm_calls": args.llm_max_calls}
        if args.llm_base_url:
            kwargs["base_url"] = args.llm_base_url
    return make_policy(name, env, **kwargs)


def run_task(env: gym.Env, policy: Any, task: str) -> dict[str, Any]:
    """One episode of ``task``; its record (score, steps, setup seconds, what was read)."""
    t0 = time.perf_counter()
    obs, info = env.reset(options={"task": task})
    record: dict[str, Any] = {
        "task_id": info["task_id"], "domain": info["domain"], "setup_s": round(info["setup_s"], 2),
        "instruction": info["instruction"],
    }  # fmt: skip
    for key in ("unsupported", "setup_error"):
        if key in info:
            record[key] = info[key]
    policy.reset(info)
    steps = 0
    while True:
        obs, reward, terminated, truncated, info = env.step(policy.act(obs, info))
        steps += 1
        if "score" in info:
            break
    record.update(score=info["score"], success=info["success"], steps=steps,
                  wall_s=round(time.perf_counter() - t0, 2), evaluation=info["evaluation"])  # fmt: skip
    return record


def domain_table(records: Sequence[dict[str, Any]]) -> str:
    """Markdown: success rate (mean score) and task count per domain, then OSWorld's groups."""

    def rate(rows: Sequence[dict[str, Any]]) -> str:
        return (
            f"{100 * sum(r['score'] for r in rows) / len(rows):.1f} % ({len(rows)})"
            if rows
            else "–"
        )

    domains = sorted({r["domain"] for r in records})
    lines = ["| domain | success (tasks) |", "|---|---|"]
    lines += [f"| {d} | {rate([r for r in records if r['domain'] == d])} |" for d in domains]
    head = [*GROUPS, "Overall"]
    cells = [rate([r for r in records if r["domain"] in GROUPS[g]]) for g in GROUPS]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines.append("| " + " | ".join([*cells, rate(records)]) + " |")
    return "\n".join(lines)


def cmd_osworld(args: argparse.Namespace) -> int:
    import gcc_envs  # noqa: F401 - registers the ids
    from gcc_envs.osworld.bundled import BUNDLED

    tasks = list(args.tasks) or [task_id for _, task_id, _ in BUNDLED]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = gym.make("GCC/OSWorld", max_episode_steps=args.max_steps, max_steps=args.max_steps,
                   disable_env_checker=True)  # fmt: skip
    policy = _policy(args.policy, env, args)
    records: list[dict[str, Any]] = []
    try:
        with open(out / "results.jsonl", "w") as log:
            for i, task in enumerate(tasks, 1):
                record = run_task(env, policy, task)
                records.append(record)
                log.write(json.dumps(record) + "\n")
                log.flush()
                if not args.quiet:
                    print(f"[{i}/{len(tasks)}] {record['domain']}/{record['task_id'][:8]} "
                          f"score {record['score']:.2f} setup {record['setup_s']:.1f} s")  # fmt: skip
    finally:
        policy.close()
        env.close()
    (out / "results.json").write_text(json.dumps(records, indent=1))
    table = domain_table(records)
    (out / "table.md").write_text(table + "\n")
    print(table)
    return 0


def add_osworld_parser(sub: Any) -> None:
    """The ``osworld`` subcommand of ``gcc-gym``."""
    o = sub.add_parser("osworld", help="run OSWorld task files on this desktop")
    osub = o.add_subparsers(dest="osworld_command", required=True)
    r = osub.add_parser(
        "run", help="run a policy on task files; per-task results, per-domain table"
    )
    r.add_argument(
        "tasks", nargs="*", metavar="TASK_FILE", help="task files or bundled ids (all 44)"
    )
    r.add_argument("--policy", default="noop", help=f"one of {', '.join(POLICIES)}")
    r.add_argument("--out", default="runs/osworld", help="folder for results and the table")
    r.add_argument("--max-steps", type=int, default=15, help="steps per task (OSWorld: 15)")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--llm-base-url", help="OpenAI-compatible endpoint for --policy cradle")
    r.add_argument("--model-name", default="gpt-4o-2024-05-13", help="model for --policy cradle")
    r.add_argument(
        "--llm-max-calls", type=int, default=200, help="--policy cradle: LMM calls per task"
    )
    r.add_argument("--quiet", action="store_true", help="no per-task lines")
    r.set_defaults(func=cmd_osworld)
    s = osub.add_parser("serve", help="serve this display's OSWorld episodes (setup, scoring)")
    s.add_argument("--display", required=True, help="the X display serve-desktop serves (:N)")
    s.add_argument("--token-file", help="file holding the shared secret (8+ characters)")
    s.add_argument("--token", help="the secret itself (shown by ps; or GCC_REMOTE_TOKEN)")
    s.add_argument("--host", default="127.0.0.1", help="interface to bind (loopback by default)")
    s.add_argument("--port", type=int, default=8766, help="0 picks a free port")
    s.set_defaults(func=cmd_serve)
    c = osub.add_parser("cache", help="the download cache of the task files' web files")
    what = c.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--from",
        dest="fill",
        metavar="DIR",
        help="add the files of DIR (DIR/<host>/<path> names https://<host>/<path>)",
    )
    what.add_argument(
        "--fetch",
        nargs="+",
        metavar="TASK_FILE_OR_FOLDER",
        help="download every URL these task files (or folders of them) name",
    )
    what.add_argument("--list", action="store_true", help="the entries: size, SHA-256, URL")
    what.add_argument("--info", action="store_true", help="the folder, entries, total size")
    c.add_argument(
        "--prefix",
        default="https://",
        help="--from: the URL a file's path is appended to (default: mirror layout)",
    )
    c.add_argument(
        "--cache-dir",
        help="the cache folder (default: $GCC_OSWORLD_CACHE, else ~/.cache/gcc-gym/osworld)",
    )
    c.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="PREFIX=REPLACEMENT",
        help="fetch URLs starting with PREFIX from REPLACEMENT (a mirror)",
    )
    c.set_defaults(func=cmd_cache)


def _task_files(paths: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted(path.rglob("*.json"))
        elif path.is_file():
            found.append(path)
        else:
            raise GCCError(f"{name}: no such task file or folder")
    return found


def cmd_cache(args: argparse.Namespace) -> int:
    from gcc_envs.osworld.cache import CacheConfig, DownloadCache, parse_url_map
    from gcc_envs.osworld.support import task_urls
    from gcc_envs.osworld.taskfile import load_task

    url_map = parse_url_map(" ".join(args.map)) if args.map else None
    config = CacheConfig.from_env(root=Path(args.cache_dir) if args.cache_dir else None,
                                  url_map=url_map)  # fmt: skip
    cache = DownloadCache(config)
    if args.list:
        for e in cache.entries():
            print(f"{e.size:>12}  {e.sha256[:12]}  {e.url}")
    if args.list or args.info:
        i = cache.info()
        print(f"{i['root']}: {i['entries']} entries, {i['blobs']} files, "
              f"{i['bytes'] / 2**20:.1f} MiB; {i['partial']} partial downloads "
              f"({i['partial_bytes'] / 2**20:.1f} MiB)")  # fmt: skip
        return 0
    if args.fill:
        counts = cache.fill_from(args.fill, args.prefix)
        print(f"added {counts.added}, already cached {counts.cached}, "
              f"skipped {counts.skipped}, failed {counts.failed}")  # fmt: skip
    else:
        urls = [u for f in _task_files(args.fetch) for u in task_urls(load_task(f))]
        counts = cache.fetch_all(urls)
        print(f"fetched {counts.added}, cached {counts.cached}, failed {counts.failed} "
              f"({len(set(urls))} URLs)")  # fmt: skip
    for error in counts.errors:
        print(f"  {error}")
    return 1 if counts.failed else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from agents.cli import warn_token_in_argv
    from gcc_envs.httpd import read_token
    from gcc_envs.osworld.remote import serve

    token = read_token(args.token, args.token_file)
    warn_token_in_argv(args.token)
    serve(
        args.display,
        token,
        args.host,
        args.port,
        lambda url: print(f"serving on {url}", flush=True),
    )
    return 0
