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
from gcc_envs.core.toml_data import Entry, read

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
    """``root/game/settings.toml`` checked (unknown keys, kinds, ranges), or the defaults when
    the game has no such file."""
    path = root / game / "settings.toml"
    if not path.is_file():
        return GameSettings()
    e = Entry(str(path), "settings", read(path))
    e.known(_KEYS)
    return GameSettings(
        max_calls=e.int("max_calls", None, lo=1),
        visual_prompts=tuple(e.choices("visual_prompts", VISUAL_PROMPTS, [])),
        skill_curation=e.get("skill_curation", bool, False),
        top_k=e.int("top_k", None, lo=1),
        reflect_frames=e.int("reflect_frames", None, lo=1),
    )
