"""What players read of each other: leaderboards (``/top``), a player's record (``/stats``),
head to head, and the privacy side (hiding from leaderboards, deleting one's data).

Plain functions over a SQLAlchemy ``Connection`` (so the bench times exactly the database work);
:mod:`storage.usecases.social` runs them as use cases. Counted matches: ended with a winner
(finished by score, resignation or timeout: ``finished`` or ``abandoned``). Matches against the
computer are counted apart; ratings only ever come from matches between people.

Everything is per game (``game``: a match's ``game_type``, ``portes`` by default; ``tavli`` is
the rotation, a game of its own): a leaderboard lists one game's ratings, a record counts one
game's matches, head to head one game's matches between the two. :func:`last_game` tells which
game a player (or a pair) played last, the game the bot shows when none is named.

Deleted players: ``forget`` moves a player's ended matches to a stand-in row with a fresh
negative id (Telegram user ids are positive), no name, hidden; their ratings and rating changes
are deleted and their own row with them. Their opponents keep the matches (shown with "a deleted
player"), and the rebuild still rates those matches (so everyone else's ratings stay the same)
but writes nothing for a deleted player. Someone who comes back starts afresh.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from sqlalchemy import Connection, text

from rules.game import DEFAULT_KIND
from storage.ratings import LISTED_FROM, PROVISIONAL_BELOW, Standing

TOP = 10
"""How many players a leaderboard lists."""
HISTORY = 20
"""How many of a player's last rating changes ``/stats`` reads."""
ENDED = "status IN ('finished', 'abandoned') AND winner IS NOT NULL"


@dataclass(frozen=True)
class Ranked:
    """One line of a leaderboard."""

    rank: int
    player_id: int
    name: str
    rating: float
    matches: int

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_BELOW


@dataclass(frozen=True)
class Leaderboard:
    scope: int
    """0: the global leaderboard; a group's chat id: that group's."""
    game: str
    top: tuple[Ranked, ...]
    mine: Ranked | None
    """The caller's line when they are listed (in the top or not), else ``None``."""
    my_matches: int = 0
    """The caller's rated matches in this scope."""
    hidden: bool = False
    """The caller chose to be left out of leaderboards."""


_TOP = text(
    "SELECT r.player_id, p.display_name, r.rating, r.matches FROM ratings r "
    "JOIN players p ON p.id = r.player_id "
    "WHERE r.game = :g AND r.scope = :s AND r.matches >= :least AND NOT p.hidden "
    "ORDER BY r.rating DESC, r.player_id LIMIT :n"
)
_MINE = text(
    "SELECT r.rating, r.matches, p.hidden, p.display_name FROM players p "
    "LEFT JOIN ratings r ON r.player_id = p.id AND r.game = :g AND r.scope = :s "
    "WHERE p.id = :p"
)
_ABOVE = text(
    "SELECT count(*) FROM ratings r JOIN players p ON p.id = r.player_id "
    "WHERE r.game = :g AND r.scope = :s AND r.rating > :r AND r.matches >= :least "
    "AND NOT p.hidden"
)


def leaderboard(conn: Connection, scope: int, me: int | None = None, *,
                game: str = DEFAULT_KIND) -> Leaderboard:
    """The ``scope``'s best :data:`TOP` players of ``game`` with at least :data:`LISTED_FROM`
    rated matches (hidden players left out), best first; equal ratings share a rank. With
    ``me``, the caller's own line (and why they are not listed when they are not)."""
    top: list[Ranked] = []
    for i, (pid, name, rating, matches) in enumerate(
        conn.execute(_TOP, {"g": game, "s": scope, "least": LISTED_FROM, "n": TOP})
    ):
        rank = top[-1].rank if top and top[-1].rating == rating else i + 1
        top.append(Ranked(rank, pid, name, rating, matches))
    found = (conn.execute(_MINE, {"g": game, "s": scope, "p": me}).first()
             if me is not None else None)
    if found is None:
        return Leaderboard(scope, game, tuple(top), None)
    rating, matches, hidden, name = found
    mine = next((r for r in top if r.player_id == me), None)
    if mine is None and rating is not None and matches >= LISTED_FROM and not hidden:
        above = conn.execute(_ABOVE, {"g": game, "s": scope, "r": rating,
                                      "least": LISTED_FROM}).scalar()
        assert me is not None
        mine = Ranked(int(above or 0) + 1, me, name, rating, matches)
    return Leaderboard(scope, game, tuple(top), mine, matches or 0, bool(hidden))


