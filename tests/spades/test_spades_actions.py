"""Action text forms (pinned by the issue): parse(format(a)) == a, errors name the token."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from greenfelt.cards import parse_card
from greenfelt.errors import IllegalAction, NotationError
from greenfelt.spades.actions import (
    ALL_ACTIONS,
    BIDS,
    BLIND_NIL,
    KEEP,
    PASS,
    PLAYS,
    REJECT,
    ActionKind,
    ActionTextError,
    SpadesAction,
    bid,
    format_action,
    parse_action,
    play,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("blind nil", BLIND_NIL),  # S2.1
        ("pass", PASS),
        ("keep", KEEP),  # S2.2
        ("reject", REJECT),
        ("bid 4", BIDS[4]),  # S3.1
        ("bid 13", BIDS[13]),  # S3.2 moon
        ("bid nil", BIDS[0]),  # S3.2 nil
        ("bid 0", BIDS[0]),
        ("play Q♠", PLAYS[parse_card("Q♠")]),  # S4
        ("play 10h", PLAYS[parse_card("10♥")]),
        ("play Td", PLAYS[parse_card("10♦")]),
        ("  Play   a♣ ", PLAYS[parse_card("A♣")]),
        ("BLIND  NIL", BLIND_NIL),
        ("Bid Nil", BIDS[0]),
    ],
)
def test_parse_pinned_texts(text: str, expected: SpadesAction) -> None:
    assert parse_action(text) is expected


def test_canonical_texts() -> None:
    """Output uses suit symbols; the zero bid is written `bid nil` (S3.2)."""
    assert [str(a) for a in (BLIND_NIL, PASS, KEEP, REJECT, BIDS[0], BIDS[7])] == [
        "blind nil",
        "pass",
        "keep",
        "reject",
        "bid nil",
        "bid 7",
    ]
    assert str(parse_action("play 10h")) == "play 10♥"
    assert repr(parse_action("play qs")) == "play Q♠"
    assert len(ALL_ACTIONS) == 4 + 14 + 52


def test_every_action_round_trips_and_is_interned() -> None:
    for action in ALL_ACTIONS:
        assert parse_action(format_action(action)) is action
        assert parse_action(str(action)) == action


@given(st.sampled_from(ALL_ACTIONS))
def test_round_trip_property(action: SpadesAction) -> None:
    assert parse_action(str(action)) is action


def test_equal_built_by_hand() -> None:
    """An equal action built by hand compares equal to the interned one."""
    assert SpadesAction(ActionKind.BID, bid=5) == BIDS[5] == bid(5)
    assert SpadesAction(ActionKind.PLAY, card=parse_card("7♥")) == play(parse_card("7♥"))


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("bid 14", "'14'"),
        ("bid -1", "'-1'"),
        ("bid lots", "'lots'"),
        ("play 11♠", "'11♠'"),
        ("play JK", "jokers"),
        ("discard", "'discard'"),
        ("play", "'play'"),
        ("", "not a spades action"),
        ("keep it", "'keep'"),
    ],
)
def test_bad_text_names_the_token(text: str, token: str) -> None:
    with pytest.raises(ActionTextError) as info:
        parse_action(text)
    assert token in str(info.value)
    # Both families catch it: records (notation) and servers (illegal actions).
    assert isinstance(info.value, NotationError)
    assert isinstance(info.value, IllegalAction)


def test_constructors_reject_out_of_range() -> None:
    with pytest.raises(IllegalAction, match="0 \\(nil\\) to 13"):
        bid(14)


@pytest.mark.parametrize(
    ("kind", "number", "card"),
    [
        (ActionKind.BID, 14, None),
        (ActionKind.BID, None, None),
        (ActionKind.PLAY, None, None),
        (ActionKind.PLAY, None, 52),
        (ActionKind.KEEP, 3, None),
    ],
)
def test_malformed_actions_cannot_be_built(
    kind: ActionKind, number: int | None, card: int | None
) -> None:
    with pytest.raises(IllegalAction, match="not a spades action"):
        SpadesAction(kind, bid=number, card=card)  # type: ignore[arg-type]


def test_actions_pickle_to_the_interned_instance() -> None:
    import pickle

    for action in ALL_ACTIONS:
        assert pickle.loads(pickle.dumps(action)) is action
