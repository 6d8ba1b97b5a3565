"""Per-game Cradle practice as data: ``prompts/<game>/settings.toml``, checked at load.

``max_calls``: a cap on the skill calls per step for envs that declare none (a game's own
limit is its spec's ``max_skill_calls``, which the policy always applies). ``visual_prompts``: what is drawn on the
current screen before it is sent: ``"grid"`` (3×5 grid with axis labels), ``"side_bands"``
(blue left edge, yellow right edge), ``"marks"`` (Set-of-Mark numbered boxes, for
``click_on_label``). ``skill_curation``: curate skills from on-screen instructions by default
(RDR2's tutorials and key prompts). ``top_k``: show action planning only the k skills most
relevant to the task (the paper retrieves skills; for large libraries such as RDR2's).
``reflect_frames``: frames of the last action's video self-reflection sees (Dealer's Life 2:
2, the first and the last, as the paper). A missing file means no limit, no drawing, no
curation, every skill shown, 8 reflection frames.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agents.cradle.prompts import PROMPT_DIR
from gcc_envs.core.toml_data import tomllib
from gcc_envs.errors import DataError

VISUAL_PROMPTS = ("grid", "side_bands", "marks")
_KEYS = {"max_calls", "visual_prompts", "skill_curation", "top_k", "reflect_frames"}


@dataclass(frozen=True)
class GameSettings:
    max_calls: int | None = None
    visual_prompts: tuple[str, ...] = ()
    skill_curation: bool = False
    top_k: int | None = None
    reflect_frames: int | None = None


def load_settings(game: str, root: Path = PROMPT_DIR) -> GameSettings:
    path = root / game / "settings.toml"
    if not path.is_file():
        return GameSettings()
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise DataError(f"{path}: cannot read the settings ({e})") from None
    if set(data) - _KEYS:
        raise DataError(
            f"{path}: unknown key(s) {sorted(set(data) - _KEYS)}; known {sorted(_KEYS)}"
        )
    for key in ("max_calls", "top_k", "reflect_frames"):
        n = data.get(key)
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
            raise DataError(f"{path}: {key} must be an integer >= 1, got {n!r}")
    vp = data.get("visual_prompts", [])
    if not isinstance(vp, list) or any(v not in VISUAL_PROMPTS for v in vp):
        raise DataError(f"{path}: visual_prompts must be a list among {VISUAL_PROMPTS}, got {vp!r}")
    curate = data.get("skill_curation", False)
    if not isinstance(curate, bool):
        raise DataError(f"{path}: skill_curation must be true or false, got {curate!r}")
    return GameSettings(
        data.get("max_calls"), tuple(vp), curate, data.get("top_k"), data.get("reflect_frames")
    )
