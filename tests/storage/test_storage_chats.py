"""Per-chat use cases: a group's language, its active matches, both kept across an upgrade."""

from __future__ import annotations

from storage.db import Database
from storage.results import MatchStatus
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import ALICE, BOB, CAROL, new_match, players, posted

GROUP, OTHER, SUPERGROUP = -100, -200, -1000000000100


async def test_a_chat_language_is_set_read_changed_and_cleared(uc: UseCases) -> None:
    # Given a group nobody set a language for
    assert await uc.get_chat_language(GROUP) is None
    # When /lang sets Greek, then English
    await uc.set_chat_language(GROUP, "el")
    assert await uc.get_chat_language(GROUP) == "el"
    await uc.set_chat_language(GROUP, "en")
    # Then the last one is kept, for that chat only
    assert await uc.get_chat_language(GROUP) == "en"
    assert await uc.get_chat_language(OTHER) is None
    # And None clears it
    await uc.set_chat_language(GROUP, None)
    assert await uc.get_chat_language(GROUP) is None


async def test_the_first_language_used_in_a_group_sticks(uc: UseCases) -> None:
    # Given a group with no language, then the first one used there: it is adopted
    assert await uc.adopt_chat_language(GROUP, "el") == "el"
    # When a player of another language comes later, the group keeps its first
    assert await uc.adopt_chat_language(GROUP, "en") == "el"
    assert await uc.get_chat_language(GROUP) == "el"
    # But /lang changes it, and a cleared language is adopted anew
    await uc.set_chat_language(GROUP, "en")
    assert await uc.adopt_chat_language(GROUP, "el") == "en"
    await uc.set_chat_language(GROUP, None)
    assert await uc.adopt_chat_language(GROUP, "el") == "el"
    assert await uc.get_chat_language(OTHER) is None


async def test_a_chat_language_survives_a_fresh_database_object(
    db_url: str, clock: FakeClock
) -> None:
    first = Database.from_url(db_url)
    await UseCases(first, clock=clock).set_chat_language(GROUP, "el")
    await first.dispose()
    second = Database.from_url(db_url)
    try:
        assert await UseCases(second, clock=clock).get_chat_language(GROUP) == "el"
    finally:
        await second.dispose()


async def test_a_chat_language_follows_the_upgrade_to_a_supergroup(uc: UseCases) -> None:
    await uc.set_chat_language(GROUP, "el")
    await uc.migrate_chat(GROUP, SUPERGROUP)
    assert await uc.get_chat_language(SUPERGROUP) == "el"
    assert await uc.get_chat_language(GROUP) is None


async def test_the_new_chats_own_language_wins_over_the_old_one(uc: UseCases) -> None:
    # Given /lang was used in the supergroup before the upgrade was followed
    await uc.set_chat_language(GROUP, "el")
    await uc.set_chat_language(SUPERGROUP, "en")
    await uc.migrate_chat(GROUP, SUPERGROUP)
    assert await uc.get_chat_language(SUPERGROUP) == "en"
    assert await uc.get_chat_language(GROUP) is None


async def test_active_matches_in_a_chat(uc: UseCases) -> None:
    # Given two active matches in the group, one in another chat, an open challenge and an
    # ended match in the group
    first = (await new_match(uc)).match
    second = (await new_match(uc, mix="cbq-2")).match
    assert first is not None and second is not None
    await players(uc)
    elsewhere = await uc.create_challenge(CAROL, length=1, chat_id=OTHER, group=True)
    assert elsewhere.challenge is not None
    await uc.accept_challenge(elsewhere.challenge.id, ALICE, mix="cbq-3")
    await uc.create_challenge(CAROL, length=3, chat_id=GROUP, group=True)
    ended = (await new_match(uc, mix="cbq-4")).match
    assert ended is not None
    await uc.resign_match(ended.id, BOB)
    # When the group's active matches are asked for
    found = await uc.active_matches_in_chat(GROUP)
    # Then exactly the two active ones come, with both players
    assert [m.id for m in found] == [first.id, second.id]
    assert all(m.status == MatchStatus.ACTIVE for m in found)
    seats = [(s.seats[0].player, s.seats[1].player) for s in found]
    assert all(a is not None and a.id == ALICE and b is not None and b.id == BOB
               for a, b in seats)
    # And they follow the group to its supergroup
    await uc.migrate_chat(GROUP, SUPERGROUP)
    assert await uc.active_matches_in_chat(GROUP) == []
    assert [m.id for m in await uc.active_matches_in_chat(SUPERGROUP)] == [first.id, second.id]


async def test_a_match_view_carries_its_chats_language(uc: UseCases) -> None:
    # Given a group whose language was set before a match started there
    await uc.set_chat_language(GROUP, "el")
    accepted = await new_match(uc)  # played in GROUP
    view = accepted.match
    # Then the accepting result, a loaded match and an action's result all carry it
    assert view is not None and view.chat_language == "el"
    loaded = await uc.load_match(view.id)
    assert loaded.match is not None and loaded.match.chat_language == "el"
    # When the group's language changes, the next result says so
    await uc.set_chat_language(GROUP, "en")
    actor = view.seats[view.state.turn].player
    assert actor is not None
    stepped = await uc.step(view.id, actor.id, view.version, view.state.next_moves()[0])
    assert stepped.match is not None and stepped.match.chat_language == "en"
    # And a match in a chat with no setting has none
    await uc.set_chat_language(GROUP, None)
    assert (await uc.load_match(view.id)).match.chat_language is None  # type: ignore[union-attr]


async def test_removed_from_a_group_its_matches_move_to_private_once(uc: UseCases) -> None:
    # Given two active matches in the group (one with a live board there) and one elsewhere
    first = (await new_match(uc)).match
    second = (await new_match(uc, mix="cbq-2")).match
    assert first is not None and second is not None
    await posted(uc, str(GROUP), 7, match_id=first.id)
    await players(uc)
    elsewhere = await uc.create_challenge(CAROL, length=1, chat_id=OTHER, group=True)
    assert elsewhere.challenge is not None
    await uc.accept_challenge(elsewhere.challenge.id, ALICE, mix="cbq-3")
    # When the bot is removed from the group
    moved = await uc.move_to_private(GROUP)
    # Then both matches go on in private: no group, no group board, old buttons stale
    assert [m.id for m in moved] == [first.id, second.id]
    for m, before in zip(moved, (first, second), strict=True):
        assert m.place.chat_id is None and m.place.thread_id is None
        assert m.board_messages == () and m.version == before.version + 1
        assert m.status == MatchStatus.ACTIVE
    assert await uc.active_matches_in_chat(GROUP) == []
    assert len(await uc.active_matches_in_chat(OTHER)) == 1
    stale = await uc.step(first.id, first.seats[first.state.turn].player.id,  # type: ignore[union-attr]
                          first.version, first.state.next_moves()[0])
    assert stale.code == "stale"
    # And they are moved (and their players told) only once
    assert await uc.move_to_private(GROUP) == []
    # And they can be played, and resigned, from the private chats
    listed = {s.id: s for s in await uc.list_active_matches(ALICE)}
    assert listed[first.id].place.chat_id is None
    resigned = await uc.resign_match(second.id, BOB)
    assert resigned.ok
