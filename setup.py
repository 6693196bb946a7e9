"""Builds kafkawire's Cython extensions, or none when they cannot be built.

Every ``kafkawire/_fast/*.pyx`` becomes an extension module.  Where they cannot be
compiled (no C compiler, a compile or link error) the build goes on without them and
says so: the package then runs its pure-Python backend, with one warning at import.
``KAFKAWIRE_REQUIRE_EXTENSIONS=1`` makes such a failure an error (CI and wheel builds);
``KAFKAWIRE_NO_EXTENSIONS=1`` builds none on purpose (the ``py3-none-any`` wheel).  On
PyPy no extension is built: the pure backend is the one that works there.
``KAFKAWIRE_DEBUG=1`` builds with bounds checks, assertions and debug info;
``KAFKAWIRE_COVERAGE=1`` builds with line tracing, for coverage.py's ``Cython.Coverage``
plugin (slow: for coverage runs only).
"""

import glob
import os
import platform
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

# setuptools' own distutils (set up by importing setuptools): the compiler classes and
# errors of the build itself, which setuptools._distutils may hold a second copy of
from distutils.ccompiler import new_compiler  # noqa: E402
from distutils.sysconfig import customize_compiler  # noqa: E402

# what a missing or failing compiler or linker raises
BUILD_ERRORS = (CCompilerError, BaseError, OSError)

# C sources compiled into the extension of the same stem.
C_HELPERS = {
    "crc": ["kafkawire/_fast/crc32c_impl.c", "kafkawire/_fast/crc32_impl.c"],
}

DEBUG = os.environ.get("KAFKAWIRE_DEBUG") == "1"
COVERAGE = os.environ.get("KAFKAWIRE_COVERAGE") == "1"
REQUIRED = os.environ.get("KAFKAWIRE_REQUIRE_EXTENSIONS") == "1"

# Cython's options for every module: the checks are on only in a debug build, and every
# module runs without the GIL on a free-threaded CPython (its shared state is locked or
# published whole: the Arrow block pool, pyarrow's lazy import, each batch's records).
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "embedsignature": True,
    "linetrace": COVERAGE,
    "freethreading_compatible": True,
}


def _compile_args():
    """Flags for the compiler at hand: gcc and clang take -O3 and drop debug info (a
    wheel 3x smaller); MSVC keeps setuptools' /Ox and needs nothing for the CRC code."""
    if sys.platform == "win32":
        return [], []
    compile_args = ["-O0", "-g", "-UNDEBUG"] if DEBUG else ["-O3", "-g0"]
    link_args = []
    sanitize = os.environ.get("KAFKAWIRE_SANITIZE")  # e.g. "address,undefined"
    if sanitize:
        compile_args += [f"-fsanitize={sanitize}", "-fno-omit-frame-pointer", "-g"]
        link_args += [f"-fsanitize={sanitize}"]
    return compile_args, link_args


def _extensions():
    if os.environ.get("KAFKAWIRE_NO_EXTENSIONS") == "1":
        return []
    if platform.python_implementation() != "CPython":
        print(
            f"kafkawire: no compiled extensions on {platform.python_implementation()}; "
            "its pure-Python backend is the one that runs there"
        )
        return []
    sources = sorted(glob.glob("kafkawire/_fast/*.pyx"))
    if not sources:  # an incomplete source tree must not quietly give a pure-Python build
        sys.exit(
            "kafkawire/_fast/*.pyx not found: this source tree lacks the Cython sources "
            "(set KAFKAWIRE_NO_EXTENSIONS=1 to build the pure-Python package on purpose)"
        )
    compile_args, link_args = _compile_args()
    # line events for coverage.py, also from the code that runs without the GIL
    macros = [("CYTHON_TRACE", "1"), ("CYTHON_TRACE_NOGIL", "1")] if COVERAGE else []
    return [
        Extension(
            f"kafkawire._fast.{os.path.splitext(os.path.basename(pyx))[0]}",
            [pyx] + C_HELPERS.get(os.path.splitext(os.path.basename(pyx))[0], []),
            include_dirs=["kafkawire/_fast"],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
            define_macros=macros,
        )
        for pyx in sources
    ]


class BuildExt(build_ext):
    """Cythonizes at build time, and turns a missing or failing C compiler into a
    pure-Python build with a warning instead of a failed install."""

    def finalize_options(self):
        # Cythonized before setuptools looks at the extensions: cythonize returns new
        # Extension objects, and setuptools marks up the ones it is given here.
        self._problem = None
        self._names = [ext.name for ext in self.distribution.ext_modules or []]
        if self._names:
            self._problem = self._compiler_problem()
            if self._problem is None:
                from Cython.Build import cythonize

                # a Cython error is a bug in the sources, never a reason to fall back (a
                # coverage build regenerates the C: a normal build's has no trace calls)
                self.distribution.ext_modules = cythonize(
                    self.distribution.ext_modules,
                    compiler_directives=DIRECTIVES,
                    quiet=True,
                    force=COVERAGE,
                )
            else:
                self.distribution.ext_modules = []
        super().finalize_options()

    def run(self):
        if self._problem is None:
            try:
                return super().run()
            except BUILD_ERRORS as exc:
                self._problem = f"{type(exc).__name__}: {exc}"
        self._fall_back(self._problem)

    def _compiler_problem(self):
        """Why no C extension can be built here (None when a test file compiles)."""
        compiler = new_compiler(compiler=self.compiler, verbose=self.verbose, force=True)
        customize_compiler(compiler)
        with tempfile.TemporaryDirectory() as tmp:
            probe = os.path.join(tmp, "probe.c")
            with open(probe, "w") as f:
                f.write("int kafkawire_probe(void) { return 0; }\n")
            try:
                compiler.compile([probe], output_dir=tmp)
            except BUILD_ERRORS as exc:
                return f"the C compiler does not work ({type(exc).__name__}: {exc})"
        return None

    def _fall_back(self, problem):
        if REQUIRED:
            sys.exit(f"KAFKAWIRE_REQUIRE_EXTENSIONS=1 but the extensions cannot be built: {problem}")
        for name in self._names:  # all or none: never half a compiled backend
            path = self.get_ext_fullpath(name)
            if os.path.exists(path):
                os.remove(path)
        self.extensions = []
        print(
            "\n".join(
                [
                    "",
                    "WARNING: kafkawire's Cython extensions could not be built, so this "
                    "install runs the pure-Python backend (same results, several times slower).",
                    f"  Why: {problem}",
                    "  For the compiled backend install a C compiler (gcc, clang or MSVC) and "
                    "reinstall, or install a prebuilt wheel; set KAFKAWIRE_NO_EXTENSIONS=1 to "
                    "build the pure-Python package on purpose.",
                    "",
                ]
            ),
            file=sys.stderr,
        )


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
