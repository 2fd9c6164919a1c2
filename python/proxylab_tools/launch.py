"""How a job is launched: the launcher and its command line, rank and thread binding, and the checks of
ranks x threads against the machine. The one place of these rules: runner.py launches every run through
it (run, demo, compare, sweep, perturbation, roofline), jobscript.py writes the same lines into a batch
script, and CMake asks it (`python3 -m proxylab_tools.launch ctest-env`) for the tests' environment.

Launchers (--launcher, or the environment variable PROXYLAB_LAUNCHER):
    mpiexec   MPICH's (Hydra) or Open MPI's mpiexec; PROXYLAB_MPIEXEC names another executable
    srun      Slurm (inside an allocation: refused without SLURM_JOB_ID); the MPI plugin is the site's (srun reads
              SLURM_MPI_TYPE itself) unless --srun-mpi TYPE or PROXYLAB_SRUN_MPI=TYPE asks for --mpi=TYPE
    flux      flux run (inside a Flux instance)
    none      the binary itself, one rank (MPI singleton)
    TEMPLATE  any command line with {ranks}, {threads}, {nodes}, {ranks_per_node} in it, e.g.
              PROXYLAB_LAUNCHER='srun -n {ranks} -c {threads} --cpu-bind=cores'

Every launch puts the rank count asked for in the job's environment (PROXYLAB_EXPECTED_RANKS): each binary compares
it, and the count its launcher says it started, with its MPI_COMM_WORLD right after MPI_Init, and refuses a job that
disagrees (exit 2): a template whose -n is not {ranks}, or another MPI's launcher, which starts N jobs of one rank.

Caps (refused with exit 2 before anything starts; --ignore-caps lifts them): on this machine (mpiexec or none on one
node) at most 16 threads per core with --oversubscribe (one per core without it) and at most one rank per
RANK_MEMORY_MIB of the memory available (a rank of MPICH + Kokkos holds about 20-24 MiB before its arrays);
anywhere, at most MAX_THREADS_PER_RANK threads per rank (OpenMP runtimes crash far below 10^8 threads: 3000 aborted,
99999999 segfaulted).

Binding: unless --oversubscribe, each rank gets its own `threads` cores from the launcher (mpiexec
-bind-to core:T, srun -c T --cpu-bind=cores, flux -c T -o cpu-affinity=per-task) and its threads are
spread over them (OMP_PROC_BIND=spread, OMP_PLACES=cores), so no two threads share a core. With
--oversubscribe binding is off (OMP_PROC_BIND=false): more threads than cores must be free to move.
The user's own OMP_PROC_BIND / OMP_PLACES always win. A template launcher binds the ranks as its text says;
the front end then leaves the threads unbound (set OMP_PROC_BIND / OMP_PLACES to bind them), since a rank
that is not bound to its own cores would pin its first thread to the same core as every other rank.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import string
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .user_text import quote

LAUNCHERS = ("mpiexec", "srun", "flux", "none")
SRUN_MPI_TYPE = re.compile(r"[A-Za-z0-9_]+")  # srun --mpi=TYPE: pmi2, pmix, pmix_v4, cray_shasta, none
PLACEHOLDERS = ("ranks", "threads", "nodes", "ranks_per_node")
# The rank count a launch asks for, in the job's environment: every binary compares it (and the launcher's own count)
# with its MPI_COMM_WORLD right after MPI_Init and refuses a run that disagrees (exit 2: a template's fixed -n,
# another MPI's launcher; common/include/proxylab/launch_check.hpp).
EXPECTED_RANKS_VARIABLE = "PROXYLAB_EXPECTED_RANKS"
OVERSUBSCRIBE_PER_CORE = 16     # threads per core at most with --oversubscribe (this machine)
RANK_MEMORY_MIB = 32            # memory a rank needs at the least (this machine)
MAX_THREADS_PER_RANK = 1024     # threads per rank at most (any machine)


class LaunchError(ValueError):
    """Bad launch options (exit 2): the message names the option, the value and what is allowed."""


def cores_available() -> int:
    """Cores this process may run on (its affinity mask: a batch allocation or taskset counts, not the node)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def memory_available_mib() -> float:
    """MemAvailable of /proc/meminfo in MiB (infinite where unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return float(line.split()[1]) / 1024.0
    except (OSError, ValueError, IndexError):
        pass
    return float("inf")


# The variables binding_env sets (run --dry-run and jobscript show them with the launch line).
BINDING_VARIABLES = ("OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES", "OPENBLAS_NUM_THREADS")


def binding_env(base: dict[str, str], threads: int, bound: bool) -> dict[str, str]:
    """The environment of a launch: OMP_NUM_THREADS=threads; binding spread over cores when `bound`, off
    otherwise (values the user set are kept); BLAS single-threaded inside the ranks unless the user says."""
    env = dict(base)
    env["OMP_NUM_THREADS"] = str(threads)
    if bound:
        env.setdefault("OMP_PROC_BIND", "spread")
        env.setdefault("OMP_PLACES", "cores")
    else:
        env.setdefault("OMP_PROC_BIND", "false")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return env


@lru_cache(maxsize=None)
def mpiexec_flavour(executable: str) -> str:
    """'hydra' (MPICH), 'openmpi' or 'unknown', from `mpiexec --version`."""
    try:
        text = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if "HYDRA" in text or "hydra" in text:
        return "hydra"
    if "Open MPI" in text or "OpenRTE" in text:
        return "openmpi"
    return "unknown"


def mpiexec_executable() -> str:
    """MPICH's launcher explicitly (PROXYLAB_MPIEXEC overrides), not whatever MPI is first on PATH."""
    if os.environ.get("PROXYLAB_MPIEXEC"):
        return os.environ["PROXYLAB_MPIEXEC"]
    for cand in ("/usr/bin/mpiexec.mpich", "/usr/bin/mpiexec.hydra"):
        if os.path.exists(cand):
            return cand
    found = shutil.which("mpiexec") or shutil.which("mpirun")
    if not found:
        raise LaunchError("no mpiexec found (install mpich, set PROXYLAB_MPIEXEC, or choose --launcher srun|flux)")
    return found


