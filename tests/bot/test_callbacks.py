"""The callback-data codec: round trips, the 64-byte limit, forged and stale data."""

from __future__ import annotations

import pytest

from bot.views.callbacks import (
    CALLBACK_RE,
    MAX_BYTES,
    MAX_ID,
    PERSONAL,
    Action,
    Callback,
    decode,
    encode,
    parse_id,
    pattern,
)

LARGEST_USER = 2**52 - 1
"""Telegram's user ids have at most 52 significant bits."""


@pytest.mark.parametrize("action", [a for a in Action if a not in PERSONAL])
def test_every_action_round_trips_at_the_largest_ids(action: Action) -> None:
    data = encode(action, 999_999_999_999, 999_999_999, "x" * 24)
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == Callback(action, 999_999_999_999, 999_999_999, "x" * 24)
    assert pattern(action).match(data)


@pytest.mark.parametrize("action", sorted(PERSONAL))
def test_a_personal_cards_buttons_carry_their_owner(action: Action) -> None:
    data = encode(action, 999_999_999_999, 999_999_999, "x" * 20, owner=LARGEST_USER)
    assert len(data.encode()) <= MAX_BYTES and data.endswith(f"@{LARGEST_USER}")
    assert decode(data) == Callback(action, 999_999_999_999, 999_999_999, "x" * 20,
                                    LARGEST_USER)
    assert pattern(action).match(data)
    assert decode(encode(action, 0, 0, owner=7)) == Callback(action, 0, 0, None, 7)
    with pytest.raises(ValueError, match="personal card"):
        encode(action, 0, 0, "x")  # a new button cannot forget its owner
    # data from before owners were recorded still reads, as nobody's
    assert decode(f"{action.value}:0:0:x") == Callback(action, 0, 0, "x", None)


@pytest.mark.parametrize("data", ["lb:0:0:p@", "lb:0:0:p@x", "lb:0:0:p@-1", "lb:0:0:p@1\n",
                                  "lb:0:0:p@1@2", "lb:0:0@1:p", "lb:0:0:p@" + "1" * 20,
                                  "lb:0:0:p@١"])
def test_a_forged_owner_decodes_to_none(data: str) -> None:
    assert decode(data) is None


def test_an_owner_is_a_users_id() -> None:
    with pytest.raises(ValueError):
        encode(Action.TOP_GAME, 0, 0, "p", owner=0)
    assert encode(Action.ACCEPT, 3, 0, owner=9) == "a:3:0@9"  # allowed, not required


def test_routing_patterns_do_not_overlap() -> None:
    assert not pattern(Action.REMATCH).match(encode(Action.RESIGN, 1, 2, "m", owner=5))
    assert not pattern(Action.RESIGN).match(encode(Action.RESIGN_ACCEPT, 1, 2))
    assert pattern(Action.RESIGN_ACCEPT).match("ra:1:2")


@pytest.mark.parametrize(
    "data",
    ["", "m", "m:1", "m:a:1", "zz:1:2", "m:1:2:3:4", "m:-1:2", "m:1:2:" + "x" * 25,
     "m:1:2:<script>", "a" * 65, None],
)
def test_forged_or_malformed_data_decodes_to_none(data: str | None) -> None:
    assert decode(data) is None
    if data:
        assert not CALLBACK_RE.match(data) or len(data) > MAX_BYTES


def test_bad_arguments_are_refused_by_the_encoder() -> None:
    with pytest.raises(ValueError):
        encode(Action.MOVE, 1, 1, "24/18")
    with pytest.raises(ValueError):
        encode(Action.MOVE, -1, 1)


def test_move_argument() -> None:
    cb = decode(encode(Action.MOVE, 7, 3, "24-13"))
    assert cb is not None and cb.move() == (24, 13, 0)
    cb = decode(encode(Action.MOVE, 7, 3, "24-13-1"))
    assert cb is not None and cb.move() == (24, 13, 1)


@pytest.mark.parametrize(
    "data", ["f:1:5:24\n", "f:1:5\n", "ra:1:2\n", "f:١:5:24", "f:1:٥:24", "m:1:2:24-1\n"],
)
def test_the_whole_data_must_match(data: str) -> None:
    # a trailing newline slips past "$", and \d admits every script's digits
    assert decode(data) is None
    assert not CALLBACK_RE.match(data)
    assert not pattern(Action.FROM, Action.RESIGN_ACCEPT, Action.MOVE).match(data)


def test_a_move_argument_is_read_whole() -> None:
    with pytest.raises(ValueError):
        Callback(Action.MOVE, 1, 1, "24-18\n").move()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("42", 42), ("#42", 42), (" 7 ", 7), (str(MAX_ID), MAX_ID), (str(MAX_ID + 1), None),
     ("99999999999999999999999", None), ("1" * 40, None), ("", None), (None, None),
     ("-3", None), ("4 2", None), ("²", None), ("٤٢", None), ("42\n1", None)],
)
def test_ids_typed_by_people(text: str | None, expected: int | None) -> None:
    assert parse_id(text) == expected