@dataclass(frozen=True)
class Record:
    """Matches ended with a winner, seen from one player."""

    played: int = 0
    won: int = 0
    points_for: int = 0
    points_against: int = 0
    gammons_won: int = 0
    gammons_lost: int = 0
    backgammons_won: int = 0
    backgammons_lost: int = 0
    streak: int = 0
    """The current streak: ``+n`` the last n matches won, ``-n`` lost (0: none played)."""

    @property
    def lost(self) -> int:
        return self.played - self.won


@dataclass(frozen=True)
class PlayerStats:
    player_id: int
    name: str
    game: str
    people: Record
    """Against people."""
    computer: Record
    """Against the computer (apart: never rated)."""
    rating: Standing | None
    """The global rating in this game (``None``: no rated match yet)."""
    group_rating: Standing | None = None
    """The group's rating, when asked in a group (``None``: no rated match there)."""
    history: tuple[float, ...] = field(default_factory=tuple)
    """The global rating after each of the last :data:`HISTORY` rated matches, oldest first."""
    last_changes: tuple[float, ...] = field(default_factory=tuple)
    """The global changes of the same matches, newest first."""


_MY_MATCHES = (
    "WITH mine AS ("
    "SELECT id, 0 AS seat, winner, score0 AS pf, score1 AS pa, "
    "CASE WHEN computer_level IS NULL THEN 0 ELSE 1 END AS cpu, "
    f"finished_at FROM matches WHERE player0_id = :p AND game_type = :g AND {ENDED} "
    "UNION ALL "
    "SELECT id, 1 AS seat, winner, score1 AS pf, score0 AS pa, 0 AS cpu, finished_at "
    f"FROM matches WHERE player1_id = :p AND game_type = :g AND {ENDED}) "
)
_ROWS = text(
    _MY_MATCHES + "SELECT cpu, CASE WHEN winner = seat THEN 1 ELSE 0 END, pf, pa FROM mine "
    "ORDER BY finished_at DESC, id DESC"
)
_KINDS = text(
    # one seek per match in ix_games_match_kind (match_id = ?, a few games each): twice as
    # fast as kind IN (...), which seeks once per kind
    _MY_MATCHES + "SELECT m.cpu, "
    "sum(CASE WHEN g.kind = 'gammon' AND g.winner = m.seat THEN 1 ELSE 0 END), "
    "sum(CASE WHEN g.kind = 'gammon' AND g.winner <> m.seat THEN 1 ELSE 0 END), "
    "sum(CASE WHEN g.kind = 'backgammon' AND g.winner = m.seat THEN 1 ELSE 0 END), "
    "sum(CASE WHEN g.kind = 'backgammon' AND g.winner <> m.seat THEN 1 ELSE 0 END) "
    "FROM mine m JOIN games g ON g.match_id = m.id WHERE g.kind <> 'single' GROUP BY m.cpu"
)
_STANDINGS = text(
    "SELECT scope, rating, experience, matches FROM ratings WHERE player_id = :p "
    "AND game = :game AND scope IN (0, :g)"
)
_HISTORY = text(
    "SELECT before, after FROM rating_changes WHERE player_id = :p AND game = :g "
    "AND scope = 0 ORDER BY id DESC LIMIT :n"
)
_NAME = text("SELECT display_name FROM players WHERE id = :p")


def _streak(results: list[int]) -> int:
    """The length of the run of equal results at the start (newest first), signed."""
    if not results:
        return 0
    first = results[0]
    n = next((i for i, r in enumerate(results) if r != first), len(results))
    return n if first else -n


def player_stats(conn: Connection, player: int, group: int | None = None, *,
                 game: str = DEFAULT_KIND) -> PlayerStats:
    """``player``'s record in ``game`` against people and against the computer, their global
    rating in it (and ``group``'s) and their latest rating changes."""
    args = {"p": player, "g": game}
    totals: dict[bool, dict[str, int]] = {False: {}, True: {}}
    recent: dict[bool, list[int]] = {False: [], True: []}
    for cpu, won, pf, pa in conn.execute(_ROWS, args):  # newest first
        counts = totals[bool(cpu)]
        counts["played"] = counts.get("played", 0) + 1
        counts["won"] = counts.get("won", 0) + won
        counts["points_for"] = counts.get("points_for", 0) + pf
        counts["points_against"] = counts.get("points_against", 0) + pa
        recent[bool(cpu)].append(won)
    for cpu, *kinds in conn.execute(_KINDS, args):
        totals[bool(cpu)].update(zip(("gammons_won", "gammons_lost", "backgammons_won",
                                      "backgammons_lost"), map(int, kinds), strict=True))
    standings = {
        scope: Standing(rating, experience, matches)
        for scope, rating, experience, matches in conn.execute(
            _STANDINGS, {"p": player, "game": game, "g": group if group is not None else 0})
    }
    changes = conn.execute(_HISTORY, {"p": player, "g": game, "n": HISTORY}).all()
    name = conn.execute(_NAME, args).scalar()
    return PlayerStats(
        player_id=player,
        name=name or "",
        game=game,
        people=Record(**totals[False], streak=_streak(recent[False])),
        computer=Record(**totals[True], streak=_streak(recent[True])),
        rating=standings.get(0),
        group_rating=standings.get(group) if group else None,
        history=tuple(after for _, after in reversed(changes)),
        last_changes=tuple(after - before for before, after in changes),
    )


