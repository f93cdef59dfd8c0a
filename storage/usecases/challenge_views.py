"""What a challenge looks like to the bot: :class:`~storage.results.ChallengeView` built from its
row, its match and its players (and whether its match plays the café start)."""

from __future__ import annotations

import json

from sqlalchemy.orm import Session

from storage.models import ChallengeRow, MatchRow
from storage.results import ChallengeStatus, ChallengeView, Place, PlayerView
from storage.usecases.kernel import Kernel
from storage.usecases.rows import MatchLike, player_view


def challenge_view(
    ch: ChallengeRow, match: MatchLike, players: dict[int, PlayerView]
) -> ChallengeView:
    author = player_view(players.get(ch.author_id))
    assert author is not None
    return ChallengeView(
        id=ch.id,
        match_id=ch.match_id,
        token=ch.token,
        status=ChallengeStatus(ch.status),
        author=author,
        target=player_view(players.get(ch.target_id)) if ch.target_id else None,
        target_username=ch.target_username,
        length=match.length,
        no_triple=match.no_triple,
        computer_level=match.computer_level,
        place=Place(ch.chat_id, ch.thread_id, ch.card_inline_message_id, match.in_group),
        commitment=match.commitment,
        expires_at=ch.expires_at,
        created_at=ch.created_at,
        card_chat_id=ch.card_chat_id,
        card_message_id=ch.card_message_id,
        card_inline_message_id=ch.card_inline_message_id,
        move_seconds=match.move_seconds,
        game_type=match.game_type,
        winner_starts=stored_winner_starts(match.state),
    )


def stored_winner_starts(state: str) -> bool:
    """Whether a stored state plays the café start (``False`` for a state that cannot be read:
    the card then says nothing of it)."""
    try:
        return bool(json.loads(state).get("winner_starts", False))
    except (ValueError, AttributeError):
        return False


def read_challenge_view(kernel: Kernel, session: Session, ch: ChallengeRow) -> ChallengeView:
    """The view of ``ch``, its match and players read in ``session``."""
    match = session.get(MatchRow, ch.match_id)
    assert match is not None
    return challenge_view(ch, match, kernel.players(session, ch.author_id, ch.target_id))
