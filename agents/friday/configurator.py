"""The configurator: for a subtask, what the actor is shown from memory — the most similar
tools the env can run, the most similar facts, and the user profile."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agents.friday.config import FridayConfig
from agents.friday.retrieval import Retriever
from agents.friday.store import Store
from agents.friday.tools import Tool, ToolError, check_calls


@dataclass(frozen=True)
class Configuration:
    tools: tuple[Tool, ...]
    #: each shown tool's similarity to the query
    similarity: tuple[float, ...]
    facts: tuple[str, ...]
    profile: str

    def tools_text(self) -> str:
        rows = [
            f"- {t.name}: {t.signature} — {t.description}"
            + (f" (critic score {t.score})" if t.score is not None else "")
            for t in self.tools
        ]
        return "\n".join(rows) or "(none yet)"

    def facts_text(self) -> str:
        return "\n".join(f"- {f}" for f in self.facts) or "(none)"


class Configurator:
    """Retrieves from ``store`` for a query, keeping only tools the env can run: in
    ``sandbox`` mode every language (GUI tools only if they are plain pyautogui), in ``gui``
    mode the GUI (``calls``) tools the env's safe parser accepts with its ``skills``."""

    def __init__(
        self, store: Store, retriever: Retriever, config: FridayConfig, mode: str,
        skills: Mapping[str, Any] | None = None,
    ) -> None:  # fmt: skip
        self.store, self.retriever, self.config = store, retriever, config
        self.mode, self.skills = mode, skills

    def usable(self, tool: Tool) -> bool:
        if self.mode == "sandbox" and tool.language != "calls":
            return True
        if tool.language != "calls":
            return False
        try:
            check_calls(tool.source, tool.name, None if self.mode == "sandbox" else self.skills)
        except ToolError:
            return False
        return True

    def configure(self, query: str) -> Configuration:
        c = self.config
        tools = [t for t in self.store if self.usable(t)]
        picked = self.retriever.top_k(query, [t.doc() for t in tools], c.top_k_tools, c.threshold)
        facts = self.store.memory.facts
        shown = self.retriever.top_k(query, [f.doc() for f in facts], c.top_k_facts, c.threshold)
        return Configuration(
            tuple(tools[i] for i, _ in picked),
            tuple(s for _, s in picked),
            tuple(facts[i].doc() for i, _ in shown),
            self.store.memory.profile_text(),
        )