@dataclass(frozen=True)
class HeadToHead:
    """The matches of one game two people finished against each other, seen from ``first``."""

    first: int
    second: int
    first_name: str
    second_name: str
    game: str = DEFAULT_KIND
    played: int = 0
    first_won: int = 0
    first_points: int = 0
    second_points: int = 0

    @property
    def second_won(self) -> int:
        return self.played - self.first_won


_BETWEEN = text(
    "SELECT 0, winner, score0, score1 FROM matches "
    f"WHERE player0_id = :a AND game_type = :g AND player1_id = :b AND {ENDED} UNION ALL "
    "SELECT 1, winner, score1, score0 FROM matches "
    f"WHERE player0_id = :b AND game_type = :g AND player1_id = :a AND {ENDED}"
)


def head_to_head(conn: Connection, first: int, second: int, *,
                 game: str = DEFAULT_KIND) -> HeadToHead:
    played = won = points_a = points_b = 0
    for seat, winner, mine, theirs in conn.execute(_BETWEEN, {"a": first, "b": second,
                                                              "g": game}):
        played += 1
        won += winner == seat
        points_a += mine
        points_b += theirs
    names: dict[int, str] = dict(conn.execute(
        text("SELECT id, display_name FROM players WHERE id IN (:a, :b)"),
        {"a": first, "b": second}).all())
    return HeadToHead(first, second, names.get(first, ""), names.get(second, ""), game, played,
                      won, points_a, points_b)


_LAST_GAME = (
    "SELECT game_type FROM ("
    f"SELECT game_type, finished_at, id FROM matches WHERE player0_id = :p AND {ENDED}{{0}} "
    "UNION ALL "
    f"SELECT game_type, finished_at, id FROM matches WHERE player1_id = :p AND {ENDED}{{1}}"
    ") AS ended ORDER BY finished_at DESC, id DESC LIMIT 1"
)
_LAST_GAME_OF_ONE = text(_LAST_GAME.format("", ""))
_LAST_GAME_OF_TWO = text(_LAST_GAME.format(" AND player1_id = :o", " AND player0_id = :o"))


def last_game(conn: Connection, player: int, other: int | None = None) -> str | None:
    """The game of ``player``'s last ended match (against anyone, the computer too), or of
    their last against ``other``; ``None`` when there is none."""
    if other is None:
        return conn.execute(_LAST_GAME_OF_ONE, {"p": player}).scalar()
    return conn.execute(_LAST_GAME_OF_TWO, {"p": player, "o": other}).scalar()


_BY_USERNAME = text("SELECT id, display_name FROM players WHERE username = :u")
_BY_USERNAME_ANY_CASE = text(
    "SELECT id, display_name FROM players WHERE lower(username) = lower(:u) ORDER BY id LIMIT 1"
)


def find_username(conn: Connection, username: str) -> tuple[int, str] | None:
    """The player known by this @username (without the @; any case), or ``None``."""
    name = username.removeprefix("@")
    if not name:
        return None
    found = (conn.execute(_BY_USERNAME, {"u": name}).first()
             or conn.execute(_BY_USERNAME_ANY_CASE, {"u": name}).first())
    return (found[0], found[1]) if found is not None else None


CHAT_PLAYERS = 50
"""How many of a group's players (the most recent first) ``/stats <name>`` looks among."""
_IN_CHAT = text(
    "SELECT p.id, p.display_name, MAX(m.id) AS latest FROM players p JOIN matches m "
    "ON p.id = m.player0_id OR p.id = m.player1_id "
    "WHERE m.chat_id = :c AND m.status IN ('active', 'finished', 'abandoned') AND p.id > 0 "
    "GROUP BY p.id, p.display_name ORDER BY latest DESC, p.id LIMIT :n"
)


@dataclass(frozen=True)
class ChatPlayer:
    """Someone who played matches in a chat: their last match there is ``latest``."""

    id: int
    name: str
    latest: int


