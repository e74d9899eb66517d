"""The import contract: the house's floors, checked from the source on every CI run.

The graph is built with `ast` from every module of bot/, cogs/ and rules/, with every import a module makes:
at the top, inside a function, under ``if TYPE_CHECKING:``. (A package is not counted as imported by its own
modules: Python runs its ``__init__`` first, but that is no edge a module chose.) It fails on:
- any circle;
- rules/ importing bot/, cogs/ or discord (the rules are pure Python);
- bot/ importing cogs/ (the app loads the features by name, EXTENSIONS);
- a floor of bot/ importing a floor above it (LAYERS, top first), or a module of bot/ on no floor;
- a feature importing the app (features see the bot as bot.interactions.rollkeeper.Rollkeeper), or another
  feature (cogs/<feature>/ packages are independent);
- an import chain longer than MAX_CHAIN modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "rules")
MAX_CHAIN = 10

LAYERS = (
    ("app", ("bot.app", "bot.__main__", "bot.playground")),
    ("interactions", ("bot.interactions",)),
    ("render", ("bot.render",)),
    ("storage", ("bot.storage",)),
    ("base", ("bot.errors", "bot.text", "bot.settings", "bot.shards", "bot")),
)
"""The floors of bot/, top first: a module may import its own floor and the floors below. The playground (the
real bot run against a local stand-in for Discord) is a way to run the app, so it stands on the app's floor. The
base holds what even storage uses: the player-fit error, inert player text, and the settings read once from the
environment (with the shard plan they carry)."""

FORBIDDEN_TO_RULES = ("bot", "cogs", "discord")

def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the three packages, by dotted name."""
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((root / package).rglob("*.py"))
        if ".venv" not in path.parts
    }


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names one import statement names: modules, or names inside a module."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        anchor = package[: len(package) - node.level + 1]
        base = ".".join([*anchor, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" if base else alias.name for alias in node.names] + [base]


def import_graph(modules: dict[str, Path]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(edges between our modules, every top-level name each module imports from outside them)."""
    edges: dict[str, set[str]] = {name: set() for name in modules}
    outside: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            named = _imported(name, path, node)
            ours = [target for target in named if target in modules]
            if isinstance(node, ast.ImportFrom) and len(ours) > 1:
                ours = [target for target in ours if target != named[-1]]  # `from pkg import module`: the module
            edges[name].update(target for target in ours if target != name)
            if not ours:
                outside[name].update(target.split(".")[0] for target in named if target)
    return edges, outside


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def longest_chain(edges: dict[str, set[str]]) -> list[str]:
    """The longest path of imports (a chain of modules, each importing the next), in a graph without circles."""
    best: dict[str, list[str]] = {}

    def chain(node: str) -> list[str]:
        if node not in best:
            tails = [chain(target) for target in sorted(edges[node])]
            best[node] = [node, *max(tails, key=len, default=[])]
        return best[node]

    return max((chain(node) for node in sorted(edges)), key=len, default=[])


def layer_of(module: str) -> int | None:
    """The floor of a bot/ module (0 is the top), by its longest matching prefix; None when it is on none."""
    matches = [
        (len(prefix), number) for number, (_, prefixes) in enumerate(LAYERS) for prefix in prefixes
        if _within(module, prefix)
    ]
    return max(matches)[1] if matches else None


def feature_of(module: str) -> str | None:
    """The feature a cogs/ module belongs to (cogs.yearzero.card: yearzero); None for cogs itself."""
    parts = module.split(".")
    return parts[1] if parts[0] == "cogs" and len(parts) > 1 else None


def broken_rules(edges: dict[str, set[str]], outside: dict[str, set[str]]) -> list[str]:
    """Every import that breaks the contract, said in one line each."""
    problems = []
    for module in sorted(edges):
        imports = sorted(edges[module])
        if _within(module, "rules"):
            bad = [m for m in imports if m.split(".")[0] in FORBIDDEN_TO_RULES]
            bad += sorted(name for name in outside[module] if name in FORBIDDEN_TO_RULES)
            why = "rules/ imports nothing of bot/, cogs/ or discord"
            problems += [f"{module} imports {target}: {why}" for target in bad]
        elif _within(module, "bot"):
            floor = layer_of(module)
            if floor is None:
                problems.append(f"{module} is on no floor of LAYERS")
                continue
            for target in imports:
                if _within(target, "cogs"):
                    problems.append(f"{module} imports {target}: bot/ never imports a feature")
                elif _within(target, "bot") and (above := layer_of(target)) is not None and above < floor:
                    problems.append(
                        f"{module} ({LAYERS[floor][0]}) imports {target} ({LAYERS[above][0]}): a floor imports only "
                        "its own and those below"
                    )
        elif _within(module, "cogs"):
            for target in imports:
                if _within(target, "bot") and layer_of(target) == 0:
                    problems.append(f"{module} imports {target}: a feature sees the bot as Rollkeeper, not the app")
                elif _within(target, "cogs") and feature_of(target) != feature_of(module):
                    problems.append(f"{module} imports {target}: a feature imports no other feature")
    return problems


def test_no_import_circle_in_bot_cogs_or_rules():
    edges, _ = import_graph(source_modules())
    found = circles(edges)
    assert found == [], "import circles (function-level and TYPE_CHECKING imports count):\n" + "\n".join(
        " <-> ".join(group) for group in found
    )


def test_every_import_goes_down_the_floors_and_features_stay_apart():
    edges, outside = import_graph(source_modules())
    problems = broken_rules(edges, outside)
    assert problems == [], "imports against the contract:\n" + "\n".join(problems)


def test_no_import_chain_is_longer_than_ten_modules():
    edges, _ = import_graph(source_modules())
    for group in circles(edges):  # a circle has no longest chain (the circle test names it): measure without it
        for module in group:
            edges[module] -= set(group)
    chain = longest_chain(edges)
    assert len(chain) <= MAX_CHAIN, f"{len(chain)} modules: " + " -> ".join(chain)


def test_the_contract_sees_what_it_checks():
    """The graph has the edges it must have (a function-level and a TYPE_CHECKING import among them), so an empty
    list of problems means the code keeps the contract, not that the parser saw nothing."""
    modules = source_modules()
    edges, outside = import_graph(modules)
    assert {"bot.app.client", "bot.interactions.tree", "cogs.yearzero.cog", "rules.dice"} <= modules.keys()
    assert "bot.app.client" in edges["bot.__main__"]  # imported inside _run()
    assert "bot.playground.backend" in edges["bot.playground.interactions"]  # under TYPE_CHECKING
    assert "bot.interactions.logbook" in edges["cogs.yearzero.cog"]  # `from bot.interactions import logbook`
    assert "discord" in outside["bot.interactions.tree"]
    assert all(layer_of(module) is not None for module in modules if _within(module, "bot"))
