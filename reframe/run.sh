#!/usr/bin/env bash
# Runs the proxylab ReFrame suite (reframe/checks) with its configuration (reframe/config/proxylab_config.py).
# Usage: reframe/run.sh [--launch local|slurm] [--size small|bench] [--output DIR] [--available] [-- REFRAME_ARGS...]
#   --launch     partition kind: local (default; the build's MPI launcher) or slurm (sbatch + srun)
#   --size       small (default; test decks, sanity only: speed is no test) or bench (seeds' decks, FOMs checked
#                against the references of this system:partition)
#   --output     where ReFrame keeps its stage, output, perflogs, log and report (default: results/reframe-DATE-TIME)
#   --available  exit 0 when ReFrame is installed (the .deps/venv of ./proxylab setup, or `reframe` on PATH)
# Binaries: PROXYLAB_BUILD_DIR (default build/openmp). Anything after -- goes to reframe (e.g. -n pop_pcg, -t pop).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
launch=local; size=small; output=""; available=0; extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --launch) launch=${2:?--launch needs local or slurm}; shift 2 ;;
    --size) size=${2:?--size needs small or bench}; shift 2 ;;
    --output) output=${2:?--output needs a directory}; shift 2 ;;
    --available) available=1; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "reframe/run.sh: unknown option '$1' (allowed: --launch, --size, --output, --available, -- REFRAME_ARGS)" >&2; exit 2 ;;
  esac
done
case "$launch" in local|slurm) ;; *) echo "reframe/run.sh: --launch is '$launch'; allowed: local, slurm" >&2; exit 2 ;; esac
case "$size" in small|bench) ;; *) echo "reframe/run.sh: --size is '$size'; allowed: small, bench" >&2; exit 2 ;; esac
rfm="$root/.deps/venv/bin/reframe"
[ -x "$rfm" ] || rfm=$(command -v reframe || true)
if [ "$available" = 1 ]; then [ -n "$rfm" ]; exit; fi
[ -n "$rfm" ] || { echo "reframe/run.sh: ReFrame is not installed (./proxylab setup puts reframe-hpc into .deps/venv)" >&2; exit 2; }
[ -n "$output" ] || output="$root/results/reframe-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$output"
output=$(cd "$output" && pwd)
args=(-S "launch=$launch" -S "size=$size")
[ "$size" = small ] && args+=(--skip-performance-check)  # the test decks are too small to measure anything
[ "$launch" = local ] && args+=(--exec-policy=serial)    # one run at a time: runs do not share the cores
[ -t 1 ] || args+=(--nocolor)
cd "$output"  # ReFrame's own log (reframe.log) goes here, its start-up log too (TMPDIR)
export TMPDIR="$output"
exec "$rfm" -C "$here/config/proxylab_config.py" -c "$here/checks/proxylab_checks.py" --prefix "$output" \
  --report-file "$output/report.json" "${args[@]}" "${extra[@]}" -r
