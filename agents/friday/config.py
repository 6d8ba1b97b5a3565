"""``FridayConfig``: FRIDAY's settings, one typed dataclass (the CLI fills the same one)."""

from __future__ import annotations

from dataclasses import dataclass

from gcc_envs.errors import GCCError

DETAILS = ("low", "high", "auto")


@dataclass(frozen=True)
class FridayConfig:
    #: refinements of a failing subtask after its first attempt (the paper: at most three)
    max_refinements: int = 3
    #: tools and facts shown for a subtask (the most similar ones)
    top_k_tools: int = 5
    top_k_facts: int = 5
    #: least similarity for a tool or fact to be shown (embedding or TF-IDF cosine)
    threshold: float = 0.0
    max_subtasks: int = 12
    #: times an unusable planner or critic reply is asked again before falling back
    max_reasks: int = 1
    #: retrieve with the endpoint's /v1/embeddings (else TF-IDF)
    embed: bool = True
    critic_detail: str = "low"
    #: image detail of the screen the GUI actor sees (the code actor sees no screen)
    actor_detail: str = "high"

    def __post_init__(self) -> None:
        ints = {"max_refinements": (self.max_refinements, 0), "top_k_tools": (self.top_k_tools, 0),
                "top_k_facts": (self.top_k_facts, 0), "max_subtasks": (self.max_subtasks, 1),
                "max_reasks": (self.max_reasks, 0)}  # fmt: skip
        for name, (v, least) in ints.items():
            if isinstance(v, bool) or not isinstance(v, int) or v < least:
                raise GCCError(f"FridayConfig.{name} must be a whole number >= {least}, got {v!r}")
        if self.critic_detail not in DETAILS or self.actor_detail not in DETAILS:
            raise GCCError(f"FridayConfig: image details must be among {DETAILS}")
