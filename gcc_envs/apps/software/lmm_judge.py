"""Judges for the real apps, where no checker can read the program: a person, a screen
template, or a multimodal model asked a yes/no question about the final screenshot.

``LMMJudge`` posts one chat-completions request to any OpenAI-compatible endpoint (the key
from an environment variable, never from code), with the task and the screenshot as a PNG;
a reply that starts with "yes" is a success, anything else is not. The prompt and the reply
are kept (:attr:`LMMJudge.records`) and reported in ``info["judge_record"]``.
"""

from __future__ import annotations

import base64
import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from gcc_envs.errors import GCCError

QUESTION = (
    "You judge whether a computer task was completed, from the final screenshot only.\n"
    "Task: {instruction}\n"
    "Answer 'yes' if the screenshot shows the task done, otherwise 'no', then one sentence why."
)


@dataclass(frozen=True)
class JudgeRecord:
    prompt: str
    reply: str
    success: bool
    error: str | None = None


class LMMJudge:
    """Asks ``model`` at ``base_url`` whether the final screen shows the task done."""

    def __init__(self, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY",
                 timeout_s: float = 60.0, max_side: int = 1280) -> None:  # fmt: skip
        if not base_url.startswith(("http://", "https://")):
            raise GCCError(f"the judge's base_url must be http(s), got {base_url!r}")
        self.base_url, self.model, self.api_key_env = base_url.rstrip("/"), model, api_key_env
        self.timeout_s, self.max_side = timeout_s, max_side
        self.spec = f"lmm:{model}@{self.base_url}"
        self.records: list[JudgeRecord] = []

    def _png(self, frame: np.ndarray) -> str:
        h, w = frame.shape[:2]
        k = min(1.0, self.max_side / max(h, w))
        if k < 1.0:
            frame = cv2.resize(frame, (int(w * k), int(h * k)), interpolation=cv2.INTER_AREA)
        ok, png = cv2.imencode(".png", cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))
        if not ok:
            raise GCCError("could not encode the screenshot for the judge")
        return "data:image/png;base64," + base64.b64encode(png.tobytes()).decode()

    def decide(self, instruction: str, frame: np.ndarray) -> JudgeRecord:
        prompt = QUESTION.format(instruction=instruction)
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [{"role": "user", "content": [
                {"type": "text", "text": prompt},
                {"type": "image_url", "image_url": {"url": self._png(frame), "detail": "high"}},
            ]}],
        }  # fmt: skip
        key = os.environ.get(self.api_key_env, "")
        req = urllib.request.Request(
            f"{self.base_url}/chat/completions", data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as r:
                reply = json.loads(r.read())["choices"][0]["message"]["content"] or ""
            record = JudgeRecord(prompt, reply, reply.strip().lower().startswith("yes"))
        except (urllib.error.URLError, OSError, KeyError, IndexError, ValueError) as e:
            record = JudgeRecord(prompt, "", False, f"the judge's endpoint failed: {e}")
        self.records.append(record)
        return record

    def probe(self, backend: Any) -> Any:
        from gcc_envs.judges import Verdict

        return Verdict(False, self.spec)  # decided once, at the episode's end


def make_live_judge(spec: str) -> Any:
    """``human``, ``template:<png>`` (the desktop backend's) or ``lmm:<model>@<base_url>``."""
    if spec.startswith("lmm:"):
        model, sep, url = spec[4:].partition("@")
        if not sep or not model:
            raise GCCError(f"an LMM judge is 'lmm:<model>@<base_url>', got {spec!r}")
        return LMMJudge(url, model)
    from gcc_envs.judges import make_judge

    if spec in ("", "none"):
        raise GCCError("a real app needs an explicit judge: human, template:<png> or lmm:...")
    return make_judge(spec)
