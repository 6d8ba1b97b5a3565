"""``SoftwareEnv``: the seam's ``SuiteEnv`` for the Cradle software twins, and the factory
that picks the twin or the real app (``live=True``, :mod:`.live_env`)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from gcc_envs.apps.suite_env import CheckedTask, SuiteEnv
from gcc_envs.errors import GCCError


class SoftwareEnv(SuiteEnv):
    """A Cradle software task's Linux twin (the card is :class:`SuiteEnv`'s).

    Beyond the suite env: the whole virtual screen is the target (the programs' dialogs are
    separate windows), ``info["setup_s"]`` says how long the setup took, :meth:`score` asks the
    checker about the desktop as it is now, and the Cradle prompt folder is
    ``desktop/software``.

    ## Version History
    * v2 (Chrome), v3 (Outlook, Feishu; issue 26): pools wide enough that two seeds share a
      variant at most 0.5 % of the time over 100 seeds (an open-loop replay on 20 random seed
      pairs then wins at most once): Chrome 310 articles (280 fictional ones the local web
      serves), 30 texts x 15 endings, 303 closed-page topics, a user's profile or one of 11
      repositories, two more appearance settings; Outlook 24 addresses and subjects, the urgent
      mail's topic (24) and kind (14), forwarding users (31) x domains (12), the bill's file
      name (8); Feishu 60 messages, 6 contacts, the bill's file name (8).
    * v2 (Feishu): Orage runs in the time zone where the episode starts between noon and 1 pm,
      and FocusTimeAppointment's "later today" is judged in it; before, an episode begun
      after 23:00 could not succeed (Orage's new appointment then starts at 09:00 that day).
    * v2 (Outlook; issue 26): the junk task adds 1-6 plain folders below the junk folder, so
      that its row differs by seed also once the folder list is scrolled to its end.
    * v1 (Chrome, Outlook, Feishu; issue 26): each task draws its values from pools large
      enough that two seeds share a variant at most 5 % of the time over 100 seeds
      (``benchmarks/apps_variants.py``): 30 texts, subjects, addresses, titles, statuses,
      articles, users; the bill in one of 63 folders; Chrome's closed page may be named by its
      topic (found in the history), its appearance task asks for up to four more settings;
      Outlook's junk task moves the junk folder (see its table). Replays are checked on random
      seed pairs (``benchmarks/apps_fairness.py``).
    * v1 (Meitu, CapCut; issue 26): pictures in one of 16 folders; the photo to edit named by
      its subject ("the photo of the red boat") among four look-alike scenes; 1 of 10 files or
      sets of photos; music, project, trim points, sticker and goal second from pools of
      48-144; CutAtGoal's tolerance 0.2 s (was 0.4 s).
    * v0: first release (the paper's tasks, 2-12 variants each).
    """

    game = "desktop/software"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Seconds the last reset's setup took.
        self.setup_s = 0.0

    @property
    def session(self) -> Any:
        """The episode's desktop (home, programs, servers), or None before reset."""
        return self.episode

    def _setup_episode(self, options: dict[str, Any] | None) -> None:
        t0 = time.perf_counter()
        super()._setup_episode(options)
        self.setup_s = time.perf_counter() - t0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = super().reset(seed=seed, options=options)
        info["setup_s"] = self.setup_s
        return obs, info

    def score(self) -> float:
        """What the task's checker says of the desktop now (its end state if it ended here)."""
        if self.episode is None:
            raise GCCError("call reset() first: there is no episode to score")
        task = getattr(self.task, "inner", self.task)
        if not isinstance(task, CheckedTask):
            raise GCCError("this env has no checker")
        return float(task.checker(self.episode.probe(), **task.args))


def live_only(suite: Any) -> tuple[str, ...]:
    """Keys of the suite's tasks with no Linux twin (its package's ``LIVE_ONLY``)."""
    import importlib

    package = importlib.import_module(suite.checkers.rpartition(".")[0])
    return tuple(getattr(package, "LIVE_ONLY", ()))


def make_software_env(*, backend: Any, task: str, suite: Any, live: bool = False, **kwargs: Any):
    """A Cradle software task on its Linux twin, or with ``live=True`` on the real app.

    The factory behind the twins' ids: :class:`SoftwareEnv` (whose card is :class:`SuiteEnv`'s)
    or, with ``live=True``, :class:`~gcc_envs.apps.software.live_env.LiveEnv`.
    """
    if live:
        from gcc_envs.apps.software.live_env import LiveEnv

        return LiveEnv(backend=backend, task=task, suite=suite, **kwargs)
    if task in live_only(suite):
        backend.close()
        raise GCCError(
            f"{suite.title} task {task!r} has no Linux twin (nothing here can hold it offline); "
            "run it on the real app: live=True with judge='human', 'template:PNG' or an LMMJudge"
        )
    return SoftwareEnv(backend=backend, task=task, suite=suite, **kwargs)
