"""``CradlePolicy``: the paper's modules around an OpenAI-compatible LMM, safe by construction.

One step: information gathering (last frame, high detail; also lists on-screen instructions)
→ self-reflection (≤ 8 frames of the last chunk, low detail) → task inference (last frame, low
detail; also updates the episode summary) → skill curation (only when new on-screen
instructions appeared) → action planning (last frame, high detail; at most ``max_calls`` skill
calls). Each module can be switched off (the paper's ablations); ``fused=True`` asks all of
them in one request (:mod:`agents.cradle.fused`). The reply's code is parsed against the env's
skills, never executed; a malformed reply is re-asked a bounded number of times, then the step
is a no-op (empty code text). When the LMM budget (``max_llm_calls`` / ``max_cost_usd``) is
spent the policy answers ``DONE``, which ends the episode; ``last_info["stop_reason"]`` and the
episode usage say why. An endpoint that fails (after the client's bounded retries) makes the
step a no-op with the error as its reason; after ``max_failed_steps`` such steps in a row the
policy answers ``DONE`` too (``stop_reason`` "llm: ..."), and ``on_error`` hears of the first
failure of each episode at once. ``last_info`` says what happened: reason, calls, tokens, cost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import gymnasium as gym
import numpy as np

from agents.cradle import (
    action_planning,
    fused,
    information_gathering,
    self_reflection,
    skill_curation,
    task_inference,
)
from agents.cradle.app_skills import app_skills
from agents.cradle.app_skills import lower as app_lower
from agents.cradle.game_settings import VISUAL_PROMPTS, load_settings
from agents.cradle.llm import BudgetExceeded, LLMClient, LLMConfig, LLMError
from agents.cradle.memory import EpisodicMemory, Interaction, ProceduralMemory
from agents.cradle.prompts import load_prompts
from agents.cradle.retrieval import SkillRetriever
from agents.cradle.task_inference import TaskStack
from agents.cradle.visual import VisualPrompter
from gcc_envs.errors import GCCError

MODULES = ("information_gathering", "self_reflection", "task_inference", "action_planning")
#: Modules that may be switched on; skill curation is on by default only where the game's
#: settings say so (RDR2's tutorials; Stardew's skills are given).
ALL_MODULES = (*MODULES, "skill_curation")
NO_OP = ""  #: code text that parses to no call: the env runs nothing this step
STOP = "DONE"  #: code text that ends the episode (the LMM budget is spent)


@dataclass(frozen=True)
class CradleConfig:
    """Module switches and per-module image settings."""

    modules: tuple[str, ...] = MODULES
    gather_detail: str = "high"
    reflect_detail: str = "low"
    reflect_frames: int = 8
    #: reflection frames as one low-detail contact sheet (None: in fused mode only)
    reflect_sheet: bool | None = None
    infer_detail: str = "low"
    plan_detail: str = "high"
    max_reasks: int = 1
    #: skills shown to action planning: the ``top_k`` most relevant to the task, or all (None)
    top_k: int | None = None
    #: retrieve with the endpoint's embeddings (else word overlap)
    embed_skills: bool = True
    #: one request per step for all modules (the paper's suggestion for cutting cost)
    fused: bool = False
    #: drawn on the current screen: "grid", "side_bands", "marks" (None: the game's settings)
    visual_prompts: tuple[str, ...] | None = None

    @property
    def sheet(self) -> bool:
        return self.fused if self.reflect_sheet is None else self.reflect_sheet

    def __post_init__(self) -> None:
        unknown = set(self.modules) - set(ALL_MODULES)
        if unknown or "action_planning" not in self.modules:
            raise GCCError(f"modules must include action_planning and be among {ALL_MODULES}")
        if not 1 <= self.reflect_frames <= 8 or self.max_reasks < 0:
            raise GCCError("reflect_frames must be 1..8 and max_reasks >= 0")
        if self.visual_prompts is not None and set(self.visual_prompts) - set(VISUAL_PROMPTS):
            raise GCCError(f"visual_prompts must be among {VISUAL_PROMPTS}")


def chunk_frames(obs: Any) -> list[np.ndarray]:
    """The frames of an observation: ``ChunkVideo``'s dict or tuple, or one frame."""
    if isinstance(obs, dict) and "frames" in obs:
        n = int(obs["count"])
        return [np.asarray(f) for f in obs["frames"][: max(n, 1)]]
    if isinstance(obs, (tuple, list)):
        return [np.asarray(f) for f in obs]
    arr = np.asarray(obs)
    if arr.ndim == 3:
        return [arr]
    raise GCCError(f"CradlePolicy needs frames, got an observation of shape {arr.shape}")


