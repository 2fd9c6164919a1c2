# ReFrame configuration for the proxylab suite (reframe/checks). Two systems, each with two partitions:
#   devvm    the 2-core development VM (hostname "vm"): the reference FOMs in reframe/references.json are for it
#   anyhost  any other machine: the same partitions, no references (values are logged, not compared)
# Partitions (a check runs on one kind, chosen with `-S launch=local|slurm`, see reframe/run.sh):
#   local    no scheduler; ranks started by the MPI launcher the proxylab build uses (`proxylab-mpiexec` below)
#   slurm    Slurm: sbatch + srun (`proxylab-srun` below); PROXYLAB_SLURM_ACCESS adds sbatch options (e.g.
#            "--partition=debug --account=abc")
# Both launchers write the command line the front end writes (python/proxylab_tools/launch.py: ranks bound to their
# own cores, srun's --mpi as the front end decides it), and the checks take the front end's OMP_* environment.
# A real cluster: copy the `anyhost` system, name it, set its hostnames and the partition's access / environs.
import os
import re
import shlex
import sys
from pathlib import Path

from reframe.core.backends import register_launcher
from reframe.core.launchers import JobLauncher

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / 'python'))
from proxylab_tools import launch, runner  # noqa: E402  (where the build tree is; how the front end launches)


def build_mpiexec():
    '''The MPIEXEC_EXECUTABLE the build was configured with (the launcher beside its MPI wrapper, what ctest uses),
    or None.'''
    cache = runner.build_dir() / 'CMakeCache.txt'
    found = re.search(r'^MPIEXEC_EXECUTABLE:\w+=(.+)$', cache.read_text(), re.M) if cache.is_file() else None
    return found.group(1) if found else None


# The front end launches with PROXYLAB_MPIEXEC; unless the user set it, it is the build's launcher here, not whichever
# `mpiexec` is first on PATH (on Debian with OpenMPI and MPICH both installed that is OpenMPI's).
if not os.environ.get('PROXYLAB_MPIEXEC') and build_mpiexec():
    os.environ['PROXYLAB_MPIEXEC'] = build_mpiexec()


class FrontEndLauncher(JobLauncher):
    '''The launcher words the front end puts before the binary for this job's ranks and threads.'''
    launcher = ''  # the front end's --launcher

    def command(self, job):
        options = launch.LaunchOptions(self.launcher)
        return launch.Launch(job.num_tasks, job.num_cpus_per_task or 1, options).prefix()


@register_launcher('proxylab-mpiexec')
class MpiexecLauncher(FrontEndLauncher):
    launcher = 'mpiexec'


@register_launcher('proxylab-srun')
class SrunLauncher(FrontEndLauncher):
    launcher = 'srun'


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
            'launcher': 'proxylab-srun',
            'access': access,
            'environs': ['as-built'],
            'features': ['slurm'],
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
