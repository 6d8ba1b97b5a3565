"""The Cradle agent (DESIGN §6): information gathering, self-reflection, task inference, skill
curation, action planning and memory around an OpenAI-compatible LMM (pip extra ``cradle``),
module by module as in the paper or ``fused`` into one request per step."""

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
