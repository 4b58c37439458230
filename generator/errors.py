"""Errors the domain raises; the runtime maps each class to one HTTP status."""
from __future__ import annotations


class QueryError(ValueError):
    """A request parameter is missing, malformed, out of range or in conflict (HTTP 400)."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter
        self.message = message

    def __str__(self) -> str:
        return f"{self.parameter}: {self.message}"
