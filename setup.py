"""Ship rules/, prompts/, the demo documents and the fitted LeSeGR weights inside built
wheels (``clausegraph/_data/``).

A source checkout (``pip install -e .``) reads them in place, where they are edited; a wheel
or ``pip install .`` has no checkout beside it, so ``build_py`` copies them into the package
(``clausegraph.config._resource_dir`` looks there first). Everything else is in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
RESOURCES = ("rules", "prompts", "docs/dataset", "docs/lesegr_weights.json")


class BuildPyWithResources(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # editable installs read the checkout; a copy would go stale
        target = Path(self.build_lib) / "clausegraph" / "_data"
        for name in RESOURCES:
            destination = target / name
            if (ROOT / name).is_file():
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, destination)
                continue
            if destination.exists():
                shutil.rmtree(destination)
            shutil.copytree(ROOT / name, destination,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildPyWithResources})
