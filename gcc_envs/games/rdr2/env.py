"""The Red Dead Redemption II environments' class and card."""

from __future__ import annotations

from gcc_envs.games.game_env import GameEnv
from gcc_envs.games.rdr2 import GAME


class RDR2Env(GameEnv):
    """Red Dead Redemption II's opening missions, first person, from the screen, keyboard and mouse.

    ## Description
    A mission simulator rebuilt after the Cradle paper's RDR2 setting: a ray-cast first-person
    world on a grid of 2 m cells with a mouse-turned camera, a minimap with the red route line,
    key prompts (``[E] Hitch Horse``), tutorial boxes (``Hold [TAB] to view your stored
    weapons``), a weapon wheel, an Esc pause menu whose animation takes 0.5 s each way while the
    world keeps moving, horses, companions who wait when the player falls more than 15 m
    behind, enemies who shoot from cover, wolves that run and bite, health that regenerates,
    and a "mission failed" screen. A control a tutorial teaches works only once its box has
    appeared (the weapon wheel, looting, climbing, hitching, calming a horse, carrying, shopping).

    Tasks (``task=``; the paper allows 500 steps per checkpoint task):

    | id / task | checkpoints (easy / hard) |
    |---|---|
    | ``GCC/RDR2-Mission1`` / ``mission1`` | follow_dutch (e), hitch_horse (e), search_house (h), protect_dutch (h), go_to_barn (e), lead_horse (h), follow_micah (e), return_to_camp (e) |
    | ``GCC/RDR2-Mission2`` / ``mission2`` | follow_javier (e), search_for_john (h), carry_john (h), kill_wolves (h), return_to_camp (e) |
    | ``GCC/RDR2-Mission3`` / ``mission3`` | buy_supplies (h): open-ended, no route line — ride to town, enter the store, buy from the clerk |

    Any checkpoint alone is a task named ``<mission>:<checkpoint>``, e.g.
    ``gym.make("GCC/RDR2-Mission1", task="mission1:protect_dutch")``: it starts at that checkpoint
    with everything before it done and succeeds when it is passed (per-checkpoint success rates).

    ## Action Space
    ``action_mode="state"`` (default): ``Dict(keys=MultiBinary(17), buttons=MultiBinary(3),
    mouse=Box(-1, 1, (2,)), scroll=Discrete(3, start=-1))`` held for ``step_seconds``; keys in
    order ``w a s d shift space e r f q tab esc enter 1 2 3 4``; ``mouse`` is relative motion of
    up to 160 px that turns the view (4 px per degree horizontally, 5 vertically, at 1280×720).
    ``w a s d`` move relative to the view, ``shift`` runs/gallops, ``space`` jumps and climbs
    ledges, ``e`` does what the prompt says, hold ``r`` 1.5 s to search (else reload), hold
    ``tab`` for the weapon wheel (the pointer picks; release equips), ``1``-``4`` equip
    revolver/rifle/knife/lasso, right button aims, left button fires, ``f`` punches, ``q``
    takes cover by a wall or crate (enemies hit far less often), ``esc`` pauses. ``action_mode="event"``: one computer_13 operation per step. Every env also takes a
    ``Program``, a list of events, or code text: pyautogui calls and the skills of
    :mod:`gcc_envs.games.rdr2.skills` (only the first skill call of a step runs).

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``: the game window rendered directly at ``obs_size=(H, W)``
    (default 720×1280; RL users pass ``(84, 84)``).

    ## Rewards
    ``+1`` once on success, plus shaping ``0.5 × Δprogress`` where ``info["progress"]`` is the
    share of the task's checkpoints passed (Mission 3: its key points in town, in the store,
    catalogue opened, supplies bought, a quarter each).

    ## Starting State
    Mission 1: mounted at the snowy camp beside Dutch and Micah, 15:00. Mission 2: mounted at the
    mountain camp beside Javier. Mission 3: on foot at camp by the horse, $20, no route line.
    A checkpoint task starts where that checkpoint begins; ``reset(options={"checkpoint": name,
    "single": False})`` restarts a whole mission from one of its checkpoints (in the game,
    ``enter`` on the "mission failed" screen restarts the last checkpoint reached). The seed shifts the time of day by up
    to half an hour, turns the starting view by up to 5°, and decides enemy shots and hip fire.

    ## Episode End
    Terminated on success (``info["success"]``), on a failure scenario with
    ``info["failure"]`` one of: ``"assaulted <Name>"``, ``"killed <Name>"``,
    ``"abandoned <Name>"``, ``"<Name> was killed"`` (Dutch, Micah, Javier, John),
    ``"abandoned the homestead"``, ``"assaulted your horse"``, ``"killed your horse"``,
    ``"your horse was killed"``, ``"abandoned your horse"``, ``"assaulted the barn horse"``,
    ``"killed the barn horse"``, ``"abandoned the barn horse"``, ``"you died"``; or when the agent
    sends ``DONE``/``FAIL``. Truncated by Gymnasium's ``TimeLimit`` after 500 steps per
    checkpoint: 4000 for Mission 1, 2500 for Mission 2, 500 for Mission 3; a checkpoint run
    alone takes ``gym.make(..., task="mission1:<name>", max_episode_steps=500)``, which
    ``gcc-gym run --per-task`` passes.

    ## Arguments
    ``task`` (``mission1``, ``mission2``, ``mission3`` or ``<mission>:<checkpoint>``),
    ``backend`` (``"sim"``), ``obs_size``, ``action_mode``, ``time_mode`` (``lockstep`` default;
    ``paused`` runs the 0.5 s pause/resume animations around every step, as Cradle's real-game
    loop does), ``fps`` (frames per game second sampled for video chunks, default 2),
    ``step_seconds`` (one state-mode tick and the shortest step, 0.25), ``think_time`` (lockstep
    latency in game seconds), ``render_mode`` (``"rgb_array"``), ``shaping`` (reward per unit of
    progress, default 0.5).

    ## Version History
    * v0 (unversioned ids): first release.
    """

    game_spec = GAME
