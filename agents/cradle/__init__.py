"""The Cradle agent (DESIGN §6): information gathering, self-reflection, task inference,
action planning and memory around an OpenAI-compatible LMM (pip extra ``cradle``)."""

from agents.cradle.llm import BudgetExceeded, LLMClient, LLMConfig, LLMError, Usage
from agents.cradle.policy import CradleConfig, CradlePolicy

__all__ = [
    "BudgetExceeded",
    "CradleConfig",
    "CradlePolicy",
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "Usage",
]
