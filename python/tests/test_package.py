"""The front end's package structure: no import circle among its modules (imports inside functions included)."""
from __future__ import annotations

import ast
import unittest
from pathlib import Path

import harness_testing  # noqa: F401  (puts python/ on the path)
import proxylab_tools

PACKAGE = Path(proxylab_tools.__file__).parent


def import_graph(package: Path) -> dict[str, set[str]]:
    """{module: the package's modules it imports}, from every import statement in the module's source."""
    modules = {p.stem for p in package.glob("*.py")}
    graph = {}
    for path in package.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 1 or (node.module or "").startswith(package.name):
                parts = (node.module or "").split(".")
                name = parts[0] if node.level == 1 else (parts[1] if len(parts) > 1 else "")
                deps |= {name} if name else {a.name for a in node.names}
        graph[path.stem] = deps & modules - {path.stem}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle as [a, b, ..., a], or [] when the graph has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state and (cycle := visit(d)):
                return cycle
        path.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (cycle := visit(m)):
            return cycle
    return []


class ImportGraph(unittest.TestCase):
    def test_finds_a_planted_circle(self):
        self.assertEqual(find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}), ["a", "b", "c", "a"])
        self.assertEqual(find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}), [])

    def test_no_import_circle(self):
        graph = import_graph(PACKAGE)
        self.assertIn("harness_common", graph["harness_gantt"])  # the graph sees imports inside functions
        self.assertEqual(find_cycle(graph), [], "import circle in proxylab_tools")


if __name__ == "__main__":
    unittest.main()
