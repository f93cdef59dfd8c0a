"""Captions and message texts, built from rules-core values in the reader's language (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import N_, Tr
from rules.errors import PortesError
from rules.match import GameKind, Match, Phase
from rules.notation import format_moves

CAPTION_LIMIT = 1024

ERRORS = {
    "invalid_notation": N_("I cannot read that play. Write it like 24/18 13/11."),
    "ambiguous_play": N_("That play can be read in more than one way; write every move."),
    "illegal_play": N_("That play is not legal with these dice."),
    "not_your_turn": N_("It is not your turn."),
    "game_over": N_("This match is over."),
    "invalid_action": N_("That cannot be done now."),
    "corrupt_state": N_("This match cannot be read; please start a new one."),
    "stale": N_("That button is from an earlier turn; use the newest board."),
    "not_a_player": N_("You are not playing in this match."),
    "own_challenge": N_("You cannot accept your own challenge."),
    "not_for_you": N_("This challenge is for someone else."),
    "expired": N_("This challenge has expired or was taken."),
    "not_found": N_("This match no longer exists."),
    "error": N_("Something went wrong; please try again."),
}

KIND_TEXT = {
    GameKind.SINGLE: N_("a single game"),
    GameKind.GAMMON: N_("a double (gammon)"),
    GameKind.BACKGAMMON: N_("a triple (backgammon)"),
}


def error_text(t: Tr, code: str) -> str:
    return t._(ERRORS.get(code, ERRORS["error"]))


def portes_error_text(t: Tr, exc: PortesError) -> str:
    return error_text(t, exc.code)


@dataclass(frozen=True)
class Names:
    """The two players' display names, player 0 first."""

    p0: str
    p1: str

    def __getitem__(self, player: int) -> str:
        return self.p0 if player == 0 else self.p1


def score_line(t: Tr, match: Match, names: Names) -> str:
    return t._(
        "{p0} {s0} – {s1} {p1} · match to {length}",
        p0=names[0], s0=match.score[0], s1=match.score[1], p1=names[1], length=match.length,
    )


def caption(
    t: Tr,
    match: Match,
    names: Names,
    *,
    viewer: int | None,
    notes: Sequence[str] = (),
) -> str:
    """The board message's caption: whose turn, the roll, the last play, the partial play, the
    score and ``PositionID:MatchID``. ``viewer`` is the player reading it (``None`` in a group)."""
    lines: list[str] = ["🎲 " + t._("Portes") + " · " + score_line(t, match, names)]
    if match.no_triple:
        lines[0] += " · " + t._("no triple")
    lines.extend(notes)
    if match.last_play is not None and match.phase != Phase.CANCELLED:
        lp = match.last_play
        if lp.moves:
            lines.append(
                t._("{player} played {dice}: {moves}", player=names[lp.player], dice=str(lp.dice),
                    moves=lp.text)
            )
        else:
            lines.append(t._("{player} rolled {dice} and could not move.",
                             player=names[lp.player], dice=str(lp.dice)))
    if match.phase == Phase.PLAYING and match.dice is not None:
        if match.turn_number == 0 and match.opening is not None:
            # the one line about the opening roll (every game, on every view of its first turn)
            lines.append(t._("Game {game}: {p0} rolled {a}, {p1} rolled {b}; {starter} starts.",
                             game=match.game, p0=names[0], a=match.opening[0], p1=names[1],
                             b=match.opening[1], starter=names[match.turn]))
        mover = names[match.turn]
        if viewer == match.turn:
            lines.append(t._("Your turn: {dice}", dice=str(match.dice)))
        else:
            lines.append(t._("{player} to play {dice}", player=mover, dice=str(match.dice)))
        if match.chosen:
            lines.append(t._("So far: {moves}", moves=format_moves(match.chosen)))
        pips = match.current_position().pips()
        mine, theirs = (pips if match.turn == 0 else (pips[1], pips[0]))
        lines.append(t._("Pips: {p0} {n0} · {p1} {n1}", p0=names[0], n0=mine, p1=names[1],
                         n1=theirs))
    elif match.phase == Phase.RESIGN_OFFERED:
        lines.append(t.ngettext("{player} offers to resign this game for {n} point.",
                                "{player} offers to resign this game for {n} points.",
                                match.resign_offer, player=names[match.turn]))
    elif match.phase == Phase.MATCH_OVER and match.winner is not None:
        lines.append(t._("🏆 {player} wins the match {s0}–{s1}.", player=names[match.winner],
                         s0=match.score[0], s1=match.score[1]))
        if match.end_reason == "resigned":
            lines.append(t._("{player} resigned the match.", player=names[1 - match.winner]))
        elif match.end_reason == "timeout":
            lines.append(t._("{player} did not move in time.", player=names[1 - match.winner]))
    elif match.phase == Phase.CANCELLED:
        lines.append(t._("This match was cancelled."))
    if match.phase != Phase.CANCELLED and match.phase != Phase.NOT_STARTED:
        lines.append(f"<code>{match.gnubg_id()}</code>")
    text = "\n".join(lines)
    if len(text) > CAPTION_LIMIT:
        text = text[: CAPTION_LIMIT - 1] + "…"
    return text


def game_result_text(t: Tr, names: Names, winner: int, kind: GameKind, points: int,
                     resigned: bool) -> str:
    if resigned:
        return t.ngettext("{player} wins the game: {n} point (resignation).",
                          "{player} wins the game: {n} points (resignation).",
                          points, player=names[winner])
    return t.ngettext("{player} wins {kind}: {n} point.", "{player} wins {kind}: {n} points.",
                      points, player=names[winner], kind=t._(KIND_TEXT[kind]))
