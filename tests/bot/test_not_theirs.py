"""Nobody touches what is not theirs (issue 28): a tap counts only with a button that is on the
message tapped, naming what that message shows; on someone's personal card in a group only its
owner's taps edit it, and anyone else asking for a view gets a message of their own.

Carol is the hostile member: she plays in no live match of the group, sees all its messages and
sends whatever callback data she likes (any client can)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.views.callbacks import ON_BOARD, PERSONAL, Action, decode, encode
from standin import Chat, Message, StandIn, User
from standin.players import live_board, new_board, play_turn, start_group_match, turn_board
from tests.bot.conftest import Running
from tests.bot.helpers.computer import start_computer_match
from tests.sampling import sample_or_full

NOT_ON_IT = "This button is not on this message; use the buttons it shows now."
NOT_THEIRS = ("These buttons are for the player who asked for them; send the command yourself "
              "for your own.")


@dataclass
class Scene:
    """A group where Alice and Bob play (match ``live``) and Carol and Alice played (``done``,
    finished, with plays); Alice has an open challenge on a card and on an inline card, Carol
    one of her own; Carol plays the computer in private (``mine``). ``messages``: one of every
    kind the bot posts, by name."""

    alice: User
    bob: User
    carol: User
    group: Chat
    messages: dict[str, Message] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)

    def id_on(self, name: str, *actions: Action) -> int:
        """The id that a button of message ``name`` doing one of ``actions`` names."""
        for row in self.messages[name].buttons:
            for b in row:
                cb = decode(b.callback_data)
                if cb is not None and cb.action in actions:
                    return cb.match_id
        raise AssertionError(f"no {actions} on the {name}")


async def reply(user: User, chat: Chat, text: str, predicate: Any = None) -> Message:
    cmd = user.send(chat, text)
    found: Message = await chat.wait_for_bot_message(after=cmd, predicate=predicate)
    return found


async def challenge_card(standin: StandIn, user: User, group: Chat) -> Message:
    """``user``'s open challenge for a 1-point match, posted in ``group``."""
    card = await reply(user, group, "/new")
    await user.tap(card, "1 point")
    found: Message = await standin.wait_for(
        lambda: "SHA-256" in (card.refresh().text or "") and card.refresh(),
        what=f"{user.first_name}'s challenge")
    return found


async def finish_a_match(standin: StandIn, s: Scene) -> None:
    """Carol and Alice play a turn each in the group, then Carol resigns: the end board and the
    seed reveal stay in the group."""
    board = await start_group_match(standin, s.carol, s.alice, s.group, "3 points")
    mover, other = (s.alice, s.carol) if board.mentions(s.alice) else (s.carol, s.alice)
    await play_turn(standin, mover, s.group)
    await play_turn(standin, other, s.group)
    menu = await reply(s.carol, s.group, "/resign",
                       lambda m: "🏳 Resign the match" in m.button_texts)
    await s.carol.tap(menu, "🏳 Resign the match")
    # (its last state: the accuracy figure, judged in the background, is edited in under it)
    s.messages["end-of-match board"] = await standin.wait_for(
        lambda: (b := live_board(s.group)) is not None and "wins the match" in b.caption
        and "Accuracy by" in b.caption and b, what="the end of the finished match, judged",
        timeout=60)
    s.messages["seed reveal"] = await standin.wait_for(
        lambda: next((m for m in s.group.bot_messages() if "🔐 The dice seed was" in m.content),
                     None), what="the seed reveal")
    s.ids["done"] = s.id_on("end-of-match board", Action.REMATCH)


