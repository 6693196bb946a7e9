"""Builds kafkawire's Cython extensions.

Every ``kafkawire/_fast/*.pyx`` becomes an extension module.  ``KAFKAWIRE_NO_EXTENSIONS=1``
builds none (the pure-Python backend then runs); ``KAFKAWIRE_DEBUG=1`` builds with
bounds checks and assertions on; ``KAFKAWIRE_COVERAGE=1`` builds with line tracing, for
coverage.py's ``Cython.Coverage`` plugin (slow: for coverage runs only).
"""

import glob
import os
import sys

from setuptools import Extension, setup

# C sources compiled into the extension of the same stem.
C_HELPERS = {
    "crc": ["kafkawire/_fast/crc32c_impl.c", "kafkawire/_fast/crc32_impl.c"],
}


def _extensions():
    if os.environ.get("KAFKAWIRE_NO_EXTENSIONS") == "1":
        return []
    from Cython.Build import cythonize

    debug = os.environ.get("KAFKAWIRE_DEBUG") == "1"
    compile_args = []
    if sys.platform != "win32":
        compile_args = ["-O0", "-g", "-UNDEBUG"] if debug else ["-O3"]
    sanitize = os.environ.get("KAFKAWIRE_SANITIZE")  # e.g. "address,undefined"
    link_args = []
    if sanitize:
        compile_args += [f"-fsanitize={sanitize}", "-fno-omit-frame-pointer", "-g"]
        link_args += [f"-fsanitize={sanitize}"]
    sources = sorted(glob.glob("kafkawire/_fast/*.pyx"))
    if not sources:  # an incomplete source tree must not quietly give a pure-Python build
        sys.exit(
            "kafkawire/_fast/*.pyx not found: this source tree lacks the Cython sources "
            "(set KAFKAWIRE_NO_EXTENSIONS=1 to build the pure-Python package on purpose)"
        )
    coverage = os.environ.get("KAFKAWIRE_COVERAGE") == "1"
    # line events for coverage.py, also from the code that runs without the GIL
    macros = [("CYTHON_TRACE", "1"), ("CYTHON_TRACE_NOGIL", "1")] if coverage else []
    exts = []
    for pyx in sources:
        stem = os.path.splitext(os.path.basename(pyx))[0]
        exts.append(
            Extension(
                f"kafkawire._fast.{stem}",
                [pyx] + C_HELPERS.get(stem, []),
                include_dirs=["kafkawire/_fast"],
                extra_compile_args=compile_args,
                extra_link_args=link_args,
                define_macros=macros,
            )
        )
    directives = {
        "language_level": 3,
        "boundscheck": debug,
        "wraparound": debug,
        "cdivision": True,
        "initializedcheck": debug,
        "embedsignature": True,
        "linetrace": coverage,
    }
    # a coverage build regenerates the C files: those of a normal build have no trace calls
    return cythonize(exts, compiler_directives=directives, quiet=True, force=coverage)


setup(ext_modules=_extensions())
