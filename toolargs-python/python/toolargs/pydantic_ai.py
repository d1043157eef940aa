"""The gate in front of a pydantic-ai agent's tools: a capability that judges each call's raw
arguments before pydantic validates them.

pydantic-ai validates a tool call's arguments with pydantic in lax mode, where ``"yes"`` is
``True``. With :class:`Gate` among an agent's capabilities, each call's arguments, as the model
wrote them, meet the toolargs policy first, against the JSON Schema the model was shown: a
repaired call goes on with the repaired arguments, and a rejected one goes back to the model as
a retry (``ModelRetry``) whose text is ``for_model()``, ``{"ok":false,"errors":[...]}``, so the
model corrects exactly what was wrong.

>>> from pydantic_ai import Agent
>>> from toolargs.pydantic_ai import Gate
>>> agent = Agent("test", capabilities=[Gate(effects={"lookup_order": "read_only"})])

``effects`` names what each tool does (pydantic-ai tools carry no MCP annotations): read-only
tools strip keys their schema does not declare; every other tool rejects them. Needs
``pydantic-ai`` 2, which ``toolargs`` does not install.
"""

import json
import threading
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import ToolDefinition

from . import ParseResult, Spec

__all__ = ["Gate"]


class Gate(AbstractCapability[Any]):
    """A pydantic-ai capability that gates every tool call with toolargs.

    ``on_verdict``, when given, is called with the tool's name and the :class:`ParseResult`
    of every gated call.
    """

    def __init__(
        self,
        effects: Optional[Mapping[str, str]] = None,
        on_verdict: Optional[Callable[[str, ParseResult], Any]] = None,
    ) -> None:
        self._effects = dict(effects or {})
        self._on_verdict = on_verdict
        self._specs: Dict[str, Tuple[str, Spec]] = {}
        self._lock = threading.Lock()

    async def before_tool_validate(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: Any,
    ) -> Any:
        if tool_def.kind == "output":
            return args
        result = self._spec(tool_def).parse(args if args else "{}")
        if self._on_verdict is not None:
            self._on_verdict(tool_def.name, result)
        if not result.ok:
            raise ModelRetry(result.for_model())
        return result.arguments

    def _spec(self, tool_def: ToolDefinition) -> Spec:
        key = json.dumps(tool_def.parameters_json_schema, sort_keys=True)
        with self._lock:
            cached = self._specs.get(tool_def.name)
            if cached is not None and cached[0] == key:
                return cached[1]
        spec = Spec(
            {
                "name": tool_def.name,
                "description": tool_def.description or "",
                "inputSchema": tool_def.parameters_json_schema,
            },
            effect=self._effects.get(tool_def.name, "destructive"),
        )
        with self._lock:
            self._specs[tool_def.name] = (key, spec)
        return spec