async def build(standin: StandIn) -> Scene:
    standin.set_inline_feedback(True)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    group = standin.group("Kafeneio", alice, bob, carol)
    s = Scene(alice, bob, carol, group)
    m = s.messages
    await finish_a_match(standin, s)
    await start_group_match(standin, alice, bob, group)
    m["live group board"] = await new_board(standin, group, m["end-of-match board"])
    s.ids["live"] = s.id_on("live group board", *ON_BOARD)
    m["challenge card"] = await challenge_card(standin, alice, group)
    s.ids["challenge"] = s.id_on("challenge card", Action.ACCEPT)
    s.ids["carol's challenge"] = decode(  # type: ignore[union-attr]
        (await challenge_card(standin, carol, group)).buttons[0][0].callback_data).match_id
    m["/new card"] = await reply(bob, group, "/new")
    query = alice.inline_query("1")
    await query
    inline = alice.choose_inline_result(query, "1t", group)
    m["inline challenge card"] = await standin.wait_for(
        lambda: "SHA-256" in (inline.refresh().text or "") and inline.refresh(),
        what="the inline card's challenge")
    s.ids["inline challenge"] = s.id_on("inline challenge card", Action.ACCEPT)
    m["history card"] = await reply(alice, group, "/history",
                                    lambda m: "Your recent matches" in m.content)
    await alice.tap(m["history card"], f"▶ Replay #{s.ids['done']}")
    m["replay"] = await group.wait_for_bot_message(
        after=m["history card"],
        predicate=lambda m: m.photo_bytes is not None and "Game 1" in (m.caption or ""))
    m["leaderboard"] = await reply(alice, group, "/top", lambda m: "🏆" in m.content)
    m["stats card"] = await reply(alice, group, "/stats", lambda m: "📊" in m.content)
    m["language card"] = await reply(alice, group, "/lang")
    m["games card"] = await reply(alice, group, "/games")
    m["resignation card"] = await reply(alice, group, "/resign")
    m["review card"] = await reply(alice, group, "/review")
    await start_computer_match(standin, carol)
    m["private board"] = await standin.wait_for(
        lambda: turn_board(carol, carol.private), what="Carol's turn against the computer")
    s.ids["mine"] = s.id_on("private board", *ON_BOARD)
    m["settings card"] = await reply(carol, carol.private, "/settings")
    m["notices card"] = await reply(carol, carol.private, "/notices")
    m["language card (private)"] = await reply(carol, carol.private, "/lang")
    return s


def look(message: Message) -> tuple[Any, ...]:
    """What anyone sees of a message (raises if it was deleted)."""
    now = message.refresh()
    return (now.text, now.caption, now.reply_markup, now.photo_file_id, now.edit_count,
            now.deleted)


async def stored(bot: Running, s: Scene) -> tuple[Any, ...]:
    """What the database holds that a tap could change: the matches, the challenges (and that
    there is no new one), the players' settings, the group's language."""
    matches = [(await bot.uc.load_match(s.ids[k])).match for k in ("done", "live", "mine")]
    challenges = [await bot.uc.get_challenge(i) for i in range(1, max(s.ids.values()) + 2)]
    players = [await bot.uc.get_player(u.id) for u in (s.alice, s.bob, s.carol)]
    return (tuple((m.status, m.version) for m in matches if m is not None),
            tuple(c.status if c is not None else None for c in challenges),
            tuple((p.language, p.theme, p.home, p.notices) for p in players if p is not None),
            await bot.uc.get_chat_language(s.group.id))


async def versions(bot: Running, s: Scene) -> dict[str, int]:
    found = {}
    for key in ("done", "live", "mine"):
        mv = (await bot.uc.load_match(s.ids[key])).match
        assert mv is not None
        found[key] = mv.version
    return found


ARGS: dict[Action, str] = {
    Action.FROM: "24", Action.MOVE: "24-18", Action.PLAY: "0", Action.RESIGN: "m",
    Action.REPLAY: "0", Action.POSITION: "0", Action.NEW: "1tgp", Action.NEW_COMPUTER: "1t1gp",
    Action.LANG: "en", Action.NOTICES: "off", Action.FORGET: "yes",
    Action.SETTINGS: "th-high-contrast", Action.TOP_GAME: "k", Action.STATS_GAME: "p",
}
"""Arguments the handlers accept, so that a forged tap would act if it got through."""


