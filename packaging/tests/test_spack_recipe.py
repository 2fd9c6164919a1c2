#!/usr/bin/env python3
"""Checks the Spack recipe (packaging/spack/package.py) without Spack: it is executed against stand-ins for
Spack's directives that record what it declares, and the record is compared with the project:
  - `develop` (the checkout's main branch) is the only version: there is no release tarball to give a sha256 of;
    `git` is the checkout the recipe lives in; tags, licence as the LICENSE file says;
  - it depends on everything CMake looks for (Kokkos, MPI, FFTW, BLAS, LAPACK, yaml-cpp, nlohmann-json, CLI11),
    on Catch2 for tests only, and at run time on every package the front end imports beyond the standard library;
  - variants +openmp and +cuda choose Kokkos' back ends and reach CMake (PROXYLAB_ENABLE_*, which CMake checks
    against the Kokkos it finds); cuda_arch is passed on to Kokkos; the launcher is the MPI provider's;
  - every PROXYLAB_* cache variable cmake_args() sets exists in the project's CMake files, with an allowed value;
  - the build-time ctest leaves out the `scheduler` label, which the project's CMake files do define.
With PROXYLAB_TEST_KOKKOS_DIR and PROXYLAB_TEST_KOKKOS_DEVICES (comma-separated) set, as ctest sets them, it also
configures the project to see CMake accept the back ends that Kokkos has and refuse the others.
Standard library only; run as a ctest (label unit)."""
import ast
import os
import re
import subprocess
import sys
import tempfile
import types
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "packaging" / "spack" / "package.py"
CUDA_ARCHS = ("80", "90")  # the stand-in CudaPackage's cuda_arch_values
# What the front end imports beyond the standard library, and the Spack package that provides it.
PYTHON_PACKAGES = {"matplotlib": "py-matplotlib", "PIL": "py-pillow", "yaml": "py-pyyaml"}


class Recorder:
    def __init__(self):
        self.versions, self.variants, self.depends, self.conflicts, self.licenses = {}, {}, [], [], []


def load_recipe():
    """Executes the recipe with stand-in spack modules; returns (the package class, what it declared)."""
    rec = Recorder()
    spack_package = types.ModuleType("spack.package")
    spack_package.version = lambda v, **kw: rec.versions.__setitem__(v, kw)
    spack_package.variant = lambda name, **kw: rec.variants.__setitem__(name, kw)
    spack_package.depends_on = lambda spec, when=None, type=("build", "link"): rec.depends.append((spec, when, type))
    spack_package.conflicts = lambda spec, when=None, msg=None: rec.conflicts.append((spec, when, msg))
    spack_package.license = lambda lic: rec.licenses.append(lic)
    spack_package.join_path = lambda *parts: "/".join(str(p) for p in parts)
    spack_package.SkipTest = unittest.SkipTest
    for name in ("which", "working_dir", "Executable", "env", "make_jobs"):
        setattr(spack_package, name, None)
    spack_package.__all__ = [n for n in vars(spack_package) if not n.startswith("_")]
    cmake_mod = types.ModuleType("spack_repo.builtin.build_systems.cmake")
    cuda_mod = types.ModuleType("spack_repo.builtin.build_systems.cuda")

    class CMakePackage:
        def define(self, name, value):
            if isinstance(value, bool):
                value = "ON" if value else "OFF"
            return f"-D{name}={value}"

        def define_from_variant(self, name, variant):
            return self.define(name, self.spec.variants[variant].value)

        def __getitem__(self, name):
            return self.spec[name].package

    class CudaPackage:
        cuda_arch_values = CUDA_ARCHS

    cmake_mod.CMakePackage = CMakePackage
    cuda_mod.CudaPackage = CudaPackage
    for name, mod in {"spack": types.ModuleType("spack"), "spack.package": spack_package,
                      "spack_repo": types.ModuleType("spack_repo"),
                      "spack_repo.builtin": types.ModuleType("spack_repo.builtin"),
                      "spack_repo.builtin.build_systems": types.ModuleType("spack_repo.builtin.build_systems"),
                      "spack_repo.builtin.build_systems.cmake": cmake_mod,
                      "spack_repo.builtin.build_systems.cuda": cuda_mod}.items():
        sys.modules[name] = mod
    namespace = {"__name__": "proxylab_recipe", "__file__": str(RECIPE.resolve())}
    exec(compile(RECIPE.read_text(), str(RECIPE), "exec"), namespace)
    return namespace["Proxylab"], rec


