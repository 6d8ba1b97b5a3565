"""Tutorial-gated skills: the library an agent sees grows as the game's tutorial boxes appear.

In the paper Cradle curates its RDR2 skills from the tutorials on screen: it cannot hitch a
horse before the game has said how. ``skills="curated"`` (the default) gives the env a
:class:`CuratedSkills` library: a skill of :data:`GATES` is in it only once one of its
tutorials has been shown this episode; the others are there from the start.
``skills="all"`` gives the whole library at once (tool building, ablations).

>>> from gcc_envs.games.rdr2.skills import SKILLS
>>> seen: set[str] = set()
>>> lib = CuratedSkills(SKILLS, lambda: seen)
>>> "loot" in lib, "turn" in lib
(False, True)
>>> seen.add("loot")
>>> "loot" in lib
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator

from gcc_envs.core.program import Program
from gcc_envs.core.skills import Skill, SkillCall, SkillLibrary
from gcc_envs.errors import CodeActionError, GCCError

#: ``skills=`` values of the RDR2 envs.
SKILL_MODES = ("curated", "all")
#: Skill -> the tutorials (ids of ``sim/data/tutorials.toml``) any one of which unlocks it.
GATES: dict[str, tuple[str, ...]] = {
    "hitch_horse": ("hitch",),
    "loot": ("loot",),
    "open_weapon_wheel": ("weapon_wheel", "need_gun"),
    "select_weapon": ("weapon_wheel", "need_gun"),
    "shoot": ("weapon_wheel", "need_gun", "aim"),
    "aim": ("weapon_wheel", "need_gun", "aim"),
    "reload": ("weapon_wheel", "need_gun", "aim"),
    "climb": ("climb",),
    "run": ("run",),
    "confirm": ("shop",),
}


class CuratedSkills(SkillLibrary):
    """A live view of ``full``: gated skills appear once ``seen()`` holds one of their
    tutorials. Wrappers that keep the library (``UseSkills``) see it grow."""

    def __init__(self, full: SkillLibrary, seen: Callable[[], Collection[str] | None]) -> None:
        super().__init__(full.values())
        self._seen = seen

    def unlocked(self, name: str) -> bool:
        gate = GATES.get(name)
        seen = self._seen()
        return gate is None or seen is None or any(t in seen for t in gate)

    def __getitem__(self, name: str) -> Skill:
        skill = super().__getitem__(name)
        if not self.unlocked(name):
            raise KeyError(name)
        return skill

    def __iter__(self) -> Iterator[str]:
        return iter([n for n in self._skills if self.unlocked(n)])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def with_skills(self, skills: Iterable[Skill]) -> SkillLibrary:
        return CuratedSkills(SkillLibrary([*self._skills.values(), *skills]), self._seen)

    def describe(self) -> str:
        return "\n".join(f"{self[n].signature()}: {self[n].doc}" for n in self)

    def program(self, call: SkillCall) -> Program:
        if call.name in self._skills and not self.unlocked(call.name):
            raise CodeActionError(
                f"skill {call.name!r} is not in the library yet: the game has not shown "
                "its tutorial"
            )
        return super().program(call)


def curate(
    full: SkillLibrary, mode: str, seen: Callable[[], Collection[str] | None]
) -> SkillLibrary:
    """The library for ``skills=mode``: ``full`` itself for ``"all"``."""
    if mode not in SKILL_MODES:
        raise GCCError(f"skills must be one of {SKILL_MODES}, got {mode!r}")
    return full if mode == "all" else CuratedSkills(full, seen)
