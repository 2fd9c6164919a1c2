"""How the front end launches a job (launch.py), decides its exit code (runner.job_exit_code), checks output paths
(output_files.py) and writes batch scripts (jobscript.py): command lines per launcher, the binding rule, the checks
of ranks x threads against the cores, and bad options refused before anything is built (exit 2)."""
import contextlib
import io
import os
import stat
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from proxylab_tools import cli, jobscript, launch, output_files, runner


def plan(ranks=2, threads=1, launcher="mpiexec", **kw):
    return launch.Launch(ranks, threads, launch.LaunchOptions(launcher, **kw))


@contextlib.contextmanager
def machine(cores=2, flavour="hydra", env=None):
    """A machine with `cores` cores and MPICH's mpiexec (or another flavour); env replaces os.environ's launch keys."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("OMP_", "PROXYLAB_LAUNCHER", "PROXYLAB_SRUN_MPI", "SLURM_", "OPENBLAS_"))}
    clean.update(env or {})
    with mock.patch.object(launch, "cores_available", lambda: cores), \
            mock.patch.object(launch, "mpiexec_executable", lambda: "/usr/bin/mpiexec.mpich"), \
            mock.patch.object(launch, "mpiexec_flavour", lambda exe: flavour), \
            mock.patch.dict(os.environ, clean, clear=True):
        yield


class LaunchChecks(unittest.TestCase):
    def refused(self, p, *fragments):
        with self.assertRaises(launch.LaunchError) as e:
            p.check()
        for f in fragments:
            self.assertIn(f, str(e.exception))

    def test_counts_below_one_are_refused(self):
        with machine():
            self.refused(plan(ranks=0), "--ranks 0", "at least 1")
            self.refused(plan(ranks=-1), "--ranks -1")
            self.refused(plan(threads=0), "--threads 0")
            self.refused(plan(threads=-3), "--threads -3")
            self.refused(plan(nodes=0), "--nodes 0")

    def test_more_threads_than_cores_needs_oversubscribe(self):
        with machine(cores=2):
            self.refused(plan(ranks=3), "--ranks 3 x --threads 1 = 3 threads on 2 cores", "--oversubscribe")
            self.refused(plan(ranks=2, threads=2), "= 4 threads on 2 cores")
            plan(ranks=2, threads=1).check()
            plan(ranks=32, oversubscribe=True).check()
            plan(ranks=64, launcher="srun").check()  # the scheduler's nodes, not this machine's cores

    def test_caps_on_ranks_and_threads(self):
        # --ranks 99999 --oversubscribe used to fork ranks long after SIGTERM (3454 processes),
        # --threads 99999999 --oversubscribe segfaulted and --threads 3000 aborted: refused before anything starts.
        with machine(cores=2), mock.patch.object(launch, "memory_available_mib", lambda: 24000.0):
            self.refused(plan(ranks=99999, oversubscribe=True), "= 99999 threads on 2 cores", "at most 32 (16 per core)",
                         "--ignore-caps")
            self.refused(plan(ranks=1, threads=99999999, oversubscribe=True), "--threads 99999999",
                         "at most 1024 threads per rank")
            self.refused(plan(ranks=1, threads=3000, oversubscribe=True), "--threads 3000")
            self.refused(plan(ranks=1, threads=2000, launcher="srun"), "--threads 2000")  # any launcher
            plan(ranks=99999, oversubscribe=True, ignore_caps=True).check()
        with machine(cores=64), mock.patch.object(launch, "memory_available_mib", lambda: 1000.0):
            self.refused(plan(ranks=40, oversubscribe=True), "each rank needs at least 32 MiB", "at most 31 ranks")

    def test_a_launcher_that_cannot_start_is_refused(self):
        # --launcher flux without flux, and a missing PROXYLAB_MPIEXEC, used to end in tracebacks.
        with machine(), mock.patch.object(launch.shutil, "which", lambda program: None):
            with self.assertRaises(launch.LaunchError) as e:
                plan(launcher="flux").check_launcher_program()
            self.assertIn("--launcher flux: the program 'flux' is not found", str(e.exception))
            with self.assertRaises(launch.LaunchError) as e:
                plan(launcher="mysrun -n {ranks}").check_launcher_program()
            self.assertIn("the launcher template: the program 'mysrun'", str(e.exception))
            plan(launcher="none").check_launcher_program()
        with machine(env={"PROXYLAB_MPIEXEC": "/nonexistent/mpiexec"}), \
                mock.patch.object(launch, "mpiexec_executable", lambda: "/nonexistent/mpiexec"):
            with self.assertRaises(launch.LaunchError) as e:
                plan().check_launcher_program()
            self.assertIn("PROXYLAB_MPIEXEC: the program '/nonexistent/mpiexec'", str(e.exception))

    def test_launcher_specific_refusals(self):
        with machine():
            self.refused(plan(ranks=2, launcher="none"), "--launcher none", "1 rank")
            self.refused(plan(ranks=4, launcher="mpiexec", nodes=2, oversubscribe=True), "--nodes 2", "srun or flux")
            self.refused(plan(launcher="mpirun -np 2"), "nor a template with {ranks}")
            # {{ranks}} is Python's escaped brace, the text {ranks}: it used to pass and run Hydra's default of 1 rank
            self.refused(plan(launcher="mpiexec.mpich -n {{ranks}}"), "nor a template with {ranks}",
                         "{{ranks}} is the text {ranks}, not the count")
            self.refused(plan(launcher="srun -n {rank}"), "placeholders")
            # An attribute or index of a placeholder used to raise a traceback
            self.refused(plan(launcher="srun -n {ranks.foo}"), "AttributeError", "placeholders")
            self.refused(plan(launcher="srun -n {ranks[0]}"), "placeholders")
            self.refused(plan(ranks=6, launcher="srun", nodes=2, ranks_per_node=2), "2 x --ranks-per-node 2 = 4")
            # srun's MPI plugin: for srun only, one word (it lands in srun's argv as --mpi=TYPE)
            self.refused(plan(launcher="mpiexec", srun_mpi="pmi2"), "--srun-mpi pmi2", "--launcher srun only")
            self.refused(plan(launcher="srun", srun_mpi="pmi2 -N 9"), "--srun-mpi 'pmi2 -N 9'", "plugin name")
        with machine(env={"PROXYLAB_SRUN_MPI": "pmix;x"}):
            self.refused(plan(launcher="srun"), "PROXYLAB_SRUN_MPI 'pmix;x'", "plugin name")

    def test_gpus_per_task_is_asked_of_the_scheduler(self):
        with machine():
            self.assertIn("--gpus-per-task=1", plan(ranks=8, launcher="srun", gpus_per_task=1).prefix())
            words = plan(ranks=8, launcher="flux", gpus_per_task=2).prefix()
            self.assertEqual(words[words.index("-g"):][:2], ["-g", "2"])
            self.assertNotIn("-g", plan(ranks=8, launcher="flux").prefix())
            self.refused(plan(launcher="mpiexec", gpus_per_task=1), "--gpus-per-task 1", "srun or flux only")
            self.refused(plan(launcher="srun", gpus_per_task=-1), "--gpus-per-task -1: at least 0")

    def test_ranks_from_nodes(self):
        o = launch.LaunchOptions("srun", nodes=3, ranks_per_node=4)
        self.assertEqual(launch.ranks_for(None, o), 12)
        self.assertEqual(launch.ranks_for(5, o), 5)
        self.assertEqual(launch.ranks_for(None, launch.LaunchOptions()), 1)


class LaunchCommands(unittest.TestCase):
    def test_mpiexec_binds_each_rank_to_its_cores(self):
        with machine(cores=8):
            self.assertEqual(plan(2, 3).command("exe", ["--quiet"]),
                             ["/usr/bin/mpiexec.mpich", "-n", "2", "-bind-to", "core:3", "exe", "--quiet"])
            self.assertEqual(plan(4, 1, ranks_per_node=2).prefix(),
                             ["/usr/bin/mpiexec.mpich", "-n", "4", "-ppn", "2", "-bind-to", "core:1"])
            self.assertEqual(plan(4, 1, oversubscribe=True).prefix(), ["/usr/bin/mpiexec.mpich", "-n", "4"])
        with machine(cores=8, flavour="openmpi"):
            words = plan(2, 2).prefix()
            self.assertIn("slot:PE=2", words)
            self.assertEqual(words[-2:], ["--bind-to", "core"])

    def test_srun_and_flux(self):
        with machine():
            self.assertEqual(plan(8, 4, "srun", nodes=2, ranks_per_node=4).prefix(),
                             ["srun", "-n", "8", "-c", "4", "-N", "2", "--ntasks-per-node", "4", "--cpu-bind=cores"])
            self.assertIn("--cpu-bind=none", plan(2, 1, "srun", oversubscribe=True).prefix())
            self.assertEqual(plan(4, 2, "flux").prefix(),
                             ["flux", "run", "-n", "4", "-c", "2", "-o", "cpu-affinity=per-task"])
        with machine(env={"SLURM_MPI_TYPE": "pmix"}):  # srun reads it itself
            self.assertEqual(plan(2, 1, "srun").prefix()[:2], ["srun", "-n"])
        with machine(env={"PROXYLAB_SRUN_MPI": "pmix"}):  # the site or user asks for a plugin
            self.assertEqual(plan(2, 1, "srun").prefix()[:2], ["srun", "--mpi=pmix"])
            # --srun-mpi wins over the environment
            self.assertEqual(plan(2, 1, "srun", srun_mpi="pmi2").prefix()[:2], ["srun", "--mpi=pmi2"])

    def test_srun_outside_an_allocation_is_refused(self):
        with machine(), mock.patch.object(launch.shutil, "which", lambda name: f"/usr/bin/{name}"):
            with self.assertRaises(launch.LaunchError) as e:
                plan(2, 1, "srun").check_launcher_program()
            self.assertIn("no Slurm allocation here (SLURM_JOB_ID is not set)", str(e.exception))
            self.assertIn("jobscript", str(e.exception))
        with machine(env={"SLURM_JOB_ID": "42"}), mock.patch.object(launch.shutil, "which", lambda n: f"/usr/bin/{n}"):
            plan(2, 1, "srun").check_launcher_program()

    def test_template_and_none(self):
        with machine(env={"PROXYLAB_LAUNCHER": "srun -n {ranks} -c {threads} --cpu-bind=cores"}):
            p = launch.Launch(4, 2, launch.LaunchOptions())
            self.assertEqual(p.command("exe", []), ["srun", "-n", "4", "-c", "2", "--cpu-bind=cores", "exe"])
            self.assertEqual(plan(1, 1, "none").command("exe", ["-x"]), ["exe", "-x"])
            self.assertEqual(plan(2, 1, "mpiexec").prefix()[0], "/usr/bin/mpiexec.mpich")  # the flag wins

    def test_binding_environment(self):
        with machine(cores=8):
            env = plan(2, 2).env({})
            self.assertEqual((env["OMP_NUM_THREADS"], env["OMP_PROC_BIND"], env["OMP_PLACES"]), ("2", "spread", "cores"))
            self.assertEqual(env["OPENBLAS_NUM_THREADS"], "1")
            self.assertEqual(plan(2, 2).env({"OMP_PROC_BIND": "close"})["OMP_PROC_BIND"], "close")  # the user's wins
            self.assertEqual(plan(2, 2, oversubscribe=True).env({})["OMP_PROC_BIND"], "false")
            self.assertEqual(plan(2, 2, "mpiexec -n {ranks}").env({})["OMP_PROC_BIND"], "false")
            # the rank count asked for, which the binaries compare with their MPI_COMM_WORLD
            self.assertEqual(plan(3, 1, "mpiexec -n {ranks}").env({})["PROXYLAB_EXPECTED_RANKS"], "3")
        with machine(cores=8, flavour="unknown"):  # no rank binding: threads must not all pin to core 0
            self.assertEqual(plan(2, 2).env({})["OMP_PROC_BIND"], "false")

    def test_ctest_environment(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(launch.main(["ctest-env", "2"]), 0)
        self.assertEqual(out.getvalue(), "OMP_NUM_THREADS=2;OMP_PROC_BIND=false;OPENBLAS_NUM_THREADS=1")


class JobExitCode(unittest.TestCase):
    def test_the_record_decides(self):
        done = {"status": "completed", "verification": {"passed": True}}
        failed = {"status": "completed", "verification": {"passed": False}}
        interrupted = {"status": "interrupted", "verification": {"passed": False}}
        code = runner.job_exit_code
        self.assertEqual(code(interrupted, 0, 0, False), 130)  # mpiexec returns 0 after a forwarded SIGINT
        self.assertEqual(code(done, 0, 2, False), 130)         # the front end got SIGINT
        self.assertEqual(code(None, 0, 15, False), 130)
        self.assertEqual(code(done, 0, 0, False), 0)
        self.assertEqual(code(failed, 1, 0, False), 1)
        self.assertEqual(code(failed, 0, 0, False), 1)
        self.assertEqual(code(None, 2, 0, False), 2)
        self.assertEqual(code(done, 139, 0, False), 139)       # a crash after the record was written
        self.assertEqual(code(None, 0, 0, True), 124)
        # a timed-out job's ranks are stopped as after Ctrl-C and write 'interrupted': that was 130, not 124
        self.assertEqual(code(interrupted, 0, 0, True), 124)
        self.assertEqual(code(interrupted, 0, 2, True), 130)  # Ctrl-C during the stop wins
        # PROXYLAB_MPIEXEC=/bin/false used to exit 1 with no message; a pipe closed under the job
        # exited 243 (SIGPIPE): without a record, a failure of the launch is a runtime failure, and says so
        for launcher_rc in (1, 0, -13, 139, 255):
            self.assertEqual(code(None, launcher_rc, 0, False), 3)
        self.assertEqual(code(None, 3, 0, False), 3)
        res = runner.RunResult("stream", 1, 1, "", [], 3, 0.1, record=None, command=["/bin/false", "-n", "1"],
                               launcher_returncode=1)
        self.assertIn("the job (/bin/false ...) exited with 1 and no rank wrote a record", runner.job_failure(res))
        res.launcher_returncode = -9
        self.assertIn("was killed by signal 9", runner.job_failure(res))
        res.launcher_returncode = 3  # the binary's own runtime failure: it said why
        self.assertEqual(runner.job_failure(res), "")


class OutputPaths(unittest.TestCase):
    def test_problems_found_before_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertIn("is a folder", output_files.problem(tmp))
            self.assertIn("folder that does not exist", output_files.problem(f"{tmp}/no/such/r.json"))
            fifo = f"{tmp}/pipe"
            os.mkfifo(fifo)
            self.assertIn("pipe with no reader", output_files.problem(fifo))
            self.assertEqual(output_files.problem(f"{tmp}/new.json"), "")
            self.assertEqual(output_files.problem("/dev/null"), "")
            os.chmod(tmp, stat.S_IRUSR | stat.S_IXUSR)
            try:
                if os.geteuid() != 0:  # root writes anywhere
                    self.assertIn("cannot be created", output_files.problem(f"{tmp}/r.json"))
            finally:
                os.chmod(tmp, stat.S_IRWXU)

    def test_atomic_and_checked_writes(self):
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "r.json"
            target.write_text("old record")
            output_files.atomic_write(target, "new record\n")
            self.assertEqual(target.read_text(), "new record\n")
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), ["r.json"])  # no temporary left
            output_files.remove_stale(target)
            self.assertFalse(target.exists())
        with self.assertRaises(output_files.OutputError) as e:
            output_files.atomic_write("/dev/full", "x" * 100)
        self.assertIn("'/dev/full': writing failed", str(e.exception))
        self.assertIn("errno 28", str(e.exception))

    def test_a_failed_write_leaves_no_earlier_record(self):
        # --json on a full disk used to exit 3 and leave the earlier record in place.
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "r.json"
            target.write_text("an earlier run's record")
            full = OSError(28, "No space left on device")
            with mock.patch.object(output_files.tempfile, "mkstemp", side_effect=full), \
                    self.assertRaises(output_files.OutputError) as e:
                output_files.atomic_write(target, "this run's record")
            self.assertIn("No space left on device", str(e.exception))
            self.assertFalse(target.exists())


class JobScripts(unittest.TestCase):
    def script(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = cli.main(["jobscript", *argv])
        return rc, out.getvalue()

    def test_slurm_and_flux(self):
        rc, text = self.script("pop", "--deck", "inputs/pop/x1.yaml", "--ranks", "4", "--threads", "2", "--time", "90")
        self.assertEqual(rc, 0, text)
        for line in ("#SBATCH --ntasks=4", "#SBATCH --cpus-per-task=2", "#SBATCH --time=01:30:00",
                     "##SBATCH --partition=FILL_IN", "# module load"):
            self.assertIn(line, text)
        run = [ln for ln in text.splitlines() if ln.startswith("exec ")][0]
        self.assertIn("run pop --ranks 4 --threads 2 --launcher srun --deck", run)
        self.assertIn('--json "proxylab-pop-${SLURM_JOB_ID}.json"', run)
        rc, text = self.script("stream", "--scheduler", "flux", "--nodes", "2", "--ranks-per-node", "8", "--partition",
                               "pbatch")
        self.assertEqual(rc, 0, text)
        for line in ("#flux: -N 2", "#flux: -n 16", "#flux: --queue=pbatch", "--launcher flux",
                     "--nodes 2 --ranks-per-node 8"):
            self.assertIn(line, text)

    def test_gpus_per_task(self):
        # one GPU per rank: each rank sees only its own, and Kokkos takes the first it sees (docs/gpu.md)
        rc, text = self.script("pop", "--ranks", "8", "--nodes", "2", "--gpus-per-task", "1", "--preset", "openmp")
        self.assertEqual(rc, 0, text)
        self.assertIn("#SBATCH --gpus-per-task=1\n", text)
        rc, text = self.script("pop", "--scheduler", "flux", "--ranks", "4", "--gpus-per-task", "1")
        self.assertEqual(rc, 0, text)
        self.assertIn("#flux: -g 1\n", text)
        rc, text = self.script("pop", "--ranks", "4")
        self.assertNotIn("gpus", text)
        self.assertEqual(self.script("pop", "--gpus-per-task", "-1")[0], 2)

    def test_the_launch_line_and_its_variables_are_shown(self):
        with machine(cores=8):
            rc, text = self.script("pop", "--deck", "x1", "--ranks", "4", "--threads", "2")
        self.assertEqual(rc, 0, text)
        lines = text.splitlines()
        shown = lines[[ln.startswith("exec ") for ln in lines].index(True) - 1]  # the comment above the command
        self.assertRegex(shown, r"^#   OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=cores OPENBLAS_NUM_THREADS=1 "
                                r"srun -n 4 -c 2 --cpu-bind=cores \S+/proxylab-pop --deck \S+/inputs/pop/x1.yaml "
                                r"--json ")

    def test_bad_options(self):
        self.assertEqual(self.script("pop", "--ranks", "0")[0], 2)
        self.assertEqual(self.script("nosuchapp")[0], 2)

    def test_srun_mpi_plugin(self):
        # MPICH under Slurm needs srun --mpi=pmi2 where the site's default plugin is another: the script passes it on
        rc, text = self.script("pop", "--ranks", "2", "--srun-mpi", "pmi2")
        self.assertEqual(rc, 0, text)
        run = [ln for ln in text.splitlines() if ln.startswith("exec ")][0]
        self.assertIn("--launcher srun --deck", run)
        self.assertIn("--srun-mpi pmi2", run)
        self.assertRegex(text, r"#   .*srun --mpi=pmi2 -n 2 ")  # the launch line shown above the command
        rc, text = self.script("pop", "--scheduler", "flux", "--srun-mpi", "pmi2")
        self.assertEqual(rc, 2, text)
        self.assertIn("--srun-mpi pmi2: srun's MPI plugin, for --launcher srun only (here flux)", text)
        rc, text = self.script("pop", "--srun-mpi", "pmi2 --export=NONE")
        self.assertEqual(rc, 2, text)
        self.assertIn("--srun-mpi 'pmi2 --export=NONE'", text)

    def run_script(self, text: str, folder: Path) -> list[str]:
        """Runs a written script with bash in `folder`, `exec` replaced by a function that records its arguments;
        returns them."""
        script, args = folder / "job.sh", folder / "args"
        script.write_text(text)
        p = subprocess.run(["bash", "-c", 'exec() { printf "%s\\0" "$@" > "$ARGS"; }; . ./job.sh'], cwd=folder,
                           env={**os.environ, "ARGS": str(args), "SLURM_JOB_ID": "7", "FLUX_JOB_ID": "f7"}, capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        return args.read_text().split("\0")[:-1]

    def test_nothing_a_user_types_runs_in_the_script(self):
        # A newline in --set used to end the '# Written by:' comment, and the next line ran.
        payloads = ["$(touch CANARY)", "`touch CANARY`", "'; touch CANARY; '", '"; touch CANARY; "', "a b\\ c; touch CANARY"]
        for scheduler in ("slurm", "flux"):
            for payload in payloads:
                for option in ("--set", "--deck", "--json", "--"):
                    argv = ["pop", "--scheduler", scheduler]
                    argv += ["--", payload] if option == "--" else [option, payload]
                    with self.subTest(scheduler=scheduler, option=option, payload=payload), \
                            tempfile.TemporaryDirectory() as tmp:
                        rc, text = self.script(*argv)
                        self.assertEqual(rc, 0, text)
                        ran = self.run_script(text, Path(tmp))
                        self.assertFalse((Path(tmp) / "CANARY").exists(), text)
                        self.assertTrue(any(payload in arg for arg in ran), (payload, ran))
                for option in ("--partition", "--account"):  # written into a directive: refused
                    with self.subTest(scheduler=scheduler, option=option, payload=payload):
                        rc, text = self.script("pop", "--scheduler", scheduler, option, payload)
                        self.assertEqual(rc, 2, text)
                        self.assertIn(option, text)
            for option in ("--set", "--deck", "--json", "--partition", "--account", "--"):
                for payload in ("solver.crit=1e-13\ntouch CANARY #", "x\rtouch CANARY", "x\x1b[2J"):
                    argv = ["pop", "--scheduler", scheduler]
                    argv += ["--", payload] if option == "--" else [option, payload]
                    with self.subTest(scheduler=scheduler, option=option, payload=payload):
                        rc, text = self.script(*argv)
                        self.assertEqual(rc, 2, text)
                        self.assertIn("control character", text)
                        self.assertNotIn("#!/bin/bash", text)
        rc, text = self.script("pop", "--partition", "debug,long", "--account", "proj-42_a")
        self.assertEqual(rc, 0, text)
        self.assertIn("#SBATCH --partition=debug,long", text)


class RefusedBeforeBuilding(unittest.TestCase):
    """Bad input is found before set-up and build start (which take minutes on a fresh machine)."""

    def run_cli(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), machine(cores=2), \
                mock.patch.object(cli, "ensure_built", side_effect=AssertionError("must not build")), \
                mock.patch.object(runner, "run_app", side_effect=AssertionError("must not run")):
            rc = cli.main(list(argv))
        return rc, out.getvalue()

    def test_a_dry_run_prints_the_launch_line_only(self):
        with mock.patch.dict(os.environ, {"PROXYLAB_BUILD_DIR": "/nonexistent-build"}):
            rc, text = self.run_cli("run", "pop", "--deck", "x1", "--ranks", "2", "--json", "r.json", "--dry-run",
                                    "--kokkos-tools-libs=kt.so")
        self.assertEqual(rc, 0, text)
        self.assertEqual(text.splitlines()[-1],
                         "OMP_NUM_THREADS=1 OMP_PROC_BIND=spread OMP_PLACES=cores OPENBLAS_NUM_THREADS=1 "
                         "/usr/bin/mpiexec.mpich -n 2 -bind-to core:1 /nonexistent-build/bin/proxylab-pop --deck "
                         f"{runner.ROOT}/inputs/pop/x1.yaml --json r.json --kokkos-tools-libs=kt.so")

    def test_a_dry_run_prints_a_launch_this_machine_could_not_run(self):
        # it refused more ranks than the local cores, and srun outside an allocation: printing the line is its purpose
        env = {"PROXYLAB_BUILD_DIR": "/nonexistent-build", "SLURM_JOB_ID": ""}
        with mock.patch.dict(os.environ, env), mock.patch.object(launch.shutil, "which", return_value="/usr/bin/srun"):
            rc, text = self.run_cli("run", "pop", "--ranks", "64", "--dry-run")
            self.assertEqual(rc, 0, text)
            self.assertIn("-n 64 ", text.splitlines()[-1])
            rc, text = self.run_cli("run", "pop", "--ranks", "8", "--nodes", "2", "--launcher", "srun", "--dry-run")
            self.assertEqual(rc, 0, text)
            self.assertRegex(text.splitlines()[-1], r"^.*srun .*-n 8 .*proxylab-pop")
            rc, text = self.run_cli("run", "pop", "--ranks", "0", "--dry-run")  # the launch's own sense still checked
            self.assertEqual(rc, 2, text)

    def test_unknown_app_bad_counts_and_paths(self):
        with mock.patch.dict(os.environ, {"PROXYLAB_BUILD_DIR": "/nonexistent-build"}):
            cases = [(["run", "foo"], "unknown app 'foo'"),
                     (["run", "pop", "--ranks", "0"], "--ranks 0: must be at least 1"),
                     (["run", "pop", "--threads", "-3"], "--threads -3: must be at least 1"),
                     (["run", "pop", "--ranks", "3"], "= 3 threads on 2 cores"),
                     (["run", "pop", "--json", "/nonexistent/r.json"], "folder that does not exist"),
                     (["run", "pop", "--json", "/tmp"], "is a folder"),
                     (["demo", "--ranks", "0"], "--ranks 0")]
            for argv, message in cases:
                rc, text = self.run_cli(*argv)
                self.assertEqual(rc, 2, f"{argv}: {text}")
                self.assertIn(message, text, argv)


if __name__ == "__main__":
    unittest.main()
