"""The end of a match: its dice seed revealed, in plain words, with every roll and how to check.

The rolls are recomputed from the revealed seed and the mixed-in value by the code that rolled
them (:mod:`rules.common.fairdice`), and split into games the way the match drew them
(:func:`rules.common.fairdice.games_of`), so the list is what the seed gives, to compare with what
was
played. ``docs/dice.md`` says the same at length.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence

from bot.views.i18n import Tr
from rules.common.dice import Dice
from rules.common.fairdice import GameRolls, games_of
from storage.results import Fairness, MatchRecord

MESSAGE_LIMIT = 4096
"""Telegram's limit on a message's text (counted here in UTF-16 units, tags included, which
is never less than what Telegram counts)."""

PYTHON_CHECK = """import hashlib, hmac
seed, mix = bytes.fromhex("SEED"), "MIX".encode()
print(hashlib.sha256(seed).hexdigest())  # the commitment
dice, n = [], 0
while len(dice) < COUNT:
    block = hmac.new(seed, mix + b":%d" % n, hashlib.sha256).digest()
    dice += [b % 6 + 1 for b in block if b < 252]
    n += 1
print(dice[:COUNT])"""
"""The whole check in a few lines of Python (standard library only); the same in docs/dice.md."""


def tg_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def rolls_after_opening(record: MatchRecord) -> list[int]:
    """For each game but the last, how many rolls it drew after its opening roll: one for each
    logged turn after the first (a pass included), and one more for a game resigned on a roll
    (resigned on the opening roll itself: none)."""
    logged = Counter(turn.game for turn in record.turns)
    games = sorted(record.games, key=lambda g: g.number)
    return [max(logged[g.number] - 1 + (1 if g.resigned else 0), 0) for g in games[:-1]]


def winner_rolls(record: MatchRecord) -> list[bool]:
    """For each game, whether it began with the previous winner's own roll (the cafe habit of
    a tavli match): every game after the first decided one (a drawn Plakoto decides nothing)."""
    if not record.match.state.winner_starts:
        return []
    games = sorted(record.games, key=lambda g: g.number)
    out: list[bool] = []
    decided = False
    for game in games:
        out.append(decided)
        decided = decided or game.winner is not None
    return out


def game_tokens(game: GameRolls) -> list[str]:
    """A game's rolls as players saw them, each the higher die first (as players say "6-2"):
    the opening roll, then each turn's roll; a tied opening roll, rolled again, in brackets."""
    return ([f"({a}-{b})" for a, b in game.ties] + [str(Dice(*game.first))]
            + [str(Dice(a, b)) for a, b in game.rolls])


def rolls_lines(t: Tr, games: Sequence[GameRolls], budget: int) -> list[str]:
    """The rolls, a line per game, cut with "…" (and how many are left out) to fit
    ``budget``."""
    lines = ["🎲 " + t._("The rolls, in order:")]
    if any(g.ties for g in games):
        lines[0] += " " + t._("(in brackets: a tied opening roll, rolled again)")
    used = tg_len(lines[0]) + 60  # room for the line saying what was left out
    total = sum(len(game_tokens(g)) for g in games)
    shown = 0
    for number, game in enumerate(games, start=1):
        room = budget - used - tg_len(t._("Game {game}: {rolls}", game=number, rolls="")) - 1
        tokens = game_tokens(game)
        kept: list[str] = []
        for token in tokens:
            room -= tg_len(token) + 1
            if room < 0:
                break
            kept.append(token)
        if not kept:
            break
        line = t._("Game {game}: {rolls}", game=number, rolls=" ".join(kept))
        lines.append(line)
        used += tg_len(line) + 1
        shown += len(kept)
        if len(kept) < len(tokens):
            break
    if shown < total:
        lines.append(t.ngettext("… and {n} more roll", "… and {n} more rolls", total - shown))
    return lines


def reveal_text(t: Tr, fair: Fairness, help_url: str,
                rolls_after: Sequence[int] | None, cafe: Sequence[bool] = ()) -> str:
    """The message revealing the seed: the seed and the command to recompute every roll, the
    same in plain words with a link to how to check, and the rolls (cut to Telegram's limit;
    ``rolls_after``: :func:`rolls_after_opening` of the match, ``None`` when unknown;
    ``cafe``: :func:`winner_rolls` of it)."""
    text = t._("🔐 The dice seed was {seed} (SHA-256 {commitment}, announced before the "
               "match). Recompute every roll with:", seed=f"<code>{fair.seed_hex}</code>",
               commitment=f"<code>{fair.commitment[:16]}…</code>")
    text += f"\n<code>{html.escape(fair.verify_command or '', quote=False)}</code>"
    text += "\n\n" + t._("Every roll of this match came from this seed, fixed and announced (as "
                         "its SHA-256) before the match began: anyone can check that no roll "
                         "was changed.")
    link = t._("How to check the dice")
    text += f' <a href="{html.escape(help_url, quote=True)}">{link}</a>'
    if rolls_after is None or not fair.dice:
        return text
    games = games_of(fair.dice, rolls_after, cafe)
    lines = rolls_lines(t, games, MESSAGE_LIMIT - tg_len(text) - 2)
    return text + "\n\n" + "\n".join(lines)


def short_reveal_text(t: Tr, match_id: int, fair: Fairness) -> str:
    """The seed revealed in a group: one line with the seed and the SHA-256 it was announced
    as; every roll and the command to check them are a tap away (:func:`reveal_text`)."""
    return t._("🔐 The dice seed was {seed} (match #{id}; SHA-256 {commitment}, announced "
               "before the match). Every roll, and how to check them: the button below, in "
               "our private chat.", id=match_id, seed=f"<code>{fair.seed_hex}</code>",
               commitment=f"<code>{fair.commitment[:16]}…</code>")


def dice_help_text(t: Tr) -> str:
    """The bot's own page on checking the dice (the reveal's link when no
    ``PORTES_DICE_HELP_URL`` is set)."""
    return t._(
        "<b>How to check the dice</b>\n"
        "\n"
        "Before a match begins, the bot picks a secret random number, the <i>seed</i>, and shows "
        "its SHA-256 on the challenge card. Nobody can work the seed out from its SHA-256, nor "
        "find another seed with the same SHA-256: from then on the bot is bound to that seed.\n"
        "\n"
        "The tap that accepts the challenge (or starts a match against the computer) gets an id "
        "from Telegram, and that id is mixed in: the first board says \"mixed with …\". The bot "
        "does not choose it, so it could not have picked a seed to suit it.\n"
        "\n"
        "Every die comes from the seed and that value: blocks of HMAC-SHA256 keyed with the "
        "seed, of the value, a colon and a counter (0, 1, 2…); each byte below 252 gives a die "
        "(the byte modulo 6, plus 1), the others are skipped. The match uses the dice in order: "
        "the challenger's opening die, then the other player's (a tie is rolled again), then "
        "each turn's two dice, game after game.\n"
        "\n"
        "At the end the bot reveals the seed. Check that its SHA-256 is the one shown before the "
        "match, and that it gives the rolls you played: the command in that message does both "
        "(rules/common/fairdice.py, from the bot's source), and so do these lines of Python, "
        "given the "
        "seed, the value mixed in and the number of dice:"
    ) + f"\n<pre>{html.escape(PYTHON_CHECK, quote=False)}</pre>"
