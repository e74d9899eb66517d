"""Discord's OpenAPI description (v10) used to validate every body the bot sends, where it is found.

It is looked for at $DISCORD_OPENAPI, else in ../shared/discord-api-spec/ beside the clone (as CI has it).
Where it is not, `SpecValidator.shared()` gives a `WithoutSpec`: the same tests run with the fake's own checks,
and pytest says so in one line at the end of the run (tests/conftest.py).

The whole document is registered as one `referencing` resource; a body is validated against a wrapper schema
`{"$ref": "<uri>#/paths/<escaped path>/<method>/requestBody/content/application~1json/schema"}`.
Unions in the spec are `anyOf`/`oneOf` told apart by a `type` const (written as an `enum`), so a failure is
reported inside the branch whose `type` matches the body, not wherever jsonschema's best_match would point.

One leniency, for request bodies only: Discord reads a snowflake sent as a JSON integer as well as a string
(discord.py sends attachment ids as the integers 0, 1, ...), so requests are checked against a copy of the
document whose SnowflakeType also admits non-negative integers. Responses are checked against the spec as is.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from bot.playground.routes import OwnChecks, PathTemplates

SPEC_URI = "urn:discord:openapi:v10"
REQUEST_URI = "urn:discord:openapi:v10:requests"
DEFAULT_SPEC = Path(__file__).resolve().parents[3] / "shared" / "discord-api-spec" / "openapi.json"
"""The read-only shared/ folder sits beside the repository's clone, for developers and CI alike."""
BODY_METHODS = ("post", "put", "patch")


def spec_path() -> Path:
    """Where the spec is read from: $DISCORD_OPENAPI, else the shared copy."""
    return Path(os.environ.get("DISCORD_OPENAPI", DEFAULT_SPEC))


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _where(path: Iterable) -> str:
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)


