"""Inline keyboards (pure): the turn, the /new card, challenge cards, resigning, rematch, the
lists of matches. Button words are gettext message ids (see ``bot/locales``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from telegram import InlineKeyboardButton as Btn
from telegram import InlineKeyboardMarkup as Markup

from bot.views.callbacks import Action, encode, move_arg
from bot.views.game_choice import game_rows as rows_of_games
from bot.views.games import CAFE_GAMES, GAME_LETTERS, cafe_default, game_name
from bot.views.i18n import Tr, lang_name, langs
from bot.views.play import hours_default
from bot.views.player_settings import move_buttons
from bot.views.texts import match_label, match_state, move_words, opponent_name
from bot.views.turn_choices import destinations, direct_plays, point_label, sources
from computer.decide import default_level, offered_levels
from rules.game import DEFAULT_KIND, find_kind
from rules.match import Match, Phase, match_lengths
from storage.results import MatchSummary

PER_ROW = 6


def offered_levels_for(game: str) -> tuple[int, ...]:
    """The computer's levels on offer in a game, as storage keeps them (1 easy, 2 medium,
    3 strong): :func:`computer.decide.offered_levels`."""
    return offered_levels(game)


def _rows(buttons: list[Btn], per_row: int = PER_ROW) -> list[list[Btn]]:
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


def point_name(t: Tr, point: int) -> str:
    """A point as a button says it: its number, or the bar, or off."""
    if point == 25:
        return t._("bar")
    if point == 0:
        return t._("off")
    return point_label(point)


def turn_keyboard(
    t: Tr, match_id: int, version: int, match: Match, *, selected: int | None = None,
    direct_limit: int = 6, hint: bool = False,
) -> Markup | None:
    """The keyboard of the player to move, or ``None`` when there is nothing to choose.
    ``hint``: add the Hint button (games against the computer only). When one point alone
    has a checker to move (the bar, say), it is chosen already: its destinations are shown,
    and no "Other checker"."""
    if match.phase == Phase.RESIGN_OFFERED:
        return Markup([[
            Btn(t._("Accept"), callback_data=encode(Action.RESIGN_ACCEPT, match_id, version)),
            Btn(t._("Decline"), callback_data=encode(Action.RESIGN_DECLINE, match_id, version)),
        ]])
    if match.phase != Phase.PLAYING or match.dice is None:
        return None
    rows: list[list[Btn]] = []
    hint_button = Btn("💡 " + t._("Hint"), callback_data=encode(Action.HINT, match_id, version))
    plays = direct_plays(match, direct_limit)
    if plays:
        for index, (_, text) in enumerate(plays):
            rows.append([Btn(move_words(t, text),
                             callback_data=encode(Action.PLAY, match_id, version, index))])
        if hint and len(plays) > 1:
            rows.append([hint_button])
        return Markup(rows)
    froms = sources(match)
    if selected is None and len(froms) == 1:  # one checker to move (the bar, say): chosen
        selected = froms[0]
    if selected is not None:
        dests = destinations(match, selected)
        buttons = []
        for d in dests:
            arg = move_arg(selected, d.to_point) + (f"-{d.route}" if d.route else "")
            text = f"{point_name(t, selected)} → {point_name(t, d.to_point)}{'*' if d.hit else ''}"
            if d.route:
                text = " → ".join(f"{point_name(t, m.to_point)}{'*' if m.hit else ''}"
                                  for m in d.moves)
                text = f"{point_name(t, selected)} → {text}"
            buttons.append(Btn(text, callback_data=encode(Action.MOVE, match_id, version, arg)))
        rows.extend(_rows(buttons, 3))
        if len(froms) > 1:
            rows.append([Btn("↩ " + t._("Other checker"),
                             callback_data=encode(Action.BACK, match_id, version))])
    else:
        buttons = [
            Btn(point_name(t, p), callback_data=encode(Action.FROM, match_id, version, p))
            for p in froms
        ]
        rows.extend(_rows(buttons))
    last: list[Btn] = []
    if match.chosen:
        last.append(Btn("⟲ " + t._("Undo"), callback_data=encode(Action.UNDO, match_id, version)))
    if match.can_confirm():
        last.append(Btn("✅ " + t._("Confirm"),
                        callback_data=encode(Action.CONFIRM, match_id, version)))
    if hint and not match.chosen:
        last.append(hint_button)
    if last:
        rows.append(last)
    return Markup(rows) if rows else None


def game_rows(game: str, t: Tr, arg: Callable[[str], str], owner: int) -> list[list[Btn]]:
    """The /new card's first rows: the games, in the order of ``t``'s language (its favourite
    first, :mod:`bot.views.lang_defaults`), ``game`` ticked; ``arg(letter)`` is the card's argument
    with that game chosen."""
    return [[Btn(("✔ " if g == game else "") + game_name(t, g),
                 callback_data=encode(Action.NEW, 0, 0, arg(GAME_LETTERS[g]), owner=owner))
             for g in row] for row in rows_of_games(t)]


def new_card_keyboard(t: Tr, no_triple: bool, target: int | None, *, owner: int,
                      computer: bool = False, hours: int | None = None,
                      default_move: float = 7 * 24 * 3600.0, game: str = DEFAULT_KIND,
                      cafe: bool | None = None, group: bool = False) -> Markup:
    """The /new card: the games (``game`` ticked, Portes unless another was chosen), a button
    per match length, the times per move (``hours`` ticked; ``None``: the operator's
    ``default_move`` seconds), the "no triple" switch (where Portes is played) and the café
    start switch (``cafe``; ``None``: the game's default, see :func:`cafe_default`);
    ``computer`` (private chats): a button to play against the computer instead; ``group``:
    a button to open a league or a cup instead. Every choice
    carries the game (and, where it applies, the café start; choosing another game drops it),
    and ``owner``, the player who sent /new (the only one whose taps count)."""
    flag = "n" if no_triple else "t"
    suffix = str(target) if target else ""
    chosen = f"h{hours}" if hours else ""
    if cafe is None:
        cafe = cafe_default(game)
    g = f"g{GAME_LETTERS[game]}" + ((f"w{int(cafe)}") if game in CAFE_GAMES else "")
    lengths = [
        Btn(t.ngettext("{n} point", "{n} points", n),
            callback_data=encode(Action.NEW, 0, 0, f"{n}{flag}{suffix}{chosen}{g}", owner=owner))
        for n in match_lengths(game)
    ]
    toggle_flag = "t" if no_triple else "n"
    toggle_text = ("☑ " if no_triple else "☐ ") + t._("No triple (backgammon counts 2)")
    # Every choice first, the lengths last: a length creates the challenge at once.
    rows = [
        *game_rows(game, t, lambda letter: f"o{flag}{suffix}{chosen}g{letter}", owner),
        *move_buttons(t, hours, default_move, lambda h: encode(
            Action.NEW, 0, 0, f"o{flag}{suffix}" + (f"h{h}" if h else "") + g, owner=owner)),
    ]
    if find_kind(game).triple:
        rows.append([Btn(toggle_text, callback_data=encode(
            Action.NEW, 0, 0, f"o{toggle_flag}{suffix}{chosen}{g}", owner=owner))])
    if game in CAFE_GAMES:
        g_other = f"g{GAME_LETTERS[game]}w{int(not cafe)}"
        rows.append([Btn(("☑ " if cafe else "☐ ") + t._("The winner rolls first next game"),
                         callback_data=encode(Action.NEW, 0, 0,
                                              f"o{flag}{suffix}{chosen}{g_other}",
                                              owner=owner))])
    rows.append(lengths)
    if group:
        rows.append([Btn("🏆 " + t._("A league or a cup"),
                         callback_data=encode(Action.TOURNAMENT_NEW, 0, 0, owner=owner))])
    if computer:
        level = default_level(game)
        rows.append([Btn("🔎 " + t._("Find me an opponent"), callback_data=encode(
            Action.FIND, 0, 0, f"{GAME_LETTERS[game]}0h{hours_default(default_move)}",
            owner=owner))])
        rows.append([Btn("🤖 " + t._("Against the computer"),
                         callback_data=encode(Action.NEW_COMPUTER, 0, 0,
                                              f"o{flag}{level}g{GAME_LETTERS[game]}",
                                              owner=owner))])
    rows.append([Btn(t._("Cancel"), callback_data=encode(Action.NEW_CANCEL, 0, 0, owner=owner))])
    return Markup(rows)


def computer_card_keyboard(t: Tr, no_triple: bool, level: int, game: str = DEFAULT_KIND, *,
                           owner: int) -> Markup:
    """The /new card against the computer: the level (one ticked), the lengths (each starts a
    challenge), the "no triple" switch, back to a match against a person. Outside Portes the
    computer has one level (:func:`offered_levels_for`)."""
    flag = "n" if no_triple else "t"
    g = f"g{GAME_LETTERS[game]}"
    # Level numbers as storage keeps them (computer.decide.LEVEL_NAMES names them).
    names = {1: t._("Easy"), 2: t._("Medium"), 3: t._("Strong")}
    levels = [  # "l": a level chosen (remembered for the player; "o" only draws the card)
        Btn(("✔ " if n == level else "") + names[n],
            callback_data=encode(Action.NEW_COMPUTER, 0, 0, f"l{flag}{n}{g}", owner=owner))
        for n in offered_levels_for(game)
    ]
    lengths = [
        Btn(t.ngettext("{n} point", "{n} points", n),
            callback_data=encode(Action.NEW_COMPUTER, 0, 0, f"{n}{flag}{level}{g}",
                                 owner=owner))
        for n in match_lengths(game)
    ]
    toggle_text = ("☑ " if no_triple else "☐ ") + t._("No triple (backgammon counts 2)")
    toggle = "t" if no_triple else "n"
    rows = [levels, lengths]
    if find_kind(game).triple:  # the other games have no triple anyway
        rows.append([Btn(toggle_text, callback_data=encode(Action.NEW_COMPUTER, 0, 0,
                                                           f"o{toggle}{level}{g}", owner=owner))])
    rows.append([Btn("👥 " + t._("Against a person"),
                     callback_data=encode(Action.NEW, 0, 0, f"o{flag}{g}", owner=owner)),
                 Btn(t._("Cancel"), callback_data=encode(Action.NEW_CANCEL, 0, 0, owner=owner))])
    return Markup(rows)


def computer_challenge_keyboard(t: Tr, challenge_id: int) -> Markup:
    """A match against the computer, created: Start (the player's own tap brings the value
    mixed into the dice, after the commitment was shown) or Withdraw."""
    return Markup([
        [Btn("▶ " + t._("Start"), callback_data=encode(Action.ACCEPT, challenge_id, 0))],
        [Btn(t._("Withdraw"), callback_data=encode(Action.WITHDRAW, challenge_id, 0))],
    ])


def challenge_keyboard(t: Tr, challenge_id: int, *, accept: bool = True, cancel: bool = True,
                       share_url: str | None = None) -> Markup:
    rows = []
    if accept:
        rows.append([Btn("🎲 " + t._("Accept"),
                         callback_data=encode(Action.ACCEPT, challenge_id, 0))])
    if share_url:
        rows.append([Btn("📨 " + t._("Send to a friend"), url=share_url)])
    if cancel:
        rows.append([Btn(t._("Withdraw"),
                         callback_data=encode(Action.WITHDRAW, challenge_id, 0))])
    return Markup(rows)


def inline_accept_keyboard(t: Tr, length: int, no_triple: bool, author: int,
                           letter: str = "p") -> Markup:
    """The card an inline query posts before its challenge exists (match id 0); ``letter``:
    the game's (:data:`GAME_LETTERS`; Portes's is left out, as on cards from before the
    games)."""
    arg = f"{length}{'n' if no_triple else 't'}{author}" + ("" if letter == "p" else f"g{letter}")
    return Markup([[Btn("🎲 " + t._("Accept"), callback_data=encode(Action.ACCEPT, 0, 0, arg))]])


def resign_keyboard(t: Tr, match_id: int, version: int, match: Match, *, my_turn: bool,
                    owner: int) -> Markup:
    """The resignation card of ``owner`` (the player who sent /resign)."""
    rows: list[list[Btn]] = []
    if my_turn and match.phase == Phase.PLAYING:
        rows.append([
            Btn(t.ngettext("Game: {n} point", "Game: {n} points", n),
                callback_data=encode(Action.RESIGN, match_id, version, n, owner=owner))
            for n in range(1, match.max_resign_points() + 1)
        ])
    rows.append([Btn("🏳 " + t._("Resign the match"),
                     callback_data=encode(Action.RESIGN, match_id, version, "m", owner=owner))])
    if match.can_cancel:
        rows.append([Btn(t._("Cancel the match"),
                         callback_data=encode(Action.CANCEL, match_id, version, owner=owner))])
    return Markup(rows)


def rematch_keyboard(t: Tr, match_id: int, *, review: bool = True) -> Markup:
    data = encode(Action.REMATCH, match_id, 0)
    row = [Btn("🔁 " + t._("Rematch"), callback_data=data)]
    if review:
        row.append(Btn("📊 " + t._("Review"), callback_data=encode(Action.REVIEW, match_id, 0)))
    return Markup([row])


def lang_keyboard() -> Markup:
    """A button per language of the bot (every catalogue folder), two a row."""
    buttons = [Btn(lang_name(lang), callback_data=encode(Action.LANG, 0, 0, lang))
               for lang in langs()]
    return Markup([buttons[i:i + 2] for i in range(0, len(buttons), 2)])


def notices_keyboard(t: Tr, on: bool, owner: int) -> Markup:
    """/notices: the one button that turns them the other way."""
    if on:
        return Markup([[Btn("🔕 " + t._("Turn notices off"),
                            callback_data=encode(Action.NOTICES, 0, 0, "off", owner=owner))]])
    return Markup([[Btn("🔔 " + t._("Turn notices on"),
                        callback_data=encode(Action.NOTICES, 0, 0, "on", owner=owner))]])


def url_keyboard(text: str, url: str) -> Markup:
    return Markup([[Btn(text, url=url)]])


def games_keyboard(t: Tr, matches: Sequence[MatchSummary], owner: int) -> Markup:
    """/games of ``owner``: a button per match, bringing its board back (or, for a match that
    cannot be read, closing it)."""
    return Markup([
        [Btn(f"#{s.id} {opponent_name(t, s)} ({match_state(t, s)})",
             callback_data=encode(Action.SHOW, s.id, s.version))]
        if s.readable else
        [Btn(t._("✖ Close #{id}: it cannot be read", id=s.id),
             callback_data=encode(Action.CLOSE_UNREADABLE, s.id, s.version, owner=owner))]
        for s in matches])


def pick_keyboard(t: Tr, action: Action, matches: Sequence[MatchSummary], owner: int) -> Markup:
    """"Which match?" asked of ``owner``: one button per match."""
    return Markup([
        [Btn(match_label(t, s), callback_data=encode(action, s.id, s.version, owner=owner))]
        for s in matches[:20]])


def finished_matches_keyboard(t: Tr, matches: Sequence[MatchSummary]) -> Markup | None:
    """/review: a Review button per finished match of Portes (GNU Backgammon plays no other);
    ``None`` when there is none (Telegram refuses a keyboard without buttons)."""
    rows = []
    for s in matches:
        if not find_kind(s.game_type).reviews:
            continue
        me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
        rows.append([Btn(f"📊 #{s.id} {opponent_name(t, s)} {me}–{them}",
                         callback_data=encode(Action.REVIEW, s.id, 0))])
    return Markup(rows) if rows else None