def named(action: Action, s: Scene, v: dict[str, int]) -> list[tuple[int, int]]:
    """The (id, version) pairs a forged ``action`` tap names: things there are to act on."""
    if action in (Action.ACCEPT, Action.WITHDRAW):
        return [(s.ids["challenge"], 0), (s.ids["inline challenge"], 0),
                (s.ids["carol's challenge"], 0), (0, 0)]
    if action in (Action.REMATCH, Action.REVIEW, Action.DOWNLOAD, Action.REPLAY,
                  Action.POSITION):
        return [(s.ids["done"], 0)]
    if action == Action.STATS_GAME:
        return [(s.carol.id, 0), (s.alice.id, 0)]
    if action in (Action.NEW, Action.NEW_CANCEL, Action.NEW_COMPUTER, Action.LANG,
                  Action.NOTICES, Action.FORGET, Action.SETTINGS, Action.TOP_GAME):
        return [(0, 0)]
    return [(s.ids["live"], v["live"]), (s.ids["mine"], v["mine"])]


def forgeries(action: Action, s: Scene, v: dict[str, int]) -> list[str]:
    """Data Carol makes up for ``action`` (built with the bot's own encoder). A personal card's
    button with her as its owner, with Alice, and with no owner (as before owners existed)."""
    out = []
    for match_id, version in named(action, s, v):
        arg = f"1t{s.alice.id}" if action == Action.ACCEPT and match_id == 0 else ARGS.get(action)
        if action not in PERSONAL:
            out.append(encode(action, match_id, version, arg))
            continue
        for owner in (s.carol.id, s.alice.id):
            out.append(encode(action, match_id, version, arg, owner=owner))
        out.append(out[-1].split("@")[0])
    return out


def keyboard_data(message: Message) -> set[str]:
    return {b.callback_data for row in message.refresh().buttons for b in row
            if b.callback_data}


async def test_the_five_attacks_of_the_report_change_nothing(standin: StandIn,
                                                            bot: Running) -> None:
    s = await build(standin)
    m, carol, done = s.messages, s.carol, s.ids["done"]
    before = await stored(bot, s)
    # each attack twice: with the report's data, which carried no owner (as cards from before
    # owners did; written by hand, since encode refuses to make a personal card's button without
    # one), and with Carol as its owner
    attacks = [
        ("the leaderboard's game switch deletes a live board", "live group board",
         "lb:0:0:p",  # malformed on purpose: no owner
         encode(Action.TOP_GAME, 0, 0, "p", owner=carol.id)),
        ("Replay turns a live board into her replay", "live group board",
         f"hr:{done}:0:0",  # malformed on purpose: no owner
         encode(Action.REPLAY, done, 0, 0, owner=carol.id)),
        ("Language replaces an open challenge card", "challenge card",
         encode(Action.LANG, 0, 0, "en"), encode(Action.LANG, 0, 0, "en", owner=carol.id)),
        ("the stats switch replaces the proof of the dice", "seed reveal",
         f"sg:{carol.id}:0:p",  # malformed on purpose: no owner
         encode(Action.STATS_GAME, carol.id, 0, "p", owner=carol.id)),
        ("the leaderboard's switch deletes the end-of-match board", "end-of-match board",
         "lb:0:0:k",  # malformed on purpose: no owner
         encode(Action.TOP_GAME, 0, 0, "k", owner=carol.id)),
    ]
    for what, name, ownerless, owned in attacks:
        for tapped in (ownerless, owned):
            seen = look(m[name])
            answer = await carol.tap_data(m[name], tapped)
            assert answer.show_alert and answer.text == NOT_ON_IT, (what, tapped, answer)
            assert look(m[name]) == seen, what
    assert "🎲 Accept" in m["challenge card"].refresh().button_texts
    assert await stored(bot, s) == before


@pytest.mark.parametrize("every", sample_or_full(5, 1))
async def test_every_forged_action_on_every_message_changes_nothing(
        standin: StandIn, bot: Running, every: int) -> None:
    """Every forgery of every action on every message (``[sample]``: every fifth of them, in
    turn across the messages and actions; ``[full]``: each one)."""
    s = await build(standin)
    v = await versions(bot, s)
    chats = (s.group, s.carol.private)
    posted = [len(c.bot_messages()) for c in chats]
    before = await stored(bot, s)
    tapped = forged = 0
    for name, message in s.messages.items():
        genuine = keyboard_data(message)
        seen = look(message)
        for action in Action:
            for data in forgeries(action, s, v):
                if data in genuine:
                    continue
                forged += 1
                if forged % every:
                    continue
                answer = await s.carol.tap_data(message, data)
                assert answer.show_alert and answer.text, (name, data, answer)
                assert look(message) == seen, (name, data)
                tapped += 1
        assert await stored(bot, s) == before, name
    assert forged > 1000 and tapped == forged // every
    assert [len(c.bot_messages()) for c in chats] == posted  # nothing was posted either
    # and every one of them still does what it did for the one it is for
    answer = await s.alice.tap(s.messages["challenge card"].refresh(), "Withdraw")
    assert not answer.show_alert
    await standin.wait_for(lambda: s.messages["challenge card"].refresh().text ==
                           "Challenge withdrawn.", what="the challenge withdrawn")


