"""/stats by a player's name in a group (issue 27, item 14): a player without an @username is
found by the name they played under in this group; a name several players have, or nobody,
gets a personal card with a button per player (the tap shows that head to head)."""

from __future__ import annotations

from standin import StandIn
from standin.players import ask, won_by_resignation
from tests.bot.conftest import Running


async def test_stats_finds_a_player_of_this_group_by_name(
        standin: StandIn, bot: Running) -> None:
    alice = standin.user("Alice", username="alice")
    smith = standin.user("Dora", last_name="Smith")  # no @username
    jones = standin.user("Dora", last_name="Jones")
    eve = standin.user("Eve")
    group = standin.group("Kafeneio", alice, smith, jones, eve)
    await won_by_resignation(standin, alice, smith, group)
    await won_by_resignation(standin, jones, alice, group)

    # one player of this group has the name: head to head at once (any case, one word of it)
    h2h = await ask(alice, group, "/stats smith", "⚔️")
    assert h2h.text.splitlines()[:2] == ["⚔️ Alice vs Dora Smith · Portes",
                                         "1 match: Alice won 1, Dora Smith won 0"]
    # two have it: Alice is asked which, a button each (who played here last first)
    card = await ask(alice, group, "/stats Dora", "Which")
    assert card.text == 'Which "Dora"? Tap the player for your head to head.'
    assert card.button_texts == ["Dora Jones", "Dora Smith"]
    # the card is Alice's: Eve's tap gets Eve her own record anew, and the card stays
    tapped = eve.tap(card, "Dora Smith")
    await group.wait_for_bot_message(after=card, predicate=lambda m: m.text.startswith(
        "📊 Eve · Portes"))
    assert not (await tapped).show_alert
    assert card.refresh().text == card.text
    # her tap turns the card into that head to head, with the game switch
    await alice.tap(card, "Dora Smith")
    shown = await standin.wait_for(
        lambda: (m := card.refresh()).text.startswith("⚔️") and m, what="the head to head")
    assert shown.text.splitlines()[:2] == ["⚔️ Alice vs Dora Smith · Portes",
                                           "1 match: Alice won 1, Dora Smith won 0"]
    assert "✔ Portes" in shown.button_texts
    # nobody by that name: the players of this group are offered (not the sender)
    card = await ask(alice, group, "/stats Zoe", "Zoe")
    assert card.text == ('I know no game and no player called "Zoe" in this group. The games: '
                         "Portes, Plakoto, Fevga, Tavli, Long Nardy; who played here (tap one for "
                         "your head to head):")
    assert card.button_texts == ["Dora Jones", "Dora Smith"]
    # in a private chat a name is no one's: as before, the @username is asked for
    said = await ask(alice, alice.private, "/stats Dora", "Dora")
    assert said.text.startswith('I know no game and no player called "Dora"')
