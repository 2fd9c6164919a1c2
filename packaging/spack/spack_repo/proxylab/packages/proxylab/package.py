# Spack recipe for proxylab, written as Spack's builtin recipes are (spack/spack-packages, API v2).
# How to use it, and how it compares with the builtin recipes it follows: packaging/spack/README.md.
from pathlib import Path

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *

# proxylab has no public repository or release yet: the recipe lives in the checkout it builds, and `git` is that
# checkout (its `main` branch). Publishing the project means replacing this with the public URL.
CHECKOUT = Path(__file__).resolve().parents[6]


class Proxylab(CMakePackage, CudaPackage):
    """Proxy applications for the performance engineering of climate, astrophysics and materials codes:
    POP's barotropic solver, PSTSWM's spectral transform, EVH1's PPM hydrodynamics and a CASTEP-like
    distributed 3-D FFT, plus STREAM and communication probes, on one Kokkos + MPI backend. Every run
    verifies itself."""

    homepage = CHECKOUT.joinpath("README.md").as_uri()
    git = CHECKOUT.as_uri()

    tags = ["proxy-app"]

    license("BSD-3-Clause")

    # No release tarball exists, so there is no version with a sha256 (packaging/spack/README.md).
    version("develop", branch="main")

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
    depends_on("catch2@2.13:2", type="test")

    # The front end `proxylab`: plots need matplotlib (numpy comes with it) and Pillow (charts are saved as palette
    # PNGs), machine files for `model` need PyYAML.
    depends_on("python@3.8:", type="run")
    depends_on("py-matplotlib", type="run")
    depends_on("py-pillow", type="run")
    depends_on("py-pyyaml", type="run")

    # On the GPU: every proxy runs on Kokkos' CUDA back end; the FFT layer's device library is kokkos-fft (cuFFT),
    # pstswm's Legendre transform calls cuBLAS (from the CUDA toolkit). Kokkos builds for one GPU architecture, the one asked
    # of proxylab; device lambdas need cuda_lambda where Kokkos 4 still has it as an option.
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda+wrapper cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
    conflicts("+cuda", when="cuda_arch=none", msg="give the GPU architecture: cuda_arch=90 (for example)")
    depends_on("kokkos@4.6:", when="+cuda")
    depends_on("kokkos+cuda_lambda", when="+cuda ^kokkos@:4")
    depends_on("kokkos-fft@1: device_backend=cufft", when="+cuda")
    depends_on("kokkos~cuda", when="~cuda")

    # proxylab's code is C++17 or C++20; Kokkos 5 needs C++20.
    conflicts("^kokkos cxxstd=14", msg="proxylab needs C++17 or newer")
    conflicts("^kokkos cxxstd=23", msg="proxylab builds as C++17 or C++20")

    @property
    def mpiexec(self):
        """The MPI provider's launcher: its own `mpiexec` attribute where it has one (intel-oneapi-mpi keeps it
        outside prefix/bin), else prefix/bin/mpiexec; None where the provider has none (cray-mpich: srun)."""
        mpi = self["mpi"]
        launcher = getattr(mpi, "mpiexec", None) or mpi.prefix.bin.mpiexec
        return launcher if Path(launcher).exists() else None

    def cmake_args(self):
        spec = self.spec
        cxxstd = spec["kokkos"].variants["cxxstd"].value if "cxxstd" in spec["kokkos"].variants else "17"
        args = [
            self.define("PROXYLAB_ENABLE_TESTS", self.run_tests),
            # CMake checks that the Kokkos it finds has exactly the back ends asked for.
            self.define_from_variant("PROXYLAB_ENABLE_OPENMP", "openmp"),
            self.define_from_variant("PROXYLAB_ENABLE_CUDA", "cuda"),
            self.define("CMAKE_CXX_STANDARD", cxxstd),
            # Kokkos' compiler: nvcc_wrapper for CUDA, Spack's C++ compiler otherwise.
            self.define("CMAKE_CXX_COMPILER", self["kokkos"].kokkos_cxx),
            # Spack's compiler wrappers add the target's -march; no -march=native of proxylab's own.
            self.define("PROXYLAB_ARCH", ""),
            self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx),
            self.define("MPI_C_COMPILER", spec["mpi"].mpicc),
        ]
        if self.mpiexec:
            args.append(self.define("MPIEXEC_EXECUTABLE", self.mpiexec))
        return args

    def check(self):
        """ctest at build time (spack install --test=root): unit, MPI and regression tests; not the
        `scheduler` test, which starts its own Slurm cluster and needs root."""
        ctest = Executable(self.spec["cmake"].prefix.bin.ctest)
        with working_dir(self.build_directory):
            ctest("--output-on-failure", "-j", str(make_jobs), "-LE", "scheduler")

    def setup_run_environment(self, env):
        # The front end launches the proxies with the MPI they were built with (without one, its default: mpiexec
        # on the PATH, or srun with --launcher srun).
        if self.mpiexec:
            env.set("PROXYLAB_MPIEXEC", self.mpiexec)

    def test_pop(self):
        """run the installed POP proxy on 2 ranks at its small deck and check it verified"""
        if not self.mpiexec:
            raise SkipTest("the MPI provider has no mpiexec")
        mpiexec = which(self.mpiexec, required=True)
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
