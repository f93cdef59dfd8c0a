"""Tests of the Bot API stand-in (the package standin/)."""
