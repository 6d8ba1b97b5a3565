"""Props are placed as fixed billboards (:func:`billboards.prop_boards`, kept by what each prop
shows): the boards :func:`world_billboards` draws, in its order, and new ones as soon as a prop
is opened, searched or moved by hand."""

from __future__ import annotations

import numpy as np

from gcc_envs.games.rdr2.sim import sprite_art as art
from gcc_envs.games.rdr2.sim.billboards import HIDDEN_PROPS, prop_boards, world_billboards
from gcc_envs.games.rdr2.sim.render import render
from gcc_envs.games.rdr2.sim.showcase import blank_state
from gcc_envs.games.rdr2.sim.state import CELL_M, Prop

YARD = "\n".join(["#" * 14] + ["#" + "." * 12 + "#"] * 9 + ["#" * 14])


def _yard():
    st = blank_state(YARD, 3.0, 5.5, yaw_deg=0.0)
    st.props["drawer"] = Prop("drawer", "drawer", 8.0 * CELL_M, 5.0 * CELL_M)
    st.props["door"] = Prop("door", "door", 9.0 * CELL_M, 6.0 * CELL_M)  # never a board
    st.props["crate"] = Prop("crate", "crate", 7.0 * CELL_M, 6.5 * CELL_M, solid=True)
    return st


def test_prop_boards_are_the_props_world_billboards_draws_in_order():
    st = _yard()
    cx, cy, wm, hm, boards = prop_boards(st)
    drawn = [p for p in st.props.values() if p.kind not in HIDDEN_PROPS and p.kind in art.SIZES]
    assert [b.art[1] for b in boards] == [p.kind for p in drawn] == ["drawer", "crate"]
    assert list(world_billboards(st, trees=False)[-2:]) == list(boards)
    assert world_billboards(st, trees=False, props=False) == []
    np.testing.assert_array_equal(cx, [p.x / CELL_M for p in drawn])
    np.testing.assert_array_equal(cy, [p.y / CELL_M for p in drawn])
    np.testing.assert_array_equal(wm, [art.size_m(p.kind)[0] for p in drawn])
    np.testing.assert_array_equal(hm, [art.size_m(p.kind)[1] for p in drawn])
    for a in (cx, cy, wm, hm):
        assert not a.flags.writeable


def test_an_opened_searched_or_moved_prop_gets_a_new_board_and_frame():
    st = _yard()
    before = render(st, 60, 80)
    assert prop_boards(st)[4][0].art == ("prop", "drawer", False)
    st.props["drawer"].looted = st.props["drawer"].open = True
    assert prop_boards(st)[4][0].art == ("prop", "drawer", True)
    st.props["crate"].x += 0.5 * CELL_M
    cx = prop_boards(st)[0]
    assert cx[1] == st.props["crate"].x / CELL_M
    after = render(st, 60, 80)
    assert not np.array_equal(before, after)  # the crate moved in the view
