"""A local stand-in for the Telegram Bot API, with simulated users (see docs/standin.md)."""

from .clock import Clock, ManualClock, RealClock
from .errors import ApiError
from .flood import FloodLimits
from .model import Call
from .server import StandIn
from .sim import Answer, Button, Chat, InlineQuery, Message, StandInError, Tap, User

__all__ = ["Answer", "ApiError", "Button", "Call", "Chat", "Clock", "FloodLimits", "InlineQuery",
           "ManualClock", "Message", "RealClock", "StandIn", "StandInError", "Tap", "User"]
