"""As the course's template has it: the package reads its own installed version (`pip install -e .`)."""

import importlib.metadata

__version__ = importlib.metadata.version("cs336_basics")
