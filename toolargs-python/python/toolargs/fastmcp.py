"""The gate as FastMCP middleware: every tool call judged with the tool's own schema, and by
its declared meaning within the client's session.

FastMCP validates a call's arguments with pydantic in lax mode, which turns ``"yes"`` into
``True``. Put :class:`Gate` in front, and each call meets the toolargs policy first, against
the schema FastMCP lists for the tool and the effect its annotations declare:

- a clean call goes on unchanged; a repaired one goes on with the repaired arguments;
- a key the schema does not declare is stripped for a read-only tool and rejected otherwise
  (a tool without annotations is destructive, as MCP says);
- a rejected call never reaches the tool: the client gets a result with ``isError`` set and
  the model-facing ``{"ok":false,"errors":[...]}`` as text, and as structured content unless
  the tool declares an output schema (which any structured content of its results must match).

For a tool whose meaning is declared (``Gate(meaning={tool: {path: declaration}})``, or
``x-toolargs`` on a property of its schema), the calls of one client are judged in a
:class:`~toolargs.Session` of their own: a correction after a rejected call is compared with the original,
an action repeated within the window is held (``duplicate_action``, unless the tool is
annotated ``idempotentHint``), and corrections are capped (``retry_budget_exhausted``). A call
the session rejects or holds for confirmation never reaches the tool either, and the client
gets ``for_model()`` in the same way; ``proceed_and_report`` goes on. A call whose tool
returned is recorded as run (one that raised is not).

>>> from fastmcp import FastMCP
>>> from toolargs.fastmcp import Gate
>>> server = FastMCP("shop")
>>> server.add_middleware(Gate(
...     meaning={"issue_refund": {"amount_cents": {
...         "semantic": "money", "currency": "currency", "minor_units": True, "critical": True}}},
...     duplicate_window=300,
... ))

A client's session is its MCP session on a handshake-era connection; a 2026-07-28 connection
has none, and FastMCP's own scope for data that follows a client stands in: the authenticated
user, or the server process on stdio and in memory. A request that nothing identifies shares
one session with the others like it. The most recently used 4096 sessions are kept.

A tool whose schema cannot be loaded is named once in the ``toolargs.fastmcp`` logger with
the reason, and its calls are refused (``unchecked_tool``, as an ``isError`` result): what the
gate cannot judge does not pass, unless ``Gate(unchecked="pass")`` passes them on unchecked. A
tool whose declared meaning does not fit its schema is not called (a ``ToolError`` naming the
tool and the argument). Needs ``fastmcp`` 4,
which ``toolargs`` does not install.
"""

import json
import logging
import threading
from datetime import timedelta
from typing import Any, Callable, Dict, Literal, Mapping, Optional, Tuple, Union

import mcp.types as mt
from fastmcp.exceptions import ToolError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools.base import ToolResult

from . import LoadError, ParseResult, Session, Spec, ToolSet
from ._sessions import HELD, Recent, session_options

__all__ = ["Gate"]

_log = logging.getLogger(__name__)


