"""The seed source can be injected in code, so a failing end-to-end match can be replayed
exactly; by default every match draws a fresh secret seed."""

from __future__ import annotations

from hashlib import sha256

from storage.db import Database
from storage.usecases import UseCases
from tests.storage.conftest import FakeClock
from tests.storage.helpers import ALICE, new_match, play_to_end

FIXED_SEED = bytes(range(32))


async def played_dice(uc: UseCases) -> tuple[str, list[tuple[int, int, int]]]:
    """Play a 3-point match with the same mix and the same choices; its commitment and every
    roll of its log."""
    view = (await new_match(uc, length=3, mix="replay-me")).match
    assert view is not None
    final = await play_to_end(uc, view, seed=11)
    record = await uc.match_record(final.id)
    assert record is not None
    rolls = [(t.game, t.dice.die1, t.dice.die2) for t in record.turns]
    return final.commitment, rolls


async def test_the_same_seed_source_gives_the_same_dice(db: Database, clock: FakeClock) -> None:
    # Given two front objects with the same injected seed source
    first = UseCases(db, clock=clock, seeds=lambda: FIXED_SEED)
    second = UseCases(db, clock=clock, seeds=lambda: FIXED_SEED)
    # When the same match is played through each
    commitment1, rolls1 = await played_dice(first)
    commitment2, rolls2 = await played_dice(second)
    # Then both committed to that seed and rolled exactly the same dice
    assert commitment1 == commitment2 == sha256(FIXED_SEED).hexdigest()
    assert rolls1 == rolls2 and len(rolls1) > 10


async def test_by_default_every_match_draws_a_fresh_secret_seed(
    db: Database, clock: FakeClock
) -> None:
    uc = UseCases(db, clock=clock)
    await new_match(uc)
    created = [await uc.create_challenge(ALICE, length=1) for _ in range(3)]
    commitments = {c.challenge.commitment for c in created if c.challenge is not None}
    assert len(commitments) == 3
    assert sha256(FIXED_SEED).hexdigest() not in commitments
    # The seed stays secret until the match has ended.
    challenge = created[0].challenge
    assert challenge is not None
    fairness = await uc.fairness(challenge.match_id)
    assert fairness is not None and fairness.seed_hex is None
    assert (await uc.cancel_challenge(challenge.id, ALICE)).ok
    revealed = await uc.fairness(challenge.match_id)
    assert revealed is not None and revealed.seed_hex is not None
    assert sha256(bytes.fromhex(revealed.seed_hex)).hexdigest() == challenge.commitment
    assert len(bytes.fromhex(revealed.seed_hex)) == 32
