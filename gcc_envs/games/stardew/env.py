"""The Stardew Valley environments' class and card."""

from __future__ import annotations

from gcc_envs.games.game_env import GameEnv
from gcc_envs.games.stardew import GAME


class StardewEnv(GameEnv):
    """Stardew Valley's early-game farm, town and store, from the screen, with keyboard and mouse.

    ## Description
    A tile-world farming game rebuilt after Stardew Valley 1.6, as used by the Cradle paper:
    a farm overgrown with weeds, twigs, stones, trees and stumps; the farmhouse with its bed;
    the road east to town; Pierre's general store (open 9:00 to 17:00) with its clerk, counter
    and shop menu. Days run from 6:00 to 2:00 (10 game minutes per 7 s); at 2:00 the farmer
    passes out and loses money. Tools spend energy. Parsnips ripen after 4 watered nights.
    The player must stand on the right tile, facing the target, to act on it.

    Tasks (``task=``, one registered id each, 100 steps as in the paper):

    | id | task | success |
    |---|---|---|
    | ``GCC/Stardew-FarmClearup`` | clear weeds, twigs, stones, trees | ≥ 20 obstacles cleared (count reported as ``metrics["cleared"]``) |
    | ``GCC/Stardew-Cultivation`` | till, sow parsnips, water daily, harvest | ≥ 1 parsnip harvested |
    | ``GCC/Stardew-Shopping`` | walk to town, buy parsnip seeds, come home | seeds bought and the farmer back in the farmhouse |

    ## Action Space
    ``action_mode="state"`` (default): ``Dict(keys=MultiBinary(21), buttons=MultiBinary(3),
    mouse=Box(-1, 1, (2,)), scroll=Discrete(3, start=-1))`` held for ``step_seconds``; keys in
    order ``w a s d c x e esc enter 1 2 3 4 5 6 7 8 9 0 - =``; ``mouse`` moves the pointer by up
    to 160 px. ``action_mode="event"``: one computer_13 operation per step (see
    :class:`gcc_envs.core.spaces.EventActions`). Every env also takes a ``Program``, a list of
    events, or code text: pyautogui calls and the skills ``move_up/down/left/right(duration)``,
    ``use_tool()``, ``do_action()``, ``select_tool(key)``, ``go_through_door()``,
    ``get_out_of_house()``, ``enter_door_and_sleep()``, ``buy_item()``.

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``: the game window rendered directly at ``obs_size=(H, W)``
    (default 720×1280; RL users pass ``(84, 84)``).

    ## Rewards
    ``+1`` once on success, plus shaping ``0.5 × Δprogress`` where ``info["progress"]`` is
    FarmClearup: cleared/20; Cultivation: tilled, planted, watered (only watering sown soil
    counts, or a crop the rain grew), grown nights (of 4), harvested, equally weighted;
    Shopping: in town, in the store, seeds bought, home again. ``task="farm_clearup:count"``
    (the paper's measure) never ends on a target: it runs all 100 steps, progress is the
    share of the farm's obstacles cleared and ``metrics["cleared"]`` the count.

    ## Starting State
    FarmClearup: on the farm in front of the house at 6:00 with all tools. Cultivation: in the
    farmhouse, day 1, 6:00, 15 parsnip seeds. Shopping: on the farm's north
    meadow at 9:00 with no seeds. What the seed varies (``data/scenarios.toml``):

    | quantity | range |
    |---|---|
    | obstacles on the farm (all tasks) | 145 placed on free grass and dirt, outside the yard before the house and the road |
    | start tile, facing | FarmClearup: any free tile of x 22-36, y 7-11, any facing; Shopping: x 4-37, y 2-11 (the meadow), any facing; Cultivation: any free tile of the farmhouse (x 1-10, y 2-6), any facing (later days wake beside the bed) |
    | farmhouse furniture (all tasks) | one of 12 layouts: bed, TV, fireplace, plant, table and rug placed differently |
    | Cultivation's field | a cleared 3x3 plot anywhere in x 22-33, y 12-26 with a cleared lane up to the yard; the rest of the field overgrown (230 weeds, stones, twigs), 70 more on the meadow |
    | weather (Cultivation, Shopping) | day 1 sunny, each later day rains with chance 0.2 (rain waters all soil at dawn; soil tilled in the rain is wet) |
    | shop stock | parsnip seeds always, plus a random 4-7 of the other 7 spring seeds, in a shuffled menu order |
    | shop prices | each item's price times a factor in [1.0, 1.25] (Pierre's price up to JojaMart's) |
    | money (Shopping) | 150-600g (500g elsewhere) |

    ## Episode End
    Terminated on success, or when the agent sends ``DONE``/``FAIL``. Truncated after 100 steps
    (Gymnasium's ``TimeLimit``). ``info["metrics"]`` holds the task metrics at the end.

    ## Arguments
    ``task``, ``backend`` (``"sim"``), ``obs_size``, ``action_mode``, ``time_mode``
    (``lockstep``/``paused``/``realtime``), ``fps`` (frames per game second sampled for video
    chunks, default 2), ``step_seconds`` (one state-mode tick and the shortest step, 0.25),
    ``think_time`` (lockstep latency in game seconds, a number or a function of the step),
    ``render_mode`` (``"rgb_array"``), ``shaping`` (reward per unit of progress, default 0.5;
    a learning variant raises it, e.g. ``shaping=20`` on FarmClearup pays 1 per obstacle).

    ## Version History
    * v0 (unversioned ids): first release; seeded start, furniture, field, weather and shop.
    * v1 (issue 26): Cultivation started beside the bed in one of 6 layouts (6 first frames);
      now anywhere in the house, any facing, 12 layouts (20 seeds, 20 different first
      frames); every task's farmhouse is one of the 12 and its seeded draws changed.
    """

    game_spec = GAME
