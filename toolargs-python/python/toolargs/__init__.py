"""The toolargs gate for LLM tool-call arguments, in Python.

A model asked to refund $19.99 sends ``"amount_cents": "1999"``: right data, wrong envelope.
``toolargs`` repairs what has exactly one reading, rejects everything with two or more (every
error of the call at once, each with a stable code and a JSON path), and records every repair.

>>> import toolargs
>>> spec = toolargs.Spec({
...     "type": "object",
...     "properties": {"amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000}},
...     "required": ["amount_cents"],
... })
>>> result = spec.parse('{"amount_cents": "1999"}')
>>> result.ok, result.arguments
(True, {'amount_cents': 1999})
>>> result.repairs
[Repair(path="$.amount_cents", rule="numeric_string_to_int", before='1999', after=1999)]
>>> spec.parse('{"amount_cents": "19.99"}').errors[0].code
'ambiguous_integer'
"""

from ._toolargs import (
    ArgumentError,
    LoadError,
    ParseResult,
    Repair,
    Session,
    Spec,
    ToolSet,
    replay,
)

__all__ = [
    "ArgumentError",
    "LoadError",
    "ParseResult",
    "Rejected",
    "Repair",
    "Session",
    "Spec",
    "ToolSet",
    "replay",
]


class Rejected(ValueError):
    """Raised by ``Spec.validate`` for a call the gate rejects.

    ``errors`` lists every :class:`ArgumentError`; ``for_model()`` is the tool result to send
    back to the model, ``{"ok":false,"errors":[...]}``.
    """

    def __init__(self, errors: "list[ArgumentError]", for_model: str) -> None:
        super().__init__(for_model)
        self.errors = list(errors)
        self._for_model = for_model

    def for_model(self) -> str:
        """The model-facing JSON text of the rejection."""
        return self._for_model
