"""Top-k skill retrieval for action planning: embeddings when the endpoint has them, else words.

The paper embeds each skill's documentation and the task and keeps the K most similar skills
(cosine). :class:`SkillRetriever` does that through ``embed`` (the client's ``/v1/embeddings``),
caching each document's and query's vector (a task stays the same for many steps, so most steps
make no request); when ``embed`` is None or fails with :class:`LLMError` it falls
back to a lexical bag-of-words cosine, and says so in ``last_mode``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from agents.cradle.llm import LLMError

log = logging.getLogger(__name__)
_WORD = re.compile(r"[a-z]+")

Embed = Callable[[Sequence[str]], np.ndarray]


def words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.lower().replace("_", " ")))


def lexical_scores(query: str, docs: Sequence[str]) -> np.ndarray:
    """Cosine similarity of word counts."""
    q = words(query)
    qn = np.sqrt(sum(v * v for v in q.values())) or 1.0
    out = []
    for d in docs:
        w = words(d)
        dn = np.sqrt(sum(v * v for v in w.values())) or 1.0
        out.append(sum(q[t] * w[t] for t in q) / (qn * dn))
    return np.array(out)


class SkillRetriever:
    def __init__(self, embed: Embed | None = None) -> None:
        self.embed = embed
        self.last_mode = "lexical"
        self._cache: dict[str, np.ndarray] = {}

    def scores(self, query: str, docs: Sequence[str]) -> np.ndarray:
        if self.embed is not None:
            try:
                todo = list(dict.fromkeys(t for t in (*docs, query) if t not in self._cache))
                if todo:  # one request for new documents and a new query; nothing when cached
                    self._cache.update(zip(todo, self.embed(todo)))
                q = self._cache[query]
                self.last_mode = "embedding"
                return np.array([float(self._cache[d] @ q) for d in docs])
            except LLMError as e:
                log.warning("embeddings failed (%s); using lexical retrieval", e)
        self.last_mode = "lexical"
        return lexical_scores(query, docs)

    def top_k(self, query: str, docs: Mapping[str, str], k: int) -> list[str]:
        """Names of the ``k`` documents most similar to ``query``, best first (stable ties)."""
        names = list(docs)
        s = self.scores(query, [docs[n] for n in names])
        order = sorted(range(len(names)), key=lambda i: (-s[i], i))
        return [names[i] for i in order[:k]]