class Attrs:
    def __init__(self, **attrs):
        self.__dict__.update(attrs)


class FakeSpec:
    """A concrete spec as cmake_args() reads it: variants, Kokkos' C++ standard, the MPI provider's prefix and
    package (with an `mpiexec` attribute where `provider_mpiexec` is given)."""

    def __init__(self, cxxstd="17", openmp=True, cuda=False, mpi_prefix="/nonexistent", provider_mpiexec=None):
        mpi_package = Attrs(prefix=Attrs(bin=Attrs(mpiexec=f"{mpi_prefix}/bin/mpiexec")))
        if provider_mpiexec:
            mpi_package.mpiexec = provider_mpiexec
        self.variants = {"openmp": Attrs(value=openmp), "cuda": Attrs(value=cuda)}
        self.deps = {"kokkos": Attrs(variants={"cxxstd": Attrs(value=cxxstd)},
                                     package=Attrs(kokkos_cxx="/kokkos/bin/nvcc_wrapper" if cuda else "/spack/c++")),
                     "mpi": Attrs(mpicxx="/mpi/bin/mpicxx", mpicc="/mpi/bin/mpicc", package=mpi_package)}

    def __getitem__(self, name):
        return self.deps[name]


def cmake_sources():
    return "\n".join(p.read_text() for p in [ROOT / "CMakeLists.txt", *ROOT.glob("cmake/*.cmake"),
                                             *ROOT.glob("*/CMakeLists.txt")])


def front_end_imports():
    """Top-level module names the front end (python/proxylab_tools) imports."""
    names = set()
    for path in (ROOT / "python" / "proxylab_tools").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


