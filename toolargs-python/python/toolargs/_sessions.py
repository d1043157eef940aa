"""What the integrations share about their sessions: the options, checked once, and the
sessions of the clients or runs they serve, the most recently used kept."""

import threading
from collections import OrderedDict
from datetime import timedelta
from typing import Any, Callable, Dict, Generic, Optional, TypeVar, Union

from . import Session

__all__ = ["HELD", "Recent", "session_options"]

# The decisions whose call does not reach the tool.
HELD = ("confirm", "reject")

T = TypeVar("T")


def session_options(
    corrections_per_tool: Optional[int],
    corrections_per_session: Optional[int],
    duplicate_window: Optional[Union[int, float, timedelta]],
) -> Dict[str, Any]:
    """The options each session is made with; bad ones raise here, not at the first call."""
    options: Dict[str, Any] = {
        "corrections_per_tool": corrections_per_tool,
        "corrections_per_session": corrections_per_session,
        "duplicate_window": duplicate_window,
    }
    Session(**options)
    return options


class Recent(Generic[T]):
    """Values by key, each made on first use by ``make``: the ``most`` most recently used are
    kept, and past them the least recently used is forgotten (a client that went away)."""

    def __init__(self, make: Callable[[], T], most: int = 4096) -> None:
        self._make = make
        self._most = most
        self._values: "OrderedDict[str, T]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> T:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
                return value
            value = self._make()
            self._values[key] = value
            if len(self._values) > self._most:
                self._values.popitem(last=False)
            return value