class Gate(Middleware):
    """FastMCP middleware that gates every ``tools/call`` with toolargs.

    ``on_verdict``, when given, is called with the tool's name and the :class:`ParseResult`
    of every gated call (to count repairs, rejections and decisions, or log them).
    ``meaning`` is ``{tool name: {argument path: declaration}}``, laid over what the tools'
    schemas declare under ``x-toolargs``; ``corrections_per_tool``, ``corrections_per_session``
    and ``duplicate_window`` are each session's options (``ToolSet.session``), checked here.
    ``unchecked`` says what becomes of the calls to a tool whose schema does not load:
    refused (``"block"``, the default) or passed on unchecked (``"pass"``).
    """

    def __init__(
        self,
        on_verdict: Optional[Callable[[str, ParseResult], Any]] = None,
        *,
        meaning: Optional[Mapping[str, Mapping[str, Any]]] = None,
        corrections_per_tool: Optional[int] = None,
        corrections_per_session: Optional[int] = None,
        duplicate_window: Optional[Union[int, float, timedelta]] = None,
        unchecked: Literal["block", "pass"] = "block",
    ) -> None:
        if unchecked not in ("block", "pass"):
            raise ValueError(f'unchecked is "block" or "pass", not {unchecked!r}')
        self._unchecked = unchecked
        self._on_verdict = on_verdict
        self._meaning: Dict[str, Any] = dict(meaning or {})
        options = session_options(corrections_per_tool, corrections_per_session, duplicate_window)
        self._sessions: Recent[Session] = Recent(lambda: Session(**options))
        # A tool's spec is loaded once per schema and annotations it is listed with; a tool
        # whose declared meaning does not fit keeps its error.
        self._specs: Dict[str, Tuple[str, Optional[Spec], Optional[LoadError]]] = {}
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
        if spec is None and self._unchecked == "pass":
            return await call_next(context)
        if spec is None:
            message = f"the definition of `{tool.name}` could not be checked, and calls to it are refused"
            return _error_result(tool, {"ok": False, "errors": [{"error": "unchecked_tool", "path": "$", "message": message}]})
        session = self._sessions.get(_client_of(context))
        arguments = context.message.arguments or {}
        result = session.parse(spec, arguments)
        if self._on_verdict is not None:
            self._on_verdict(tool.name, result)
        if result.decision in HELD:
            return _error_result(tool, json.loads(result.for_model()))
        ran: Any = arguments
        if result.repairs:
            ran = result.arguments
            message = context.message.model_copy(update={"arguments": ran})
            context = context.copy(message=message)
        outcome = await call_next(context)
        session.executed(spec, ran)
        return outcome

    def _spec(self, tool: Any) -> Optional[Spec]:
        annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
        definition = {"name": tool.name, "inputSchema": tool.parameters, "annotations": annotations}
        key = json.dumps(definition, sort_keys=True, default=str)
        with self._lock:
            cached = self._specs.get(tool.name)
        if cached is None or cached[0] != key:
            cached = (key, *self._load(tool.name, definition))
            with self._lock:
                self._specs[tool.name] = cached
        _, spec, error = cached
        if error is not None:
            raise ToolError(f"the call was not made: {error}")
        return spec

    def _load(self, name: str, definition: Dict[str, Any]) -> Tuple[Optional[Spec], Optional[LoadError]]:
        """The tool's spec, or why it is not gated (logged), or why it is not called."""
        given = self._meaning.get(name)
        try:
            # As a set of one: a schema that does not load is `unchecked`, a declared meaning
            # that does not fit it raises.
            tools = ToolSet([definition], meaning={name: given} if given is not None else None)
        except LoadError as error:
            _log.error("tool %r is not called: %s", name, error)
            return None, error
        if name not in tools:
            reason = "; ".join(why for _, why in tools.unchecked)
            _log.warning("tool %r is not gated: its schema does not load: %s", name, reason)
            return None, None
        return tools[name], None


def _error_result(tool: Any, body: Dict[str, Any]) -> ToolResult:
    """An ``isError`` result holding ``body``, the model-facing JSON, as text; and as structured
    content too, unless the tool declares an output schema: MCP holds every structuredContent
    of a tool's results to it (and clients check it)."""
    return ToolResult(
        content=[mt.TextContent(type="text", text=json.dumps(body, ensure_ascii=False, separators=(",", ":")))],
        structured_content=None if tool.output_schema else body,
        is_error=True,
    )


def _client_of(context: MiddlewareContext[Any]) -> str:
    """The key of the session a call belongs to: the client's MCP session, or what FastMCP
    keys a client's data by on a connection without one; "" when nothing identifies it."""
    fastmcp = context.fastmcp_context
    if fastmcp is None:
        return ""
    try:
        scope = getattr(fastmcp, "_session_scope_key", None)
        key = scope() if callable(scope) else fastmcp.session_id
    except RuntimeError:
        return ""
    return key if isinstance(key, str) else ""
