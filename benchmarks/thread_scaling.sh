#!/usr/bin/env bash
# benchmarks/thread_scaling.py twice, one after the other: on the free-threaded CPython
# that tools/build_freethreaded_python.sh caches (PYTHON_GIL=0), then on a GIL build
# (GIL_PYTHON, default python3: the project's venv).  For a quiet window:
#
#   benchmarks/thread_scaling.sh                 # extra arguments go to thread_scaling.py
#
# Each interpreter runs a copy of this tree whose extensions are compiled for it once per
# content of setup.py and kafkawire/_fast, kept under KAFKAWIRE_CACHE_DIR (the free-threaded
# venv, with Cython and pyarrow, is the one tests/protocol/test_free_threaded.py uses).  With those
# cached, only the two benchmarks run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${KAFKAWIRE_CACHE_DIR:-$HOME/.cache/kafkawire}
GIL_PYTHON=${GIL_PYTHON:-python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

FT=$(tools/build_freethreaded_python.sh)
TAG=$("$FT" -c 'import sys, sysconfig; print(sys.version.split()[0] + sysconfig.get_config_var("ABIFLAGS"))')
VENV=$CACHE/freethreaded-venv-$TAG
if [ ! -x "$VENV/bin/python" ]; then
  rm -rf "$VENV.partial"
  "$FT" -m venv "$VENV.partial"
  "$VENV.partial/bin/python" -m pip install -q --only-binary=:all: \
    "setuptools>=77" "Cython>=3.1,<3.4" "pyarrow>=14"
  mv "$VENV.partial" "$VENV"
fi

# bench <python> [VAR=value...]: thread_scaling.py on a copy of the tree built for <python>
bench() {
  local py=$1 key tree built
  shift
  key=$( ("$py" -c 'import sys; print(sys.version)'; git ls-files -z setup.py kafkawire/_fast |
    xargs -0 sha256sum) | sha256sum | cut -c1-16)
  tree=$WORK/$key
  built=$CACHE/thread-scaling-extensions/$key
  mkdir -p "$tree"
  git ls-files -z setup.py kafkawire | tar --null -T - -cf - | tar -xf - -C "$tree"
  if [ ! -d "$built" ]; then
    echo "== compiling the extensions for $py (once for these sources)" >&2
    (cd "$tree" && KAFKAWIRE_REQUIRE_EXTENSIONS=1 "$py" setup.py -q build_ext --inplace) \
      >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log" >&2; exit 1; }
    rm -rf "$built.partial" && mkdir -p "$built.partial"
    cp "$tree"/kafkawire/_fast/*.so "$built.partial/"
    mv "$built.partial" "$built"
  fi
  cp "$built"/*.so "$tree/kafkawire/_fast/"
  (cd "$WORK" && env PYTHONPATH="$tree" KAFKAWIRE_REQUIRE_EXTENSIONS=1 "$@" \
    "$py" "$ROOT/benchmarks/thread_scaling.py" "${ARGS[@]}")
}

ARGS=("$@")
bench "$VENV/bin/python" PYTHON_GIL=0
echo
bench "$GIL_PYTHON"