@dataclass
class LaunchOptions:
    """What the command line says about launching, for every run of a command."""
    launcher: str = ""           # a name of LAUNCHERS or a template; "" = PROXYLAB_LAUNCHER, else mpiexec
    nodes: int | None = None
    ranks_per_node: int | None = None
    oversubscribe: bool = False
    ignore_caps: bool = False    # --ignore-caps: run beyond the sanity caps on ranks and threads
    srun_mpi: str = ""           # --srun-mpi: srun's --mpi=TYPE; "" = PROXYLAB_SRUN_MPI, else the site's default
    gpus_per_task: int = 0       # --gpus-per-task: GPUs the scheduler gives each rank (srun, flux); 0 = none asked

    def resolved_srun_mpi(self) -> str:
        return self.srun_mpi or os.environ.get("PROXYLAB_SRUN_MPI", "")

    def resolved_launcher(self) -> str:
        return self.launcher or os.environ.get("PROXYLAB_LAUNCHER", "") or "mpiexec"


@dataclass
class Launch:
    """One job: how many ranks and threads, through which launcher."""
    ranks: int
    threads: int
    options: LaunchOptions = field(default_factory=LaunchOptions)

    @property
    def launcher(self) -> str:
        return self.options.resolved_launcher()

    @property
    def is_template(self) -> bool:
        return self.launcher not in LAUNCHERS

    @property
    def bound(self) -> bool:
        """Ranks on disjoint cores and threads spread over them: the launcher's flags bind the ranks (a template
        or an unknown mpiexec may not: then threads are left unbound too, or every rank would pin its first
        thread to the same core), and the run is not oversubscribed."""
        if self.options.oversubscribe or self.is_template:
            return False
        if self.launcher == "mpiexec":
            try:
                return mpiexec_flavour(mpiexec_executable()) in ("hydra", "openmpi")
            except LaunchError:
                return False
        return True

    @property
    def nodes(self) -> int:
        o = self.options
        if o.nodes:
            return o.nodes
        if o.ranks_per_node:
            return -(-self.ranks // o.ranks_per_node)
        return 1

    def check(self, here: bool = True) -> None:
        """LaunchError unless the launch makes sense (before anything is built or started). here=False (a dry run,
        whose line may be meant for another machine): the launch's own consistency only, not this machine's cores,
        memory and caps."""
        o = self.options
        for name, value in (("--ranks", self.ranks), ("--threads", self.threads), ("--nodes", o.nodes),
                            ("--ranks-per-node", o.ranks_per_node)):
            if value is not None and value < 1:
                raise LaunchError(f"{name} {value}: must be at least 1")
        if o.nodes and o.ranks_per_node and o.nodes * o.ranks_per_node != self.ranks:
            raise LaunchError(f"--ranks {self.ranks} but --nodes {o.nodes} x --ranks-per-node {o.ranks_per_node} = "
                              f"{o.nodes * o.ranks_per_node}: give two of the three, or make them agree")
        if o.nodes and self.ranks < o.nodes:
            raise LaunchError(f"--ranks {self.ranks} on --nodes {o.nodes}: at least one rank per node")
        launcher = self.launcher
        if self.is_template:
            try:
                self.template_words()
            except (KeyError, IndexError, ValueError, AttributeError, TypeError) as e:
                raise LaunchError(f"launcher template {quote(launcher)}: {type(e).__name__} {quote(str(e))}; placeholders: "
                                  f"{', '.join('{' + p + '}' for p in PLACEHOLDERS)}; or one of {', '.join(LAUNCHERS)}")
            if "ranks" not in self.template_fields():
                escaped = " ({{ranks}} is the text {ranks}, not the count)" if "{{ranks}}" in launcher else ""
                raise LaunchError(f"launcher {quote(launcher)}: neither one of {', '.join(LAUNCHERS)} nor a template with "
                                  f"{{ranks}}{escaped} (e.g. 'srun -n {{ranks}} -c {{threads}} --cpu-bind=cores')")
        if o.gpus_per_task < 0:
            raise LaunchError(f"--gpus-per-task {o.gpus_per_task}: at least 0 (0: no GPU asked)")
        if o.gpus_per_task and launcher not in ("srun", "flux"):
            raise LaunchError(f"--gpus-per-task {o.gpus_per_task}: the scheduler's GPU request, for --launcher srun or "
                              f"flux only (here {launcher}); with mpiexec each rank takes GPU (local rank modulo the "
                              "visible GPUs), docs/gpu.md")
        if o.srun_mpi and launcher != "srun":
            raise LaunchError(f"--srun-mpi {o.srun_mpi}: srun's MPI plugin, for --launcher srun only (here {launcher})")
        if launcher == "srun" and o.resolved_srun_mpi() and not SRUN_MPI_TYPE.fullmatch(o.resolved_srun_mpi()):
            raise LaunchError(f"{'--srun-mpi' if o.srun_mpi else 'PROXYLAB_SRUN_MPI'} {o.resolved_srun_mpi()!r}: a "
                              "plugin name of letters, digits and _ only (pmi2, pmix, ...; srun --mpi=list)")
        if launcher == "none" and (self.ranks != 1 or (o.nodes or 1) != 1):
            raise LaunchError(f"--launcher none runs the binary itself: 1 rank on 1 node (asked: --ranks {self.ranks}"
                              f"{f', --nodes {o.nodes}' if o.nodes else ''}); use mpiexec, srun or flux")
        if launcher == "mpiexec" and o.nodes and o.nodes > 1:
            raise LaunchError(f"--nodes {o.nodes} with --launcher mpiexec: mpiexec takes its hosts from a host file or "
                              "the allocation; use --launcher srun or flux, or a template "
                              "(PROXYLAB_LAUNCHER='mpiexec -n {ranks} -f hosts -ppn {ranks_per_node}')")
        if not here:
            return
        if self.local and not o.oversubscribe:
            cores = cores_available()
            if self.ranks * self.threads > cores:
                raise LaunchError(f"--ranks {self.ranks} x --threads {self.threads} = {self.ranks * self.threads} "
                                  f"threads on {cores} cores of this machine: at most {cores}, or pass --oversubscribe "
                                  "(binding off; timings then mean little)")
        if not o.ignore_caps:
            self.check_caps()

    def check_caps(self) -> None:
        """LaunchError beyond the sanity caps (module docstring)."""
        lift = "; --ignore-caps runs it anyway"
        if self.threads > MAX_THREADS_PER_RANK:
            raise LaunchError(f"--threads {self.threads}: at most {MAX_THREADS_PER_RANK} threads per rank{lift}")
        if not self.local:
            return
        cores = cores_available()
        most = OVERSUBSCRIBE_PER_CORE * cores
        if self.ranks * self.threads > most:
            raise LaunchError(f"--ranks {self.ranks} x --threads {self.threads} = {self.ranks * self.threads} threads on "
                              f"{cores} cores of this machine: at most {most} ({OVERSUBSCRIBE_PER_CORE} per core) even "
                              f"with --oversubscribe{lift}")
        memory = memory_available_mib()
        if self.ranks * RANK_MEMORY_MIB > memory:
            raise LaunchError(f"--ranks {self.ranks}: each rank needs at least {RANK_MEMORY_MIB} MiB and this machine "
                              f"has {memory:.0f} MiB available (MemAvailable): at most "
                              f"{int(memory // RANK_MEMORY_MIB)} ranks{lift}")

    def check_launcher_program(self) -> None:
        """LaunchError when the launcher's program cannot be started here (not found, not executable): before a run
        starts (a job script runs elsewhere and is not checked)."""
        if self.launcher == "none":
            return
        try:
            program = self.prefix()[0]
        except IndexError:
            raise LaunchError(f"launcher template {quote(self.launcher)} is empty")
        found = shutil.which(program)
        if not found:
            what = ("PROXYLAB_MPIEXEC" if self.launcher == "mpiexec" and os.environ.get("PROXYLAB_MPIEXEC") else
                    "the launcher template" if self.is_template else f"--launcher {self.launcher}")
            raise LaunchError(f"{what}: the program {quote(program)} is not found or not executable; allowed: a launcher "
                              f"this machine has ({', '.join(n for n in LAUNCHERS if n == 'none' or shutil.which(n))}"
                              " or a template)")
        if self.launcher == "srun" and not os.environ.get("SLURM_JOB_ID"):
            raise LaunchError("--launcher srun: no Slurm allocation here (SLURM_JOB_ID is not set); run inside salloc "
                              "or an sbatch script (./proxylab jobscript writes one), or use --launcher mpiexec")

    @property
    def local(self) -> bool:
        """The ranks run on this machine (so its cores are the limit): mpiexec or none on one node."""
        return self.launcher in ("mpiexec", "none") and self.nodes == 1

    def template_fields(self) -> set[str]:
        """The placeholders the template uses ({{ranks}} is an escaped brace, not one)."""
        return {name for _, name, _, _ in string.Formatter().parse(self.launcher) if name}

    def template_words(self) -> list[str]:
        values = {"ranks": self.ranks, "threads": self.threads, "nodes": self.nodes,
                  "ranks_per_node": self.options.ranks_per_node or -(-self.ranks // self.nodes)}
        return shlex.split(self.launcher.format(**values))

    def prefix(self) -> list[str]:
        """The launcher's words before the binary."""
        o, r, t = self.options, self.ranks, self.threads
        launcher = self.launcher
        if self.is_template:
            return self.template_words()
        if launcher == "none":
            return []
        if launcher == "srun":
            words = ["srun"]
            if o.resolved_srun_mpi():
                words.append(f"--mpi={o.resolved_srun_mpi()}")
            words += ["-n", str(r), "-c", str(t)]
            if o.nodes:
                words += ["-N", str(o.nodes)]
            if o.ranks_per_node:
                words += ["--ntasks-per-node", str(o.ranks_per_node)]
            if o.gpus_per_task:
                words.append(f"--gpus-per-task={o.gpus_per_task}")
            words += ["--cpu-bind=cores"] if self.bound else ["--cpu-bind=none", "--overcommit"]
            return words
        if launcher == "flux":
            words = ["flux", "run", "-n", str(r), "-c", str(t)]
            if o.nodes:
                words += ["-N", str(o.nodes)]
            if o.ranks_per_node:
                words += ["--tasks-per-node", str(o.ranks_per_node)]
            if o.gpus_per_task:
                words += ["-g", str(o.gpus_per_task)]
            words += ["-o", "cpu-affinity=per-task" if self.bound else "cpu-affinity=off"]
            return words
        exe = mpiexec_executable()
        flavour = mpiexec_flavour(exe)
        words = [exe, "-n", str(r)]
        if flavour == "openmpi":
            if os.geteuid() == 0:
                words.append("--allow-run-as-root")
            if o.ranks_per_node:
                words += ["--map-by", f"ppr:{o.ranks_per_node}:node:PE={t}" if self.bound else f"ppr:{o.ranks_per_node}:node"]
            elif self.bound:
                words += ["--map-by", f"slot:PE={t}"]
            words += ["--bind-to", "core" if self.bound else "none"]
            if o.oversubscribe:
                words.append("--oversubscribe")
            return words
        if o.ranks_per_node:
            words += ["-ppn", str(o.ranks_per_node)]
        if self.bound and flavour == "hydra":
            words += ["-bind-to", f"core:{t}"]
        return words

    def command(self, exe: str, args: list[str]) -> list[str]:
        return [*self.prefix(), exe, *args]

    def env(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """The job's environment: binding_env's variables and the rank count asked for (EXPECTED_RANKS_VARIABLE)."""
        env = binding_env(dict(os.environ) if base is None else base, self.threads, self.bound)
        env[EXPECTED_RANKS_VARIABLE] = str(self.ranks)
        return env

    def shell_line(self, exe: str, args: list[str], base: dict[str, str] | None = None) -> str:
        """The launch as one shell line: the binding variables of env(base), then the command."""
        env = self.env(base)
        return " ".join([*(f"{k}={shlex.quote(env[k])}" for k in BINDING_VARIABLES if k in env),
                         shlex.join(self.command(exe, args))])

    def describe(self) -> str:
        """For messages: '2 ranks x 1 thread, mpiexec, bound'."""
        how = "template" if self.is_template else self.launcher
        return (f"{self.ranks} rank(s) x {self.threads} thread(s) via {how}"
                f"{f' on {self.nodes} nodes' if self.nodes > 1 else ''}, {'bound' if self.bound else 'unbound'}")


# ---- command-line options (every command that launches takes the same) --------------------------------
def add_arguments(sp) -> None:
    sp.add_argument("--launcher", default="", metavar="NAME|TEMPLATE",
                    help=f"how ranks start: {', '.join(LAUNCHERS)}, or a template with {{ranks}} {{threads}} {{nodes}} "
                         "{ranks_per_node} (default: PROXYLAB_LAUNCHER, else mpiexec)")
    sp.add_argument("--nodes", type=int, default=None, help="nodes to run on (srun, flux)")
    sp.add_argument("--ranks-per-node", type=int, default=None, help="ranks on each node")
    sp.add_argument("--oversubscribe", action="store_true",
                    help=f"allow more ranks x threads than cores, up to {OVERSUBSCRIBE_PER_CORE} per core (binding off)")
    sp.add_argument("--srun-mpi", default="", metavar="TYPE",
                    help="srun's --mpi=TYPE (pmi2, pmix, ...; default: PROXYLAB_SRUN_MPI, else none: the site's "
                         "default or SLURM_MPI_TYPE)")
    sp.add_argument("--gpus-per-task", type=int, default=0, metavar="N",
                    help="GPUs for each rank, asked of the scheduler (srun --gpus-per-task, flux run -g; a cuda build; "
                         "default 0: none asked)")
    sp.add_argument("--ignore-caps", action="store_true",
                    help=f"run beyond the sanity caps ({OVERSUBSCRIBE_PER_CORE} threads per core, {RANK_MEMORY_MIB} MiB "
                         f"per rank, {MAX_THREADS_PER_RANK} threads per rank)")


def ranks_for(ranks: int | None, options: LaunchOptions, default: int = 1) -> int:
    """--ranks, else --nodes x --ranks-per-node, else the command's default."""
    if ranks is not None:
        return ranks
    if options.nodes and options.ranks_per_node:
        return options.nodes * options.ranks_per_node
    return default


def options_from(args) -> LaunchOptions:
    return LaunchOptions(getattr(args, "launcher", "") or "", getattr(args, "nodes", None),
                         getattr(args, "ranks_per_node", None), bool(getattr(args, "oversubscribe", False)),
                         bool(getattr(args, "ignore_caps", False)), getattr(args, "srun_mpi", "") or "",
                         getattr(args, "gpus_per_task", 0) or 0)


def main(argv: list[str]) -> int:
    """python3 -m proxylab_tools.launch ctest-env [THREADS]: the tests' environment as a CMake list. ctest runs
    several tests at once and 4-rank tests on fewer cores, so its launches are oversubscribed: binding off."""
    if len(argv) >= 1 and argv[0] == "ctest-env":
        threads = int(argv[1]) if len(argv) > 1 else 1
        env = binding_env({}, threads, bound=False)
        print(";".join(f"{k}={v}" for k, v in sorted(env.items())), end="")
        return 0
    print("usage: python3 -m proxylab_tools.launch ctest-env [THREADS]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
