"""The resign card offers "Cancel the match" exactly when the rules core allows cancelling."""

from __future__ import annotations

from bot.views.i18n import tr
from bot.views.keyboards import resign_keyboard
from rules.dice import SeededDice
from rules.match import Match


def offers_cancel(match: Match) -> bool:
    markup = resign_keyboard(tr("en"), 1, 1, match, my_turn=True, owner=7)
    return any(b.text == "Cancel the match" for row in markup.inline_keyboard for b in row)


def test_cancel_is_offered_only_while_the_rules_allow_it() -> None:
    source = SeededDice(5)
    match, _ = Match.new(5).start(source)
    assert match.can_cancel and offers_cancel(match)
    # A game resigned before anyone moved has a result: no cancelling it away.
    offered, _ = match.offer_resignation(match.turn, 2)
    accepted, _ = offered.accept_resignation(1 - match.turn, source)
    assert accepted.plays_made == 0
    assert not accepted.can_cancel and not offers_cancel(accepted)
    played, _ = match.play(match.turn, match.legal_plays()[0], source)
    assert not offers_cancel(played)
