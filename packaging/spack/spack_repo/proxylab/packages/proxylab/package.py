# Spack recipe for proxylab, written as Spack's builtin recipes are (spack/spack-packages, API v2).
# How to use it: packaging/spack/README.md.
from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Proxylab(CMakePackage):
    """Proxy applications for the performance engineering of climate, astrophysics and materials codes:
    POP's barotropic solver, PSTSWM's spectral transform, EVH1's PPM hydrodynamics and a CASTEP-like
    distributed 3-D FFT, plus STREAM and communication probes, on one Kokkos + MPI backend. Every run
    verifies itself."""

    # No public release to download yet: Spack builds a checkout (`spack develop`, packaging/spack/README.md).
    # The version is the checkout's VERSION file.
    license("BSD-3-Clause")

    version("0.2.0")

    variant("openmp", default=True, description="Run the proxies on Kokkos' OpenMP host back end")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    depends_on("pkgconfig", type="build")  # FFTW is found through fftw3.pc

    depends_on("kokkos@3.4:+serial")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos~openmp", when="~openmp")
    depends_on("mpi")
    depends_on("fftw-api@3")
    depends_on("blas")
    depends_on("lapack")
    depends_on("yaml-cpp@0.6:")
    depends_on("nlohmann-json@3:")
    depends_on("cli11@2:")
    depends_on("python@3.8:", type="run")  # the front end `proxylab` (standard library only)
    depends_on("catch2@2.13:2", type="test")

    # proxylab's code is C++17 or C++20; Kokkos 5 needs C++20.
    conflicts("^kokkos cxxstd=14", msg="proxylab needs C++17 or newer")
    conflicts("^kokkos cxxstd=23", msg="proxylab builds as C++17 or C++20")

    def cmake_args(self):
        spec = self.spec
        cxxstd = spec["kokkos"].variants["cxxstd"].value if "cxxstd" in spec["kokkos"].variants else "17"
        return [
            self.define("PROXYLAB_ENABLE_TESTS", self.run_tests),
            self.define("CMAKE_CXX_STANDARD", cxxstd),
            # Spack's compiler wrappers add the target's -march; no -march=native of proxylab's own.
            self.define("PROXYLAB_ARCH", ""),
            self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx),
            self.define("MPI_C_COMPILER", spec["mpi"].mpicc),
            self.define("MPIEXEC_EXECUTABLE", join_path(spec["mpi"].prefix.bin, "mpiexec")),
        ]

    def check(self):
        """ctest at build time (spack install --test=root): unit, MPI and regression tests; not the
        `scheduler` test, which starts its own Slurm cluster and needs root."""
        ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
        with working_dir(self.build_directory):
            ctest("--output-on-failure", "-j", str(make_jobs), "-LE", "scheduler")

    def setup_run_environment(self, env):
        # The front end launches the proxies with the MPI they were built with.
        env.set("PROXYLAB_MPIEXEC", join_path(self.spec["mpi"].prefix.bin, "mpiexec"))

    def test_pop(self):
        """run the installed POP proxy on 2 ranks at its small deck and check it verified"""
        mpiexec = which(join_path(self.spec["mpi"].prefix.bin, "mpiexec"), required=True)
        deck = join_path(self.prefix.share.proxylab.inputs.pop, "small.yaml")
        env["OMP_NUM_THREADS"] = "1"
        out = mpiexec("-n", "2", join_path(self.prefix.bin, "proxylab-pop"), "--deck", deck, output=str, error=str)
        assert "VERIFICATION: PASSED" in out, out

    def test_front_end(self):
        """run `proxylab run stream` through the installed front end, from the test's directory"""
        proxylab = which(join_path(self.prefix.bin, "proxylab"), required=True)
        env["OMP_NUM_THREADS"] = "1"
        out = proxylab("run", "stream", "--deck", "small", "--ranks", "1", output=str, error=str)
        assert "VERIFICATION: PASSED" in out, out
