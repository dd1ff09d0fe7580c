#!/usr/bin/env bash
# Makes results/python/example.png with the notebook example of docs/python.md, run as written
# there: the ```python block after the page's `<!-- python-example ... -->` line, read from the
# page (so the page cannot drift from what runs), played statement by statement as a notebook
# plays cells, each expression's value printed; then the PNG a notebook shows for `r`.
# Usage: scripts/python-example.sh   (after scripts/python-test.sh or `pip install '.[notebook]'`)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
mkdir -p "$root/results/python"
cd "$root/results/python"
python3 - "$root/docs/python.md" <<'PY'
import ast, sys

page = sys.argv[1]
text = open(page, encoding="utf-8").read()
marker = text.find("<!-- python-example")
start = text.find("```python\n", marker)
end = text.find("\n```", start + 1)
if marker < 0 or start < 0 or end < 0:
    sys.exit(f"python-example: no ```python block after <!-- python-example --> in {page}")
code = text[start + len("```python\n"):end + 1]
cells = {}
for node in ast.parse(code, page).body:
    if isinstance(node, ast.Expr):  # a notebook shows the value of an expression
        value = eval(compile(ast.Expression(node.value), page, "eval"), cells)
        if value is not None:
            print(value)
    else:
        exec(compile(ast.Module([node], []), page, "exec"), cells)
with open("example.png", "wb") as f:
    f.write(cells["r"].to_png())  # what a notebook shows for `r`
PY
