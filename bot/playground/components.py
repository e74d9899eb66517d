"""Discord's rules for the components of a message or a modal, checked by the fake itself.

Some of these the OpenAPI description cannot express (at most 5 action rows, a select menu alone in its row,
custom_ids unique in a message, min_values <= max_values); the others it does express (label and custom_id
lengths, at most 5 components in a row), and are repeated here so that they hold where the description is absent.
A problem is reported at the same place as the spec would report it, so with the spec it is named once.
"""

from __future__ import annotations

from collections.abc import Iterator

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, TEXT_DISPLAY, LABEL = 1, 2, 3, 4, 10, 18
SELECTS = {STRING_SELECT, 5, 6, 7, 8}  # string, user, role, mentionable, channel
IS_COMPONENTS_V2 = 1 << 15
MAX_ROWS = 5
"""Action rows in a message without IS_COMPONENTS_V2, and top-level components in a modal."""
MAX_IN_ROW = 5
MAX_V2_COMPONENTS = 40
CUSTOM_ID = 100
BUTTON_LABEL = 80
BUTTON_STYLES = range(1, 7)
LINK_STYLE, PREMIUM_STYLE = 5, 6
SELECT_PLACEHOLDER = 150
SELECT_VALUES = 25
"""Options of a string select, and the bound of min_values and max_values."""
OPTION_TEXT = 100
"""A select option's label, value and description."""
MODAL_TITLE = 45
INPUT_LABEL = 45
INPUT_VALUE = 4000
INPUT_PLACEHOLDER = 100
INPUT_STYLES = (1, 2)


def walk_components(components: list, where: str) -> Iterator[tuple[dict, str]]:
    """Every component, nested ones included (rows, containers, sections, labels, accessories)."""
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = f"{where}[{index}]"
        yield component, here
        yield from walk_components(component.get("components") or [], f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]], f"{here}.{key}")


def component_problems(components: list, where: str, *, flags: int = 0) -> list[str]:
    """The components of a message: its layout, then each component, and custom_ids unique in the message."""
    if flags & IS_COMPONENTS_V2:
        count = sum(1 for _ in walk_components(components, where))
        layout = [] if count <= MAX_V2_COMPONENTS else [f"{where}: {count} components (limit {MAX_V2_COMPONENTS})"]
    else:
        layout = _layout_problems(components, where, top={ACTION_ROW}, in_rows={BUTTON, *SELECTS})
    return layout + _each_problems(components, where)


def modal_problems(modal: dict, where: str) -> list[str]:
    """A modal (interaction callback 9): custom_id, title, 1-5 rows of one text input each (or labels, texts)."""
    problems = _text_problems(modal, where, "custom_id", CUSTOM_ID, required=True)
    problems += _text_problems(modal, where, "title", MODAL_TITLE, required=True)
    components = modal.get("components") or []
    if not components:
        problems.append(f"{where}.components: a modal needs 1-{MAX_ROWS} components")
    top = {ACTION_ROW, LABEL, TEXT_DISPLAY}
    problems += _layout_problems(components, f"{where}.components", top=top, in_rows={TEXT_INPUT})
    return problems + _each_problems(components, f"{where}.components")


def _layout_problems(components: list, where: str, *, top: set[int], in_rows: set[int]) -> list[str]:
    """At most 5 top-level components, of the types allowed there; action rows holding what they may."""
    problems = []
    if len(components) > MAX_ROWS:
        problems.append(f"{where}: {len(components)} top-level components (limit {MAX_ROWS})")
    for index, item in enumerate(components):
        here, kind = f"{where}[{index}]", item.get("type") if isinstance(item, dict) else None
        if kind not in top:
            problems.append(f"{here}: component type {kind!r} cannot be at the top level (allowed {sorted(top)})")
        elif kind == ACTION_ROW:
            problems += _row_problems(item.get("components") or [], f"{here}.components", in_rows)
    return problems


def _row_problems(children: list, where: str, allowed: set[int]) -> list[str]:
    """1-5 components of the allowed types, and a select menu or a text input alone in its row."""
    kinds = [child.get("type") if isinstance(child, dict) else None for child in children]
    if not 1 <= len(children) <= MAX_IN_ROW:
        return [f"{where}: {len(children)} components in an action row (it holds 1-{MAX_IN_ROW})"]
    if stray := sorted({kind for kind in kinds if kind not in allowed}, key=str):
        return [f"{where}: component type(s) {stray} cannot be in this action row (allowed {sorted(allowed)})"]
    if len(children) > 1 and any(kind in SELECTS or kind == TEXT_INPUT for kind in kinds):
        return [f"{where}: a select menu or text input fills its action row alone ({len(children)} components)"]
    return []


def _each_problems(components: list, where: str) -> list[str]:
    problems, seen = [], set()
    for component, here in walk_components(components, where):
        check = _CHECKS.get(component.get("type", 0))
        if check is not None:
            problems.extend(check(component, here))
        problems.extend(_text_problems(component, here, "custom_id", CUSTOM_ID))
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                problems.append(f"{here}.custom_id: {custom_id!r} is used twice in one message or modal")
            seen.add(custom_id)
    return problems


