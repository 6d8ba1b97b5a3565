"""Dense retrieval of tools and facts: the endpoint's ``/v1/embeddings``, else TF-IDF.

The paper retrieves the tools (and knowledge) most similar to a subtask by embedding. Vectors
come from the client's :meth:`~agents.cradle.llm.LLMClient.embed` and are cached per text, so
a repository costs one request when first seen and nothing after. An endpoint without
embeddings (an error on the first try) switches this retriever to a TF-IDF cosine over the
documents for good — one failed call, not one per subtask — and :attr:`mode` says which is used.

>>> r = Retriever()
>>> r.top_k("make a spreadsheet report", ["open a web page", "write a spreadsheet cell"], 2, 0.3)
[(1, 0.65543)]
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from agents.cradle.llm import LLMError

log = logging.getLogger(__name__)
_WORD = re.compile(r"[a-z0-9]+")

Embed = Callable[[Sequence[str]], np.ndarray]


def _terms(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower().replace("_", " ")))


def tfidf_scores(query: str, docs: Sequence[str]) -> np.ndarray:
    """Cosine similarity of TF-IDF vectors (IDF over ``docs``, smoothed)."""
    bags = [_terms(d) for d in docs]
    n = len(docs)
    df = Counter(t for b in bags for t in b)
    idf = {t: math.log((1 + n) / (1 + df[t])) + 1.0 for t in df}

    def vec(bag: Counter[str]) -> dict[str, float]:
        return {t: c * idf.get(t, 0.0) for t, c in bag.items()}

    q = vec(_terms(query))
    qn = math.sqrt(sum(v * v for v in q.values())) or 1.0
    out = []
    for b in bags:
        d = vec(b)
        dn = math.sqrt(sum(v * v for v in d.values())) or 1.0
        out.append(sum(w * d.get(t, 0.0) for t, w in q.items()) / (qn * dn))
    return np.round(np.array(out, np.float64), 6)


class Retriever:
    """Scores documents against a query: embeddings while the endpoint gives them, else TF-IDF."""

    def __init__(self, embed: Embed | None = None) -> None:
        self.embed = embed
        self.mode = "embedding" if embed is not None else "tfidf"
        self.embed_error: str | None = None
        self._cache: dict[str, np.ndarray] = {}

    def scores(self, query: str, docs: Sequence[str]) -> np.ndarray:
        if not docs:
            return np.zeros(0)
        if self.embed is not None:
            try:
                todo = list(dict.fromkeys(t for t in (*docs, query) if t not in self._cache))
                if todo:
                    self._cache.update(zip(todo, self.embed(todo)))
                q = self._cache[query]
                return np.round(np.array([float(self._cache[d] @ q) for d in docs]), 6)
            except LLMError as e:
                log.warning("embeddings failed (%s); retrieving by TF-IDF from now on", e)
                self.embed, self.mode, self.embed_error = None, "tfidf", str(e)
        return tfidf_scores(query, docs)

    def top_k(
        self, query: str, docs: Sequence[str], k: int, threshold: float = 0.0
    ) -> list[tuple[int, float]]:
        """``(index, score)`` of the ``k`` documents most similar to ``query`` scoring above
        ``threshold``, best first (ties keep the documents' order)."""
        s = self.scores(query, docs)
        ranked = sorted(range(len(docs)), key=lambda i: (-s[i], i))
        return [(i, float(s[i])) for i in ranked[:k] if s[i] > threshold]
