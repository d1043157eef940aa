from datetime import timedelta
from os import PathLike
from typing import (
    Any,
    Dict,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    TypedDict,
    Union,
    overload,
)


Effect = Literal["read_only", "additive", "destructive", "external"]
Unknown = Literal["strip", "reject"]
Definition = Union[str, bytes, Dict[str, Any], List[Any]]
Arguments = Union[str, bytes, bytearray, Dict[str, Any], Any]
StrPath = Union[str, "PathLike[str]"]
Seconds = Union[int, float, timedelta]
Decision = Literal["proceed", "proceed_and_report", "confirm", "reject"]
Dialect = Literal[
    "json_schema",
    "openai_chat",
    "openai_chat_strict",
    "openai_responses",
    "openai_responses_strict",
    "anthropic",
    "gemini",
    "mcp",
    "bedrock_converse",
]

class Change(TypedDict):
    path: str
    keyword: str
    instead: str
    enforced: bool
    exact: bool

class Declaration(TypedDict, total=False):
    semantic: str
    currency: str
    minor_units: bool
    unit: str
    family: str
    entity: str
    critical: bool
    synonyms: Dict[str, List[str]]

Meaning = Mapping[str, Declaration]

class Finding(TypedDict, total=False):
    path: str
    verdict: str
    code: str
    meaning: str
    critical: bool
    reason: str

class LoadError(ValueError): ...

class Repair:
    @property
    def path(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def before(self) -> Any: ...
    @property
    def after(self) -> Any: ...

class ArgumentError:
    @property
    def path(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...

class ParseResult:
    @property
    def ok(self) -> bool: ...
    @property
    def arguments(self) -> Optional[Dict[str, Any]]: ...
    @property
    def repairs(self) -> List[Repair]: ...
    @property
    def errors(self) -> List[ArgumentError]: ...
    def for_model(self) -> str: ...
    @property
    def decision(self) -> Decision: ...
    @property
    def findings(self) -> List[Finding]: ...

class Session:
    def __init__(
        self,
        *,
        corrections_per_tool: Optional[int] = None,
        corrections_per_session: Optional[int] = None,
        duplicate_window: Optional[Seconds] = None,
    ) -> None: ...
    @overload
    def parse(self, tool: Union[str, "Spec"], arguments: Arguments, /) -> ParseResult: ...
    @overload
    def parse(self, arguments: Arguments, /) -> ParseResult: ...
    @overload
    def executed(self, tool: Union[str, "Spec"], arguments: Arguments, /) -> None: ...
    @overload
    def executed(self, arguments: Arguments, /) -> None: ...

class Spec:
    def __init__(
        self,
        definition: Definition,
        effect: Optional[Effect] = None,
        unknown: Optional[Unknown] = None,
        meaning: Optional[Meaning] = None,
    ) -> None: ...
    @classmethod
    def from_pydantic(
        cls,
        model: Type[Any],
        effect: Optional[Effect] = None,
        unknown: Optional[Unknown] = None,
        meaning: Optional[Meaning] = None,
    ) -> "Spec": ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def description(self) -> Optional[str]: ...
    @property
    def effect(self) -> Optional[Effect]: ...
    @property
    def unknown(self) -> Unknown: ...
    @property
    def warnings(self) -> List[str]: ...
    def session(
        self,
        *,
        corrections_per_tool: Optional[int] = None,
        corrections_per_session: Optional[int] = None,
        duplicate_window: Optional[Seconds] = None,
    ) -> Session: ...
    def parse(self, arguments: Arguments) -> ParseResult: ...
    def validate(self, arguments: Arguments) -> Dict[str, Any]: ...
    def tool_definition(self, dialect: Dialect) -> Dict[str, Any]: ...
    def lowering(self, dialect: Dialect) -> List[Change]: ...

class ToolSet:
    def __init__(
        self, definitions: Definition, meaning: Optional[Mapping[str, Meaning]] = None
    ) -> None: ...
    @property
    def names(self) -> List[str]: ...
    @property
    def unchecked(self) -> List[Tuple[Optional[str], str]]: ...
    def session(
        self,
        *,
        corrections_per_tool: Optional[int] = None,
        corrections_per_session: Optional[int] = None,
        duplicate_window: Optional[Seconds] = None,
    ) -> Session: ...
    def parse(self, name: str, arguments: Arguments) -> ParseResult: ...
    def check_many(
        self, names: Sequence[Optional[str]], arguments: Sequence[Optional[str]]
    ) -> Tuple[List[str], List[List[str]], List[List[str]]]: ...
    def __getitem__(self, name: str) -> Spec: ...
    def __contains__(self, name: object) -> bool: ...
    def __len__(self) -> int: ...

def replay(
    paths: Union[StrPath, Sequence[StrPath]],
    tools: Union[None, ToolSet, StrPath, Definition] = None,
    by: Union[None, str, Sequence[str]] = None,
) -> Dict[str, Any]: ...
