#!/usr/bin/env python3
"""Every committed results/ file of the kinds docs/schema/ describes validates against its
schema: summary.json (also each rule set's summary inside a sweep.json), sweep.json,
compare.json and a search's document (search.json, census.json, reaching.json). The schemas are derived from the Rust types (src/export/schema_tests.rs checks
that the committed ones are what the types give); this checks the files against them.
Uses the `jsonschema` package, installed into target/schema-venv from PyPI when python3 lacks it.
Usage: scripts/check-schemas.py [ROOT=results]"""
import json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(here)
try:
    import jsonschema
except ImportError:
    venv = os.path.join(repo, 'target', 'schema-venv')
    python = os.path.join(venv, 'bin', 'python3')
    if os.environ.get('WARSIM_SCHEMA_VENV') or not os.path.exists(python) or subprocess.run(
            [python, '-c', 'import jsonschema'], capture_output=True).returncode:
        if os.environ.get('WARSIM_SCHEMA_VENV'):
            sys.exit('check-schemas: jsonschema missing from ' + venv)
        subprocess.run([sys.executable, '-m', 'venv', venv], check=True)
        subprocess.run([python, '-m', 'pip', 'install', '-q', '--disable-pip-version-check', 'jsonschema'],
                       check=True)
    os.environ['WARSIM_SCHEMA_VENV'] = '1'
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo, 'results')
schemas = {}
for kind in ('summary', 'sweep', 'compare', 'search'):
    with open(os.path.join(repo, 'docs', 'schema', f'{kind}.schema.json')) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    schemas[kind] = cls(schema)

bad, counts = [], {k: 0 for k in schemas}


def check(kind, doc, where):
    counts[kind] += 1
    for e in schemas[kind].iter_errors(doc):
        path = '/'.join(str(p) for p in e.absolute_path)
        bad.append(f'{where}: {path or "(top)"}: {e.message[:200]}')


for dirpath, dirs, files in os.walk(root):
    dirs.sort()
    for name in sorted(files):
        kind = name[:-len('.json')] if name.endswith('.json') else None
        kind = 'search' if kind in ('census', 'reaching') else kind
        if kind not in schemas:
            continue
        path = os.path.join(dirpath, name)
        with open(path) as f:
            doc = json.load(f)
        if kind == 'summary' and not (isinstance(doc, dict) and 'games' in doc and 'rounds' in doc):
            continue  # a table's own summary.json (results/bmn/record-search), not a run's
        check(kind, doc, path)
        if kind == 'sweep':
            for i, s in enumerate(doc.get('rule_sets', [])):
                # A stopped sweep's rule set that it did not reach has no summary.
                if 'summary' in s or s.get('held') != 'missing':
                    check('summary', s.get('summary'), f'{path} rule_sets/{i}/summary')
for line in bad[:50]:
    print('check-schemas:', line, file=sys.stderr)
print('check-schemas: ' + ', '.join(f'{n} {k}.json' for k, n in counts.items()) +
      f' checked against docs/schema/, {len(bad)} error(s)')
sys.exit(1 if bad else 0)
