#!/usr/bin/env python3
"""Checks the links and paths of README.md and docs/**/*.md, so that a fresh clone's documentation
names only what the clone holds.

Fails (exit 1, one line per failure naming file:line) when:
  - a relative Markdown link or image target, [text](path) or ![alt](path), names no file or
    folder of the repository, or a #fragment names no heading of the Markdown file it points at;
  - a link leaves the repository, or anything names ../shared/ (the project stands alone);
  - a backticked repository path (`src/...`, `scripts/...`, `results/...`, `docs/...`, `tests/...`,
    `benches/...`, `python/...`, `assets/...`, `.ci/...`) names nothing; a path holding a
    placeholder (<name>, *, NAME, GAME, ..., {a,b}) is not checked;
  - a generated block's <!-- NAME:begin --> has no <!-- NAME:end --> after it (or the reverse).
Links and paths inside fenced code blocks are not checked; web links are not fetched.
Prints a closing line: "docs: N passed, M failed".

Usage: scripts/check-docs.py   (from anywhere; it reads the repository it lives in)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIXES = ('src/', 'scripts/', 'results/', 'docs/', 'tests/', 'benches/', 'python/', 'assets/',
            '.ci/')
PLACEHOLDERS = ('<', '>', '*', 'NAME', 'GAME', '...', '…', '{', '$', 'DIR', 'PATH')

passed = 0
failures = []


def check(ok, where, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(f'{where}: {what}')
        print(f'FAIL {where}: {what}')


def slug(heading):
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to -."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link: its text
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)  # keeps letters, digits, _, - and spaces
    return text.replace(' ', '-')


_anchors = {}


def anchors(path):
    """The anchors of a Markdown file's headings (duplicates numbered as GitHub numbers them)."""
    if path not in _anchors:
        seen, found = {}, set()
        fenced = False
        for line in open(path, encoding='utf-8'):
            if line.lstrip().startswith('```'):
                fenced = not fenced
            m = None if fenced else re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
            if m:
                s = slug(m.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                found.add(s if n == 0 else f'{s}-{n}')
        _anchors[path] = found
    return _anchors[path]


def inside_repo(path):
    return os.path.realpath(path).startswith(os.path.realpath(ROOT) + os.sep) or \
        os.path.realpath(path) == os.path.realpath(ROOT)


def check_link(where, base, target):
    if re.match(r'[a-z][a-z0-9+.-]*:', target, re.I):  # https:, mailto: ...
        return
    if 'shared/' in target:
        check(False, where, f'link to {target}: the project stands alone, without ../shared/')
        return
    path, _, fragment = target.partition('#')
    full = os.path.normpath(os.path.join(base, path)) if path else None
    if full is not None:
        if not inside_repo(full):
            check(False, where, f'link {target} leaves the repository')
            return
        check(os.path.exists(full), where, f'link {target}: no such file or folder')
        if not os.path.exists(full):
            return
    if fragment:
        doc = full or where.rsplit(':', 1)[0]
        doc = doc if os.path.isabs(doc) else os.path.join(ROOT, doc)
        if doc.endswith('.md') and os.path.isfile(doc):
            check(fragment in anchors(doc), where,
                  f'link {target}: no heading #{fragment} in {os.path.relpath(doc, ROOT)}')


def check_path(where, text):
    for token in text.split():
        token = token.strip('.,;:()\'"')
        if not token.startswith(PREFIXES) or any(p in token for p in PLACEHOLDERS):
            continue
        path = token.split('#')[0]
        check(os.path.exists(os.path.join(ROOT, path)), where,
              f'path `{token}`: no such file or folder')


def check_file(path):
    rel = os.path.relpath(path, ROOT)
    base = os.path.dirname(path)
    fenced = False
    open_blocks = {}
    for number, line in enumerate(open(path, encoding='utf-8'), 1):
        where = f'{rel}:{number}'
        if '../shared/' in re.sub(r'\]\([^)]*\)', '](...)', line):  # links are checked below
            check(False, where, 'names ../shared/: the project stands alone')
        marker = re.fullmatch(r'<!-- ([\w-]+):(begin|end) -->', line.rstrip('\n'))
        for m in [marker] if marker else []:
            name, kind = m.groups()
            if kind == 'begin':
                check(name not in open_blocks, where, f'<!-- {name}:begin --> again before its end')
                open_blocks[name] = where
            else:
                check(name in open_blocks, where, f'<!-- {name}:end --> without its begin')
                open_blocks.pop(name, None)
        if line.lstrip().startswith('```'):
            fenced = not fenced
            continue
        if fenced:
            continue
        # Inline code first: a path named there, and no link inside it.
        spans = re.findall(r'(`+)(.+?)\1', line)
        for _, code in spans:
            check_path(where, code)
        prose = re.sub(r'(`+)(.+?)\1', '', line)
        for m in re.finditer(r'!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)', prose):
            check_link(where, base, m.group(1))
        for m in re.finditer(r'^\s*\[[^\]]+\]:\s*(\S+)', prose):  # reference-style definitions
            check_link(where, base, m.group(1))
    for name, where in open_blocks.items():
        check(False, where, f'<!-- {name}:begin --> without its end')


files = [os.path.join(ROOT, 'README.md')] + sorted(
    glob.glob(os.path.join(ROOT, 'docs', '**', '*.md'), recursive=True))
for f in files:
    check_file(f)
print(f'docs: {passed} passed, {len(failures)} failed')
sys.exit(1 if failures else 0)
