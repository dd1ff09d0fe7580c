#!/usr/bin/env python3
"""Import circles between the top-level modules of each crate of the workspace, and between
its files.

A module `a` imports `b` when a file under `a` names `crate::b` (in a `use` or a path), or
reaches it through `super::`. A file imports another when it names a path into it (`crate::`,
`super::` or `self::` paths, `use` groups included); a folder's mod.rs and the files below it
are one family, whose paths to each other are the nesting, not imports. Doc comments, comments and test code (a `#[cfg(test)]` module,
inline or in its own file) are not imports: tests may drive a module from above. Exits 1, naming the
circle, when two modules import each other through any chain; 0 otherwise.
Usage: scripts/import-cycles.py [SRC_DIR ...]  (default: src core/src)
"""
import re
import sys
from pathlib import Path


def top_modules(src: Path):
    """The crate's top-level modules: a file or a folder under src/ named in lib.rs."""
    lib = (src / "lib.rs").read_text()
    return set(re.findall(r"^\s*(?:pub\s+)?mod\s+(\w+)\s*;", lib, re.M))


def module_of(src: Path, path: Path):
    rel = path.relative_to(src).parts
    return rel[0].removesuffix(".rs")


TEST_MOD = re.compile(r"#\[cfg\((?:test|all\(test[^)]*\))\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*(;|\{)")


def code(text: str) -> str:
    """The text without comments (line comments, doc comments), string literals and inline
    test modules (from their `#[cfg(test)]` to the end of the file, where they stand)."""
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    for m in TEST_MOD.finditer(text):
        if m.group(2) == "{":
            return text[: m.start()]
    return text


def test_files(src: Path):
    """The files of modules declared under `#[cfg(test)]`, and everything below them."""
    out = set()
    for path in src.rglob("*.rs"):
        folder = path.parent if path.name in ("mod.rs", "lib.rs") else path.with_suffix("")
        for m in TEST_MOD.finditer(path.read_text()):
            if m.group(2) == ";":
                name = m.group(1)
                out |= {folder / f"{name}.rs", folder / name / "mod.rs"}
                out |= set((folder / name).rglob("*.rs"))
    return out


def edges(src: Path, mods):
    found = {m: set() for m in mods}
    tests = test_files(src)
    for path in src.rglob("*.rs"):
        if path.name in ("lib.rs", "main.rs") or path in tests:
            continue
        a = module_of(src, path)
        if a not in mods:
            continue
        text = code(path.read_text())
        targets = set(re.findall(r"\bcrate::(\w+)", text))
        # `use crate::{a, b::c}`
        for group in re.findall(r"\bcrate::\{([^}]*)\}", text):
            targets |= set(re.findall(r"(?:^|,)\s*(\w+)", group))
        depth = len(path.relative_to(src).parts) - 1
        if path.name == "mod.rs":
            depth -= 1
        # `super::x` from a file `depth` folders below src/ reaches the top level.
        if depth == 0:
            targets |= set(re.findall(r"\bsuper::(\w+)", text))
        found[a] |= {b for b in targets if b in mods and b != a}
    return found


def file_modules(src: Path, tests):
    """Each non-test file of the crate by its module path (`games/war/mod.rs` is games/war)."""
    files = {}
    for path in src.rglob("*.rs"):
        if path in tests:
            continue
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        files[tuple(parts)] = path
    return files


def resolve(files, here, segments):
    """The file a path from module `here` lands in: its longest prefix that is a file."""
    if segments[0] == "crate":
        base, rest = [], segments[1:]
    else:
        base, rest = list(here), segments
        while rest and rest[0] in ("super", "self"):
            base = base[:-1] if rest[0] == "super" else base
            rest = rest[1:]
    whole = base + rest
    for k in range(len(whole), 0, -1):
        if tuple(whole[:k]) in files:
            return tuple(whole[:k])
    return None


PATH = re.compile(r"\b((?:crate|super|self)(?:::\w+)+)(?:::\{([^;{}]*)\})?")


def file_edges(src: Path):
    files = file_modules(src, test_files(src))
    found = {m: set() for m in files}
    for here, path in files.items():
        for m in PATH.finditer(code(path.read_text())):
            head = m.group(1).split("::")
            paths = [head]
            for item in (m.group(2) or "").split(","):
                item = item.split(" as ")[0].strip()
                if item and item != "self":
                    paths.append(head + item.split("::"))
            for segments in paths:
                there = resolve(files, here, segments)
                family = there and (there[: len(here)] == here or here[: len(there)] == there)
                if there and not family:
                    found[here].add(there)
    return found


def circles(graph):
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def path(graph, a, b, within):
    """A shortest chain of imports from a to b inside `within`."""
    prev, todo = {a: None}, [a]
    for v in todo:
        for w in sorted(graph[v] & within):
            if w not in prev:
                prev[w] = v
                todo.append(w)
    chain, v = [], b
    while v is not None:
        chain.append(v)
        v = prev[v]
    return chain[::-1]


def main():
    dirs = [Path(d) for d in (sys.argv[1:] or ["src", "core/src"])]
    bad = False
    for src in dirs:
        mods = top_modules(src)
        graph = edges(src, mods)
        for group in circles(graph):
            within = set(group)
            a = group[0]
            back = min((path(graph, b, a, within) for b in graph[a] & within), key=len)
            print(f"{src}: import circle: {' -> '.join([a] + back)}", file=sys.stderr)
            bad = True
        graph = file_edges(src)
        for group in circles(graph):
            within = set(group)
            a = group[0]
            back = min((path(graph, b, a, within) for b in graph[a] & within), key=len)
            names = ["/".join(m) for m in [a] + back]
            print(f"{src}: import circle among files: {' -> '.join(names)}", file=sys.stderr)
            bad = True
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