async def test_a_tap_on_someone_elses_view_gets_a_message_of_ones_own(
        standin: StandIn, bot: Running) -> None:
    s = await build(standin)
    m, alice, bob, carol, group = s.messages, s.alice, s.bob, s.carol, s.group
    # Carol taps Plakoto under Alice's /top: her own leaderboard comes, Alice's stays
    top = look(m["leaderboard"])
    answer = await carol.tap(m["leaderboard"], "Plakoto")
    assert not answer.show_alert
    mine = await group.wait_for_bot_message(after=m["review card"],
                                            predicate=lambda x: "Plakoto" in x.content)
    assert mine.content.startswith("🏆 Plakoto · Leaderboard of Kafeneio")
    assert "✔ Plakoto" in mine.button_texts
    assert all(b.callback_data.endswith(f"@{carol.id}") for row in mine.buttons for b in row
               if b.callback_data)
    assert look(m["leaderboard"]) == top
    # her own card is hers to switch, in place
    await carol.tap(mine, "Fevga")
    await standin.wait_for(lambda: "✔ Fevga" in mine.refresh().button_texts,
                           what="Carol's leaderboard switched")
    assert look(m["leaderboard"]) == top
    # and Alice's tap still switches Alice's card
    await alice.tap(m["leaderboard"], "Plakoto")
    await standin.wait_for(
        lambda: any("✔ Plakoto" in x.button_texts and "Plakoto" in x.content
                    and x.message_id != mine.message_id for x in group.bot_messages()),
        what="Alice's leaderboard switched")
    # /stats: Carol's own record in that game, Alice's card as it was
    stats = look(m["stats card"])
    answer = await carol.tap(m["stats card"], "Fevga")
    assert not answer.show_alert
    own = await group.wait_for_bot_message(after=mine,
                                           predicate=lambda x: x.content.startswith("📊 Carol"))
    assert own.content.startswith("📊 Carol · Fevga") and "✔ Fevga" in own.button_texts
    assert look(m["stats card"]) == stats
    await alice.tap(m["stats card"], "Fevga")
    await standin.wait_for(lambda: m["stats card"].refresh().text.startswith("📊 Alice · Fevga"),
                           what="Alice's stats switched")
    # a replay: Carol played that match, so ▶ on Alice's replay gives Carol her own replay
    replay = look(m["replay"])
    answer = await carol.tap(m["replay"], "▶")
    assert not answer.show_alert
    hers = await group.wait_for_bot_message(
        after=own, predicate=lambda x: x.photo_bytes is not None and "(2/" in (x.caption or ""))
    assert all(b.callback_data.endswith(f"@{carol.id}") for b in hers.buttons[0])
    assert look(m["replay"]) == replay
    # Bob never played it: refused, as before
    answer = await bob.tap(m["replay"], "▶")
    assert answer.show_alert and answer.text == "This is not your match."
    assert look(m["replay"]) == replay
    # what is not a view is refused, and the card stays
    for name, label, text in (("language card", "English", "This group's language is English. "
                               "Only the group's admins can change it."),
                              ("/new card", "1 point",
                               "Only the player who typed /new can choose."),
                              ("resignation card", "🏳 Resign the match", NOT_THEIRS)):
        seen = look(m[name])
        answer = await carol.tap(m[name], label)
        assert answer.show_alert and answer.text == text, name
        assert look(m[name]) == seen, name
    assert (await bot.uc.load_match(s.ids["live"])).match.status == "active"  # type: ignore[union-attr]


