"""The Red Dead Redemption II environments' class and card."""

from __future__ import annotations

import functools
from typing import Any

from gcc_envs.core.backend import Backend
from gcc_envs.errors import GCCError
from gcc_envs.games.game_env import GameEnv
from gcc_envs.games.rdr2 import GAME
from gcc_envs.games.rdr2.curation import curate


class RDR2Env(GameEnv):
    """Red Dead Redemption II's opening missions, first person, from the screen, keyboard and mouse.

    ## Description
    A mission simulator rebuilt after the Cradle paper's RDR2 setting: a ray-cast first-person
    world on a grid of 2 m cells with a mouse-turned camera, a minimap with the red route line,
    the objective's yellow marker, blue allies, red foes and the orange dot of your own horse,
    key prompts (``[E] Hitch Horse``), tutorial boxes (``Hold [TAB] to view your stored
    weapons``), a weapon wheel, an Esc pause menu whose animation takes 0.5 s each way while the
    world keeps moving, horses, companions who wait a while when the player falls more than
    15 m behind and then go on, enemies who shoot bursts from cover, dash to flanking cover
    and otherwise advance on the companion they fight (Dutch: 100 health; their shots come
    round any cover within 10 m, so a fight that drags on while the agent thinks costs him),
    wolves that circle, crouch growling, charge, bite and back off, a barn horse led by the
    reins along the route line (running spooks it free, straying off the line makes it balk
    and the reins slip), health that regenerates, and a "mission failed" screen. In the saddle, the view
    looks where the horse faces. A control a tutorial teaches works only once its box has appeared (the
    weapon wheel, looting, climbing, hitching, calming a horse, carrying, shopping).

    Tasks (``task=``; the paper allows 500 steps per checkpoint task):

    | id / task | checkpoints (easy / hard) |
    |---|---|
    | ``GCC/RDR2-Mission1`` / ``mission1`` | follow_dutch (e), hitch_horse (e), search_house (h), protect_dutch (h), go_to_barn (e), lead_horse (h), follow_micah (e), return_to_camp (e) |
    | ``GCC/RDR2-Mission2`` / ``mission2`` | follow_javier (e), search_for_john (h), carry_john (h), kill_wolves (h), return_to_camp (e) |
    | ``GCC/RDR2-Mission3`` / ``mission3`` | buy_supplies (h): open-ended, no route line — get to town, find the store, buy from the clerk |

    Any checkpoint alone is a task named ``<mission>:<checkpoint>``, e.g.
    ``gym.make("GCC/RDR2-Mission1", task="mission1:protect_dutch")``: it starts at that checkpoint
    with everything before it done and succeeds when it is passed (per-checkpoint success rates).
    ``info["instruction"]`` says what the mission asks ("Now: protect Dutch."), never how.

    ## Action Space
    ``action_mode="state"`` (default): ``Dict(keys=MultiBinary(17), buttons=MultiBinary(3),
    mouse=Box(-1, 1, (2,)), scroll=Discrete(3, start=-1))`` held for ``step_seconds``; keys in
    order ``w a s d shift space e r f q tab esc enter 1 2 3 4``; ``mouse`` is relative motion of
    up to 160 px that turns the view (4 px per degree horizontally, 5 vertically, at 1280×720).
    ``w a s d`` move relative to the view, ``shift`` runs/gallops, ``space`` jumps and climbs
    ledges, ``e`` does what the prompt says, hold ``r`` 1.5 s to search (else reload), hold
    ``tab`` for the weapon wheel (the pointer picks; release equips), ``1``-``4`` equip
    revolver/rifle/knife/lasso, right button aims, left button fires, ``f`` punches, ``q``
    takes cover by a wall or crate (enemies hit far less often), ``esc`` pauses.
    ``action_mode="event"``: one computer_13 operation per step. Every env also takes a
    ``Program``, a list of events, or code text: pyautogui calls and the skills of
    :mod:`gcc_envs.games.rdr2.skills`; the paper runs one skill call per step
    (``max_skill_calls=1``, which ``UseSkills`` holds). The composite skills ``follow`` and
    ``navigate_path`` run at most 5 game seconds per call (about ten 0.4 s looks at the
    minimap), so no call plays a checkpoint. With ``skills="curated"`` (the default, the
    paper's setting) the library lists ``hitch_horse``, ``loot``, ``select_weapon``,
    ``open_weapon_wheel``, ``shoot``, ``aim``, ``reload``, ``climb``, ``run`` and ``confirm``
    only once the tutorial that teaches them has shown (:mod:`gcc_envs.games.rdr2.curation`).

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``: the game window rendered directly at ``obs_size=(H, W)``
    (default 720×1280; RL users pass ``(84, 84)``).

    ## Rewards
    ``+1`` once on success, plus shaping ``0.5 × Δprogress``. ``info["progress"]`` is the share
    of the task's checkpoints passed plus partial credit inside the current one (its share of
    the O'Driscolls or wolves down, of the supplies found, of its route or companion's way
    covered, of the way to the post; John picked up, the barn horse calmed and led; the best so
    far, below the full share until passed). Mission 3: its key points in town, in the store,
    catalogue opened, supplies bought, a quarter each.

    ## Starting State
    Mission 1: on foot at the snowy camp, Dutch and Micah mounted, 15:00. Mission 2: on foot at
    the mountain camp, Javier mounted. Mission 3: on foot by the horse at camp, $20. A
    checkpoint task starts where that checkpoint begins; ``reset(options={"checkpoint": name,
    "single": False})`` restarts a whole mission from one of its checkpoints (in the game,
    ``enter`` on the "mission failed" screen restarts the last checkpoint reached). The seed
    draws (``sim/variation.py``; ranges in the missions' ``[variation]`` tables;
    ``options={"vary": False}`` keeps the data files' layout):

    * every start, placement, companion route and route-line point: moved up to 3 m to open
      ground of the same kind (same level, indoors or out, same named areas; routes stay
      walkable); start views turned up to ±30° (Mission 3 ±20°), rides that start on foot,
      hitch_horse, go_to_barn, lead_horse, follow_micah, search_for_john and kill_wolves face
      any way; the time of day +0-30 min; the view a further ±5°;
    * your horse has wandered 5-12 m off, any direction, where a ride starts (follow_dutch,
      return_to_camp, follow_javier, return_to_camp);
    * hitch_horse's start, a further 14 m at most (in clear line of where it was, 16 m or
      more from the post);
    * the hitching post on one of 8 spots of the yard, the barn horse in one of 5 stalls, where
      Micah's walk ends in follow_micah (the road west of the yard, the field's south-west or
      its south-east, 16 m or more apart; his route line ends there too; then up to 1.5 m
      more);
    * the house's 5-7 drawers and cupboards, placed along its walls; 2-3 of them hold one
      supply each (of canned food, coffee, medicine, canned beans, biscuits), one holds
      revolver ammunition;
    * 3-5 O'Driscolls who appear in the field south of the yard and each take cover among its
      rocks and trees and 2-4 crates or barrels put there; each hides 1.3-2.2 s, steps out,
      kneels to aim until 0.8-1.3 s after leaving cover, fires, and stands 1.5 s working the
      lever (so a man seen kneeling is still out when a shot sent from that frame arrives),
      then, with a chance of 0.15-0.45, runs to a cover at least
      20° further round (within 18 m), else moves up on Dutch (a cover 2 m or more nearer,
      within 9 m, or 4 m over open ground, no nearer than 5 m);
    * John anywhere in the west of the summit's clearing, about 18-42 m west of the route
      line's end (±11 m east-west, ±3 m north-south of its middle), with everything placed
      around him;
    * 3-5 wolves that appear 13-24 m from where kill_wolves starts, each circling the player
      for 1-5 s (starting its own way round, then turning back at random, about once a
      second), then crouching where it stands, growling, for 4 s before it charges (the one
      time it stands still), and again after each bite (14 health);
    * the general store on one of the town's 6 plots (the others closed houses), its clerk,
      counter and door with it; the catalogue's rows in a seeded order;
    * enemy fire and hip fire.

    ## Episode End
    Terminated on success (``info["success"]``), on a failure scenario with
    ``info["failure"]`` one of: ``"assaulted <Name>"``, ``"killed <Name>"``,
    ``"abandoned <Name>"``, ``"<Name> was killed"`` (Dutch, Micah, Javier, John),
    ``"abandoned the homestead"``, ``"assaulted your horse"``, ``"killed your horse"``,
    ``"your horse was killed"``, ``"abandoned your horse"``, ``"assaulted the barn horse"``,
    ``"killed the barn horse"``, ``"abandoned the barn horse"``, ``"you died"``, or a
    checkpoint's time running out: ``"the O'Driscolls came back"`` (go_to_barn, 75 s),
    ``"John froze to death"`` (search_for_john 150 s, carry_john 150 s); or when the agent
    sends ``DONE``/``FAIL``. Companions wait for a lagging player 20-40 s in all (then go on
    and a far player has abandoned them); the leashes are 60 m to a companion (25 m to Micah
    in follow_micah, 60 m to Javier in search_for_john), 70 m to your horse (Mission 1 keeps
    you within 50 m of the homestead's centre from hitch_horse to follow_micah;
    30 m in follow_dutch, 20 m in follow_javier and Mission 2's return_to_camp) and 20 m to a
    led barn horse. Truncated by Gymnasium's ``TimeLimit`` after 500 steps per checkpoint:
    4000 for Mission 1, 2500 for Mission 2, 500 for Mission 3; a checkpoint run alone takes
    ``gym.make(..., task="mission1:<name>", max_episode_steps=500)``, which ``gcc-gym run
    --per-task`` passes.

    ## Arguments
    ``task`` (``mission1``, ``mission2``, ``mission3`` or ``<mission>:<checkpoint>``),
    ``backend`` (``"sim"``), ``obs_size``, ``action_mode``, ``time_mode`` (``lockstep`` default;
    ``paused`` runs the 0.5 s pause/resume animations around every step, as Cradle's real-game
    loop does), ``fps`` (frames per game second sampled for video chunks, default 2),
    ``step_seconds`` (one state-mode tick and the shortest step, 0.25), ``think_time`` (lockstep
    latency in game seconds), ``render_mode`` (``"rgb_array"``), ``shaping`` (reward per unit of
    progress, default 0.5), ``skills`` (``"curated"``, the default on the simulator, or
    ``"all"``).

    The evaluation profile for LMM agents (``GAME.eval_kwargs``, which
    ``benchmarks/reference_policies.py`` applies) is ``think_time=1.0``: in lockstep, one game
    second passes before every action, as the 0.5 s resume and 0.5 s pause animations of
    Cradle's paused real-game loop do, while the world moves and the player cannot act.

    ## Version History
    * v8: hitch_horse starts anywhere within 14 m of where it did (16 m or more from the post;
      the rest of the episode is drawn as before), and the post's prompt shows to a rider
      facing it (within 45°) from up to 1.5 m, or within 0.8 m any way (was 2 m, 60°, 1 m).
      Another seed's input, replayed blind, won 22 of 20,000 seed pairs (45 at v7, the same
      pairs); the oracle won 200 of 200 seeds, the frame-only player 192.
    * v7: the hitching post's prompt shows to a rider facing it (within 60° of the view) from
      up to 2 m, or right beside it (1 m) any way (was: within 2.5 m any way), as the game's
      prompts follow where the player looks. Another seed's hitch_horse input, replayed
      blind, ends facing this seed's post far more seldom: it won on 1 of 1,000 seeds (20 at
      v6, the same input).
    * v6: an O'Driscoll kneels to aim where he steps out (drawn on one knee, rifle raised), and
      after his shot stands 1.5 s working the lever before he ducks back; their shots take
      20 health from a companion (was 17), and they take cover in the western part of the
      field (cells 33-52 across, was 34-62), so the fight is before the player rather than
      all round: on development seeds protect_dutch is won from the screen alone at the
      evaluation's 1 s think time about 70 % of the time (was about 35 %), and by the
      privileged oracle at 3 s about half the time. A circling wolf turns to go round the
      other way at random, about once a second (it weaves), and its bite takes 14 health (was
      18): the growl stays the moment to shoot, while a shot led from a frame 3 s old misses
      a circling wolf; on development seeds kill_wolves is won from the screen alone at 1 s
      about 60 % of the time (was about 55 %), by the privileged oracle at 3 s about 30 %
      (was about 45 %).
    * v5: a wolf stops after circling and crouches growling for 4 s before its charge
      (drawn low, head down: long enough for a shot sent from one frame to find it where it
      was), and its bite takes 18 health (was 9), so a fight that drags on while the agent
      thinks costs more: kill_wolves is won from the screen alone at the evaluation's 1 s
      think time about half the time, and by the privileged oracle at 3 s less often.
    * v4: Micah's walk in follow_micah ends at one of 3 far-apart places (another seed's
      replayed input follows its own Micah there) and the checkpoint is passed only with the
      barn horse led there by the reins, as he asks (random skill calls that tagged along won
      it 2-3 times in 40); go_to_barn and lead_horse start facing any way; your horse's leash
      in Mission 1 is 70 m (was 45 m; the homestead's 50 m leash keeps the player by the
      hitched horse, which the walk's new ends would otherwise leave behind).
    * v3: search_for_john starts facing any way (another seed's replayed climb goes astray:
      replay 1/60 on seeds 341-400, was 3/60); the HUD's text, the pause menu and the cores
      are laid as baked layers (within a few levels of the old pixels), snowfall's flakes
      are placed in float64 (a pixel off the old places here and there), and the pause
      menu's background is dimmed before it is scaled back up (within a level).
    * v2: latency costs in fights as in the paper (O'Driscolls advance
      on Dutch after each shot, fire 3-shot bursts, 70 % of them at the companion they press;
      Dutch 100 health, 17 a hit; shots within 10 m ignore cover); lead_horse leads the horse
      along the route line to its end (it shies when the player runs, balks when they stray);
      mounting turns the view to the horse's heading (a stray horse faces any way, so replayed
      rides go astray); the summit's clearing runs 32 m further west and search_for_john's
      route line ends where the path comes up, with John about 18-42 m off it (he must be looked
      for, on the minimap or the screen), Javier's leash there 60 m; kill_wolves starts facing
      any way.
    * v1: seeded content, partial credit, curated skills, capped composite
      skills, the evaluation profile.
    * v0: first release.
    """

    game_spec = GAME

    def __init__(
        self, backend: Backend, task: str | None = None, *, skills: str | None = None, **kw: Any
    ) -> None:
        super().__init__(backend, task, **kw)
        sim = getattr(backend, "sim", None)
        if skills is None:  # the paper's setting on the simulator; a real screen has no probe
            skills = "curated" if sim is not None else "all"
        # the backend's reader, not a method of the env: a skill library holding the env would
        # make a reference cycle, and a dropped env would wait for the cycle collector
        self.skills = curate(self.skills, skills, functools.partial(tutorials_seen, backend))


def tutorials_seen(backend: Backend) -> frozenset[str] | None:
    """The tutorials the backend's episode has shown; None before the first reset."""
    try:
        return frozenset(backend.probe().ui.tutorials_seen)
    except (GCCError, AttributeError):  # before the first reset; no game state to read
        return None
