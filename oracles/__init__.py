"""Independent references the rules core is checked against (tests/rules and bench/): GNU
Backgammon's boards and move text (gnubg_bridge), a brute-force tavli move generator written
from the rule text (bruteforce_tavli), crafted tavli positions (tavli_crafted)."""
