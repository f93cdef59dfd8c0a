"""The README's example of the rules core runs as written: its block (the first ``python`` block
under "## The rules core") is a doctest, each result shown as the rules core gives it."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def rules_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## The rules core\n", 1)[1]
    found = re.search(r"^```python\n(.*?)^```$", section, re.DOTALL | re.MULTILINE)
    assert found, "no python block under '## The rules core' in README.md"
    return found.group(1)


def test_the_readmes_rules_example_runs_as_shown() -> None:
    test = doctest.DocTestParser().get_doctest(rules_example(), {}, "README.md: the rules core",
                                               str(README), 0)
    assert len([e for e in test.examples if e.want]) >= 5, "the example shows its results"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
