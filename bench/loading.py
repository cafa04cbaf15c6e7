"""Loading the tutorials (and generated sources) as modules, for the
benchmarks in this folder."""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load_module(path, name):
    """The Python file at `path`, run as module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_tutorial(name, directory=None):
    """tutorials/`name` (e.g. "03-matrix-multiplication.py") as a module, or
    `directory`/`name` (a variant of the tutorial to compare)."""
    return load_module(os.path.join(directory or os.path.join(HERE, "..", "tutorials"), name),
                       name.replace("-", "_")[:-3])
