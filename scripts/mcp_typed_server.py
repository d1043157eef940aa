"""A FastMCP server whose tools use ordinary Python type hints, to record the JSON Schemas that
pydantic generates for them (`scripts/mcp_tools.py` lists its tools; the tools do nothing).

    python3 scripts/mcp_typed_server.py sdk1      # FastMCP of the `mcp` SDK 1.x
    python3 scripts/mcp_typed_server.py sdk2      # MCPServer of the `mcp` SDK 2.x
    python3 scripts/mcp_typed_server.py fastmcp   # the standalone `fastmcp` package
"""

import datetime
import decimal
import enum
import pathlib
import sys
import uuid
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, Field

try:
    from pydantic import EmailStr
except ImportError:  # without email-validator
    EmailStr = str

if sys.argv[1:] == ["fastmcp"]:
    from fastmcp import FastMCP
elif sys.argv[1:] == ["sdk2"]:
    from mcp.server.mcpserver import MCPServer as FastMCP
else:
    from mcp.server.fastmcp import FastMCP

mcp = FastMCP("python-types")


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Level(enum.IntEnum):
    DEBUG = 10
    INFO = 20


class Address(BaseModel):
    street: str
    city: str
    postcode: Optional[str] = None


class Customer(BaseModel):
    """A customer of the shop."""

    name: str = Field(min_length=1, max_length=80)
    email: EmailStr
    age: Optional[int] = Field(default=None, ge=0, le=150)
    addresses: list[Address] = []
    tags: set[str] = set()


class Node(BaseModel):
    """A tree, to get a recursive schema."""

    label: str
    children: list["Node"] = []


@mcp.tool()
def optional_args(query: str, limit: Optional[int] = None, cursor: str | None = None) -> str:
    """Optional arguments, written both ways."""
    return ""


@mcp.tool()
def unions(key: Union[int, str], value: int | float | bool | None = None) -> str:
    """Unions of scalars."""
    return ""


@mcp.tool()
def collections(
    names: set[str],
    scores: dict[str, float],
    extra: dict[str, Any] = {},
    pair: tuple[int, str] = (0, ""),
    rest: tuple[int, ...] = (),
    matrix: list[list[float]] = [],
) -> str:
    """Sets, dictionaries, tuples and nested lists."""
    return ""


@mcp.tool()
def literals(
    mode: Literal["fast", "safe"],
    level: Literal[1, 2, 3] = 1,
    flag: Literal[True] = True,
    priority: Priority = Priority.LOW,
    log_level: Level = Level.INFO,
) -> str:
    """Literals and enums."""
    return ""


@mcp.tool()
def formats(
    id: uuid.UUID,
    when: datetime.datetime,
    day: datetime.date,
    at: Optional[datetime.time] = None,
    timeout: datetime.timedelta = datetime.timedelta(seconds=30),
    email: Optional[EmailStr] = None,
    path: pathlib.Path = pathlib.Path("."),
    amount: decimal.Decimal = decimal.Decimal("0"),
    data: bytes = b"",
) -> str:
    """Values with a format."""
    return ""


@mcp.tool()
def models(customer: Customer, billing: Optional[Address] = None, tree: Optional[Node] = None) -> str:
    """Pydantic models as arguments, one of them recursive."""
    return ""


@mcp.tool()
def constrained(
    count: Annotated[int, Field(ge=1, le=100)] = 10,
    ratio: Annotated[float, Field(gt=0, lt=1)] = 0.5,
    step: Annotated[float, Field(multiple_of=0.25)] = 0.25,
    code: Annotated[str, Field(pattern=r"^[A-Z]{3}-\d{4}$")] = "ABC-0001",
    words: Annotated[list[str], Field(min_length=1, max_length=5)] = ["a"],
    anything: Any = None,
) -> str:
    """Bounds, patterns and an untyped argument."""
    return ""


if __name__ == "__main__":
    mcp.run()
