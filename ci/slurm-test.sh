#!/usr/bin/env bash
# A real scheduler in the tests: starts a private one-node Slurm cluster on this machine (munged, slurmctld,
# slurmd, a config for its cores), runs a 2-rank pop job through srun and a batch script through sbatch, checks
# that both verified, optionally runs the ReFrame suite against the cluster's partition, then stops the daemons
# it started (by PID) and removes everything it made.
#
# Usage: ci/slurm-test.sh BUILD_DIR [--reframe]
#   BUILD_DIR   a build tree whose bin/ holds proxylab-pop (e.g. build/openmp)
#   --reframe   also run the ReFrame suite (reframe/run.sh --launch slurm) when ReFrame is installed
# Exit: 0 passed, 1 failed, 77 skipped (not root, not Linux, no Slurm and none installable, a Slurm already
# running here), with the reason on stdout.
#
# As root on Debian it installs slurm-wlm and munge when they are missing (apt-get). Nothing system-wide is
# started or changed beyond that: munged runs as the munge user with its own key and socket, Slurm with a
# private config (SLURM_CONF), state, spool and log directories, on two free TCP ports, all under one
# temporary directory. See docs/cluster.md for the same runs on a real cluster.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SKIP=77
log() { printf '[slurm-test] %s\n' "$*"; }
skip() { log "SKIPPED: $*"; exit $SKIP; }
die() { log "FAILED: $*"; exit 1; }

build=""; reframe=0
for arg in "$@"; do
  case "$arg" in
    --reframe) reframe=1 ;;
    -*) echo "slurm-test.sh: unknown option '$arg' (allowed: --reframe)" >&2; exit 2 ;;
    *) build=$arg ;;
  esac
done
[ -n "$build" ] || { echo "usage: ci/slurm-test.sh BUILD_DIR [--reframe]" >&2; exit 2; }
# Absolute: the jobs run from the cluster's temporary directory, where a relative BUILD_DIR names nothing.
build_abs=$(cd "$build" 2>/dev/null && pwd) || { echo "slurm-test.sh: no build directory '$build'" >&2; exit 2; }
build=$build_abs
pop="$build/bin/proxylab-pop"
[ -x "$pop" ] || { echo "slurm-test.sh: no $pop (build the pop proxy first)" >&2; exit 2; }

# ---- can it run here? ---------------------------------------------------------------------------------
[ "$(uname -s)" = Linux ] || skip "a one-node Slurm needs Linux"
[ "$(id -u)" = 0 ] || skip "starting slurmctld/slurmd needs root (run as root, or see docs/cluster.md for a real cluster)"
export PATH="$PATH:/usr/sbin:/sbin"  # the daemons live in sbin
need=(slurmctld slurmd srun salloc sbatch squeue sinfo scontrol munged setpriv)
missing() { local c; for c in "${need[@]}"; do command -v "$c" >/dev/null 2>&1 || return 0; done; return 1; }
if missing; then
  command -v apt-get >/dev/null 2>&1 || skip "Slurm is not installed and there is no apt-get to install it"
  log "installing slurm-wlm and munge (Debian packages)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge; } \
    >/dev/null 2>&1 || skip "could not install slurm-wlm and munge with apt-get (offline?)"
  missing && skip "slurm-wlm is installed but some of ${need[*]} are missing"
fi
id munge >/dev/null 2>&1 || skip "no 'munge' user (the munge package makes it)"
pgrep -x slurmctld >/dev/null 2>&1 && skip "a slurmctld already runs on this machine: not starting a second cluster beside it"
pgrep -x slurmd >/dev/null 2>&1 && skip "a slurmd already runs on this machine: not starting a second cluster beside it"

