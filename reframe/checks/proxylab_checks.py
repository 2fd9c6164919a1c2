# ReFrame checks of the proxylab proxies: one per proxy and main variant, run as built (RunOnlyRegressionTest).
#   sanity       the run printed `VERIFICATION: PASSED` and a `FOM:` line in the proxy's unit
#   performance  the value of the `FOM:` line, against the reference of the system:partition (size=bench only)
# Variables (set with -S NAME=VALUE, see reframe/run.sh):
#   size    small (default: the test decks, seconds in all) or bench (the seeds' resolutions; references apply)
#   launch  local (default: the MPI launcher of the build) or slurm (sbatch + srun): the partition kind
#   ranks   MPI ranks per run (default 2; one thread each), launched and bound as the front end launches them
# Binaries and decks are found as the front end finds them (python/proxylab_tools/runner.py): PROXYLAB_BUILD_DIR,
# else build/openmp of this checkout, or the bin/ of an installed prefix.
import json
import re
import sys
from collections import namedtuple
from pathlib import Path

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import parameter, run_after, sanity_function, variable

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'python'))
from proxylab_tools import launch, runner  # noqa: E402

Case = namedtuple('Case', 'name app small bench sets unit higher_is_better')
# One case per proxy and main variant: the deck key(s) that choose the variant, the decks for each size.
CASES = [
    *[Case(f'pop_{s}', 'pop', 'small', 'x1', [f'solver.name={s}'], 'us', False)
      for s in ('pcg', 'chrongear', 'pcsi', 'pipecg')],
    *[Case(f'pstswm_{alg}_{lt}', 'pstswm', 'small', 'T42L18-case2', [f'parallel.algorithm={alg}', f'transform.lt={lt}'],
           'GFLOP/s', True) for alg, lt in (('transpose', 'gemm'), ('transpose', 'loop'), ('distributed', 'gemm'))],
    *[Case(f'evh1_{alg}_{m}', 'evh1', 'demo', 'sedov-128', [f'evh1.algorithm={alg}', f'evh1.mapping={m}'],
           'zone-cycles/s', True) for alg, m in (('transpose', 'batched'), ('transpose', 'pencil'), ('halo', 'batched'))],
    Case('fft3d_slab', 'fft3d', 'small', 'nas_S', ['fft3d.decomposition=slab'], 'GFLOP/s', True),
    Case('fft3d_pencil', 'fft3d', 'small', 'nas_S', ['fft3d.decomposition=pencil'], 'GFLOP/s', True),
    Case('stream_flat', 'stream', 'small', 'default', ['stream.mapping=flat'], 'GB/s', True),
    Case('stream_team', 'stream', 'small', 'default', ['stream.mapping=team'], 'GB/s', True),
    Case('comm_pingpong', 'comm', 'tiny', 'small', [], 'us', False),
]

# The first case of each proxy is its reference variant (the deck's defaults): tag `reference`.
REFERENCE_VARIANTS = {next(c for c in CASES if c.app == app).name for app in {c.app for c in CASES}}

# FOM references for size=bench at 2 ranks x 1 thread, per system (each of its partitions): reframe/references.json,
# written by reframe/measure_references.py (the median of several quiet runs and a tolerance from their spread). A
# run fails its reference when it is worse by more than the tolerance (rates below (1 - t) x reference, times above
# (1 + t) x reference); better is never a failure.
REFERENCES = json.loads((Path(__file__).resolve().parents[1] / 'references.json').read_text())
# The front end's launcher for each partition kind (python/proxylab_tools/launch.py).
LAUNCHERS = {'local': 'mpiexec', 'slurm': 'srun'}


@rfm.simple_test
class ProxylabCheck(rfm.RunOnlyRegressionTest):
    case = parameter(CASES, fmt=lambda c: c.name)
    size = variable(str, value='small')
    launch = variable(str, value='local')
    ranks = variable(int, value=2)
    valid_prog_environs = ['as-built']
    time_limit = '10m'
    maintainers = ['proxylab']

    @run_after('init')
    def configure_run(self):
        if self.size not in ('small', 'bench'):
            raise ValueError(f"size is '{self.size}'; allowed: small, bench")
        if self.launch not in ('local', 'slurm'):
            raise ValueError(f"launch is '{self.launch}'; allowed: local, slurm")
        self.valid_systems = [f'+{self.launch}']
        self.tags = {'proxylab', self.case.app, self.size}
        if self.case.name in REFERENCE_VARIANTS:
            self.tags.add('reference')
        deck = runner.resolve_deck(self.case.app, getattr(self.case, self.size))
        self.descr = f'proxylab {self.case.app} {" ".join(self.case.sets) or "(deck defaults)"}, deck {deck.name}'
        self.executable = str(runner.binary(self.case.app))
        self.skip_if(not Path(self.executable).exists(), f'{self.executable} is not built')
        self.executable_opts = ['--deck', str(deck), *[a for s in self.case.sets for a in ('--set', s)]]
        self.num_tasks = self.ranks
        self.num_tasks_per_node = self.ranks
        self.num_cpus_per_task = 1
        # The front end's thread environment for this launch: OMP_NUM_THREADS, and with ranks bound to their own
        # cores OMP_PROC_BIND=spread, OMP_PLACES=cores (the user's own OMP_* win, as in the front end).
        job = launch.Launch(self.ranks, self.num_cpus_per_task, launch.LaunchOptions(LAUNCHERS[self.launch]))
        self.env_vars = {k: v for k, v in job.env().items() if k.startswith('OMP_') or k == 'OPENBLAS_NUM_THREADS'}
        fom = sn.extractsingle(r'^FOM: (\S+) ', self.stdout, 1, float)
        self.perf_variables = {'fom': sn.make_performance_function(fom, self.case.unit)}
        if self.size == 'bench':
            self.reference = {}
            for system, refs in REFERENCES.items():
                ref = refs['fom'].get(self.case.name)
                if ref:
                    t = ref['tolerance']
                    tol = (-t, None) if self.case.higher_is_better else (None, t)
                    self.reference.update({f'{system}:{part}': {'fom': (ref['value'], *tol, self.case.unit)}
                                           for part in LAUNCHERS})

    @sanity_function
    def verified(self):
        return sn.all([
            sn.assert_found(r'^VERIFICATION: PASSED$', self.stdout),
            sn.assert_found(rf'^FOM: [-+0-9.eE]+ {re.escape(self.case.unit)} \(', self.stdout),
        ])