async def test_a_begun_inline_cards_links_are_all_it_takes(standin: StandIn,
                                                            bot: Running) -> None:
    # An inline card whose match has begun shows the score and links: no tap counts there,
    # not Accept as first posted (it would make a new challenge over the card) nor someone's
    # own Withdraw (it would write "Challenge withdrawn." over the card).
    standin.set_inline_feedback(True)
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    group = standin.group("Kafeneio", alice, bob, carol)
    query = alice.inline_query("1")
    await query
    card = alice.choose_inline_result(query, "1t", group)
    await standin.wait_for(lambda: "SHA-256" in (card.refresh().text or ""))
    own = await challenge_card(standin, carol, group)
    mine = decode(own.buttons[0][0].callback_data)
    assert mine is not None
    await bob.tap(card.refresh(), "🎲 Accept")  # never started the bot: sent to it
    await bob.tap(await bob.private.wait_for_bot_message(after=bob.start_bot("c" + (
        await bot.uc.get_challenge(1)).token)), "🎲 Accept")  # type: ignore[union-attr]
    await standin.wait_for(lambda: "to move" in (card.refresh().text or ""))
    seen = look(card)
    for data in (encode(Action.ACCEPT, 0, 0, f"1t{alice.id}"),
                 encode(Action.WITHDRAW, mine.match_id, 0), encode(Action.ACCEPT, 1, 0),
                 encode(Action.WITHDRAW, 1, 0), encode(Action.TOP_GAME, 0, 0, "p", owner=carol.id)):
        answer = await carol.tap_data(card, data)
        assert answer.show_alert and answer.text == NOT_ON_IT, data
        assert look(card) == seen, data
    assert (await bot.uc.get_challenge(mine.match_id)).status == "open"  # type: ignore[union-attr]
    assert await bot.uc.get_challenge(mine.match_id + 1) is None


async def test_a_message_too_old_to_show_takes_only_board_taps(standin: StandIn,
                                                                bot: Running) -> None:
    # Telegram sends a message it no longer shows without its keyboard: only a board's buttons
    # (looked up among the match's boards) and buttons that only post anew count there;
    # anything else asks for the command.
    alice = standin.user("Alice", username="alice")
    bob = standin.user("Bob", username="bob")
    carol = standin.user("Carol", username="carol")
    group = standin.group("Kafeneio", alice, bob, carol)
    board = await start_group_match(standin, alice, bob, group)
    top = await reply(alice, group, "/top", lambda m: "🏆" in m.content)
    seen, shown = look(board), look(top)
    for message, data in ((board, "lb:0:0:p"),  # malformed on purpose: no owner
                          (top, encode(Action.TOP_GAME, 0, 0, "k", owner=alice.id)),
                          (board, encode(Action.LANG, 0, 0, "en", owner=carol.id))):
        answer = await carol.tap_data(message, data, inaccessible=True)
        assert answer.show_alert and answer.text == ("This message is too old for its "
                                                     "buttons; send the command again.")
    assert look(board) == seen and look(top) == shown
    mover = alice if board.mentions(alice) else bob
    play = next(b.callback_data for row in board.buttons for b in row
                if (data := decode(b.callback_data)) is not None
                and data.action in (Action.PLAY, Action.FROM, Action.MOVE))
    answer = await carol.tap_data(board, play, inaccessible=True)
    assert answer.show_alert and "not playing" in (answer.text or "")
    assert look(board) == seen
    answer = await mover.tap_data(board, play, inaccessible=True)
    assert not answer.show_alert

    def tapped() -> bool:
        now = live_board(group)
        return now is not None and (now.message_id != board.message_id or look(now) != seen)
    await standin.wait_for(tapped, what="the tap applied")
    # a button that only posts something new counts there too: /games brings the board back
    games = await reply(alice, group, "/games")
    show = games.buttons[0][0].callback_data
    assert show is not None and (show_data := decode(show)) is not None
    assert show_data.action is Action.SHOW
    shown_before = live_board(group)
    assert shown_before is not None
    answer = await alice.tap_data(games, show, inaccessible=True)
    assert not answer.show_alert
    await standin.wait_for(lambda: (b := live_board(group)) is not None
                           and b.message_id > shown_before.message_id, what="the board again")
