#!/usr/bin/env bash
# The CRC-32C C code's hardware paths on targets this machine has no Python for:
# tools/crc32c_vectors.c (RFC 3720's vectors, then the selected path against the table
# code) built with zig's C compiler (PyPI's `ziglang`) for
#
#   x86_64 Linux   : run here (sse4.2 where the CPU has it)
#   aarch64 Linux  : static (musl), run under qemu-user (armv8: qemu's CPU has CRC32)
#   aarch64 Windows: compiled and linked only (mingw clang; nothing here runs it); the
#                    assembly must hold crc32cx and the IsProcessorFeaturePresent check
#   x86_64 Windows : compiled and linked only, the same way (crc32q and CPUID)
#
# MSVC's own branches (KW_MSVC_X64, KW_MSVC_ARM64) need MSVC and are compiled only by
# the Windows jobs of .github/workflows/wheels.yml, whose tests check implementation().
#
#   tools/check_crc32c_cross.sh   # a few minutes on 2 busy cores (zig builds its libcs once)
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 -m venv "$WORK/zig"
"$WORK/zig/bin/python" -m pip install -q ziglang
if ! command -v qemu-aarch64 >/dev/null; then
  apt-get install -y -qq qemu-user >/dev/null
fi
SRC=(-O2 -Wall -Wextra -Werror -Ikafkawire/_fast tools/crc32c_vectors.c kafkawire/_fast/crc32c_impl.c)
zcc() { "$WORK/zig/bin/python" -m ziglang cc "$@"; }

# build <target> <assembly pattern>...: links the test, and checks the hardware path
# was compiled in (its instruction and its CPU check are in the assembly)
build() {
  local target=$1 out="$WORK/crc-$1" pattern
  shift
  zcc -target "$target" "${SRC[@]}" -o "$out"
  zcc -target "$target" -O2 -Wno-unused-command-line-argument -Ikafkawire/_fast -S kafkawire/_fast/crc32c_impl.c -o "$out.s"
  for pattern in "$@"; do
    grep -qE "$pattern" "$out.s" || { echo "FAIL $target: no '$pattern' in the assembly" >&2; exit 1; }
  done
  echo "== $target: built, assembly has: $*"
}

# run <expected path> <command...>
run() {
  local expect=$1 output
  shift
  output=$("$@")
  echo "$output"
  grep -qx "path: $expect" <<<"$output" || { echo "FAIL: expected path $expect" >&2; exit 1; }
}

EXPECT_X86=$(grep -q " sse4_2" /proc/cpuinfo && echo sse4.2 || echo table)
build x86_64-linux-musl 'crc32q' 'cpuid'
run "$EXPECT_X86" "$WORK/crc-x86_64-linux-musl"
build aarch64-linux-musl 'crc32cx' 'getauxval'
run armv8 qemu-aarch64 "$WORK/crc-aarch64-linux-musl"
build aarch64-windows-gnu 'crc32cx' 'IsProcessorFeaturePresent'
build x86_64-windows-gnu 'crc32q' 'cpuid'
echo "ok: both Linux builds ran and agree; both Windows builds compiled with their hardware path"
