"""The gate in front of a pydantic-ai agent's tools: a capability that judges each call's raw
arguments before pydantic validates them, and by their declared meaning within the run.

pydantic-ai validates a tool call's arguments with pydantic in lax mode, where ``"yes"`` is
``True``. With :class:`Gate` among an agent's capabilities, each call's arguments, as the model
wrote them, meet the toolargs policy first, against the JSON Schema the model was shown: a
repaired call goes on with the repaired arguments, and a rejected one goes back to the model as
a retry (``ModelRetry``) whose text is ``for_model()``, ``{"ok":false,"errors":[...]}``, so the
model corrects exactly what was wrong.

For a tool whose meaning is declared (``Gate(meaning={tool: {path: declaration}})``, or
``x-toolargs`` on a property of its schema, e.g. pydantic's
``Field(json_schema_extra={"x-toolargs": {...}})``), the calls of one agent run are judged in a
:class:`~toolargs.Session` of their own: a correction after a rejected call is compared with
the original, an action repeated within the window is held (``duplicate_action``), and
corrections are capped (``retry_budget_exhausted``). A call the session rejects or holds for
confirmation goes back to the model as a ``ModelRetry`` with ``for_model()`` and never reaches
the tool; ``proceed_and_report`` goes on. A call whose tool returned is recorded as run (one
that raised is not).

>>> from pydantic_ai import Agent
>>> from toolargs.pydantic_ai import Gate
>>> agent = Agent("test", capabilities=[Gate(
...     effects={"lookup_order": "read_only"},
...     meaning={"issue_refund": {"amount_cents": {
...         "semantic": "money", "currency": "currency", "minor_units": True, "critical": True}}},
... )])

``effects`` names what each tool does (pydantic-ai tools carry no MCP annotations): read-only
tools strip keys their schema does not declare, and an action repeated is no duplicate; every
other tool rejects them, and is taken to act. A run is known by its ``run_id`` (runs without
one share a session); the 4096 most recently used runs' sessions are kept. A declared meaning
that does not fit its tool's schema raises ``LoadError`` at the tool's first call. Each
agent's pydantic-ai allows one retry per tool by default (``Agent(retries=...)``): a model
that corrects a call twice needs more. Needs ``pydantic-ai`` 2, which ``toolargs`` does not
install.
"""

import json
import threading
from datetime import timedelta
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union

from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import ToolDefinition

from . import ParseResult, Session, Spec
from ._sessions import HELD, Recent, session_options

__all__ = ["Gate"]


class _Run:
    """One run's session, and the calls it let through that have not returned yet."""

    def __init__(self, session: Session) -> None:
        self.session = session
        # By tool call id: the spec and the arguments (as judged) of a call on its way.
        self.going: Dict[str, Tuple[Spec, Any]] = {}


class Gate(AbstractCapability[Any]):
    """A pydantic-ai capability that gates every tool call with toolargs.

    ``on_verdict``, when given, is called with the tool's name and the :class:`ParseResult`
    of every gated call. ``meaning`` is ``{tool name: {argument path: declaration}}``, laid
    over what the tools' schemas declare under ``x-toolargs``; ``corrections_per_tool``,
    ``corrections_per_session`` and ``duplicate_window`` are each run's session's options
    (``ToolSet.session``), checked here.
    """

    def __init__(
        self,
        effects: Optional[Mapping[str, str]] = None,
        on_verdict: Optional[Callable[[str, ParseResult], Any]] = None,
        *,
        meaning: Optional[Mapping[str, Mapping[str, Any]]] = None,
        corrections_per_tool: Optional[int] = None,
        corrections_per_session: Optional[int] = None,
        duplicate_window: Optional[Union[int, float, timedelta]] = None,
    ) -> None:
        self._effects = dict(effects or {})
        self._on_verdict = on_verdict
        self._meaning: Dict[str, Any] = dict(meaning or {})
        options = session_options(corrections_per_tool, corrections_per_session, duplicate_window)
        self._runs: Recent[_Run] = Recent(lambda: _Run(Session(**options)))
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
        spec = self._spec(tool_def)
        run = self._run(ctx)
        result = run.session.parse(spec, args if args else "{}")
        if self._on_verdict is not None:
            self._on_verdict(tool_def.name, result)
        if result.decision in HELD:
            raise ModelRetry(result.for_model())
        arguments = result.arguments
        with self._lock:
            run.going[call.tool_call_id] = (spec, arguments)
        return arguments

    async def after_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: Any,
        result: Any,
    ) -> Any:
        run = self._run(ctx)
        with self._lock:
            going = run.going.pop(call.tool_call_id, None)
        if going is not None:
            run.session.executed(*going)
        return result

    def _run(self, ctx: RunContext[Any]) -> _Run:
        """The run's session: a new one for a run not seen yet."""
        return self._runs.get(getattr(ctx, "run_id", None) or "")

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
            meaning=self._meaning.get(tool_def.name),
        )
        with self._lock:
            self._specs[tool_def.name] = (key, spec)
        return spec
