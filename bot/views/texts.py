"""Every text the bot writes, built in the reader's language (pure: no Telegram calls).

Board captions and error alerts; the welcome, help and rules pages; the /new card and challenge
cards; the lists of matches; hints and reviews. The words themselves are gettext message ids,
translated in ``bot/locales``; keyboards (buttons) are in :mod:`bot.views.keyboards`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.views.games import (
    cafe_line,
    game_name,
    game_title,
    mother_win_text,
    winner_starts_text,
)
from bot.views.i18n import N_, ONE_DECIMAL, SIGNED, Tr
from bot.views.player_settings import per_move_line
from rules.game import DEFAULT_KIND
from rules.games import format_moves_so_far
from rules.match import GameKind, Match, Phase
from storage.ratings import deleted_player
from storage.results import ChallengeView, LoggedTurn, MatchSummary, MatchView

CAPTION_LIMIT = 1024

ERRORS = {
    "invalid_notation": N_("I cannot read that play. Write it like 24/18 13/11."),
    "play_too_long": N_("That is too long to be a play: a play is at most four moves, like "
                        "24/18 13/11."),
    "ambiguous_play": N_("That play can be read in more than one way; write every move."),
    "illegal_play": N_("That play is not legal with these dice."),
    "unreadable_play": N_("I could not read that as a legal play with these dice; write each "
                          "move, like 24/18 13/11."),
    "not_your_turn": N_("It is not your turn."),
    "game_over": N_("This match is over."),
    "invalid_action": N_("That cannot be done now."),
    "corrupt_state": N_("This match cannot be read; close it from /games and start a new "
                        "one."),
    "readable": N_("This match can be read: play, resign or cancel it as usual."),
    "stale": N_("That button is from an earlier turn; use the newest board."),
    "not_a_player": N_("You are not playing in this match."),
    "own_challenge": N_("You cannot accept your own challenge."),
    "not_for_you": N_("This challenge is for someone else."),
    "expired": N_("This challenge has expired or was taken."),
    "not_found": N_("This match no longer exists."),
    "not_finished": N_("Rematch is for finished matches."),
    "rematch_exists": N_("A rematch of this match has already been offered."),
    "error": N_("Something went wrong; please try again."),
    "not_this_board": N_("That button is not from this match's board; use the board itself."),
    "too_many_challenges_here": N_("You already have too many open challenges in this chat: "
                                   "withdraw one, or wait until one is accepted."),
    "too_many_challenges": N_("You already have too many open challenges: withdraw one, or "
                              "wait until one is accepted."),
    "opponent_deleted": N_("Your opponent deleted their data: no rematch with them."),
}

def error_text(t: Tr, code: str) -> str:
    return t._(ERRORS.get(code, ERRORS["error"]))


def too_many_new_text(t: Tr, per_minute: int) -> str:
    """The one notice a minute for a player sending /new faster than allowed."""
    return t.ngettext(
        "You can start at most {n} challenge a minute. Wait a minute, then try /new again.",
        "You can start at most {n} challenges a minute. Wait a minute, then try /new again.",
        per_minute)


@dataclass(frozen=True)
class Names:
    """The two players' display names, player 0 first."""

    p0: str
    p1: str

    def __getitem__(self, player: int) -> str:
        return self.p0 if player == 0 else self.p1


NAME_SHOWN = 48
"""A player's name as a board's caption or a card shows it: at most this many characters (a
Telegram name may have 129, a first and a last name of 64 each; a caption that names both
players seven times would not fit Telegram's 1,024 in any language)."""


def shown_name(name: str) -> str:
    """``name`` as HTML, cut to :data:`NAME_SHOWN` characters ("…" where it was cut)."""
    return html.escape(name if len(name) <= NAME_SHOWN else name[:NAME_SHOWN - 1] + "…")


def names(t: Tr, mv: MatchView) -> Names:
    """The two players' names as HTML (the computer's in the reader's language)."""
    out: list[str] = []
    for seat in mv.seats:
        if seat.is_computer:
            out.append(t._("Computer"))
        elif seat.player is None:
            out.append("?")
        elif deleted_player(seat.player.id):
            out.append(t._("a deleted player"))
        else:
            out.append(shown_name(seat.player.display_name))
    return Names(out[0], out[1])


def opponent_name(t: Tr, s: MatchSummary) -> str:
    """The opponent in a listed match, as plain text: for buttons as it is, escaped for HTML."""
    if s.opponent is not None and deleted_player(s.opponent.id):
        return t._("a deleted player")
    return t._("Computer") if s.opponent is None else s.opponent.display_name


