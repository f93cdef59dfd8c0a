"""The dice checker under its first name: seed reveals sent before rules/ had rooms say
``python -m rules.fairdice`` (the code is :mod:`rules.common.fairdice`)."""

import sys

from rules.common.fairdice import main

if __name__ == "__main__":
    sys.exit(main())
