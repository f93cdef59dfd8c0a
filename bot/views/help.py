"""What /start, /help and /notices say: the games in brief, the commands, and how a turn, the
dice, time, notices, the computer, reviews, history, ratings and the board work."""

from __future__ import annotations

from bot.views.games import choosing_help, games_intro
from bot.views.i18n import Tr, lang_names
from bot.views.player_settings import settings_help


def welcome_text(t: Tr, username: str) -> str:
    """/start: the five games in a line each, then the commands."""
    return games_intro(t) + "\n\n" + commands_text(t, username)


def commands_text(t: Tr, username: str) -> str:
    """The commands, a line each, and inline mode."""
    return t._(
        "/new: challenge someone (in a group: anyone, or the person you reply to; here: a link "
        "to send to a friend, or a match against the computer)\n"
        "/games: your matches\n/resign: resign a game or the match\n"
        "/review: review a finished match\n/rules: the rules of each game\n"
        "/lang: {languages}\n/notices: notices of your turn, on or off\n"
        "/help: how to play\n\n"
        "From any chat, type @{bot} and pick a game and a length to post a challenge.",
        bot=username, languages=lang_names(),
    )


def group_welcome_text(t: Tr) -> str:
    """What the bot says when added to a group: how to start, in two lines."""
    return t._(
        "🎲 Hello! I referee backgammon matches here: Portes, Plakoto, Fevga, Tavli, Nardy.\n"
        "Send /new to challenge anyone (or reply /new to someone); /help for more."
    )


def group_help_text(t: Tr, lang_name: str) -> str:
    """/help in a group: the few commands played there; the full help is in private."""
    return t._(
        "🎲 <b>Portes</b>, Plakoto, Fevga, Tavli and Long Nardy, played in this group:\n"
        "/new: challenge anyone, or reply /new to someone\n"
        "/games: your matches · /resign · /rules: the rules of the game\n"
        "/top: this group's leaderboard · /lang: the group's language ({lang}, set by an "
        "admin)\n"
        "The full help is in our private chat:",
        lang=lang_name,
    )


def help_text(t: Tr, username: str) -> str:
    """/help: the commands, the games (how to choose one, where its rules are), then how a
    turn, the dice, time, the computer and reviews work."""
    return commands_text(t, username) + "\n\n" + choosing_help(t) + "\n\n" + t._(
        "<b>Playing a turn</b>: the dice roll by themselves. Tap the point a checker leaves, "
        "then where it goes (one die or several); ⟲ Undo takes a move back; ✅ Confirm ends the "
        "turn. When there are only a few possible plays they are offered whole. In a private "
        "chat you may also type a play, such as 24/18 13/11. Forced plays and turns with no "
        "legal move are played for you.\n\n"
        "<b>Fair dice</b>: every match commits to a secret dice seed (its SHA-256 is on the "
        "challenge card) and reveals it at the end, so anyone can recompute every roll.\n\n"
        "<b>Time</b>: the /new card sets the time per move (from 1 hour to 7 days); you are "
        "reminded when it is your move, and the player to move who lets it run out loses the "
        "match."
    ) + "\n\n" + t._(
        "<b>Notices</b>: when it is your move, your board comes to you as a new message, so "
        "Telegram notifies you: in the private chat with the bot (in a group match too, once "
        "you have started the bot), else in the group, mentioning you. It comes silently if "
        "you tapped a board in the last minute. A reminder is that board again, with ⏰ at the "
        "top. /notices turns the notifications off: the boards still come, silently."
    ) + "\n\n" + t._(
        "<b>Against the computer</b>: in the private chat with the bot, /new, then 🤖 Against "
        "the computer; choose a level (Easy, Medium, Strong) and a match length, then tap ▶ "
        "Start. On your turn, 💡 Hint shows the best play and your chances (only in games "
        "against the computer).\n\n"
        "<b>Review</b>: when a match ends, each player gets a review: the equity lost against "
        "the computer's choices, the worst plays with a better one, and the luck of the dice. "
        "/review lists your finished matches (/review 12 for match #12)."
    ) + "\n\n" + t._(
        "<b>History</b>: /history lists your last finished matches. ▶ Replay shows a match "
        "again play by play (◀ ▶, and ⏮ ⏭ game by game; 📍 Position gives the GNU Backgammon "
        "IDs of the board shown); 📄 Download sends it as a .mat file for GNU Backgammon or "
        "eXtreme Gammon."
    ) + "\n\n" + t._(
        "<b>Ratings</b>, per game (/top plakoto, /stats fevga, or the buttons below): /top "
        "shows the group's leaderboard (in private: everyone's); /stats "
        "your record and rating, or, replying to someone (or /stats @name), the two of you "
        "head to head. /top hide leaves you out of leaderboards (/top show brings you back); "
        "/forgetme deletes your data."
    ) + "\n\n" + t._(
        "<b>The board</b>: the last play is marked in orange: a faint ring where a checker left, "
        "a dot where it landed, and ✖ on a checker it hit, now on the bar. Your moves this turn "
        "are marked the same way in blue. The score box shows each colour's score beside a "
        "checker of that colour, and the match length (/5)."
    ) + "\n\n" + settings_help(t)


def notices_text(t: Tr, on: bool) -> str:
    """/notices: whether the player's boards and reminders notify them."""
    if on:
        return t._("🔔 Your notices are on: when it is your move, your board comes here as a "
                   "new message and Telegram notifies you (silently if you tapped a board in "
                   "the last minute).")
    return t._("🔕 Your notices are off: your boards and reminders still come here, "
               "silently.")
