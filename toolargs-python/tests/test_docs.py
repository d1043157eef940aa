"""The examples of the docs run as written: the package docstring and the README."""

import doctest
import pathlib
import re

import toolargs
import toolargs.fastmcp
import toolargs.pydantic_ai

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_the_docstring_examples_hold():
    for module in [toolargs, toolargs.fastmcp, toolargs.pydantic_ai]:
        failures, tried = doctest.testmod(module, raise_on_error=False)
        assert tried > 0 and failures == 0, module.__name__


def test_the_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
