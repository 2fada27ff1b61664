"""The leaderboard's PNG plots read as people expect (issue 19, item 8): the panels of
one rating share their x axis and a zero line (the average participant), and rates
and probabilities are percentages."""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from arena.ratings.leaderboard import Leaderboard  # noqa: E402
from arena.ratings.plots import deceiver_plot, pair_matrix, plots, ratings_figure, reliability_plot, win_rate_figure  # noqa: E402


def _est(value: float, half: float) -> dict[str, float]:
    return {"value": value, "low": value - half, "high": value + half}


def _row(name: str, bt: float, village: float, wolves: float, os_: float) -> dict[str, Any]:
    pts = [{"mean_p": 0.2, "wolf_rate": 0.1, "n": 5}, {"mean_p": 0.7, "wolf_rate": 0.8, "n": 3}]
    return {
        "participant": name,
        "bradley_terry": _est(bt, 40),
        # the sides far apart, so panels scaled each on its own would put 0 elsewhere
        "bradley_terry_by_side": {"village": _est(village, 30), "werewolves": _est(wolves, 200)},
        "openskill": _est(os_, 1),
        "openskill_by_side": {"village": _est(os_ / 2, 1), "werewolves": _est(-os_, 3)},
        "win_rate_by_role": {"villager": {"rate": 0.4, "low": 0.3, "high": 0.5}, "werewolf": {"rate": 0.6, "low": 0.4, "high": 0.8}},
        "behaviour": {"by_side": {"village": {"reliability": pts}, "werewolves": {"reliability": pts}}},
    }


def _board(identified: bool = True) -> Leaderboard:
    rows = [_row("Ann", 80, 20, 400, 3), _row("Bob", -80, -20, -10, -3)]
    pairs = [{"a": "Ann", "b": "Bob", "diff": 160.0, "low": 60.0, "high": 260.0, "p_better": 0.93}]
    return Leaderboard(games=20, decided=20, n_boot=50, seed=0, winners={}, village_advantage={}, rows=rows,
                       roles=["villager", "werewolf"], pairs=pairs, sides={"identified": identified})  # fmt: skip


def _zero_line(ax: Any) -> bool:
    return any(list(line.get_xdata()) == [0, 0] for line in ax.lines)


@pytest.mark.parametrize("identified", [True, False])
def test_rating_panels_share_their_zero_line(identified: bool) -> None:
    fig = ratings_figure(_board(identified), plt)
    try:
        grid = fig.axes
        per_row = 3 if identified else 1
        assert len(grid) == (6 if identified else 2)
        for start in range(0, len(grid), per_row):
            row = grid[start : start + per_row]
            assert len({ax.get_xlim() for ax in row}) == 1, "one x axis per rating"
            for ax in row:
                assert _zero_line(ax), ax.get_title()
                low, high = ax.get_xlim()
                assert low < 0 < high
    finally:
        plt.close(fig)


def _labels(axis: Any) -> list[str]:
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


def test_win_rates_read_as_percentages() -> None:
    fig = win_rate_figure(_board(), plt)
    try:
        fig.canvas.draw()
        labels = _labels(fig.axes[0].yaxis)
        assert labels and all(t.endswith("%") for t in labels), labels
        assert "100%" in labels and "40%" in labels
    finally:
        plt.close(fig)


def test_beliefs_and_pairs_read_as_percentages(tmp_path: Any) -> None:
    lb = _board()
    reliability_plot(lb, tmp_path / "beliefs.png", plt)
    pair_matrix(lb, tmp_path / "pairs.png", plt)
    assert (tmp_path / "beliefs.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "pairs.png").read_bytes()[:4] == b"\x89PNG"
    from arena.ratings import plots as module

    seen: list[Any] = []
    real = module._percent
    module._percent = lambda axis: (seen.append(axis), real(axis))  # type: ignore[assignment]
    try:
        reliability_plot(lb, tmp_path / "b2.png", plt)
        pair_matrix(lb, tmp_path / "p2.png", plt)
    finally:
        module._percent = real
    assert len(seen) == 2 * 2 + 1  # both axes of both beliefs panels, the pairs' colour bar


def test_plots_writes_every_file(tmp_path: Any) -> None:
    written = plots(_board(), tmp_path)
    assert [p.name for p in written] == ["ratings.png", "pairs.png", "win_rates.png", "beliefs.png"]
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in written)


def test_deceivers_against_detectors_is_drawn_when_the_fit_gives_them(tmp_path: Any) -> None:
    lb = _board(identified=False)
    for r, (det, dec) in zip(lb.rows, ((30.0, -120.0), (-30.0, 120.0))):
        r["detector"], r["deceiver"] = _est(det, 20), _est(dec, 60)
    lb.side_skills = {"cross_validation": {"available": False, "why": "fewer than two decided deals"}}
    written = plots(lb, tmp_path)
    assert [p.name for p in written][-1] == "deceivers.png"
    assert (tmp_path / "deceivers.png").read_bytes()[:4] == b"\x89PNG"
    lb.rows[0]["detector"] = {"value": None, "low": None, "high": None}
    lb.rows[1]["detector"] = {"value": None, "low": None, "high": None}
    assert deceiver_plot(lb, tmp_path / "none.png", plt) is None and not (tmp_path / "none.png").exists()


@pytest.mark.parametrize("identified", [True, False])
@pytest.mark.parametrize("figure", [ratings_figure, win_rate_figure])
def test_every_title_fits_in_its_figure(identified: bool, figure: Any) -> None:
    """``ratings.png``'s title was clipped on both sides (a narrow figure, one long line)."""
    fig = figure(_board(identified), plt)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    titles = [t for t in fig.texts if t.get_text()] + [ax.title for ax in fig.axes if ax.get_title()]
    assert titles
    for t in titles:
        extent = t.get_window_extent(renderer)
        assert extent.x0 >= box.x0 - 0.5 and extent.x1 <= box.x1 + 0.5, (t.get_text(), extent, box)
        assert extent.y1 <= box.y1 + 0.5, t.get_text()
    plt.close(fig)
