#!/usr/bin/env bash
# A free-threaded CPython (built with --disable-gil) for the free-threading stress test
# and benchmark, from Debian's source package of CPython, cached under
# KAFKAWIRE_CACHE_DIR so a warm run reuses it.
#
#   tools/build_freethreaded_python.sh        # prints the interpreter's path
#
# The orig tarball's size and sha256 are checked against Debian's Sources index of the
# release that carries it.  3.13 is the newest series whose source the Debian mirror
# serves here: python3.14's (3.14.8-3.14.10) and python3.15's source files answer 404
# although forky's and sid's indexes list them, Debian builds no free-threaded binary
# package of either, and no PyPI or npm package found carries a CPython source (npm's
# portable-python fetches its builds from elsewhere at run time).
# 3.13t is a supported free-threaded build (PEP 703) that Cython and pyarrow target.
# No PGO/LTO: the interpreter proves thread safety and measures scaling (1 vs 2 threads
# on the same build), not absolute speed.  From an empty cache: about 25 minutes at load
# average 15-20 on 2 cores.
#
# Needs: curl, xz, a C compiler, and the headers for the stdlib's modules
# (libssl-dev zlib1g-dev libffi-dev libbz2-dev liblzma-dev libsqlite3-dev).
set -euo pipefail

VERSION=${CPYTHON_VERSION:-3.13.15}
SERIES=${VERSION%.*}
DEBIAN_SUITE=${DEBIAN_SUITE:-forky}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${KAFKAWIRE_CACHE_DIR:-$HOME/.cache/kafkawire}
PREFIX="$CACHE/cpython-${VERSION}t"
PY="$PREFIX/bin/python${SERIES}t"

if [ -x "$PY" ] && "$PY" -c 'import sys; sys.exit(sys._is_gil_enabled())' 2>/dev/null; then
  echo "$PY"
  exit 0
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TARBALL="python${SERIES}_${VERSION}.orig.tar.xz"

# The checksum line for the tarball in the Sources index: "<sha256> <size> <name>".
curl -fsSL "$MIRROR/dists/$DEBIAN_SUITE/main/source/Sources.xz" | xz -dc >"$WORK/Sources"
ENTRY=$(awk -v pkg="python$SERIES" -v name="$TARBALL" '
  /^Package: / { in_pkg = ($2 == pkg) }
  /^Checksums-Sha256:/ { in_sha = 1; next }
  /^[^ ]/ { in_sha = 0 }
  in_pkg && in_sha && $3 == name { print $1, $2; exit }' "$WORK/Sources")
if [ -z "$ENTRY" ]; then
  echo "error: $TARBALL is not in Debian $DEBIAN_SUITE's Sources index" >&2
  exit 1
fi
read -r SHA256 SIZE <<<"$ENTRY"

echo "== downloading $TARBALL" >&2
curl -fsSL -o "$WORK/$TARBALL" "$MIRROR/pool/main/p/python$SERIES/$TARBALL"
echo "$SHA256  $WORK/$TARBALL" | sha256sum -c --quiet -
if [ "$(stat -c %s "$WORK/$TARBALL")" != "$SIZE" ]; then
  echo "error: $TARBALL is not $SIZE bytes" >&2
  exit 1
fi

echo "== building CPython $VERSION with --disable-gil into $PREFIX" >&2
tar -xJf "$WORK/$TARBALL" -C "$WORK"
cd "$WORK/Python-$VERSION"
# Build into a temporary prefix and move it into place, so an interrupted build never
# leaves a half-installed interpreter that the check above would reuse.
rm -rf "$PREFIX.partial"; mkdir -p "$CACHE"
./configure --disable-gil --prefix="$PREFIX" >"$WORK/configure.log" 2>&1 ||
  { tail -50 "$WORK/configure.log" >&2; exit 1; }
make -j"${JOBS:-$(nproc)}" >"$WORK/make.log" 2>&1 || { tail -50 "$WORK/make.log" >&2; exit 1; }
make install DESTDIR="$PREFIX.partial" >"$WORK/install.log" 2>&1 ||
  { tail -50 "$WORK/install.log" >&2; exit 1; }
rm -rf "$PREFIX"
mv "$PREFIX.partial$PREFIX" "$PREFIX"
rm -rf "$PREFIX.partial"; mkdir -p "$CACHE"
"$PY" -c 'import sys; assert not sys._is_gil_enabled(), "the GIL is enabled"'
echo "$PY"