def _text_problems(
    item: dict, where: str, key: str, limit: int, *, required: bool = False, least: int = 1
) -> list[str]:
    """A string field of `least` to `limit` characters (checked when present, or always when required)."""
    text = item.get(key)
    if text is None:
        return [f"{where}.{key}: missing"] if required else []
    if not isinstance(text, str):
        return [f"{where}.{key}: {text!r} is not a string"]
    if len(text) > limit:
        return [f"{where}.{key}: {len(text)} characters (limit {limit})"]
    if len(text) < least:
        return [f"{where}.{key}: {len(text)} characters (at least {least})"]
    return []


def _bounds_problems(item: dict, where: str, low: str, high: str, floor: int, ceiling: int) -> list[str]:
    """Two optional integers (min_values/max_values, min_length/max_length) within bounds and in order."""
    problems = [
        f"{where}.{key}: {item[key]!r} is outside {start}-{ceiling}"
        for key, start in ((low, floor), (high, max(floor, 1)))
        if item.get(key) is not None and not (isinstance(item[key], int) and start <= item[key] <= ceiling)
    ]
    lowest, highest = item.get(low), item.get(high)
    if not problems and isinstance(lowest, int) and isinstance(highest, int) and lowest > highest:
        problems.append(f"{where}: {low} {lowest} is above {high} {highest}")
    return problems


def _button_problems(button: dict, where: str) -> list[str]:
    style = button.get("style")
    if style not in BUTTON_STYLES:
        return [f"{where}.style: {style!r} is not a button style (1-6)"]
    if style == PREMIUM_STYLE:
        return [] if button.get("sku_id") else [f"{where}: a premium button needs a sku_id"]
    problems = _text_problems(button, where, "label", BUTTON_LABEL, least=0)
    if not button.get("label") and not button.get("emoji"):
        problems.append(f"{where}: a button needs a label or an emoji")
    if style == LINK_STYLE:
        if not button.get("url") or button.get("custom_id"):
            problems.append(f"{where}: a link button needs a url and no custom_id")
    elif not button.get("custom_id"):
        problems.append(f"{where}: a button needs a custom_id (or a url with the link style)")
    elif button.get("url"):
        problems.append(f"{where}: only link buttons may carry a url")
    return problems


def _select_problems(select: dict, where: str) -> list[str]:
    problems = [] if select.get("custom_id") else [f"{where}: a select menu needs a custom_id"]
    problems += _text_problems(select, where, "placeholder", SELECT_PLACEHOLDER, least=0)
    problems += _bounds_problems(select, where, "min_values", "max_values", 0, SELECT_VALUES)
    if select.get("type") == STRING_SELECT:
        problems += _options_problems(select, where)
    return problems


def _options_problems(select: dict, where: str) -> list[str]:
    options = select.get("options") or []
    if not 1 <= len(options) <= SELECT_VALUES:
        return [f"{where}.options: {len(options)} options (a string select takes 1-{SELECT_VALUES})"]
    problems = []
    for index, option in enumerate(options):
        here = f"{where}.options[{index}]"
        problems += _text_problems(option, here, "label", OPTION_TEXT, required=True)
        problems += _text_problems(option, here, "value", OPTION_TEXT, required=True)
        problems += _text_problems(option, here, "description", OPTION_TEXT, least=0)
    values = [option.get("value") for option in options]
    if len(set(values)) != len(values):
        problems.append(f"{where}.options: two options share a value")
    if isinstance(select.get("max_values"), int) and select["max_values"] > len(options):
        problems.append(f"{where}.max_values: {select['max_values']} is more than its {len(options)} options")
    return problems


def _text_input_problems(text_input: dict, where: str) -> list[str]:
    problems = [] if text_input.get("custom_id") else [f"{where}: a text input needs a custom_id"]
    if text_input.get("style") not in INPUT_STYLES:
        problems.append(f"{where}.style: {text_input.get('style')!r} is not a text input style (1 or 2)")
    problems += _text_problems(text_input, where, "label", INPUT_LABEL)
    problems += _text_problems(text_input, where, "placeholder", INPUT_PLACEHOLDER, least=0)
    value = text_input.get("value")
    if isinstance(value, str) and len(value) > INPUT_VALUE:
        problems.append(f"{where}.value: {len(value)} characters (limit {INPUT_VALUE})")
    return problems + _bounds_problems(text_input, where, "min_length", "max_length", 0, INPUT_VALUE)


def _label_problems(label: dict, where: str) -> list[str]:
    problems = _text_problems(label, where, "label", INPUT_LABEL, required=True)
    problems += _text_problems(label, where, "description", OPTION_TEXT)
    return problems + ([] if isinstance(label.get("component"), dict) else [f"{where}: a label needs a component"])


_CHECKS = {
    BUTTON: _button_problems,
    TEXT_INPUT: _text_input_problems,
    LABEL: _label_problems,
    **{kind: _select_problems for kind in SELECTS},
}