def _short(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _message(error: ValidationError) -> str:
    """jsonschema's message, without pasting a 7000-character string into it."""
    limit, size = error.validator_value, None
    if error.validator in ("maxLength", "minLength") and isinstance(error.instance, str):
        size = f"{len(error.instance)} characters"
    elif error.validator in ("maxItems", "minItems") and isinstance(error.instance, list):
        size = f"{len(error.instance)} items"
    if size is None:
        return _short(error.message)
    wrong = "too long" if error.validator.startswith("max") else "too short"
    return f"{wrong}: {size} ({error.validator} {limit})"


def _lenient_requests(document: dict) -> dict:
    """The document with SnowflakeType also accepting integers (shares everything else with the original)."""
    schemas = document["components"]["schemas"]
    snowflake = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    components = document["components"] | {"schemas": schemas | {"SnowflakeType": snowflake}}
    return document | {"components": components}


class WithoutSpec(OwnChecks):
    """Stands in for SpecValidator where Discord's OpenAPI description is not found: routes are named from
    routes.txt, and the stand-in's own checks (bot/playground/limits.py: embed and component rules, the
    interaction protocol) still run on every body; only the OpenAPI schema check is off."""

    def __init__(self, looked_at: Path) -> None:
        super().__init__()
        self.looked_at = looked_at


class SpecValidator:
    """Matches concrete request paths to the spec's templates and validates request bodies."""

    openapi = True

    def __init__(self, document: dict) -> None:
        self.document = document
        self._registry = Registry().with_resources(
            (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
            for uri, contents in ((SPEC_URI, document), (REQUEST_URI, _lenient_requests(document)))
        )
        self._paths = PathTemplates(document["paths"])
        self._validators: dict[tuple[str, str, str], Draft202012Validator | None] = {}

    @classmethod
    @cache
    def shared(cls) -> SpecValidator | WithoutSpec:
        """One validator per test session (the spec is 1.2 MB); WithoutSpec where the spec is not found."""
        path = spec_path()
        if not path.is_file():
            return WithoutSpec(path)
        return cls(json.loads(path.read_text()))

    def template_for(self, path: str) -> str | None:
        """The spec path template for a concrete API path; literal segments beat parameters."""
        return self._paths.template_for(path)

    def _validator(
        self, template: str, method: str, part: str = "requestBody"
    ) -> Draft202012Validator | None:
        """The validator of a request body (part="requestBody") or a response (part="responses/200")."""
        key = (template, method, part)
        if key not in self._validators:
            node = self.document["paths"][template].get(method, {})
            for token in part.split("/"):
                node = node.get(token, {})
            content = node.get("content", {})
            media = "application/json" if "application/json" in content else next(iter(content), None)
            self._validators[key] = None
            if media is not None:
                pointer = f"#/paths/{_escape(template)}/{method}/{part}/content/{_escape(media)}/schema"
                base = REQUEST_URI if part == "requestBody" else SPEC_URI
                self._validators[key] = Draft202012Validator(
                    {"$ref": base + pointer}, registry=self._registry
                )
        return self._validators[key]

    def check(self, method: str, template: str, body: object) -> list[str]:
        """Readable problems with a request body ([] when it conforms)."""
        method = method.lower()
        if method not in BODY_METHODS or body is None:
            return []
        validator = self._validator(template, method)
        if validator is None:
            return [f"the spec defines no request body for {method.upper()} {template}"]
        return [self.describe(error) for error in validator.iter_errors(body)]

    def check_response(self, method: str, template: str, status: int, body: object) -> list[str]:
        """Problems with a response the fake gave (keeps the fake honest; [] when the spec has no schema)."""
        validator = self._validator(template, method.lower(), f"responses/{status}")
        if validator is None or body is None:
            return []
        return [self.describe(error) for error in validator.iter_errors(body)]

    # -- error reporting ------------------------------------------------------------------------------

    def describe(self, error: ValidationError) -> str:
        """Walk into the union branch that matches the body's `type` and say what is wrong there."""
        branches: list[str] = []
        while error.validator in ("anyOf", "oneOf") and error.context:
            options = [self._resolve(option) for option in error.schema[error.validator]]
            index = self._matching_branch(error.instance, options)
            if index is None:
                if isinstance(error.instance, dict) and "type" in error.instance:
                    return self._no_branch(error, options)
                break
            inside = [sub for sub in error.context if sub.relative_schema_path[0] == index]
            if not inside:
                break
            branches.append(self._branch_name(error.schema[error.validator][index], index))
            error = max(inside, key=lambda sub: len(sub.absolute_path))
        via = f" (in branch {' > '.join(branches)})" if branches else ""
        return f"{_where(error.absolute_path)}: {_message(error)}{via}"

    def _resolve(self, schema: dict) -> dict:
        ref = schema.get("$ref", "")
        if not ref.startswith("#/"):
            return schema
        node = self.document
        for token in ref[2:].split("/"):
            node = node[token.replace("~1", "/").replace("~0", "~")]
        return node

    @staticmethod
    def _type_values(option: dict) -> list:
        declared = option.get("properties", {}).get("type", {})
        if "const" in declared:
            return [declared["const"]]
        return list(declared.get("enum", []))

    def _matching_branch(self, instance: object, options: list[dict]) -> int | None:
        if isinstance(instance, dict) and "type" in instance:
            typed = [i for i, option in enumerate(options) if instance["type"] in self._type_values(option)]
            if typed:
                return typed[0]
            if any(self._type_values(option) for option in options):
                return None
        if instance is not None:
            not_null = [i for i, option in enumerate(options) if option.get("type") != "null"]
            if len(not_null) == 1:
                return not_null[0]
        return None

    def _no_branch(self, error: ValidationError, options: list[dict]) -> str:
        allowed = sorted(
            {value for option in options for value in self._type_values(option)},
            key=lambda value: (type(value).__name__, value),
        )
        kind, where = error.instance["type"], _where(error.absolute_path)
        return f"{where}: no branch of the union accepts type {kind!r} (allowed: {allowed})"

    @staticmethod
    def _branch_name(option: dict, index: int) -> str:
        ref = option.get("$ref")
        return ref.rsplit("/", 1)[-1] if ref else f"#{index}"
