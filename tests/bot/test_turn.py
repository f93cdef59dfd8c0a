"""The turn keyboard's choices come from the rules core (pure)."""

from __future__ import annotations

from dataclasses import replace

from bot.views.turn_choices import destinations, direct_plays, find_destination, sources
from rules.match import Match, Phase
from rules.position import Dice, Position, parse_fixture


def playing(position: Position, dice: tuple[int, int]) -> Match:
    return replace(Match.new(3), phase=Phase.PLAYING, position=position, dice=Dice(*dice))


def test_opening_six_five_offers_every_checker_that_can_move() -> None:
    m = playing(Position.start(), (6, 5))
    assert sources(m) == [24, 13, 8]  # 6/1 and 6/0 are closed or not allowed


def test_a_checker_may_run_both_dice_and_both_orders_are_one_destination() -> None:
    m = playing(Position.start(), (6, 5))
    dests = {d.to_point: d for d in destinations(m, 24)}
    assert set(dests) == {18, 13}  # 24/19 lands on a door
    assert len(dests[13].moves) == 2
    # a whole move 24/13 is then complete
    for mv in dests[13].moves:
        m = m.step(0, mv)
    assert m.can_confirm()


def test_order_24_18_before_18_13_is_accepted_tap_by_tap() -> None:
    m = playing(Position.start(), (6, 5))
    d = find_destination(m, 24, 18)
    m = m.step(0, d.moves[0])
    assert 18 in sources(m)
    assert [x.to_point for x in destinations(m, 18)] == [13]


def test_bar_entry_is_the_only_source_with_a_checker_on_the_bar() -> None:
    pos = parse_fixture("x bar:1 13:5 8:3 6:5 24:1; o 24:2 13:5 8:3 6:5")
    m = playing(pos, (3, 1))
    assert sources(m) == [25]


def test_few_plays_are_offered_whole() -> None:
    pos = parse_fixture("x 2:1 1:1; o 1:2")
    m = playing(pos, (2, 1))
    plays = direct_plays(m, 6)
    assert 2 <= len(plays) <= 6
    assert all("off" in text for _, text in plays)
    m2 = playing(Position.start(), (6, 5))
    assert direct_plays(m2, 6) == []
    assert len(direct_plays(m2, 100)) >= 2
