"""What the modules of readme_tables.py share: where results/ is and how its files are read."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    """A results/ JSON file."""
    with open(os.path.join(ROOT, 'results', path)) as f:
        return json.load(f)


def text(path):
    """A results/ text file."""
    with open(os.path.join(ROOT, 'results', path)) as f:
        return f.read()


def n(x):
    return f'{x:,}'
