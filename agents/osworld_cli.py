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
    """Markdown: success rate (mean score) and task count per domain, with the tasks that could
    not run (unsupported here, or their setup failed) shown apart but counted as failures in
    the rates, as OSWorld counts them; then OSWorld's groups."""

    def rate(rows: Sequence[dict[str, Any]]) -> str:
        return (
            f"{100 * sum(r['score'] for r in rows) / len(rows):.1f} % ({len(rows)})"
            if rows
            else "–"
        )

    def not_run(rows: Sequence[dict[str, Any]]) -> str:
        return f"{sum('unsupported' in r for r in rows)} / {sum('setup_error' in r for r in rows)}"

    domains = sorted({r["domain"] for r in records})
    lines = ["| domain | success (tasks) | not run: unsupported / setup failed |", "|---|---|---|"]
    for d in domains:
        rows = [r for r in records if r["domain"] == d]
        lines.append(f"| {d} | {rate(rows)} | {not_run(rows)} |")
    lines.append(f"| **all** | {rate(records)} | {not_run(records)} |")
    head = [*GROUPS, "Overall"]
    cells = [rate([r for r in records if r["domain"] in GROUPS[g]]) for g in GROUPS]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines.append("| " + " | ".join([*cells, rate(records)]) + " |")
    return "\n".join(lines)


def cmd_osworld(args: argparse.Namespace) -> int:
    import gcc_envs  # noqa: F401 - registers the ids
    from gcc_envs.osworld.bundled import BUNDLED
    from gcc_envs.osworld.taskset import expand

    tasks = expand(args.tasks) if args.tasks else [task_id for _, task_id, _ in BUNDLED]
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


def add_parser(sub: Any) -> None:
    """The ``osworld`` subcommand of ``gcc-gym``."""
    o = sub.add_parser("osworld", help="run OSWorld task files on this desktop")
    osub = o.add_subparsers(dest="osworld_command", required=True)
    r = osub.add_parser(
        "run", help="run a policy on task files; per-task results, per-domain table"
    )
    r.add_argument(
        "tasks", nargs="*", metavar="TASK",
        help="task files, folders of them, OSWorld index files (test_all.json) or bundled ids "
        "(default: the 44 bundled)",
    )  # fmt: skip
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
    r.set_defaults(handler=cmd_osworld)
    s = osub.add_parser("serve", help="serve this display's OSWorld episodes (setup, scoring)")
    s.add_argument("--display", required=True, help="the X display serve-desktop serves (:N)")
    s.add_argument("--token-file", help="file holding the shared secret (8+ characters)")
    s.add_argument("--token", help="the secret itself (shown by ps; or GCC_REMOTE_TOKEN)")
    s.add_argument("--host", default="127.0.0.1", help="interface to bind (loopback by default)")
    s.add_argument("--port", type=int, default=8766, help="0 picks a free port")
    s.set_defaults(handler=cmd_serve)
    u = osub.add_parser(
        "support", help="which tasks this machine can run, and why not (runs nothing)"
    )
    u.add_argument("tasks", nargs="*", metavar="TASK", help="as for run (default: the 44 bundled)")
    u.add_argument(
        "--offline", action="store_true", help="with no network: downloads only from the cache"
    )
    u.add_argument("--json", help="write every task's reasons (online and offline) here")
    u.add_argument("--quiet", action="store_true", help="the table only, no line per blocked task")
    u.set_defaults(handler=cmd_support)
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
    c.set_defaults(handler=cmd_cache)


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


def support_rows(sources: Sequence[str]) -> list[tuple[Any, Any, Any]]:
    """``(task, online, offline)`` for each task: :func:`support` with the network, and
    offline with the download cache as it is."""
    from gcc_envs.osworld.cache import DownloadCache
    from gcc_envs.osworld.support import support
    from gcc_envs.osworld.taskfile import load_task

    cached = DownloadCache.from_env().has
    rows = []
    for source in sources:
        task = load_task(source)
        rows.append((task, support(task, online=True), support(task, online=False, cached=cached)))
    return rows


def support_table(rows: Sequence[tuple[Any, Any, Any]]) -> str:
    """Markdown: tasks per domain, how many run online and offline; what stops the rest."""
    from collections import Counter

    from gcc_envs.osworld.support import KINDS

    domains = sorted({t.domain for t, _, _ in rows})
    lines = ["| domain | tasks | run online | run offline |", "|---|---|---|---|"]
    for d in [*domains, None]:
        mine = [r for r in rows if d is None or r[0].domain == d]
        n, on, off = len(mine), sum(r[1].runs for r in mine), sum(r[2].runs for r in mine)
        name = d or "**all**"
        lines.append(f"| {name} | {n} | {on} ({100 * on / max(n, 1):.0f} %) | {off} ({100 * off / max(n, 1):.0f} %) |")  # fmt: skip
    for label, i in (("online", 1), ("offline", 2)):
        kinds = Counter(r[i].kind for r in rows if r[i].kind)
        stops = ", ".join(f"{k} {kinds[k]}" for k in KINDS if k in kinds) or "none"
        lines.append(f"\nstopped first by ({label}): {stops}")
    return "\n".join(lines)


def cmd_support(args: argparse.Namespace) -> int:
    from gcc_envs.osworld.bundled import BUNDLED
    from gcc_envs.osworld.taskset import expand

    sources = expand(args.tasks) if args.tasks else [t for _, t, _ in BUNDLED]
    rows = support_rows(sources)
    if not args.quiet:
        for task, on, off in rows:
            s = off if args.offline else on
            if not s.runs:
                print(f"{task.domain}/{task.id[:8]}: {s.kind}: {s.why()}")
    print(support_table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{"task": t.id, "domain": t.domain, "online": list(on.reasons), "offline": list(off.reasons)}
             for t, on, off in rows], indent=1))  # fmt: skip
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from agents.commands.options import warn_token_in_argv
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
