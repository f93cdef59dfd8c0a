"""The texts of /top, /stats and /forgetme (plain text: names are shown as they are). Each
answer of /top and /stats is about one game, named in its title."""

from __future__ import annotations

from bot.views.echo import echoed
from bot.views.game_choice import games_list
from bot.views.games import game_name
from bot.views.i18n import Tr
from storage.ratings import LISTED_FROM, PROVISIONAL_BELOW, Standing, deleted_player
from storage.social import ChatPlayer, HeadToHead, Leaderboard, PlayerStats, Ranked, Record

SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: tuple[float, ...] | list[float]) -> str:
    """A one-line chart of ``values`` (oldest first), lowest ▁ to highest █."""
    if not values:
        return ""
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return SPARKS[3] * len(values)
    top = len(SPARKS) - 1
    return "".join(SPARKS[round((v - low) / (high - low) * top)] for v in values)


def name_of(t: Tr, player_id: int, name: str) -> str:
    """A player's name, or "a deleted player" for one who deleted their data."""
    return t._("a deleted player") if deleted_player(player_id) or not name else name


def rating_text(rating: float, matches: int) -> str:
    """``1542.1``, with ``*`` while the rating is provisional."""
    return f"{rating:.1f}" + ("*" if matches < PROVISIONAL_BELOW else "")


def ranked_line(t: Tr, r: Ranked) -> str:
    return t.ngettext("{rank}. {name} · {rating} · {n} match",
                      "{rank}. {name} · {rating} · {n} matches", r.matches,
                      rank=r.rank, name=name_of(t, r.player_id, r.name),
                      rating=rating_text(r.rating, r.matches))


def leaderboard_title(t: Tr, group_title: str | None, game: str) -> str:
    name = game_name(t, game)
    return (t._("🏆 {game} · Leaderboard of {group}", group=group_title, game=name)
            if group_title is not None else t._("🏆 {game} · Global leaderboard", game=name))


def provisional_note(t: Tr) -> str:
    return t._("* provisional: fewer than {least} rated matches", least=PROVISIONAL_BELOW)


def leaderboard_text(t: Tr, board: Leaderboard, group_title: str | None) -> str:
    """``/top``: the title, the top ten, the caller's place (or why they are not listed)."""
    lines = [leaderboard_title(t, group_title, board.game)]
    if not board.top:
        lines.append(t._("Nobody is listed yet: a player is listed from {least} rated matches "
                         "on.", least=LISTED_FROM))
    lines.extend(ranked_line(t, r) for r in board.top)
    if board.mine is not None and board.mine not in board.top:
        lines += ["…", ranked_line(t, board.mine)]
    elif board.hidden:
        lines += ["", t._("You are hidden from leaderboards: /top show lists you again.")]
    elif board.mine is None:
        lines += ["", t._("You are listed from {least} rated matches on (you have {mine}).",
                          least=LISTED_FROM, mine=board.my_matches)]
    if any(r.provisional for r in (*board.top, *([board.mine] if board.mine else []))):
        lines += ["", provisional_note(t)]
    return "\n".join(lines)


def record_lines(t: Tr, r: Record, computer: bool) -> list[str]:
    """The lines of one record (against people, or against the computer)."""
    if computer:
        head = t.ngettext("🤖 Against the computer: {n} match · {won} won · {lost} lost",
                          "🤖 Against the computer: {n} matches · {won} won · {lost} lost",
                          r.played, won=r.won, lost=r.lost)
    else:
        head = t.ngettext("👥 Against people: {n} match · {won} won · {lost} lost",
                          "👥 Against people: {n} matches · {won} won · {lost} lost",
                          r.played, won=r.won, lost=r.lost)
    lines = [head,
             t._("Points: {won} for · {lost} against", won=r.points_for, lost=r.points_against),
             t._("Gammons: {won} won · {lost} lost; backgammons: {bg_won} won · {bg_lost} lost",
                 won=r.gammons_won, lost=r.gammons_lost, bg_won=r.backgammons_won,
                 bg_lost=r.backgammons_lost)]
    if r.streak > 0:
        lines.append(t.ngettext("Streak: {n} win in a row", "Streak: {n} wins in a row",
                                r.streak))
    elif r.streak < 0:
        lines.append(t.ngettext("Streak: {n} loss in a row", "Streak: {n} losses in a row",
                                -r.streak))
    return lines