class SpackRecipe(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cls, cls.rec = load_recipe()

    def package(self, **spec):
        pkg = self.cls.__new__(self.cls)
        pkg.spec, pkg.run_tests = FakeSpec(**spec), True
        return pkg

    def cmake_args(self, **spec):
        return dict(a[2:].split("=", 1) for a in self.package(**spec).cmake_args())

    def dep_names(self, kind=None):
        names = set()
        for spec, _, dtype in self.rec.depends:
            types_ = (dtype,) if isinstance(dtype, str) else dtype
            if kind is None or kind in types_:
                names.add(re.match(r"[a-z0-9-]+", spec).group(0))
        return names

    def test_develop_is_the_only_version_and_git_is_this_checkout(self):
        self.assertEqual(self.rec.versions, {"develop": {"branch": "main"}})
        self.assertEqual(self.cls.git, ROOT.as_uri())
        self.assertTrue(self.cls.homepage.startswith(ROOT.as_uri()))
        self.assertIn("proxy-app", self.cls.tags)

    def test_license_is_the_license_file(self):
        self.assertEqual(self.rec.licenses, ["BSD-3-Clause"])
        self.assertTrue((ROOT / "LICENSE").read_text().startswith("BSD 3-Clause License"))

    def test_depends_on_what_cmake_finds(self):
        link = self.dep_names("link")
        for name in ("kokkos", "mpi", "fftw-api", "blas", "lapack", "yaml-cpp", "nlohmann-json", "cli11"):
            self.assertIn(name, link)
        self.assertEqual(self.dep_names("test"), {"catch2"})
        deps = cmake_sources()
        for package in ("Kokkos", "MPI", "yaml-cpp", "nlohmann_json", "CLI11", "BLAS", "LAPACK", "Catch2",
                        "KokkosFFT"):
            self.assertRegex(deps, rf"find_package\({package}\b", f"CMake no longer looks for {package}")
        self.assertIn(("kokkos-fft@1: device_backend=cufft", "+cuda"), {(s, w) for s, w, _ in self.rec.depends})

    def test_run_dependencies_are_what_the_front_end_imports(self):
        imported = front_end_imports() - set(sys.stdlib_module_names) - {"proxylab_tools"}
        self.assertEqual(imported, set(PYTHON_PACKAGES), "the front end imports a package the recipe does not know")
        self.assertEqual(self.dep_names("run"), {"python", *PYTHON_PACKAGES.values()})

    def test_variants_choose_the_kokkos_backends_and_reach_cmake(self):
        self.assertIn("openmp", self.rec.variants)
        whens = {(spec, when) for spec, when, _ in self.rec.depends}
        self.assertIn(("kokkos+openmp", "+openmp"), whens)
        self.assertIn(("kokkos~openmp", "~openmp"), whens)
        self.assertIn(("kokkos~cuda", "~cuda"), whens)
        for arch in CUDA_ARCHS:
            self.assertIn((f"kokkos+cuda+wrapper cuda_arch={arch}", f"+cuda cuda_arch={arch}"), whens)
        self.assertIn(("+cuda", "cuda_arch=none"), {(s, w) for s, w, _ in self.rec.conflicts})
        for openmp, cuda in ((True, False), (False, True)):
            args = self.cmake_args(openmp=openmp, cuda=cuda)
            self.assertEqual(args["PROXYLAB_ENABLE_OPENMP"], "ON" if openmp else "OFF")
            self.assertEqual(args["PROXYLAB_ENABLE_CUDA"], "ON" if cuda else "OFF")
        self.assertEqual(self.cmake_args(cuda=True)["CMAKE_CXX_COMPILER"], "/kokkos/bin/nvcc_wrapper")

    def test_cmake_args_name_existing_cache_variables(self):
        sources = cmake_sources()
        for cxxstd in ("17", "20"):
            args = self.cmake_args(cxxstd=cxxstd)
            self.assertEqual(args["CMAKE_CXX_STANDARD"], cxxstd)
            self.assertEqual(args["PROXYLAB_ENABLE_TESTS"], "ON")
            for name in args:
                if name.startswith("PROXYLAB_"):
                    self.assertRegex(sources, rf"(option|set)\({name}\b", f"{name} is not a cache variable")
        allowed = re.search(r'CMAKE_CXX_STANDARD PROPERTY STRINGS ([0-9 ]+)\)', sources).group(1).split()
        self.assertEqual(allowed, ["17", "20"])
        self.assertIn(("^kokkos cxxstd=23", None), {(s, w) for s, w, _ in self.rec.conflicts})

    def test_launcher_is_the_mpi_providers(self):
        with tempfile.TemporaryDirectory() as prefix:
            (Path(prefix) / "bin").mkdir()
            (Path(prefix) / "bin" / "mpiexec").touch()
            own = Path(prefix) / "component" / "mpiexec"
            own.parent.mkdir()
            own.touch()
            self.assertEqual(self.cmake_args(mpi_prefix=prefix)["MPIEXEC_EXECUTABLE"], f"{prefix}/bin/mpiexec")
            self.assertEqual(self.cmake_args(mpi_prefix=prefix, provider_mpiexec=str(own))["MPIEXEC_EXECUTABLE"],
                             str(own))
        # a provider without mpiexec (cray-mpich: srun): CMake and the front end keep their own default
        self.assertNotIn("MPIEXEC_EXECUTABLE", self.cmake_args())
        self.assertIsNone(self.package().mpiexec)

    def test_build_time_ctest_leaves_out_the_scheduler_label(self):
        self.assertIn('"-LE", "scheduler"', RECIPE.read_text())
        self.assertRegex(cmake_sources(), r'LABELS "scheduler;')


@unittest.skipUnless(os.environ.get("PROXYLAB_TEST_KOKKOS_DIR"), "PROXYLAB_TEST_KOKKOS_DIR not set (ctest sets it)")
class BackendCheck(unittest.TestCase):
    """CMake accepts PROXYLAB_ENABLE_<back end> that agrees with the Kokkos it finds and refuses one that does not."""

    def configure(self, backend, value):
        with tempfile.TemporaryDirectory() as build:
            return subprocess.run(["cmake", "-S", str(ROOT), "-B", build, "-DPROXYLAB_ENABLE_TESTS=OFF",
                                   f"-DKokkos_DIR={os.environ['PROXYLAB_TEST_KOKKOS_DIR']}",
                                   f"-DPROXYLAB_ENABLE_{backend}={value}"], capture_output=True, text=True)

    def test_openmp_and_cuda(self):
        devices = os.environ["PROXYLAB_TEST_KOKKOS_DEVICES"].split(",")
        for backend in ("OPENMP", "CUDA"):
            has = backend in devices
            agree = self.configure(backend, "ON" if has else "OFF")
            self.assertEqual(agree.returncode, 0, agree.stderr)
            disagree = self.configure(backend, "OFF" if has else "ON")
            self.assertNotEqual(disagree.returncode, 0)
            self.assertIn(f"PROXYLAB_ENABLE_{backend}={'OFF' if has else 'ON'} but the Kokkos", disagree.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
