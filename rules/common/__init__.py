"""What every game shares: errors, dice, scoring, the verifiable dice, move text."""
