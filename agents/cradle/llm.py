"""The LMM client: any OpenAI-compatible endpoint, bounded retries, usage, cost and budget.

The ``openai`` package (pip extra ``cradle``) is imported when a client is made, and the API
key is read from the environment then, never at import. The SDK's own retries are off
(``max_retries=0``): :class:`LLMClient` retries 429, 5xx, timeouts, dropped connections and
malformed 200 replies (:mod:`agents.cradle.llm_reply` validates every body) itself, at most
``LLMConfig.max_retries`` times with exponential backoff, and then raises :class:`LLMError`
naming the endpoint. Every attempt, failed or not, counts as a call (``Usage.calls``; failed
ones also in ``Usage.failed_calls``) and is checked against ``max_calls`` before it is made.
"""

from __future__ import annotations

import base64
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

from agents.cradle.llm_reply import MalformedReply, chat_reply, embedding_reply
from gcc_envs.errors import GCCError, MissingExtraError

#: USD per million (prompt, completion) tokens; unknown models cost 0.
DEFAULT_PRICES: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        "gpt-4o": (2.5, 10.0),
        "gpt-4o-2024-05-13": (5.0, 15.0),
        "gpt-4o-mini": (0.15, 0.6),
        "text-embedding-3-small": (0.02, 0.0),
        "text-embedding-ada-002": (0.1, 0.0),
    }
)
#: Longest reply text kept, in characters (longer replies are cut here).
MAX_REPLY_CHARS = 100_000


class LLMError(GCCError, RuntimeError):
    """The endpoint failed (after the bounded retries) or refused the request."""


class BudgetExceeded(GCCError):
    """The configured ``max_calls`` or ``max_cost_usd`` is spent; no further call is made."""


@dataclass(frozen=True)
class LLMConfig:
    """How to reach the endpoint and what a call may cost."""

    base_url: str = "https://api.openai.com/v1"
    model: str = "gpt-4o"
    api_key_env: str = "OPENAI_API_KEY"
    embed_model: str = "text-embedding-3-small"
    timeout_s: float = 60.0
    max_retries: int = 3
    backoff_s: float = 1.0
    backoff_max_s: float = 16.0
    temperature: float = 0.0
    seed: int | None = None
    max_tokens: int = 1024
    prices: Mapping[str, tuple[float, float]] = field(default_factory=lambda: DEFAULT_PRICES)
    max_cost_usd: float | None = None
    max_calls: int | None = None

    def __post_init__(self) -> None:
        if self.max_retries < 0 or self.timeout_s <= 0 or self.backoff_s < 0:
            raise GCCError("LLMConfig: max_retries >= 0, timeout_s > 0 and backoff_s >= 0")

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        p, c = self.prices.get(model, (0.0, 0.0))
        return (prompt_tokens * p + completion_tokens * c) / 1e6