# ---- the private cluster ------------------------------------------------------------------------------
tmp=$(mktemp -d /tmp/proxylab-slurm.XXXXXX)
chmod 0711 "$tmp"
pids=()  # the daemons this script started, stopped in reverse order
cleanup() {
  local rc=$? pid i
  command -v scancel >/dev/null 2>&1 && [ -f "${SLURM_CONF:-/nonexistent}" ] && scancel --quiet --full -u root 2>/dev/null
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null && log "daemon $pid did not stop on SIGTERM: killed"
  done
  if [ "$rc" != 0 ] && [ "$rc" != $SKIP ]; then
    for f in "$tmp"/log/*.log; do [ -f "$f" ] && { log "---- $f (last lines)"; tail -n 15 "$f"; }; done
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp"/{munge,state,spool,log}
chown munge:munge "$tmp/munge"; chmod 0711 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1 count=1024 status=none
chown munge:munge "$tmp/munge/munge.key"; chmod 0400 "$tmp/munge/munge.key"
socket="$tmp/munge/munge.socket"
# setpriv execs munged as the munge user (no intermediate process), so $! is munged's own PID.
setpriv --reuid=munge --regid=munge --init-groups munged --foreground --force --socket="$socket" \
  --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
  --log-file="$tmp/munge/munged.log" >"$tmp/log/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { cat "$tmp/munge/munged.log" 2>/dev/null; die "munged did not create its socket"; }

read -r port_ctld port_d < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
host=$(hostname -s)
node=$(slurmd -C | head -n 1)  # NodeName=host CPUs=.. Boards=.. SocketsPerBoard=.. CoresPerSocket=.. ThreadsPerCore=.. RealMemory=..
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node")
export SLURM_CONF="$tmp/slurm.conf"
cat > "$SLURM_CONF" <<EOF
# One-node test cluster made by ci/slurm-test.sh (settings checked on Debian 12's Slurm 22.05).
ClusterName=proxylab-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$port_ctld
SlurmdPort=$port_d
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmi2
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=600
$(sed 's/ *$//' <<<"$node") NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=30 State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 60); do
  state=$(sinfo -h -o %t 2>/dev/null | head -n 1)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || die "the node did not become idle within 30 s (sinfo: '$state')"
log "cluster up: node $host ($cpus CPUs), partition 'test', slurmctld port $port_ctld, slurmd port $port_d"

# ---- 1. an interactive 2-rank job through srun, inside an allocation (salloc) as a user runs it -----
# Debian's MPICH 4.0 speaks PMI2 to Slurm's srun: MpiDefault=pmi2 above, as a site running MPICH sets it.
deck="$ROOT/inputs/pop/x1.yaml"
export OMP_NUM_THREADS=1
srun_cmd=(salloc --quiet --ntasks=2 --cpus-per-task=1
          env PROXYLAB_BUILD_DIR="$build" "$ROOT/proxylab" run pop --launcher srun --ranks 2 --deck "$deck")
log "srun: ${srun_cmd[*]}"
t0=$(date +%s)
out=$(cd "$tmp" && timeout 300 "${srun_cmd[@]}" 2>&1); rc=$?
printf '%s\n' "$out" | grep -E "ranks x threads|FOM:|VERIFICATION:" | sed 's/^/    /'
[ "$rc" = 0 ] || { printf '%s\n' "$out" | tail -n 20; die "srun job exited $rc"; }
grep -q "VERIFICATION: PASSED" <<<"$out" || die "srun job did not print VERIFICATION: PASSED"
grep -q "ranks x threads 2 x 1" <<<"$out" || die "srun job did not run as one job of 2 ranks x 1 thread"
log "srun job verified ($(($(date +%s) - t0)) s)"

# ---- 2. a batch script through sbatch -----------------------------------------------------------------
script="$tmp/pop-x1.sbatch"
# (--srun-mpi: the plugin named in the script, as on a site whose default is not MPICH's; here the same, pmi2)
PROXYLAB_BUILD_DIR="$build" "$ROOT/proxylab" jobscript pop --scheduler slurm --ranks 2 --deck "$deck" \
  --srun-mpi pmi2 >"$script" || die "./proxylab jobscript failed"
job=$(cd "$tmp" && sbatch --parsable --output="$tmp/job-%j.out" "$script") || die "sbatch refused the script"
job=${job%%;*}
log "sbatch: job $job submitted"
t0=$(date +%s)
while squeue -h -j "$job" 2>/dev/null | grep -q .; do
  [ $(($(date +%s) - t0)) -lt 300 ] || die "batch job $job still queued or running after 300 s"
  sleep 1
done
info=$(scontrol show job "$job" 2>/dev/null)
jstate=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$info" | head -n 1)
jexit=$(sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' <<<"$info" | head -n 1)
jout=$(cat "$tmp/job-$job.out" 2>/dev/null)
printf '%s\n' "$jout" | grep -E "ranks x threads|FOM:|VERIFICATION:" | sed 's/^/    /'
[ "$jstate" = COMPLETED ] && [ "$jexit" = 0:0 ] || { printf '%s\n' "$jout" | tail -n 20; die "batch job $job ended $jstate, exit $jexit"; }
grep -q "VERIFICATION: PASSED" <<<"$jout" || die "batch job $job did not print VERIFICATION: PASSED"
log "batch job $job verified ($(($(date +%s) - t0)) s, JobState=$jstate ExitCode=$jexit)"

# ---- 3. the ReFrame suite on the cluster's partition ---------------------------------------------------
# The reference variant of each proxy (tag `reference`): every check would be 15 batch jobs on 2 cores.
if [ "$reframe" = 1 ]; then
  if "$ROOT/reframe/run.sh" --available; then
    log "ReFrame suite (reference variants) on the Slurm partition"
    PROXYLAB_BUILD_DIR="$build" "$ROOT/reframe/run.sh" --launch slurm --size small --output "$tmp/reframe" -- -t reference \
      || die "the ReFrame suite failed on Slurm"
  else
    log "ReFrame is not installed (./proxylab setup puts it into .deps/venv): the suite did not run on Slurm"
  fi
fi
log "PASSED"
