"""A process killed in the middle of a use case changes nothing; one killed after the commit
keeps the step."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from storage.usecases import UseCases
from tests.storage.helpers import actor_of, new_match

SCRIPT = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from storage.db import Database
    from storage.usecases import UseCases

    url, match_id, actor, version, when = sys.argv[1:]

    async def checkpoint(name):
        if name == when:
            os.kill(os.getpid(), signal.SIGKILL)

    async def main():
        uc = UseCases(Database.from_url(url), checkpoint=checkpoint)
        await uc.confirm(int(match_id), int(actor), int(version))
        print("not killed")

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("when", ["read", "written", "committed"])
async def test_killed_process(uc: UseCases, db_url: str, when: str) -> None:
    view = (await new_match(uc, length=3)).match
    assert view is not None
    actor = actor_of(view, view.state.turn)
    while not view.state.can_confirm():
        result = await uc.step(view.id, actor, view.version, view.state.next_moves()[0])
        assert result.match is not None
        view = result.match
    before = await uc.match_record(view.id)
    assert before is not None
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, db_url, str(view.id), str(actor), str(view.version), when],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -9, proc.stderr
    after = await uc.match_record(view.id)
    assert after is not None
    if when == "committed":
        assert after.match.version == view.version + 1
        assert len(after.turns) > len(before.turns)
        assert after.match.state.turn_number != view.state.turn_number or after.match.state.game
    else:
        assert after.match.version == view.version
        assert after.match.state == view.state
        assert after.turns == before.turns
    # The match goes on normally afterwards (no lock left behind).
    assert after.match.to_act is not None
    current = after.match
    retry = await uc.play(
        current.id,
        actor_of(current, current.to_act),
        current.version,
        current.state.legal_plays()[0],
    )
    assert retry.ok