@dataclass
class Usage:
    """Calls, tokens, cost and latency, summed."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    #: attempts that got no usable reply (also counted in ``calls``)
    failed_calls: int = 0

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.failed_calls += other.failed_calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost_usd += other.cost_usd
        self.latency_s += other.latency_s

    def to_json(self) -> dict[str, float]:
        return {
            "calls": self.calls,
            "failed_calls": self.failed_calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 6),
            "latency_s": round(self.latency_s, 4),
        }


@dataclass
class Ledger:
    """Usage per module (this episode), per step and per episode."""

    episode: Usage = field(default_factory=Usage)
    step: Usage = field(default_factory=Usage)
    by_module: dict[str, Usage] = field(default_factory=dict)
    step_by_module: dict[str, Usage] = field(default_factory=dict)

    def record(self, module: str, usage: Usage) -> None:
        for total in (
            self.episode,
            self.step,
            self.by_module.setdefault(module, Usage()),
            self.step_by_module.setdefault(module, Usage()),
        ):
            total.add(usage)

    def new_step(self) -> None:
        self.step, self.step_by_module = Usage(), {}

    def new_episode(self) -> None:
        self.episode, self.by_module = Usage(), {}
        self.new_step()


@dataclass(frozen=True)
class Reply:
    text: str
    usage: Usage
    truncated: bool = False


def image_url(frame: np.ndarray) -> str:
    """An RGB ``uint8`` frame as a base64 PNG data URL."""
    ok, png = cv2.imencode(".png", cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_RGB2BGR))
    if not ok:
        raise GCCError(f"could not encode a frame of shape {frame.shape} as PNG")
    return "data:image/png;base64," + base64.b64encode(png.tobytes()).decode("ascii")


def user_message(
    text: str, images: Sequence[np.ndarray] = (), detail: str = "low"
) -> dict[str, Any]:
    """A user message with ``text`` then ``images`` (data URLs at ``detail``)."""
    if detail not in ("low", "high", "auto"):
        raise GCCError(f"detail must be 'low', 'high' or 'auto', got {detail!r}")
    if not images:
        return {"role": "user", "content": text}
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    for f in images:
        parts.append({"type": "image_url", "image_url": {"url": image_url(f), "detail": detail}})
    return {"role": "user", "content": parts}


class LLMClient:
    """Chat and embeddings against ``config.base_url`` with accounting in ``self.ledger``."""

    def __init__(self, config: LLMConfig) -> None:
        try:
            import openai
        except ImportError:
            raise MissingExtraError("openai", "cradle") from None
        key = os.environ.get(config.api_key_env)
        if not key:
            raise GCCError(f"set the API key in the environment variable {config.api_key_env}")
        self.config = config
        self.ledger = Ledger()
        self._openai = openai
        self._client = openai.OpenAI(
            base_url=config.base_url, api_key=key, timeout=config.timeout_s, max_retries=0
        )
        self._retryable = (
            openai.RateLimitError,
            openai.InternalServerError,
            openai.APITimeoutError,
            openai.APIConnectionError,
        )

    def _check_budget(self) -> None:
        c, spent = self.config, self.ledger.episode
        if c.max_calls is not None and spent.calls >= c.max_calls:
            raise BudgetExceeded(f"call budget spent: {spent.calls} of max_calls={c.max_calls}")
        if c.max_cost_usd is not None and spent.cost_usd >= c.max_cost_usd:
            raise BudgetExceeded(
                f"cost budget spent: ${spent.cost_usd:.4f} of max_cost_usd={c.max_cost_usd}"
            )

    def _call(self, fn: Any, parse: Any, module: str, **kwargs: Any) -> tuple[Any, float]:
        """``parse(body)`` of ``fn(**kwargs)``'s raw reply, with bounded retries; (value,
        latency of the last try). Each try is a call: budgeted first, recorded if it fails."""
        c = self.config
        for attempt in range(c.max_retries + 1):
            self._check_budget()
            t0 = time.perf_counter()
            try:
                raw = fn(**kwargs)
                latency = time.perf_counter() - t0
                return parse(raw.http_response.content), latency
            except (*self._retryable, MalformedReply) as e:
                self._failed(module, t0)
                if attempt == c.max_retries:
                    raise LLMError(
                        f"{c.base_url}: {type(e).__name__} after {attempt + 1} tries: "
                        f"{str(e)[:200]}"
                    ) from None
            except self._openai.APIError as e:
                self._failed(module, t0)
                raise LLMError(f"{c.base_url}: {type(e).__name__}: {str(e)[:200]}") from None
            time.sleep(min(c.backoff_s * 2**attempt, c.backoff_max_s))
        raise AssertionError("unreachable")

    def _failed(self, module: str, t0: float) -> None:
        self.ledger.record(module, Usage(1, latency_s=time.perf_counter() - t0, failed_calls=1))

    def chat(
        self,
        messages: Sequence[Mapping[str, Any]],
        module: str = "chat",
        max_tokens: int | None = None,
        temperature: float | None = None,
        seed: int | None = None,
    ) -> Reply:
        """One chat completion; the reply text (``""`` when the model sent none)."""
        c = self.config
        kwargs: dict[str, Any] = {
            "model": c.model,
            "messages": list(messages),
            "max_tokens": max_tokens or c.max_tokens,
            "temperature": c.temperature if temperature is None else temperature,
        }
        if (seed if seed is not None else c.seed) is not None:
            kwargs["seed"] = seed if seed is not None else c.seed
        create = self._client.chat.completions.with_raw_response.create
        (text, pt, ct), latency = self._call(create, chat_reply, module, **kwargs)
        usage = Usage(1, pt, ct, c.cost(c.model, pt, ct), latency)
        self.ledger.record(module, usage)
        return Reply(text[:MAX_REPLY_CHARS], usage, len(text) > MAX_REPLY_CHARS)

    def embed(self, texts: Sequence[str], module: str = "embed") -> np.ndarray:
        """Unit-norm embeddings of ``texts`` (``len(texts) × d`` float32) via /v1/embeddings."""
        c = self.config
        texts = list(texts)
        (vecs, pt), latency = self._call(
            self._client.embeddings.with_raw_response.create,
            lambda body: embedding_reply(body, len(texts)),
            module,
            model=c.embed_model,
            input=texts,
        )
        self.ledger.record(module, Usage(1, pt, 0, c.cost(c.embed_model, pt, 0), latency))
        arr = np.array(vecs, np.float32)
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        return arr / np.maximum(norms, 1e-12)

    def close(self) -> None:
        self._client.close()
