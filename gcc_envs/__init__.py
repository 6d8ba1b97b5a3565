"""gcc-gym: games and desktop applications as Gymnasium environments (screen in, keyboard and
mouse out). Importing this package registers every ``GCC/...`` id with Gymnasium.

>>> import gymnasium as gym
>>> import gcc_envs
>>> env = gym.make("GCC/Stardew-Cultivation", obs_size=(84, 84))
>>> obs, info = env.reset(seed=0)
>>> obs.shape
(84, 84, 3)
"""

from gcc_envs.core.code import parse_code
from gcc_envs.core.events import (
    Click,
    Done,
    DragTo,
    Event,
    Fail,
    Hotkey,
    KeyDown,
    KeyPress,
    KeyUp,
    MouseDown,
    MouseUp,
    MoveBy,
    MoveTo,
    Scroll,
    TypeText,
    Wait,
)
from gcc_envs.core.program import Program
from gcc_envs.core.skills import Skill, SkillCall, SkillLibrary
from gcc_envs.errors import (
    BackendError,
    CodeActionError,
    DataError,
    GCCError,
    InvalidActionError,
    MissingExtraError,
)
from gcc_envs.registration import env_ids, register_all

__version__ = "0.1.0"

register_all()

__all__ = [
    "BackendError",
    "Click",
    "CodeActionError",
    "DataError",
    "Done",
    "DragTo",
    "Event",
    "Fail",
    "GCCError",
    "Hotkey",
    "InvalidActionError",
    "KeyDown",
    "KeyPress",
    "KeyUp",
    "MissingExtraError",
    "MouseDown",
    "MouseUp",
    "MoveBy",
    "MoveTo",
    "Program",
    "Scroll",
    "Skill",
    "SkillCall",
    "SkillLibrary",
    "TypeText",
    "Wait",
    "env_ids",
    "parse_code",
]