def score_line(t: Tr, match: Match, names: Names) -> str:
    return t.ngettext(
        "{p0} {s0} – {s1} {p1} · match to {n} point",
        "{p0} {s0} – {s1} {p1} · match to {n} points",
        match.length, p0=names[0], s0=match.score[0], s1=match.score[1], p1=names[1],
    )


MOVE_WORDS = re.compile(r"\b(bar|off)\b")


def move_words(t: Tr, text: str) -> str:
    """A play's text in the reader's words: "bar" and "off" as the turn's buttons say them
    (Greek "μπάρα/22*", "6/έξω"); the points, "/" and "*" stay the standard notation, which the
    .mat files and the GNU Backgammon IDs keep."""
    return MOVE_WORDS.sub(lambda m: t._(m.group(1)), text)


def play_line(t: Tr, names: Names, player: int, dice: object, moves: bool, text: str) -> str:
    """One turn as told in a caption: the play, or the roll that could not be played."""
    if moves:
        return t._("{player} played {dice}: {moves}", player=names[player], dice=str(dice),
                   moves=move_words(t, text))
    return t._("{player} rolled {dice} and could not move.", player=names[player],
               dice=str(dice))


def match_won_text(t: Tr, names: Names, match: Match) -> str:
    """The match's result, the winner's score first."""
    assert match.winner is not None
    return t._("🏆 {player} wins the match {won}–{lost}.", player=names[match.winner],
               won=match.score[match.winner], lost=match.score[1 - match.winner])


def given_up_lines(t: Tr, names: Names, match: Match) -> list[str]:
    """Why a match ended before its score did (resigned, lost on time, a blocked bot)."""
    if match.winner is None:
        return []
    loser = names[1 - match.winner]
    if match.end_reason == "resigned":
        return [t._("{player} resigned the match.", player=loser)]
    if match.end_reason == "timeout":
        return [t._("{player} did not move in time.", player=loser)]
    if match.end_reason == "blocked":
        return [t._("{player} blocked the bot, so no board can reach them.", player=loser)]
    return []


def rating_lines(t: Tr, mv: MatchView) -> list[str]:
    """Each player's global rating change once a rated match is over ("Alice +7.3 → 1507.3")."""
    seat_names = names(t, mv)
    lines = []
    for change in mv.rating_changes:
        seat = mv.seat_of(change.player_id)
        if change.scope != 0 or seat is None:
            continue
        lines.append(t._("📈 {player} {change} → {rating}", player=seat_names[seat],
                         change=t.number(change.after - change.before, SIGNED),
                         rating=t.number(change.after, ONE_DECIMAL)))
    return lines


def caption(
    t: Tr,
    match: Match,
    names: Names,
    *,
    viewer: int | None,
    notes: Sequence[str] = (),
    ratings: Sequence[str] = (),
    game_log: Sequence[LoggedTurn] = (),
    sides: bool = False,
) -> str:
    """The board message's caption: the score, what happened (in the order it happened), whose
    turn, the roll, the partial play, the pips. ``viewer`` is the player reading it (``None``
    in a group). ``notes`` tell the action's events; the last play is told once, where the notes
    tell it, else first (what came after it, such as an accepted resignation, follows it).
    ``game_log``: the game's turns so far, for the turns played for a player before their
    first decision (:func:`played_for_lines`); the notes give way when the caption is full.
    ``sides``: under the score, each player's colour and side of the picture (a group's
    board, drawn from the first seat's side: :func:`sides_line`)."""
    text = _caption(t, match, names, viewer, notes, ratings, game_log, sides)
    if len(text) > CAPTION_LIMIT and notes:
        text = _caption(t, match, names, viewer, (), ratings, game_log, sides)
    if len(text) > CAPTION_LIMIT:
        text = text[: CAPTION_LIMIT - 1] + "…"
    return text


