"""The sizing (`bench.sizing`) follows from its named figures: the bot CPU it says fits a budget
does fit it and a little more does not, and a name that is no measured figure is refused."""
import pytest

from bench import sizing


def test_the_bot_cpu_that_fits_150_cores_fits_them_and_a_little_more_does_not():
    measured = sizing.figures()
    fits = sizing.bot_cpu_to_fit(1_000_000, measured, 150)
    mix = sizing.ASSUMED["level_mix"][0]

    def total(mean: float) -> int:  # every level at the same CPU a move
        return sizing.size(1_000_000, {**measured, **{f"bot_cpu.{level}": mean for level in mix}})["cores"]

    assert total(fits) <= 150 < total(fits * 1.05)


def test_each_part_grows_with_its_own_figure():
    measured = sizing.figures()
    before = sizing.size(1_000_000, measured)
    assert sizing.size(1_000_000, {**measured, "redis_bytes_in_play": 4 * measured[
        "redis_bytes_in_play"]})["shards"] > before["shards"]
    assert sizing.size(1_000_000, {**measured, "connections_per_process": 1_000})["api"] == 300
    assert sizing.size(1_000_000, {**measured, "bot_cpu.hard": 0.6})["workers"] > before["workers"]


def test_an_unknown_figure_is_refused():
    with pytest.raises(KeyError, match="not a measured figure"):
        sizing.figures({"bot_cpu.grandmaster": 1.0})
