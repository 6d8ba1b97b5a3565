"""FRIDAY's memories besides its tools: declarative (user profile, semantic facts about apps)
and working memory (the episode's plan, what each subtask did, the critic's feedback)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from agents.friday.planner import Plan, Subtask
from agents.friday.tools import Provenance

MAX_FACT = 500  #: longest fact, in characters
MAX_FACTS = 2000  #: most facts kept (the oldest are dropped first)


@dataclass(frozen=True)
class Fact:
    """Something learned about an app or the system, e.g. ("calc", "openpyxl saves .xlsx")."""

    app: str
    fact: str
    provenance: Provenance = field(default_factory=Provenance)

    def doc(self) -> str:
        return f"{self.app}: {self.fact}" if self.app else self.fact

    def to_json(self) -> dict[str, Any]:
        return {"app": self.app, "fact": self.fact, "provenance": asdict(self.provenance)}


@dataclass
class Declarative:
    """The user profile (name → value, written by a person) and semantic facts (learned)."""

    profile: dict[str, str] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)

    def add_fact(self, fact: Fact) -> bool:
        """Keep ``fact`` unless the same text is known; True when it was new."""
        text = fact.fact.strip()[:MAX_FACT]
        if not text or any(f.fact == text and f.app == fact.app for f in self.facts):
            return False
        self.facts.append(Fact(fact.app.strip()[:60], text, fact.provenance))
        del self.facts[:-MAX_FACTS]
        return True

    def profile_text(self) -> str:
        return "\n".join(f"- {k}: {v}" for k, v in self.profile.items()) or "(none)"


@dataclass
class Outcome:
    """What one subtask came to: done, failed or pending, and the attempts it took."""

    status: str = "pending"  # "pending", "done", "failed"
    attempts: int = 0
    tool: str | None = None
    output: str = ""
    reason: str = ""
    #: the last attempt's feedback (the actor's Feedback), for the next refinement
    feedback: Any = None


@dataclass
class Working:
    """The episode's working memory: the task, its plan and each subtask's outcome."""

    instruction: str = ""
    plan: Plan | None = None
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    def set_plan(self, plan: Plan) -> None:
        self.plan = plan
        self.outcomes = {s.id: Outcome() for s in plan.order}

    def next_ready(self) -> Subtask | None:
        """The first pending subtask whose dependencies are all done (in dependency order);
        a subtask that depends on a failed one fails too (it cannot be done)."""
        if self.plan is None:
            return None
        for s in self.plan.order:
            o = self.outcomes[s.id]
            if o.status != "pending":
                continue
            failed = [d for d in s.dependencies if self.outcomes[d].status == "failed"]
            if failed:
                o.status, o.reason = "failed", f"depends on failed subtask {failed[0]!r}"
                continue
            if all(self.outcomes[d].status == "done" for d in s.dependencies):
                return s
        return None

    def context(self, subtask: Subtask) -> str:
        """What the subtasks it depends on did (their outputs), for the actor."""
        assert self.plan is not None
        lines = []
        for s in self.plan.order:
            o = self.outcomes[s.id]
            if s.id in subtask.dependencies or o.status == "done":
                out = o.output.strip()[-500:] or "(no output)"
                lines.append(f"- {s.id} ({o.status}): {s.description}\n  output: {out}")
        return "\n".join(lines) or "(none)"

    @property
    def done(self) -> bool:
        """Every subtask judged done by the critic."""
        return self.plan is not None and all(o.status == "done" for o in self.outcomes.values())

    def summary(self) -> dict[str, str]:
        return {k: o.status for k, o in self.outcomes.items()}
