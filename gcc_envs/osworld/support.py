"""Whether this machine can run an OSWorld task, and if not why — without running anything.

:func:`support` reads a task file and names what stands in the way, in the words ``reset``
reports (``info["unsupported"]``): a part of the evaluator this package lacks, a setup step
kind it cannot run, a program it launches that the runner does not map (``data/apps.toml``), a
program missing here, the network (downloads not yet in the file cache,
live websites), an account (Google Drive, a login), or a machine-wide setting
(``data/unsupported.toml``). ``online=False`` asks whether the task runs with no network: its
downloads must then be in the cache (``cached(url)``).

>>> from gcc_envs.osworld.taskfile import load_task
>>> s = support(load_task("030eeff7"), online=True, which=lambda p: "/usr/bin/" + p)
>>> s.runs, s.reasons
(True, ())
>>> s = support(load_task("030eeff7"), online=True, which=lambda p: None)
>>> s.runs, s.kind, s.reasons[0][:37]
(False, 'program', 'needs programs this machine lacks: ch')
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from gcc_envs.errors import GCCError
from gcc_envs.osworld.taskfile import OSWorldTask, Step

#: A web address in an instruction: the agent must open or fetch it (loopback ones aside).
WEB_ADDRESS = re.compile(
    r"\b(?:https?://(?!(?:localhost|127\.0\.0\.1)[:/])|www\.)[^\s\"'<>)]+", re.I
)

#: Setup step kinds that need an account, with the reason.
ACCOUNT_STEPS = {"googledrive": "uploads to Google Drive (needs a Google account)",
                 "login": "logs in to a website (needs an account)"}  # fmt: skip
#: Setup step kinds that open live websites.
WEB_STEPS = {"chrome_open_tabs": "opens live websites"}
#: Getters that read live websites (their pages or files).
WEB_GETTERS = frozenset({"info_from_website", "page_info", "pdf_from_url", "active_tab_html_parse",
                         "gotoRecreationPage_and_get_html_content", "open_tabs_info"})  # fmt: skip
#: Getters that need an account.
ACCOUNT_GETTERS = {"googledrive_file": "reads a Google Drive file (needs a Google account)"}
#: Getters and steps whose files come from the web through the download cache.
DOWNLOADS = ("download",)
CLOUD_GETTERS = ("cloud_file",)
#: The order reasons are reported in (the first is the task's ``kind``).
KINDS = ("setting", "account", "part", "program", "network")


@dataclass(frozen=True)
class Support:
    """What :func:`support` found: ``runs`` when nothing stands in the way."""

    #: Each obstacle, as ``(kind, reason)``; kinds are those of :data:`KINDS`.
    found: tuple[tuple[str, str], ...] = ()
    #: The URLs the task downloads (setup steps and ``cloud_file`` getters).
    urls: tuple[str, ...] = ()

    @property
    def runs(self) -> bool:
        return not self.found

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(reason for _, reason in self.found)

    @property
    def kind(self) -> str | None:
        """The first obstacle's kind (``None`` when the task runs)."""
        return self.found[0][0] if self.found else None

    def why(self) -> str:
        """The reasons as one sentence (empty when the task runs)."""
        return "; ".join(self.reasons)