class CradlePolicy:
    """The Cradle agent acting with an env's skills through code text."""

    name = "cradle"

    def __init__(
        self,
        env: gym.Env,
        base_url: str = "https://api.openai.com/v1",
        model: str = "gpt-4o",
        api_key_env: str = "OPENAI_API_KEY",
        modules: Sequence[str] = MODULES,
        max_calls: int | None = None,
        llm: LLMConfig | None = None,
        config: CradleConfig | None = None,
        game: str | None = None,
        goal: str | None = None,
        max_llm_calls: int | None = None,
        max_cost_usd: float | None = None,
        llm_timeout_s: float | None = None,
        max_failed_steps: int = 3,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        if isinstance(max_failed_steps, bool) or not (
            isinstance(max_failed_steps, int) and max_failed_steps >= 1
        ):
            raise GCCError(f"max_failed_steps must be an int >= 1, got {max_failed_steps!r}")
        inner = env.unwrapped
        game = game or game_of(env)
        settings = load_settings(game)
        if config is None:
            curate = settings.skill_curation and "skill_curation" not in modules
            config = CradleConfig(
                modules=(*modules, "skill_curation") if curate else tuple(modules),
                top_k=settings.top_k,
                reflect_frames=settings.reflect_frames or CradleConfig.reflect_frames,
            )
        self.config = config
        visual = self.config.visual_prompts
        self.visual = VisualPrompter(settings.visual_prompts if visual is None else visual, env)
        base = getattr(inner, "skills", None)
        lower = None
        if base is None or not len(base):
            if not self.visual.wants_marks:
                raise GCCError(
                    f"{type(inner).__name__} has no skill library for Cradle to act with (an "
                    "app env needs visual_prompts with 'marks' for the app skills)"
                )
            base = app_skills(self.visual.mark_centre)
            lower = partial(app_lower, skills=base)
        llm = llm or LLMConfig()
        budget = {
            "max_calls": max_llm_calls,
            "max_cost_usd": max_cost_usd,
            "timeout_s": llm_timeout_s,
        }
        llm = replace(llm, **{k: v for k, v in budget.items() if v is not None})
        self.llm_config = replace(llm, base_url=base_url, model=model, api_key_env=api_key_env)
        self.prompts = load_prompts(game)
        self.client = LLMClient(self.llm_config)
        limits = [n for n in (settings.max_calls, getattr(inner, "max_skill_calls", None)) if n]
        self.max_calls = max_calls or (min(limits) if limits else None)
        self.goal = goal or getattr(getattr(inner, "task", None), "instruction", "") or "play"
        self.procedural = ProceduralMemory(base, lower)
        self.episodic = EpisodicMemory()
        self.tasks = TaskStack(self.goal)
        self.retriever = SkillRetriever(self._embed if self.config.embed_skills else None)
        self.trigger = skill_curation.CurationTrigger()
        self.last_info: dict[str, Any] = {}
        self.stop_reason: str | None = None
        self.max_failed_steps = max_failed_steps
        self.on_error = on_error
        self._failures: list[str] = []  # the endpoint errors of this episode's failed steps
        self._failed_in_a_row = 0
        self._step = 0
        self._last_action = ""

    def reset(self, info: dict[str, Any]) -> None:
        self.client.ledger.new_episode()
        self.episodic.clear()
        self.trigger.clear()
        self.tasks = TaskStack(str(info.get("instruction") or self.goal))
        self.last_info, self.stop_reason, self._step, self._last_action = {}, None, 0, ""
        self._failures, self._failed_in_a_row = [], 0

    def act(self, obs: Any, info: dict[str, Any]) -> str:
        """Code text of at most ``max_calls`` skill calls, or :data:`NO_OP` (reason in
        ``last_info``)."""
        self.client.ledger.new_step()
        self._step += 1
        reason: str | None = None
        extra: dict[str, Any] = {}
        try:
            code, extra = self._decide(chunk_frames(obs), info)
        except BudgetExceeded as e:
            code, reason, extra = STOP, f"budget: {e}", {"budget_exhausted": True}
            self.stop_reason = reason
        except LLMError as e:
            code, reason = self._llm_failed(str(e))
        else:
            self._failed_in_a_row = 0
        if reason is None and code == NO_OP:
            reason = extra.pop("reason", "no action")
        self.episodic.add(Interaction(self._step, self.tasks.current, code or "(no-op)"))
        self.tasks.tick()
        self._last_action = code
        ledger = self.client.ledger
        self.last_info = {
            "step": self._step,
            "code": code,
            "reason": reason,
            "usage": ledger.step.to_json(),
            "usage_by_module": {k: v.to_json() for k, v in ledger.step_by_module.items()},
            "episode_usage": self.episode_info(),
            "stop_reason": self.stop_reason,
            **extra,
        }
        return code

    def _llm_failed(self, error: str) -> tuple[str, str]:
        """A step whose LMM request failed: a no-op, or DONE after too many in a row."""
        if not self._failures and self.on_error is not None:
            self.on_error(f"the LMM endpoint failed (step {self._step}): {error}")
        self._failures.append(error)
        self._failed_in_a_row += 1
        if self._failed_in_a_row < self.max_failed_steps:
            return NO_OP, f"llm: {error}"
        self.stop_reason = (
            f"llm: {self._failed_in_a_row} steps in a row failed (max_failed_steps="
            f"{self.max_failed_steps}); last error: {error}"
        )
        return STOP, self.stop_reason

    def episode_info(self) -> dict[str, Any]:
        """The episode's calls, tokens and cost, its endpoint failures, and why the policy
        stopped (if it did)."""
        out: dict[str, Any] = self.client.ledger.episode.to_json()
        if self._failures:
            out["llm_failed_steps"] = len(self._failures)
            out["first_llm_error"] = self._failures[0]
            out["last_llm_error"] = self._failures[-1]
        if self.stop_reason is not None:
            out["stop_reason"] = self.stop_reason
        return out

    def _decide(self, frames: list[np.ndarray], info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        c, p, on = self.config, self.prompts, set(self.config.modules)
        if c.fused:
            return self._decide_fused(frames, info)
        task = self.tasks.current
        last = self.visual.draw(frames[-1])  # the current screen, with its visual prompts
        description, reflection = "(not gathered)", "(no reflection)"
        seen: tuple[str, ...] | None = None  # None: not gathered, so curation reads the screen
        if "information_gathering" in on:
            gathered = information_gathering.gather(
                self.client, p["information_gathering"], last, task, c.gather_detail
            )
            description, seen = gathered.description, gathered.instructions
        if "self_reflection" in on and self._step > 1:
            shown = fused.reflection_images(frames, c.reflect_frames) + frames[-1:] if c.sheet \
                else frames  # fmt: skip
            r = self_reflection.reflect(
                self.client, p["self_reflection"], shown, self._last_action or "(no-op)",
                info.get("last_action_error"), task, c.reflect_frames, c.reflect_detail,
            )  # fmt: skip
            reflection = r.text()
        fields = {
            "goal": self.tasks.goal, "subtask": task, "description": description,
            "reflection": reflection, "summary": self.episodic.summary or "(none)",
            "recent": self.episodic.text(),
        }  # fmt: skip
        if "task_inference" in on:
            t = task_inference.infer(self.client, p["task_inference"], last, c.infer_detail,
                                     **fields)  # fmt: skip
            self.tasks.propose(t)
            if t.summary:
                self.episodic.summary = t.summary
            fields["subtask"] = self.tasks.current
        curated = self._curate(last, fields["subtask"], seen) if "skill_curation" in on else {}
        library = self.procedural.library
        shown, skills_text = self._skills(f"{fields['subtask']} {description}")
        plan = action_planning.plan(
            self.client, p["action_planning"], [last], library, self.max_calls,
            c.max_reasks, c.plan_detail, check=self.procedural.code, skills=skills_text, **fields,
        )  # fmt: skip
        return self._outcome(plan, {"skills": shown, **curated})

    def _curate(self, frame: np.ndarray, task: str, seen: tuple[str, ...] | None) -> dict[str, Any]:
        """Curate skills from the instructions new on screen (every step when none are known)."""
        fresh = self.trigger.new(seen) if seen is not None else ()
        if seen is not None and not fresh:
            return {}
        cur = skill_curation.curate(
            self.client, self.prompts["skill_curation"], frame, self.procedural, task,
            self.config.gather_detail, fresh,
        )  # fmt: skip
        return {"instructions": list(fresh), "learned": list(cur.added),
                "refused_skills": list(cur.refused)}  # fmt: skip

    def _skills(self, query: str) -> tuple[list[str], str]:
        """The skills action planning is shown (all, or the top k for ``query``) and their text."""
        library, k = self.procedural.library, self.config.top_k
        shown = list(library)
        if k is not None and k < len(shown):
            docs = {n: f"{n}: {library[n].doc}" for n in shown}
            shown = self.retriever.top_k(query, docs, k)
        return shown, "\n".join(f"{library[n].signature()}: {library[n].doc}" for n in shown)

    def _outcome(
        self, plan: action_planning.Plan, extra: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        extra.update(asks=plan.asks, errors=list(plan.errors))
        if plan.action is None:
            extra["reason"] = f"malformed reply after {plan.asks} asks: {plan.errors[-1]}"
            return NO_OP, extra
        extra.update(calls=[c.to_code() for c in plan.action.calls], dropped=plan.action.dropped,
                     reasoning=plan.reasoning, end=plan.action.end)  # fmt: skip
        code = self.procedural.code(plan.action.calls)
        return "\n".join(filter(None, [code, plan.action.end])), extra

    def _decide_fused(
        self, frames: list[np.ndarray], info: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """All modules in one request (:mod:`agents.cradle.fused`); skill curation, when on,
        is a second request on the steps where new on-screen instructions appear."""
        c, task = self.config, self.tasks.current
        screen = self.visual.draw(frames[-1])
        shown, skills_text = self._skills(task)
        chunk = fused.reflection_images(frames, c.reflect_frames, c.sheet) if self._step > 1 else []
        plan = action_planning.plan(
            self.client, self.prompts["fused"], [screen], self.procedural.library,
            self.max_calls, c.max_reasks, c.plan_detail, module=fused.MODULE, low_frames=chunk,
            check=self.procedural.code,
            goal=self.tasks.goal, subtask=task, last_error=info.get("last_action_error") or "none",
            summary=self.episodic.summary or "(none)", recent=self.episodic.text(),
            skills=skills_text,
        )  # fmt: skip
        extra: dict[str, Any] = {"skills": shown}
        if plan.text:
            reading = fused.read_reply(plan.text, self.tasks, self.episodic)
            if "skill_curation" in c.modules:
                extra |= self._curate(screen, self.tasks.current, reading.instructions)
        return self._outcome(plan, extra)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.client.embed(texts, module="skill_retrieval")

    def close(self) -> None:
        self.client.close()


def game_of(env: gym.Env) -> str:
    """The prompt folder of an env: its game's or suite's key when ``prompts/`` has a folder of
    that name, else ``"desktop"`` for a desktop suite (the software prompts).

    The key is read from the env's registered spec (``game=`` or ``suite=`` of the id); an env
    built without ``gym.make`` says it with its ``game`` or ``suite`` attribute.
    """
    from agents.cradle.prompts import PROMPT_DIR
    from gcc_envs.core.spec import SuiteSpec
    from gcc_envs.registration import specs

    kwargs = (env.spec.kwargs or {}) if env.spec is not None else {}
    key = kwargs.get("game") or kwargs.get("suite")
    if not key:
        base = env.unwrapped
        key = getattr(base, "game", None) or getattr(getattr(base, "suite", None), "key", None)
    if not key:
        raise GCCError(f"cannot tell which game {type(env.unwrapped).__name__} is; pass game=")
    if isinstance(specs().get(str(key)), SuiteSpec) and not (PROMPT_DIR / str(key)).is_dir():
        return "desktop"
    return str(key)
