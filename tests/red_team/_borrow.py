"""The red team's way to pass off a copy of the suite's reference found somewhere readable: load the
package ``reference`` from a folder or an archive (a wheel, a zip) under another name."""

from __future__ import annotations

import importlib.util
import os
import sys
import zipfile


def reference_from(location: str):
    """The ``reference`` package found at ``location`` (its parent folder, or an archive holding it)."""
    if zipfile.is_zipfile(location):
        folder = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"borrowed-{os.getpid()}")
        zipfile.ZipFile(location).extractall(folder)
        location = folder
    init = os.path.join(location, "reference", "__init__.py")
    spec = importlib.util.spec_from_file_location(
        "borrowed_reference", init, submodule_search_locations=[os.path.dirname(init)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["borrowed_reference"] = module
    spec.loader.exec_module(module)
    return module