def _caption(t: Tr, match: Match, names: Names, viewer: int | None, notes: Sequence[str],
             ratings: Sequence[str], game_log: Sequence[LoggedTurn], sides: bool) -> str:
    lines: list[str] = ["🎲 " + game_title(t, match) + " · " + score_line(t, match, names)]
    if match.no_triple:
        lines[0] += " · " + t._("no triple")
    if sides:
        lines.append(sides_line(t, names))
    if match.last_play is not None and match.phase != Phase.CANCELLED:
        lp = match.last_play
        last = play_line(t, names, lp.player, lp.dice, bool(lp.moves), lp.text)
        if last not in notes:
            lines.append(last)
    lines.extend(notes)
    if match.phase == Phase.PLAYING and match.dice is not None:
        played_for = played_for_lines(t, match, names, viewer, game_log)
        if match.turn_number == 0 or played_for:
            lines.extend(first_roll_lines(t, match, names))
        lines.extend(played_for)
        mover = names[match.turn]
        if viewer == match.turn:
            lines.append(t._("Your turn: {dice}", dice=str(match.dice)))
        else:
            lines.append(t._("{player} to play {dice}", player=mover, dice=str(match.dice)))
        if match.chosen:
            lines.append(t._("So far: {moves}", moves=move_words(t, format_moves_so_far(
                match.position, match.dice, match.chosen, match.options))))
        pips = match.current_position().pips()
        mine, theirs = (pips if match.turn == 0 else (pips[1], pips[0]))
        lines.append(t._("Pips: {p0} {n0} · {p1} {n1}", p0=names[0], n0=mine, p1=names[1],
                         n1=theirs))
    elif match.phase == Phase.RESIGN_OFFERED:
        lines.append(t.ngettext("{player} offers to resign this game for {n} point.",
                                "{player} offers to resign this game for {n} points.",
                                match.resign_offer, player=names[match.turn]))
        if viewer == 1 - match.turn:
            lines.append(t._("Your answer: accept or decline the offer."))
    elif match.phase == Phase.MATCH_OVER and match.winner is not None:
        lines.append(match_won_text(t, names, match))
        lines.extend(given_up_lines(t, names, match))
        lines.extend(ratings)
    elif match.phase == Phase.CANCELLED and match.end_reason == "deadline":
        lines.append(t._("The competition's deadline has passed: this match was stopped."))
    elif match.phase == Phase.CANCELLED:
        lines.append(t._("This match was cancelled."))
    return "\n".join(lines)


def sides_line(t: Tr, names: Names) -> str:
    """Who has which colour on a group's board, and where their checkers are: the first seat
    white at the bottom (the points are numbered from their side), the second black on top."""
    return t._("⚪ {white}: white, at the bottom · ⚫ {black}: black, at the top",
               white=names[0], black=names[1])


def colours_line(t: Tr, names: Names) -> str:
    """Who has which colour (an inline card: each player's own board has them at the
    bottom)."""
    return t._("⚪ {white} (white) · ⚫ {black} (black)", white=names[0], black=names[1])


def played_for_lines(t: Tr, match: Match, names: Names, viewer: int | None,
                     game_log: Sequence[LoggedTurn]) -> list[str]:
    """The turns played for a player (forced plays, rolls with no move) while they have made
    no decision yet in this game: the viewer's own, or on a shared board each player's. The
    last play is told apart, so a forced run is not lost behind the opponent's reply."""
    lines = []
    for player in (viewer,) if viewer is not None else (0, 1):
        own = [turn for turn in game_log if turn.game == match.game and turn.player == player]
        if not own or not all(turn.forced or turn.passed for turn in own):
            continue
        plays = "; ".join(f"{turn.dice}: " + (move_words(t, turn.text) if turn.moves
                                               else t._("no move")) for turn in own)
        turns = "1" if len(own) == 1 else f"1–{len(own)}"
        if player == viewer:
            lines.append(t.ngettext("Your turn {turns} was forced and played for you: {plays}",
                                    "Your turns {turns} were forced and played for you: {plays}",
                                    len(own), turns=turns, plays=plays))
        else:
            lines.append(t.ngettext(
                "{player}'s turn {turns} was forced and played automatically: {plays}",
                "{player}'s turns {turns} were forced and played automatically: {plays}",
                len(own), player=names[player], turns=turns, plays=plays))
    return lines


def first_roll_lines(t: Tr, match: Match, names: Names) -> list[str]:
    """The one line about a game's first roll (every game, on every view of its first turn):
    the opening roll, or with the café habit the last game's winner rolling first."""
    if match.opening is not None:
        return [t._("Game {game}: {p0} rolled {a}, {p1} rolled {b}; {starter} starts.",
                    game=match.game, p0=names[0], a=match.opening[0], p1=names[1],
                    b=match.opening[1], starter=names[match.turn])]
    if match.winner_starts:
        return [winner_starts_text(t, match.game, names[match.turn])]
    return []


