"""``FridayPolicy``: OS-Copilot's FRIDAY (Wu et al., 2024) as a policy for GCC envs.

An episode: the planner turns the instruction (and what memory retrieves for it) into a DAG of
subtasks; for each subtask in dependency order the configurator retrieves tools and facts,
the actor answers with a call of a stored tool or a new tool, and that code is the step's
action (run by the env: inside the episode's sandbox where the env has ``code="sandbox"``,
otherwise read by the env's safe parser). On the next step the critic judges the subtask from
the screen and the env's feedback; a done subtask's new tool scored above 8 goes into the tool
repository (unless the store is read-only), a failing subtask is refined at most
``max_refinements`` (3) times. When no subtask is left the policy answers ``DONE``.

LMM calls go through Cradle's client (:class:`agents.cradle.llm.LLMClient`): the same
retries, reply validation, accounting and per-episode budget (``max_llm_calls``,
``max_cost_usd``; when spent the policy answers ``DONE``). An endpoint that fails makes the
step a no-op; after ``max_failed_steps`` such steps in a row the policy answers ``DONE``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.cradle.llm import BudgetExceeded, LLMClient, LLMConfig, LLMError
from agents.friday import critic
from agents.friday.actor import Actor, Attempt, Feedback
from agents.friday.config import FridayConfig
from agents.friday.configurator import Configurator
from agents.friday.memory import Fact, Working
from agents.friday.planner import Plan, Subtask, make_plan
from agents.friday.reply import ReplyError
from agents.friday.retrieval import Retriever
from agents.friday.store import Store
from agents.friday.tools import Provenance
from gcc_envs.errors import GCCError

DONE = "DONE"


def _frame(obs: Any) -> np.ndarray | None:
    arr = np.asarray(obs) if not isinstance(obs, dict) else None
    return arr if arr is not None and arr.ndim == 3 and arr.dtype == np.uint8 else None


class FridayPolicy:
    """FRIDAY acting on an env through code text."""

    name = "friday"

    def __init__(
        self,
        env: gym.Env,
        base_url: str = "https://api.openai.com/v1",
        model: str = "gpt-4o",
        api_key_env: str = "OPENAI_API_KEY",
        llm: LLMConfig | None = None,
        config: FridayConfig | None = None,
        store: str | Path | Store | None = None,
        store_readonly: bool = False,
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
        self.env = env
        self.config = config or FridayConfig()
        if isinstance(store, Store):
            self.store = store
            self.store.readonly = self.store.readonly or store_readonly
        elif store is not None:
            self.store = Store.open(store, readonly=store_readonly)
        else:
            self.store = Store(None, readonly=store_readonly)
        llm = llm or LLMConfig()
        budget = {"max_calls": max_llm_calls, "max_cost_usd": max_cost_usd,
                  "timeout_s": llm_timeout_s}  # fmt: skip
        llm = replace(llm, **{k: v for k, v in budget.items() if v is not None})
        self.llm_config = replace(llm, base_url=base_url, model=model, api_key_env=api_key_env)
        self.client = LLMClient(self.llm_config)
        self.retriever = Retriever(self._embed if self.config.embed else None)
        self.max_failed_steps = max_failed_steps
        self.on_error = on_error
        self.episodes = 0
        self.last_info: dict[str, Any] = {}
        self._start_episode({}, None)

    # ---- episode state
    def _start_episode(self, info: dict[str, Any], episode: str | None) -> None:
        inner = self.env.unwrapped
        self.mode = "sandbox" if getattr(inner, "code", None) == "sandbox" else "gui"
        skills = getattr(inner, "skills", None)
        self.configurator = Configurator(self.store, self.retriever, self.config, self.mode, skills)
        self.actor = Actor(self.client, self.mode, skills, self.config.actor_detail)
        task = getattr(inner, "task", None)
        instruction = info.get("instruction") or getattr(task, "instruction", "") or ""
        self.work = Working(str(instruction))
        self.episode = episode or f"episode-{self.episodes}"
        self.task_label = str(info.get("task_id") or instruction)[:200]
        self.pending: Attempt | None = None
        self.finished = False
        self.stop_reason: str | None = None
        self.plan_error: str | None = None
        self.attempts: list[dict[str, Any]] = []
        self.kept: list[str] = []
        self._failures: list[str] = []
        self._failed_in_a_row = 0
        self._step = 0

    def reset(self, info: dict[str, Any], episode: str | None = None) -> None:
        """A new episode; ``episode`` names it in the provenance of the tools it makes."""
        self.client.ledger.new_episode()
        self.episodes += 1
        self._start_episode(info, episode)

    # ---- acting
    def act(self, obs: Any, info: dict[str, Any]) -> str:
        """The code text of this step (a tool's call), ``DONE`` when the plan is done."""
        self.client.ledger.new_step()
        self._step += 1
        reason: str | None = None
        try:
            action = self._decide(obs, info)
        except BudgetExceeded as e:
            action, reason = DONE, f"budget: {e}"
            self.stop_reason, self.finished = reason, True
        except LLMError as e:
            action, reason = self._llm_failed(str(e))
        else:
            self._failed_in_a_row = 0
        p = self.pending
        ledger = self.client.ledger
        self.last_info = {
            "step": self._step,
            "action": action[-2000:],
            "reason": reason,
            "subtask": p.subtask.id if p else None,
            "attempt": p.number if p else None,
            "tool": p.tool.name if p and p.tool else None,
            "new_tool": bool(p and p.new_tool),
            "usage": ledger.step.to_json(),
            "usage_by_module": {k: v.to_json() for k, v in ledger.step_by_module.items()},
            "episode_usage": self.episode_info(),
        }
        return action

    def _no_op(self) -> str:
        return "WAIT" if self.mode == "sandbox" else ""

    def _llm_failed(self, error: str) -> tuple[str, str]:
        if not self._failures and self.on_error is not None:
            self.on_error(f"the LMM endpoint failed (step {self._step}): {error}")
        self._failures.append(error)
        self._failed_in_a_row += 1
        if self._failed_in_a_row < self.max_failed_steps:
            return self._no_op(), f"llm: {error}"
        self.stop_reason = (
            f"llm: {self._failed_in_a_row} steps in a row failed (max_failed_steps="
            f"{self.max_failed_steps}); last error: {error}"
        )
        self.finished = True
        return DONE, self.stop_reason

    def _decide(self, obs: Any, info: dict[str, Any]) -> str:
        if self.finished:
            return DONE
        frame = _frame(obs)
        if self.work.plan is None:
            self._plan()
        if self.pending is not None:
            action = self._judge(self.pending, frame, info)
            if action is not None:
                return action
        while (sub := self.work.next_ready()) is not None:
            # from where it stood: an endpoint failure may have interrupted an attempt
            o = self.work.outcomes[sub.id]
            action = self._try(sub, o.attempts, frame, o.feedback)
            if action is not None:
                return action
        self.finished = True
        return DONE

    def _plan(self) -> None:
        config = self.configurator.configure(self.work.instruction)
        plan, self.plan_error = make_plan(
            self.client, self.work.instruction, config.tools_text(), config.facts_text(),
            config.profile, self.config.max_subtasks, self.config.max_reasks,
        )  # fmt: skip
        self.work.set_plan(plan)

    def _provenance(self) -> Provenance:
        return Provenance(self.task_label, self.episode, self.llm_config.model)

    def _try(
        self, sub: Subtask, number: int, frame: np.ndarray | None, feedback: Feedback | None
    ) -> str | None:
        """The action of attempt ``number`` at ``sub`` (refinements while replies are
        unusable); None when the subtask has used its attempts and failed."""
        outcome = self.work.outcomes[sub.id]
        while number <= self.config.max_refinements:
            outcome.feedback = feedback
            config = self.configurator.configure(sub.description)
            try:
                attempt = self.actor.attempt(
                    self.work.instruction, sub, number, config, self.work.context(sub), frame,
                    feedback, self._provenance(),
                )  # fmt: skip
            except ReplyError as e:
                self._record(sub, number, None, error=f"unusable reply: {e}")
                feedback = Feedback("", f"your reply could not be used: {e}", None, "")
                number += 1
                outcome.attempts = number
                continue
            outcome.attempts = number + 1
            self.pending = attempt
            return attempt.action
        outcome.status, outcome.reason = "failed", f"not done after {number} attempts"
        return None

    def _judge(
        self, attempt: Attempt, frame: np.ndarray | None, info: dict[str, Any]
    ) -> str | None:
        """The critic's verdict on the pending attempt; a refinement's action if it failed."""
        new = attempt.new_tool
        verdict = critic.judge(
            self.client, self.work.instruction, attempt.subtask, attempt.action, frame, info,
            new, self.config.critic_detail, self.config.max_reasks,
        )  # fmt: skip
        self.pending = None
        sub = attempt.subtask
        outcome = self.work.outcomes[sub.id]
        kept = False
        if verdict.complete:
            outcome.status, outcome.output = "done", str(info.get("code_output") or "")
            outcome.tool = attempt.tool.name if attempt.tool else None
            if not self.store.readonly:
                kept = self._learn(attempt, verdict)
        self._record(sub, attempt.number, attempt, verdict, kept, info.get("last_action_error"))
        if verdict.complete:
            return None
        feedback = Feedback(attempt.action, info.get("last_action_error"), info.get("code_output"),
                            verdict.reasoning, verdict.suggestion)  # fmt: skip
        return self._try(sub, attempt.number + 1, frame, feedback)

    def _learn(self, attempt: Attempt, verdict: critic.Verdict) -> bool:
        for app, fact in verdict.facts:
            self.store.add_fact(Fact(app, fact, self._provenance()))
        if not (attempt.new_tool and attempt.tool is not None and critic.keeps(verdict)):
            return False
        self.store.add_tool(attempt.tool.scored(verdict.score, self._provenance()))
        self.kept.append(attempt.tool.name)
        return True

    def _record(
        self, sub: Subtask, number: int, attempt: Attempt | None,
        verdict: critic.Verdict | None = None, kept: bool = False, error: str | None = None,
    ) -> None:  # fmt: skip
        self.attempts.append({
            "subtask": sub.id, "attempt": number,
            "tool": attempt.tool.name if attempt and attempt.tool else None,
            "new_tool": bool(attempt and attempt.new_tool),
            "complete": verdict.complete if verdict else False,
            "score": verdict.score if verdict else None, "kept": kept,
            "error": (error or "")[:300] or None,
            "critique": verdict.reasoning[:300] if verdict else None,
        })  # fmt: skip

    # ---- reporting
    def episode_info(self) -> dict[str, Any]:
        """The episode's calls, tokens and cost (by module), the critic's verdict, the plan's
        outcome, the tools kept, and why the policy stopped (if it did)."""
        ledger = self.client.ledger
        out: dict[str, Any] = ledger.episode.to_json()
        out["by_module"] = {k: v.to_json() for k, v in ledger.by_module.items()}
        out["critic_success"] = self.work.done
        out["subtasks"] = self.work.summary()
        out["attempts"] = list(self.attempts)
        out["tools_kept"] = list(self.kept)
        out["retrieval"] = self.retriever.mode
        if self.plan_error:
            out["plan_error"] = self.plan_error
        if self._failures:
            out["llm_failed_steps"] = len(self._failures)
            out["first_llm_error"] = self._failures[0]
        if self.stop_reason is not None:
            out["stop_reason"] = self.stop_reason
        return out

    @property
    def plan(self) -> Plan | None:
        return self.work.plan

    def _embed(self, texts: Any) -> np.ndarray:
        return self.client.embed(texts, module="retrieval")

    def close(self) -> None:
        self.client.close()
