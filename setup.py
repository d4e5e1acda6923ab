"""Build the Cython kernels in ext/ into oddsmith._ext.<name>.

Every ext/<name>.pyx becomes the extension module oddsmith._ext.<name>.
Set ODDSMITH_NATIVE=1 to compile with -march=native (about 12 % faster here,
but the wheel then runs only on CPUs like the build machine).
Set ODDSMITH_EXTENSIONS=name1,name2 to build only some modules (development).
"""
import os
import sys
from glob import glob

import setuptools

# pyproject.toml states its licence as an SPDX expression (license = "MIT"),
# which setuptools reads from version 77 on; older ones stop with a schema dump.
if int(setuptools.__version__.split(".")[0]) < 77:
    sys.exit(f"oddsmith: setuptools {setuptools.__version__} is too old to build oddsmith (it needs 77 or later): "
             "pip install 'setuptools>=77', or build with pip, which fetches it")

import numpy as np  # noqa: E402
from Cython.Build import cythonize  # noqa: E402
from setuptools import Extension, setup  # noqa: E402

PACKAGES = [
    "oddsmith",
    "oddsmith.rules",
    "oddsmith.rules.shadows",
    "oddsmith.doomtown",
    "oddsmith.shadows",
    "oddsmith.report",
    "oddsmith.commands",
    "oddsmith._ext",
    "oddsmith.data",
    "oddsmith.web",
    "oddsmith.web.pages",
]


def extensions():
    only = {n for n in os.environ.get("ODDSMITH_EXTENSIONS", "").split(",") if n}
    compile_args = ["-O3", "-fno-math-errno"] if sys.platform != "win32" else ["/O2"]
    if os.environ.get("ODDSMITH_NATIVE") == "1" and sys.platform != "win32":
        compile_args.append("-march=native")
    exts = []
    for source in sorted(glob(os.path.join("ext", "*.pyx"))):
        name = os.path.splitext(os.path.basename(source))[0]
        if only and name not in only:
            continue
        exts.append(
            Extension(
                f"oddsmith._ext.{name}",
                [source],
                include_dirs=[np.get_include(), "ext"],
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                extra_compile_args=compile_args,
            )
        )
    return exts


setup(
    packages=PACKAGES,
    package_data={
        "oddsmith": ["py.typed"],
        "oddsmith._ext": ["*.pyi"],
        "oddsmith.data": ["**/*"],
        "oddsmith.report": ["*.mplstyle"],
        "oddsmith.web": ["templates/*.html", "static/*.css", "static/*.js", "static/*.svg"],
    },
    include_package_data=True,
    ext_modules=cythonize(
        extensions(),
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        include_path=["ext"],
    ),
    zip_safe=False,
)
