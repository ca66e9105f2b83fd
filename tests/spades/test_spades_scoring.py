"""Table-driven tests of S5 scoring, one row per rule and every example of the source."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from greenfelt.spades.scoring import HandScore, bid_text, score_hand


class Row(NamedTuple):
    rule: str
    bid: int
    blind: bool
    tricks: int
    bags_before: int
    points: int
    bags: int
    penalty: int


ROWS = [
    # S5.1 made bids: 10 x bid plus one point per overtrick (bag).
    Row("S5.1 seed: bid 6 take 6", 6, False, 6, 0, 60, 0, 0),
    Row("S5.1 seed: bid 6 take 7", 6, False, 7, 0, 61, 1, 0),
    Row("S5.1 bid 1 take 1", 1, False, 1, 0, 10, 0, 0),
    Row("S5.1 bid 12 take 12", 12, False, 12, 0, 120, 0, 0),
    Row("S5.1 bid 12 take 13", 12, False, 13, 0, 121, 1, 0),
    Row("S5.1 bid 3 take 8", 3, False, 8, 0, 35, 5, 0),
    # S5.2 failed bids: minus 10 x bid, no bags.
    Row("S5.2 seed: bid 6 take 5", 6, False, 5, 0, -60, 0, 0),
    Row("S5.2 bid 12 take 0", 12, False, 0, 4, -120, 4, 0),
    Row("S5.2 bid 1 take 0", 1, False, 0, 0, -10, 0, 0),
    # S5.3 nil, blind nil, moon.
    Row("S5.3 nil made", 0, False, 0, 0, 100, 0, 0),
    Row("S5.3 seed: nil with 5 tricks", 0, False, 5, 0, 5, 5, 0),
    Row("S5.3 blind nil made", 0, True, 0, 0, 200, 0, 0),
    Row("S5.3 blind nil with 2 tricks", 0, True, 2, 0, 2, 2, 0),
    Row("S5.3 moon made", 13, False, 13, 0, 250, 0, 0),
    Row("S5.3 seed: moon with 9 tricks", 13, False, 9, 0, 9, 9, 0),
    Row("S5.3 moon with 0 tricks", 13, False, 0, 0, 0, 0, 0),
    # S5.4 bags: each time the count reaches 10, -100 and 10 removed.
    Row("S5.4 bags reach exactly 10", 4, False, 5, 9, 41 - 100, 0, -100),
    Row("S5.4 bags pass 10", 2, False, 7, 8, 25 - 100, 3, -100),
    Row("S5.4 bags stay at 9", 4, False, 5, 8, 41, 9, 0),
    Row("S5.4 failed nil bags count", 0, False, 3, 8, 3 - 100, 1, -100),
    Row("S5.4 failed moon bags count", 13, False, 12, 0, 12 - 100, 2, -100),
    Row("S5.4 bid 1 take 13: 12 bags", 1, False, 13, 0, 22 - 100, 2, -100),
    Row("S5.4 twice (carried 9, 12 new)", 1, False, 13, 9, 22 - 200, 1, -200),
    Row("S5.4 failed bid keeps bags", 5, False, 2, 7, -50, 7, 0),
]


@pytest.mark.parametrize("row", ROWS, ids=[row.rule for row in ROWS])
def test_score_hand_table(row: Row) -> None:
    result = score_hand(row.bid, row.blind, row.tricks, row.bags_before)
    assert (result.points, result.bags, result.penalty) == (row.points, row.bags, row.penalty)
    assert result.points == result.contract + result.new_bags + result.penalty


def test_s5_bag_points_and_breakdown_text() -> None:
    """S5.1: the breakdown says made/failed, the bags and the hand total."""
    made = score_hand(6, False, 7)
    assert made.breakdown == "bid 6, took 7: made, 10 x 6 = 60; 1 bag +1; bags 0 -> 1; hand +61"
    failed = score_hand(6, False, 5)
    assert "failed, -10 x 6 = -60" in failed.breakdown
    assert score_hand(0, True, 0).breakdown.startswith("bid blind nil, took 0: made, +200")
    assert "bags reached 10: -100" in score_hand(4, False, 5, 9).breakdown
    assert "failed, no penalty" in score_hand(13, False, 9).breakdown


def test_s3_2_bid_text() -> None:
    assert [bid_text(0), bid_text(0, True), bid_text(13), bid_text(4)] == [
        "nil",
        "blind nil",
        "moon (13)",
        "4",
    ]


@pytest.mark.parametrize(
    ("bid", "blind", "tricks", "bags"),
    [(14, False, 0, 0), (-1, False, 0, 0), (3, True, 0, 0), (3, False, 14, 0), (3, False, 3, -1)],
)
def test_score_hand_rejects_numbers_outside_the_rules(
    bid: int, blind: bool, tricks: int, bags: int
) -> None:
    with pytest.raises(ValueError):
        score_hand(bid, blind, tricks, bags)


@given(
    bid=st.integers(0, 13),
    blind=st.booleans(),
    tricks=st.integers(0, 13),
    bags_before=st.integers(0, 9),
)
def test_s5_properties(bid: int, blind: bool, tricks: int, bags_before: int) -> None:
    """S5.1-S5.4 as invariants: bounds, bag bookkeeping, and that bags stay below 10."""
    blind = blind and bid == 0
    result = score_hand(bid, blind, tricks, bags_before)
    assert isinstance(result, HandScore)
    assert 0 <= result.bags < 10
    assert bags_before + result.new_bags == result.bags - result.penalty // 10
    assert -200 <= result.points <= 250
    if bid in (0, 13) and tricks != bid:  # S5.3: no penalty for a failed nil or moon
        assert result.contract == 0 and result.new_bags == tricks
    if 0 < bid < 13 and tricks < bid:  # S5.2
        assert result.contract == -10 * bid and result.new_bags == 0