def game_result_text(t: Tr, names: Names, winner: int, kind: GameKind, points: int,
                     resigned: bool) -> str:
    if resigned:
        return t.ngettext("{player} wins the game: {n} point (resignation).",
                          "{player} wins the game: {n} points (resignation).",
                          points, player=names[winner])
    if kind == GameKind.MOTHER:
        return mother_win_text(t, names[winner])
    # a whole sentence per kind: a translated "a gammon" put into a translated sentence would
    # not agree with it in every language
    if kind == GameKind.GAMMON:
        return t.ngettext("{player} wins a double (gammon): {n} point.",
                          "{player} wins a double (gammon): {n} points.",
                          points, player=names[winner])
    if kind == GameKind.BACKGAMMON:
        return t.ngettext("{player} wins a triple (backgammon): {n} point.",
                          "{player} wins a triple (backgammon): {n} points.",
                          points, player=names[winner])
    return t.ngettext("{player} wins a single game: {n} point.",
                      "{player} wins a single game: {n} points.", points, player=names[winner])


UNITS: tuple[tuple[int, Callable[[Tr, int], str]], ...] = (
    (86400, lambda t, n: t.ngettext("{n} day", "{n} days", n)),
    (3600, lambda t, n: t.ngettext("{n} hour", "{n} hours", n)),
    (60, lambda t, n: t.ngettext("{n} minute", "{n} minutes", n)),
    (1, lambda t, n: t.ngettext("{n} second", "{n} seconds", n)),
)
"""The units a duration is told in, largest first, each with its plural forms."""