def players_in_chat(conn: Connection, chat_id: int) -> list[ChatPlayer]:
    """The people who played matches in the chat ``chat_id``, who played there last first
    (deleted players aside); the two players of one match in the order of their ids (without
    it their order was the database's: on PostgreSQL it changed with the table's free space)."""
    return [ChatPlayer(r[0], r[1], r[2])
            for r in conn.execute(_IN_CHAT, {"c": chat_id, "n": CHAT_PLAYERS})]


def _folded(name: str) -> list[str]:
    """A name's words, compared without case or accents ("Βασίλης" is "βασιλης")."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name)
                    if not unicodedata.combining(ch))
    return plain.casefold().split()


def named(players: list[ChatPlayer], wanted: str) -> list[ChatPlayer]:
    """The players called ``wanted``: those with the whole name when some have it, else those
    with each of its words among their name's ("Dora" is "Dora Smith")."""
    words = _folded(wanted)
    if not words:
        return []
    whole = [pl for pl in players if _folded(pl.name) == words]
    return whole or [pl for pl in players if set(words) <= set(_folded(pl.name))]


def _when(conn: Connection, now: datetime) -> datetime:
    """``now`` as the UTC columns store it (SQLite: naive UTC text)."""
    return now.replace(tzinfo=None) if conn.dialect.name == "sqlite" else now


def set_hidden(conn: Connection, player: int, hidden: bool, now: datetime) -> bool:
    """Hide the player from leaderboards (or show them again); ``False`` for a player never
    seen."""
    done = conn.execute(text("UPDATE players SET hidden = :h, updated_at = :t WHERE id = :p"),
                        {"h": hidden, "t": _when(conn, now), "p": player})
    return done.rowcount > 0


class Forgotten(StrEnum):
    DONE = "done"
    """Deleted: ratings, rating changes, name and username; ended matches moved to a stand-in."""
    PLAYING = "playing"
    """Refused: an active match or an open challenge of theirs (finish, resign or withdraw)."""
    UNKNOWN = "unknown"
    """Nothing stored about this player."""


_PLAYING = text(
    "SELECT 1 FROM matches WHERE status IN ('active', 'challenge') "
    "AND (player0_id = :p OR player1_id = :p) LIMIT 1"
)
_MOVES = (
    "UPDATE matches SET player0_id = :anon WHERE player0_id = :p",
    "UPDATE matches SET player1_id = :anon WHERE player1_id = :p",
    "UPDATE challenges SET author_id = :anon WHERE author_id = :p",
    "UPDATE challenges SET target_id = :anon, target_username = NULL WHERE target_id = :p",
    "DELETE FROM rating_changes WHERE player_id = :p",
    "DELETE FROM ratings WHERE player_id = :p",
    "DELETE FROM board_messages WHERE chat_id = :p",
    "DELETE FROM deliveries WHERE chat_id = :p AND NOT pending",
    # competitions keep their tables: the player's places go to the stand-in row
    "UPDATE competitions SET organiser_id = :anon WHERE organiser_id = :p",
    "UPDATE competitions SET winner_id = :anon WHERE winner_id = :p",
    "UPDATE competition_entries SET player_id = :anon WHERE player_id = :p",
    "UPDATE competition_games SET player0_id = :anon WHERE player0_id = :p",
    "UPDATE competition_games SET player1_id = :anon WHERE player1_id = :p",
    "UPDATE competition_games SET winner_id = :anon WHERE winner_id = :p",
    "DELETE FROM players WHERE id = :p",
)


def forget(conn: Connection, player: int, now: datetime) -> Forgotten:
    """Delete what is stored about ``player`` (see the module's text); refused while they play.
    Run it in one transaction (and, on SQLite, under the database's write lock)."""
    if conn.execute(_NAME, {"p": player}).first() is None:
        return Forgotten.UNKNOWN
    if conn.execute(_PLAYING, {"p": player}).first() is not None:
        return Forgotten.PLAYING
    lowest = conn.execute(text("SELECT min(id) FROM players")).scalar()
    anon = min(int(lowest or 0), 0) - 1
    conn.execute(text(
        "INSERT INTO players (id, display_name, username, language, can_message, notices, "
        "hidden, created_at, updated_at) VALUES (:anon, '', NULL, NULL, :no, :no, :yes, "
        ":t, :t)"), {"anon": anon, "t": _when(conn, now), "no": False, "yes": True})
    for statement in _MOVES:
        conn.execute(text(statement), {"anon": anon, "p": player})
    return Forgotten.DONE