def support(
    task: OSWorldTask,
    *,
    online: bool = True,
    cached: Callable[[str], bool] = lambda url: False,
    which: Callable[[str], str | None] = shutil.which,
) -> Support:
    """Whether ``task`` can run here (see the module docstring).

    ``online``: the network may be used (downloads, live websites); ``cached(url)``: the file
    cache holds that URL (offline, every download must be); ``which``: finds a program.
    """
    from gcc_envs.osworld.episode import needed_programs, unsupported
    from gcc_envs.osworld.evaluate import unknown_parts
    from gcc_envs.osworld.setup import REFUSED, STEPS

    found: list[tuple[str, str]] = []
    if task.id in unsupported():
        found.append(("setting", unsupported()[task.id]))
    steps = (*task.config, *task.evaluator.postconfig)
    for kind in sorted({s.kind for s in steps}):
        if kind in ACCOUNT_STEPS:
            found.append(("account", f"its setup {ACCOUNT_STEPS[kind]}"))
        elif kind in WEB_STEPS:
            if not online:
                found.append(("network", f"its setup step {kind!r} {WEB_STEPS[kind] or 'needs the network'}"))  # fmt: skip
            elif kind not in STEPS:
                found.append(("part", f"setup step {kind!r} is not implemented"))
        elif kind not in STEPS:
            why = REFUSED.get(kind)
            found.append(("part", f"setup step {kind!r} " + (f"cannot run here: it {why}" if why else "is not implemented")))  # fmt: skip
    getters = set(_getters(task))
    for getter in sorted(getters & set(ACCOUNT_GETTERS)):
        found.append(("account", f"its evaluator {ACCOUNT_GETTERS[getter]}"))
    web = sorted(getters & WEB_GETTERS)
    if web and not online:
        found.append(("network", f"its evaluator reads live websites ({', '.join(web)})"))
    missing = [p for p in unknown_parts(task.evaluator) if p.split()[-1] not in ACCOUNT_GETTERS]
    if missing:
        found.append(("part", f"its evaluator uses what this runner lacks: {', '.join(missing)}"))
    found += _launch_reasons(steps)
    programs = [p for p in needed_programs(task) if which(p) is None]
    if programs:
        found.append(("program", f"needs programs this machine lacks: {', '.join(programs)}"))
    urls = tuple(dict.fromkeys(task_urls(task)))
    if not online:
        address = WEB_ADDRESS.search(task.instruction)
        if address:
            found.append(("network", f"its instruction names a web address ({address.group(0)})"))
        if task.id in needs_network():
            found.append(("network", needs_network()[task.id]))
        absent = [u for u in urls if not cached(u)]
        if absent:
            found.append(("network", f"downloads {len(absent)} file(s) not in the file cache "
                          f"(first: {absent[0]}); fill it with 'gcc-gym osworld cache'"))  # fmt: skip
    found.sort(key=lambda f: KINDS.index(f[0]))
    return Support(tuple(found), urls)


def _launch_reasons(steps: Iterable[Step]) -> list[tuple[str, str]]:
    """Why the ``launch`` steps would stop reset: a program the runner has no entry for, or a
    command it cannot read."""
    from gcc_envs.osworld.apps import find_app
    from gcc_envs.osworld.commands import launch_words
    from gcc_envs.osworld.runtime import RUNNER_LAUNCHES

    unmapped: list[str] = []
    out = []
    for step in steps:
        if step.kind != "launch":
            continue
        try:
            _, words = launch_words(step.params.get("command"))
        except GCCError as e:
            out.append(("part", f"a launch step it cannot read: {e}"))
            continue
        name = words[0].rsplit("/", 1)[-1]
        if name not in RUNNER_LAUNCHES and find_app(name) is None and name not in unmapped:
            unmapped.append(name)
    if unmapped:
        what = ", ".join(sorted(unmapped))
        out.append(("part", f"launches what this runner does not map (apps.toml): {what}"))
    return out


@lru_cache(maxsize=1)
def needs_network() -> Mapping[str, str]:
    """Task id → why its own work needs the network (``data/needs_network.toml``)."""
    from gcc_envs.core.toml_data import tomllib

    text = (resources.files("gcc_envs.osworld") / "data" / "needs_network.toml").read_text("utf-8")
    return {k: " ".join(v["reason"].split()) for k, v in tomllib.loads(text).items()}


def _getters(task: OSWorldTask) -> Iterator[str]:
    for config in (*task.evaluator.results, *task.evaluator.expected):
        if config and isinstance(config.get("type"), str):
            yield config["type"]


def task_urls(task: OSWorldTask) -> Iterator[str]:
    """Every URL the task downloads: ``download`` steps' files and ``cloud_file`` getters."""
    for step in (*task.config, *task.evaluator.postconfig):
        yield from _step_urls(step)
    for config in (*task.evaluator.results, *task.evaluator.expected):
        if config and config.get("type") in CLOUD_GETTERS:
            paths = config.get("path")
            for url in paths if isinstance(paths, list) else [paths]:
                if isinstance(url, str):
                    yield url


def _step_urls(step: Step) -> Iterator[str]:
    if step.kind not in DOWNLOADS:
        return
    files = step.params.get("files")
    for entry in files if isinstance(files, list) else []:
        if isinstance(entry, Mapping) and isinstance(entry.get("url"), str):
            yield entry["url"]


def tally(rows: Mapping[str, Support]) -> dict[str, Any]:
    """Counts over many tasks: how many run, and how many stop at each kind."""
    kinds: dict[str, int] = {}
    for s in rows.values():
        if s.kind is not None:
            kinds[s.kind] = kinds.get(s.kind, 0) + 1
    runs = sum(s.runs for s in rows.values())
    return {"tasks": len(rows), "runs": runs, "by_kind": kinds}
