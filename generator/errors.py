"""Errors the domain raises; the runtime maps each class to one HTTP status."""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

# The code of an error raised without one: its reader gets the generic sentence of its language
# (glossary error.invalid) beside the parameter's name, and the English message as a detail.
GENERIC_CODE = "invalid"


class QueryError(ValueError):
    """A request parameter is missing, malformed, out of range or in conflict (HTTP 400).

    ``message`` is the English sentence (the API's ``error`` after ``parameter: ``); ``code`` and
    ``args`` are its stable, machine-readable form (issue 33): the glossary row ``error.<code>``
    is the sentence in each language, with ``args`` filling its ``{placeholders}``, so a page, the
    builder, the screen and the widget can say it in the reader's language.  A test checks that
    the English row, filled with ``args``, is ``message`` (tests/test_errors.py)."""

    def __init__(self, parameter: str, message: str, code: str = GENERIC_CODE,
                 args: Mapping[str, object] | None = None) -> None:
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter
        self.message = message
        self.code = code
        self.arguments: Mapping[str, object] = MappingProxyType(dict(args or {}))

    def __str__(self) -> str:
        return f"{self.parameter}: {self.message}"

    def as_json(self) -> dict:
        """The API's 400 body: the SPEC's ``error`` first, then its machine-readable form."""
        return {"error": str(self), "code": self.code, "parameter": self.parameter, "args": dict(self.arguments)}
