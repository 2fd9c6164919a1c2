# ReFrame configuration for the proxylab suite (reframe/checks). Two systems, each with two partitions:
#   devvm    the 2-core development VM (hostname "vm"): the reference FOMs in the checks are for its partitions
#   anyhost  any other machine: the same partitions, no references (values are logged, not compared)
# Partitions (a check runs on one kind, chosen with `-S launch=local|slurm`, see reframe/run.sh):
#   local    no scheduler; ranks started by the MPI launcher the proxylab build uses (`proxylab-mpiexec` below)
#   slurm    Slurm: sbatch + srun; PROXYLAB_SLURM_ACCESS adds sbatch options (e.g. "--partition=debug
#            --account=abc"); SLURM_MPI_TYPE=pmi2 is what Debian's MPICH needs from srun (change it for your MPI)
# A real cluster: copy the `anyhost` system, name it, set its hostnames and the partition's access / environs.
import os
import re
import shlex
import sys
from pathlib import Path

from reframe.core.backends import register_launcher
from reframe.core.launchers import JobLauncher

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'python'))
from proxylab_tools import runner  # noqa: E402  (where the build tree is)


def mpi_launcher():
    '''PROXYLAB_MPIEXEC, else the MPIEXEC_EXECUTABLE the build was configured with (the launcher beside its MPI
    wrapper, what ctest uses), else `mpiexec`.'''
    if os.environ.get('PROXYLAB_MPIEXEC'):
        return os.environ['PROXYLAB_MPIEXEC']
    cache = runner.build_dir() / 'CMakeCache.txt'
    found = re.search(r'^MPIEXEC_EXECUTABLE:\w+=(.+)$', cache.read_text(), re.M) if cache.is_file() else None
    return found.group(1) if found else 'mpiexec'


@register_launcher('proxylab-mpiexec')
class ProxylabMpiexecLauncher(JobLauncher):
    '''The MPI launcher of the proxylab build, not whichever `mpiexec` is first on PATH (on Debian with OpenMPI
    and MPICH both installed that is OpenMPI's).'''

    def command(self, job):
        return [mpi_launcher(), '-n', str(job.num_tasks)]


def partitions():
    access = shlex.split(os.environ.get('PROXYLAB_SLURM_ACCESS', ''))
    return [
        {
            'name': 'local',
            'descr': 'this machine, no scheduler, the MPI launcher of the proxylab build',
            'scheduler': 'local',
            'launcher': 'proxylab-mpiexec',
            'environs': ['as-built'],
            'features': ['local'],
            'max_jobs': 1,
        },
        {
            'name': 'slurm',
            'descr': 'Slurm: sbatch + srun',
            'scheduler': 'squeue',  # no job accounting needed (the one-node test cluster has none)
            'launcher': 'srun',
            'access': access,
            'environs': ['as-built'],
            'features': ['slurm'],
            'env_vars': [['SLURM_MPI_TYPE', os.environ.get('SLURM_MPI_TYPE', 'pmi2')]],
            'max_jobs': 4,
        },
    ]


site_configuration = {
    'systems': [
        {
            'name': 'devvm',
            'descr': 'the 2-core development VM of proxylab (references measured there)',
            'hostnames': ['^vm$'],
            'partitions': partitions(),
        },
        {
            'name': 'anyhost',
            'descr': 'any machine (no references)',
            'hostnames': ['.*'],
            'partitions': partitions(),
        },
    ],
    # ReFrame's log goes to the current directory (reframe/run.sh runs in its --output directory), not /tmp.
    'logging': [{'handlers': [{'type': 'file', 'name': 'reframe.log', 'level': 'debug', 'append': False,
                               'format': '[%(asctime)s] %(levelname)s: %(check_info)s: %(message)s'}]}],
    'environments': [
        # The environment proxylab was built in: the checks run its binaries, they build nothing.
        {'name': 'as-built'},
    ],
}
