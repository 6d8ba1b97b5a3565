"""Skylines data tables: the paper's facts load, and a bad table names its file and entry."""

from __future__ import annotations

import shutil

import pytest

from gcc_envs.errors import DataError
from gcc_envs.games.skylines.sim.data import DATA_DIR, load_data


def test_the_papers_facts_are_in_the_tables():
    d = load_data()
    wind, coal = d.tools["wind_turbine"], d.tools["coal_plant"]
    assert (wind.cost, wind.upkeep, wind.power_mw) == (6000, 80, 8.0)
    assert (coal.cost, coal.power_mw) == (19000, 40.0)
    assert d.tools["pumping_station"].rule == d.tools["drain_pipe"].rule == "shore"
    assert d.tools["pumping_station"].water == 120000
    assert d.scenarios["city"].budget == 70000 and d.scenarios["city"].floor == 1000
    assert d.scenarios["city"].target_population == 1000  # the paper's figure
    assert d.growth.zone_depth == 4
    assert [t.id for t in d.menu_tools("zoning")] == [
        "residential",
        "commercial",
        "industrial",
        "dezone",
    ]


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        (
            "tools.toml",
            'kind = "building"',
            'kind = "castle"',
            r"tools.toml: tool #2 \('Wind Turbine'\).*kind",
        ),
        ("tools.toml", "cost = 6000", "cost = -1", "tools.toml: tool #2.*cost.*>= 0"),
        (
            "zones.toml",
            "zone_depth = 4",
            "",
            r"zones.toml: \[growth\]: missing required field 'zone_depth'",
        ),
        (
            "scenarios.toml",
            "land = [50, 60]",
            "land = [60, 50]",
            "scenarios.toml: scenario #1.*low, high",
        ),
    ],
)
def test_a_bad_table_is_refused_naming_file_and_entry(tmp_path, file, old, new, message):
    for f in DATA_DIR.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    p = tmp_path / file
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new, 1))
    with pytest.raises(DataError, match=message):
        load_data(tmp_path)
