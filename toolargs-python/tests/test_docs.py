"""The examples of the docs run as written: the package docstring and the README."""

import doctest
import pathlib
import re

import toolargs

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_the_package_docstring_examples_hold():
    failures, tried = doctest.testmod(toolargs, raise_on_error=False)
    assert tried > 0 and failures == 0


def test_the_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
