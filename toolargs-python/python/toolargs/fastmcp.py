"""The gate as FastMCP middleware: every tool call judged with the tool's own schema.

FastMCP validates a call's arguments with pydantic in lax mode, which turns ``"yes"`` into
``True``. Put :class:`Gate` in front, and each call meets the toolargs policy first, against
the schema FastMCP lists for the tool and the effect its annotations declare:

- a clean call goes on unchanged; a repaired one goes on with the repaired arguments;
- a key the schema does not declare is stripped for a read-only tool and rejected otherwise
  (a tool without annotations is destructive, as MCP says);
- a rejected call never reaches the tool: the client gets a result with ``isError`` set and
  the model-facing ``{"ok":false,"errors":[...]}`` as text, and as structured content unless
  the tool declares an output schema (which any structured content of its results must match).

>>> from fastmcp import FastMCP
>>> from toolargs.fastmcp import Gate
>>> server = FastMCP("shop")
>>> server.add_middleware(Gate())

A tool whose schema cannot be loaded is passed on unchecked, and named once in the
``toolargs.fastmcp`` logger with the reason. Needs ``fastmcp`` 4, which ``toolargs`` does not
install.
"""

import json
import logging
import threading
from typing import Any, Callable, Dict, Optional, Tuple

import mcp.types as mt
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools.base import ToolResult

from . import LoadError, ParseResult, Spec

__all__ = ["Gate"]

_log = logging.getLogger(__name__)


class Gate(Middleware):
    """FastMCP middleware that gates every ``tools/call`` with toolargs.

    ``on_verdict``, when given, is called with the tool's name and the :class:`ParseResult`
    of every gated call (to count repairs and rejections, or log them).
    """

    def __init__(self, on_verdict: Optional[Callable[[str, ParseResult], Any]] = None) -> None:
        self._on_verdict = on_verdict
        # A tool's spec is loaded once per schema and annotations it is listed with.
        self._specs: Dict[str, Tuple[str, Optional[Spec]]] = {}
        self._lock = threading.Lock()

    async def on_call_tool(
        self,
        context: MiddlewareContext[mt.CallToolRequestParams],
        call_next: CallNext[mt.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        server = context.fastmcp_context.fastmcp if context.fastmcp_context else None
        tool = await server.get_tool(context.message.name) if server is not None else None
        if tool is None:
            # FastMCP owns the answer for a tool it does not have.
            return await call_next(context)
        spec = self._spec(tool)
        if spec is None:
            return await call_next(context)
        result = spec.parse(context.message.arguments or {})
        if self._on_verdict is not None:
            self._on_verdict(tool.name, result)
        if not result.ok:
            text = result.for_model()
            # MCP holds every structuredContent of a tool's results to its outputSchema (and
            # clients check it): for a tool that declares one, the errors go as text only.
            return ToolResult(
                content=[mt.TextContent(type="text", text=text)],
                structured_content=None if tool.output_schema else json.loads(text),
                is_error=True,
            )
        if result.repairs:
            message = context.message.model_copy(update={"arguments": result.arguments})
            context = context.copy(message=message)
        return await call_next(context)

    def _spec(self, tool: Any) -> Optional[Spec]:
        annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
        definition = {"name": tool.name, "inputSchema": tool.parameters, "annotations": annotations}
        key = json.dumps(definition, sort_keys=True, default=str)
        with self._lock:
            cached = self._specs.get(tool.name)
            if cached is not None and cached[0] == key:
                return cached[1]
        try:
            spec: Optional[Spec] = Spec(definition)
        except LoadError as error:
            _log.warning("tool %r is not gated: its schema does not load: %s", tool.name, error)
            spec = None
        with self._lock:
            self._specs[tool.name] = (key, spec)
        return spec
