"""Discord's REST path templates (routes.txt, taken from its OpenAPI description), and the stand-in's own checks.

Every request the bot sends is named by its template ("/channels/{channel_id}/messages"): the limits
(limits.py) and the tests' OpenAPI validation are looked up by it. A `Validator` names templates and checks
bodies; `OwnChecks` is the product's: templates from routes.txt, no schema (the tests add Discord's OpenAPI
description on top, in tests/fakediscord/spec.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Protocol

ROUTES = Path(__file__).with_name("routes.txt")
"""The spec's path templates, one a line (checked against the spec by a test wherever the spec is found)."""


class Validator(Protocol):
    """Names a concrete path's template and lists what is wrong with a request body or the stand-in's answer."""

    def template_for(self, path: str) -> str | None: ...

    def check(self, method: str, template: str, body: object) -> list[str]: ...

    def check_response(self, method: str, template: str, status: int, body: object) -> list[str]: ...


class PathTemplates:
    """Concrete API paths matched to Discord's path templates; literal segments beat parameters."""

    def __init__(self, templates: Iterable[str]) -> None:
        self._templates: dict[int, list[tuple[str, list[str]]]] = {}
        for template in templates:
            segments = template.strip("/").split("/")
            self._templates.setdefault(len(segments), []).append((template, segments))

    @classmethod
    @cache
    def known(cls) -> PathTemplates:
        """The templates listed in routes.txt (those of the spec, for a machine that lacks it)."""
        return cls(known_templates())

    def template_for(self, path: str) -> str | None:
        """The path template for a concrete API path, or None when Discord has no such route."""
        segments = path.strip("/").split("/")
        best, best_score = None, -1
        for template, parts in self._templates.get(len(segments), []):
            score = 0
            for part, segment in zip(parts, segments, strict=True):
                if part == segment:
                    score += 1
                elif not (part.startswith("{") and part.endswith("}")):
                    break
            else:
                if score > best_score:
                    best, best_score = template, score
        return best


def known_templates() -> list[str]:
    lines = (ROUTES.read_text(encoding="utf-8")).splitlines()
    return [line for line in lines if line.startswith("/")]


class OwnChecks:
    """Routes named from routes.txt; no schema check, so only the stand-in's own checks run (limits.py: embed
    and component rules, the interaction protocol)."""

    openapi = False

    def __init__(self) -> None:
        self._paths = PathTemplates.known()

    def template_for(self, path: str) -> str | None:
        return self._paths.template_for(path)

    def check(self, method: str, template: str, body: object) -> list[str]:
        return []

    def check_response(self, method: str, template: str, status: int, body: object) -> list[str]:
        return []