def duration(t: Tr, how_long: timedelta) -> str:
    """A duration as a player reads it: its largest unit and the next one, rounded down (a
    time left is never told longer than it is): "6 days 7 hours", "5 minutes 30 seconds",
    "12 hours", "36 seconds"; under a second, "0 seconds"."""
    total = max(int(how_long.total_seconds()), 0)
    for i, (size, name) in enumerate(UNITS):
        if total >= size or size == 1:
            parts = [name(t, total // size)]
            if i + 1 < len(UNITS):
                smaller, small_name = UNITS[i + 1]
                rest = (total % size) // smaller
                if rest:
                    parts.append(small_name(t, rest))
            return " ".join(parts)
    raise AssertionError("unreachable: the last unit is one second")


def time_left_line(t: Tr, deadline: datetime | None, now: datetime) -> str | None:
    """A board's line on the time the player to move has left (``None`` without a
    deadline)."""
    if deadline is None:
        return None
    return "⏱ " + t._("Time left to move: {left}", left=duration(t, deadline - now))


def match_state(t: Tr, s: MatchSummary) -> str:
    """Whose move it is in a listed match, from the lister's side."""
    if not s.readable:
        return t._("⚠ cannot be read")
    return t._("your move") if s.my_turn else t._("waiting")


def games_text(t: Tr, matches: Sequence[MatchSummary]) -> str:
    """/games: one line per active match."""
    lines = [t._("Your matches:")]
    for s in matches:
        me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
        lines.append(f"#{s.id} · {html.escape(opponent_name(t, s))} · {me}–{them}/{s.length} · "
                     f"{match_state(t, s)}")
    return "\n".join(lines)


def match_label(t: Tr, s: MatchSummary) -> str:
    """A match on a button: id, opponent, score (mine first), length."""
    me, them = s.score[s.my_seat], s.score[1 - s.my_seat]
    return f"#{s.id} · {opponent_name(t, s)} · {me}–{them}/{s.length}"


def resign_card_text(t: Tr, mv: MatchView, seat: int, *, game: bool) -> str:
    """/resign: the question above the resignation buttons (HTML), for ``seat``: the match
    named by its opponent and score, and only what the buttons offer (``game``: offering
    points for the current game, on one's turn; cancelling, while the rules allow it)."""
    n = names(t, mv)
    state = mv.state
    head = t.ngettext("Match #{id} against {opponent}: {me}–{them}, match to {n} point.",
                      "Match #{id} against {opponent}: {me}–{them}, match to {n} points.",
                      state.length, id=mv.id, opponent=n[1 - seat], me=state.score[seat],
                      them=state.score[1 - seat])
    if game:
        question = t._("Resign the current game (your opponent scores the points you offer, "
                       "if they accept) or the whole match?")
    else:
        question = t._("Resign the whole match? (Points for the current game can be offered "
                       "on your turn.)")
    lines = [head, question]
    if state.can_cancel:
        lines.append(t._("Nobody has moved yet: you may also cancel the match."))
    return "\n".join(lines)


# -- challenges --------------------------------------------------------------------------


def new_card_text(t: Tr, no_triple: bool, per_move: float | None = None) -> str:
    """The /new card: choose the time per move (``per_move`` seconds, the one ticked) and
    whether a backgammon counts 3, then the length, which creates the challenge."""
    text = t._("New match: choose the time per move, then the length (which sends the "
               "challenge).")
    if no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    return text + ("\n" + per_move_line(t, per_move) if per_move else "")


def challenge_line(t: Tr, author: str, who: str | None, length: int,
                   game: str = DEFAULT_KIND) -> str:
    """The first line of a challenge card: who challenges whom (``None``: anyone), to how
    many points."""
    if who is None:
        return t.ngettext("🎲 {author} challenges anyone to {game}: a match to {n} point.",
                          "🎲 {author} challenges anyone to {game}: a match to {n} points.",
                          length, author=author, game=game_name(t, game))
    return t.ngettext("🎲 {author} challenges {who} to {game}: a match to {n} point.",
                      "🎲 {author} challenges {who} to {game}: a match to {n} points.",
                      length, author=author, who=who, game=game_name(t, game))


def challenge_card_text(t: Tr, c: ChallengeView, author_name: str,
                        target_name: str | None, default_move: float | None = None) -> str:
    """A challenge card: who challenges whom, "no triple", the time per move (the one chosen,
    else ``default_move`` seconds, the operator's), the dice commitment."""
    text = challenge_line(t, author_name, target_name, c.length, c.game_type)
    if c.no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    if cafe := cafe_line(t, c.game_type, c.winner_starts, c.length):
        text += "\n" + cafe
    if c.move_seconds or default_move:
        text += "\n" + per_move_line(t, c.move_seconds or default_move or 0)
    text += "\n" + t._("Dice commitment (SHA-256): {commitment}",
                       commitment=f"<code>{c.commitment}</code>")
    return text


def dice_start_text(t: Tr, commitment: str, mix: str) -> str:
    """The line on the first board: the commitment shown before and the value mixed in at
    acceptance, public before any die is used (with the seed revealed at the end, anyone can
    recompute every roll)."""
    return "🔐 " + t._("Dice: seed committed as SHA-256 {commitment}…, mixed with {mix}",
                       commitment=f"<code>{html.escape(commitment[:16])}</code>",
                       mix=f"<code>{html.escape(mix)}</code>")


def challenge_names(c: ChallengeView) -> tuple[str, str | None]:
    """The challenger's and the challenged's names as HTML (``None``: anyone may accept)."""
    author = shown_name(c.author.display_name)
    target = None
    if c.target is not None:
        target = shown_name(c.target.display_name)
    elif c.target_username:
        target = "@" + html.escape(c.target_username)
    return author, target


NO_ENGINE_HINT = N_("Hints need the computer's engine (gnubg-nn), which is not installed on "
                    "this bot.")
NO_ENGINE_REVIEW = N_("Reviews need the computer's engine (gnubg-nn), which is not installed "
                      "on this bot.")
DEFAULT_LEVEL = 2
"""The computer's level when none is known, as storage keeps levels (1 easy, 2 medium, 3
strong; :data:`computer.decide.LEVEL_NAMES` names them for the engine)."""
LEVEL_TEXT = {1: N_("easy"), 2: N_("medium"), 3: N_("strong")}


def level_text(t: Tr, level: int | None) -> str:
    """A computer level in words."""
    return t._(LEVEL_TEXT.get(level or DEFAULT_LEVEL, LEVEL_TEXT[DEFAULT_LEVEL]))


def computer_card_text(t: Tr, no_triple: bool) -> str:
    """The /new card against the computer: choose the level, then the length."""
    text = t._("🤖 A match against the computer: choose the level, then the match length.")
    if no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    return text


def computer_challenge_text(t: Tr, c: ChallengeView) -> str:
    """A match against the computer, created: level, length, commitment, then Start."""
    text = t.ngettext("🤖 A match against the computer ({level}) to {n} point.",
                      "🤖 A match against the computer ({level}) to {n} points.",
                      c.length, level=level_text(t, c.computer_level))
    if c.game_type != DEFAULT_KIND:
        text = f"🎲 {game_name(t, c.game_type)}\n{text}"
    if c.no_triple:
        text += "\n" + t._("No triple: a backgammon counts 2 points.")
    text += "\n" + t._("Dice commitment (SHA-256): {commitment}",
                       commitment=f"<code>{c.commitment}</code>")
    text += "\n\n" + t._("Tap Start when you are ready.")
    return text
