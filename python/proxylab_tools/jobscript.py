"""./proxylab jobscript: a batch script that runs the same experiment under a scheduler.

    ./proxylab jobscript pop --deck inputs/pop/x1.yaml --ranks 4 --threads 2 --scheduler slurm > pop.sbatch
    sbatch pop.sbatch

The script asks the scheduler for the ranks, threads and nodes given here and runs `./proxylab run` inside the
allocation with the scheduler's launcher (srun, flux run), so the launch line, the binding and the record are
the same as on the command line. Lines your site needs (modules, Kokkos_ROOT, partition, account) are written
as comments to fill in. Output and record go to the folder the job is submitted from.
"""
from __future__ import annotations

import argparse
import re
import shlex

from . import launch, runner

SCHEDULERS = {
    # scheduler: (directive prefix, launcher, job id variable, output file pattern)
    "slurm": ("#SBATCH", "srun", "SLURM_JOB_ID", "%j"),
    "flux": ("#flux:", "flux", "FLUX_JOB_ID", "{{id}}"),
}


# A site name (partition, queue, account, bank) is written into a directive line as it is: these characters only,
# so that it can neither end the line nor add an option the scheduler would read.
SITE_NAME = re.compile(r"[A-Za-z0-9_.,:@+-]+")


def unwritable(argv: list[str]) -> str | None:
    """Why the command line cannot be written into a script, or None. Every argument lands in the script's comment
    line and, quoted, in its command; a control character (a newline above all) would end the line it sits in and
    start one the shell runs."""
    for arg in argv:
        bad = [c for c in arg if ord(c) < 32 or ord(c) == 127]
        if bad:
            return (f"argument {arg!r} holds a control character ({bad[0]!r}); a job script line cannot carry it "
                    "(allowed: printable text)")
    return None


def directives(scheduler: str, app: str, plan: launch.Launch, minutes: int, partition: str, account: str,
               gpus_per_task: int = 0) -> list[str]:
    """gpus_per_task: GPUs each rank gets (0: none asked); the scheduler makes them the only ones a rank sees, so
    Kokkos' choice (local rank modulo the visible devices, docs/gpu.md) gives each rank its own."""
    prefix, _, _, job_id = SCHEDULERS[scheduler]
    name, out = f"proxylab-{app}", f"proxylab-{app}-{job_id}.out"
    if scheduler == "slurm":
        lines = [f"--job-name={name}", f"--nodes={plan.nodes}", f"--ntasks={plan.ranks}",
                 f"--cpus-per-task={plan.threads}", f"--time={minutes // 60:02d}:{minutes % 60:02d}:00",
                 f"--output={out}"]
        if plan.options.ranks_per_node:
            lines.insert(3, f"--ntasks-per-node={plan.options.ranks_per_node}")
        if gpus_per_task:
            lines.insert(-2, f"--gpus-per-task={gpus_per_task}")
        site = [("--partition", partition), ("--account", account)]
    else:
        lines = [f"--job-name={name}", f"-N {plan.nodes}", f"-n {plan.ranks}", f"-c {plan.threads}", f"-t {minutes}m",
                 f"--output={out}"]
        if gpus_per_task:
            lines.insert(-2, f"-g {gpus_per_task}")
        site = [("--queue", partition), ("--bank", account)]
    text = [f"{prefix} {line}" for line in lines]
    for flag, value in site:
        text.append(f"{prefix} {flag}={value}" if value else f"#{prefix} {flag}=FILL_IN   (remove the first # to use)")
    return text