def standing_line(t: Tr, standing: Standing | None, group: bool) -> str:
    if standing is None:
        return (t._("Rating in this group: no rated match yet") if group
                else t._("Rating: no rated match yet"))
    rating = rating_text(standing.rating, standing.matches)
    if group:
        return t.ngettext("Rating in this group: {rating} ({n} rated match)",
                          "Rating in this group: {rating} ({n} rated matches)",
                          standing.matches, rating=rating)
    return t.ngettext("📈 Rating: {rating} ({n} rated match)",
                      "📈 Rating: {rating} ({n} rated matches)", standing.matches, rating=rating)


def stats_text(t: Tr, stats: PlayerStats, in_group: bool) -> str:
    """``/stats``: the record against people, the ratings and their trend, then the computer."""
    lines = [f"📊 {name_of(t, stats.player_id, stats.name)} · {game_name(t, stats.game)}"]
    if stats.people.played == 0 and stats.computer.played == 0:
        lines.append(t._("No finished match in this game yet."))
        return "\n".join(lines)
    if stats.people.played:
        lines += record_lines(t, stats.people, computer=False)
    lines.append(standing_line(t, stats.rating, group=False))
    if in_group:
        lines.append(standing_line(t, stats.group_rating, group=True))
    if stats.history:
        changes = ", ".join(f"{c:+.1f}" for c in stats.last_changes[:5])
        lines.append(t._("Last changes: {changes}", changes=changes))
        if len(stats.history) > 1:
            lines.append(f"{sparkline(stats.history)} {stats.history[0]:.0f} → "
                         f"{stats.history[-1]:.0f}")
    if stats.computer.played:
        lines += ["", *record_lines(t, stats.computer, computer=True)]
    if _provisional(stats):
        lines += ["", provisional_note(t)]
    return "\n".join(lines)


def _provisional(stats: PlayerStats) -> bool:
    return any(s is not None and s.matches < PROVISIONAL_BELOW
               for s in (stats.rating, stats.group_rating))


def head_to_head_text(t: Tr, h: HeadToHead) -> str:
    a, b = name_of(t, h.first, h.first_name), name_of(t, h.second, h.second_name)
    head = t._("⚔️ {a} vs {b}", a=a, b=b) + f" · {game_name(t, h.game)}"
    if h.played == 0:
        return "\n".join([head, t._("No finished match against each other in this game yet.")])
    return "\n".join([
        head,
        t.ngettext("{n} match: {a} won {a_won}, {b} won {b_won}",
                   "{n} matches: {a} won {a_won}, {b} won {b_won}", h.played,
                   a=a, b=b, a_won=h.first_won, b_won=h.second_won),
        t._("Points: {a} {a_points} · {b} {b_points}", a=a, b=b,
            a_points=h.first_points, b_points=h.second_points),
    ])


def forget_question(t: Tr) -> str:
    return t._(
        "This deletes what Portes keeps about you: your ratings and their history, your name "
        "and your username, and takes you off every leaderboard. Your finished matches stay "
        "for your opponents, shown with \"a deleted player\". It cannot be undone.\n\n"
        "Delete your data?")


def which_player_text(t: Tr, wanted: str, *, found: bool) -> str:
    """``/stats <name>`` in a group when the name is several players (``found``) or nobody
    who played here: the buttons below are who it may be."""
    if found:
        return t._("Which \"{name}\"? Tap the player for your head to head.",
                   name=echoed(wanted))
    return t._("I know no game and no player called \"{name}\" in this group. The games: "
               "{games}; who played here (tap one for your head to head):",
               name=echoed(wanted), games=games_list(t))


def player_label(player: ChatPlayer, same_name: bool) -> str:
    """A player's button: their name, and their last match here when another has it too."""
    return f"{player.name} · #{player.latest}" if same_name else player.name
