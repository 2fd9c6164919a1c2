#!/usr/bin/env bash
# ci/cuda_resources.py against stand-ins for cuobjdump and ptxas (no CUDA toolkit needed): the stand-in ptxas
# prints the `-v` report of two proxylab kernels that spill and one Kokkos kernel:
#   - a spill in a kernel the --no-spill file names fails (exit 1) and names it;
#   - a spill in a kernel it does not name is printed and passes;
#   - the table (--out) has every proxylab kernel with its registers, and not the Kokkos one.
set -uo pipefail
script="$(cd "$(dirname "$0")/.." && pwd)/cuda_resources.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/bin"
cat > "$tmp/bin/cuobjdump" <<'EOS'
#!/bin/sh
printf '.version 8.8\n.target sm_90\n.entry _ZN8proxylab3pop9pcg_fusedEv\n' > app.1.sm_90.ptx
EOS
cat > "$tmp/bin/ptxas" <<'EOS'
#!/bin/sh
cat >&2 <<'EOL'
ptxas info    : Compiling entry function '_ZN8proxylab3pop9pcg_fusedEv' for 'sm_90'
ptxas info    : Function properties for _ZN8proxylab3pop9pcg_fusedEv
    96 bytes stack frame, 40 bytes spill stores, 48 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 1040 bytes smem
ptxas info    : Compiling entry function '_ZN8proxylab3pop11error_boundEv' for 'sm_90'
ptxas info    : Function properties for _ZN8proxylab3pop11error_boundEv
    8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 64 registers
ptxas info    : Compiling entry function '_ZN6Kokkos4Impl5fenceEv' for 'sm_90'
ptxas info    : Function properties for _ZN6Kokkos4Impl5fenceEv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 4 registers
EOL
EOS
chmod +x "$tmp/bin/"*
touch "$tmp/proxylab-pop"
# expect NAME RC PATTERN NO_SPILL_LINE: the script with that --no-spill file exits RC and prints PATTERN.
expect() {
  local out rc
  echo "$4" > "$tmp/no-spill.txt"
  out=$(PATH="$tmp/bin:$PATH" python3 "$script" --cuobjdump "$tmp/bin/cuobjdump" --no-spill "$tmp/no-spill.txt" \
        --out "$tmp/table.txt" "$tmp/proxylab-pop" 2>&1); rc=$?
  if [ "$rc" = "$2" ] && grep -qE "$3" <<<"$out"; then echo "ok   $1"; else
    echo "FAIL $1: expected exit $2 and /$3/, got exit $rc:"; echo "$out"; fail=1
  fi
}
expect "a hot kernel that spills fails" 1 "1 of them must not spill" \
  "proxylab::pop::pcg_   # hot"
expect "a spill elsewhere is shown and passes" 0 "2 spill registers.*" "proxylab::evh1::sweep"
if grep -qE "^proxylab-pop +255 +96 +40 +48 +1040 +proxylab::pop::pcg_fused" "$tmp/table.txt" &&
   grep -qE "^proxylab-pop +64 .*proxylab::pop::error_bound" "$tmp/table.txt" && ! grep -q Kokkos "$tmp/table.txt"; then
  echo "ok   the table has the proxylab kernels' figures only"
else
  echo "FAIL the table:"; cat "$tmp/table.txt"; fail=1
fi
exit $fail