def script(args, plan: launch.Launch) -> str:
    _, launcher, job_var, _ = SCHEDULERS[args.scheduler]
    deck = runner.resolve_deck(args.app, args.deck)
    run = [str(runner.front_end()), "run", args.app, "--ranks", str(plan.ranks), "--threads", str(plan.threads),
           "--launcher", launcher]
    if deck:
        run += ["--deck", str(deck)]
    if plan.options.nodes:
        run += ["--nodes", str(plan.options.nodes)]
    if plan.options.ranks_per_node:
        run += ["--ranks-per-node", str(plan.options.ranks_per_node)]
    if plan.options.oversubscribe:
        run.append("--oversubscribe")
    if plan.options.srun_mpi:
        run += ["--srun-mpi", plan.options.srun_mpi]
    for s in args.set:
        run += ["--set", s]
    record = args.json or f"proxylab-{args.app}-${{{job_var}}}.json"
    command = shlex.join(run) + " --json " + (shlex.quote(record) if args.json else f'"{record}"')
    if args.extra:
        command += " -- " + shlex.join(args.extra)
    launched = runner.launch_line(args.app, plan, deck, args.set, record, extra=args.extra, preset=args.preset,
                                  base_env={})
    lines = ["#!/bin/bash",
             f"# Written by: ./proxylab {shlex.join(args.command_line)}",
             f"# The same experiment as: ./proxylab run {args.app} ... --launcher {launcher} (see docs/harness.md)",
             *directives(args.scheduler, args.app, plan, args.time, args.partition, args.account,
                         plan.options.gpus_per_task),
             "",
             "# Your site's environment (fill in; the front end needs python3, the build needs MPI and Kokkos):",
             "# module load gcc mpich cmake python",
             "# export Kokkos_ROOT=/path/to/kokkos          # a site Kokkos instead of the one ./proxylab setup builds",
             "# export PROXYLAB_MPIEXEC=/path/to/mpiexec     # only for --launcher mpiexec",
             "set -euo pipefail",
             "# The binaries must be built (./proxylab build) on a node like the compute nodes before submitting.",
             "# It sets these variables (those you export first win) and launches (run --dry-run prints it):",
             f"#   {launched}",
             f"exec {command}",
             ""]
    return "\n".join(lines)


def main(args) -> int:
    if not runner.is_app(args.app, args.preset):
        print(f"[jobscript] {runner.unknown_app_message(args.app, args.preset)}")
        return 2
    options = launch.options_from(args)
    options.launcher = SCHEDULERS[args.scheduler][1]
    plan = launch.Launch(launch.ranks_for(args.ranks, options), args.threads, options)
    if args.time < 1:
        print(f"[jobscript] --time {args.time}: at least 1 minute")
        return 2
    problem = unwritable(args.command_line)
    for flag, value in (("--partition", args.partition), ("--account", args.account)):
        if not problem and value and not SITE_NAME.fullmatch(value):
            problem = (f"{flag} {value!r}: a name of letters, digits and _ . , : @ + - only (it is written into a "
                       f"{SCHEDULERS[args.scheduler][0]} directive)")
    if problem:
        print(f"[jobscript] {problem}")
        return 2
    try:
        plan.check()
    except launch.LaunchError as e:
        print(f"[jobscript] {e}")
        return 2
    print(script(args, plan), end="")
    return 0


def register(subparsers) -> None:
    sp = subparsers.add_parser("jobscript", help="print a batch script (Slurm or Flux) that runs the same experiment",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("app", help=f"one of {', '.join(runner.APPS)}")
    sp.add_argument("--scheduler", choices=sorted(SCHEDULERS), default="slurm", help="batch system (default slurm)")
    sp.add_argument("--deck", help="YAML deck (default: the app's small deck)")
    sp.add_argument("--ranks", type=int, default=None, help="MPI ranks (default: --nodes x --ranks-per-node, else 1)")
    sp.add_argument("--threads", type=int, default=1, help="threads per rank (default 1)")
    sp.add_argument("--nodes", type=int, default=None, help="nodes (default: as many as --ranks-per-node needs, else 1)")
    sp.add_argument("--ranks-per-node", type=int, default=None, help="ranks on each node")
    sp.add_argument("--oversubscribe", action="store_true", help="binding off (more ranks x threads than cores)")
    sp.add_argument("--srun-mpi", default="", metavar="TYPE",
                    help="Slurm: srun's --mpi=TYPE in the job (pmi2 for Debian's MPICH, pmix, ...; default: the "
                         "site's, or PROXYLAB_SRUN_MPI where the job runs)")
    sp.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="deck override (repeatable)")
    sp.add_argument("--json", help="record file (default proxylab-APP-<job id>.json in the submission folder)")
    sp.add_argument("--time", type=int, default=30, help="time limit in minutes (default 30)")
    sp.add_argument("--gpus-per-task", type=int, default=0, metavar="N",
                    help="GPUs for each rank (a cuda build; default 0: none asked): --gpus-per-task (Slurm), -g (Flux)")
    sp.add_argument("--partition", default="", help="partition (Slurm) or queue (Flux); else a comment to fill in")
    sp.add_argument("--account", default="", help="account (Slurm) or bank (Flux); else a comment to fill in")
    sp.add_argument("--preset", default=runner.DEFAULT_PRESET, help="build preset (default openmp)")
    sp.set_defaults(func=main)
