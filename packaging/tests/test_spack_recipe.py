#!/usr/bin/env python3
"""Checks the Spack recipe (packaging/spack/package.py) without Spack: it is executed against stand-ins for
Spack's directives that record what it declares, and the record is compared with the project:
  - the version is the VERSION file's, the licence the LICENSE file's;
  - it depends on everything CMake looks for (Kokkos, MPI, FFTW, BLAS, LAPACK, yaml-cpp, nlohmann-json, CLI11)
    and on Catch2 for tests only; variant +openmp chooses Kokkos' OpenMP back end;
  - every PROXYLAB_* cache variable cmake_args() sets exists in the project's CMake files, with an allowed value;
  - the build-time ctest leaves out the `scheduler` label, which the project's CMake files do define.
Standard library only; run as a ctest (label unit)."""
import re
import sys
import types
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "packaging" / "spack" / "package.py"


class Recorder:
    def __init__(self):
        self.versions, self.variants, self.depends, self.conflicts, self.licenses = [], {}, [], [], []


def load_recipe():
    """Executes the recipe with stand-in spack modules; returns (the package class, what it declared)."""
    rec = Recorder()
    spack_package = types.ModuleType("spack.package")
    spack_package.version = lambda v, **kw: rec.versions.append(v)
    spack_package.variant = lambda name, **kw: rec.variants.__setitem__(name, kw)
    spack_package.depends_on = lambda spec, when=None, type=("build", "link"): rec.depends.append((spec, when, type))
    spack_package.conflicts = lambda spec, when=None, msg=None: rec.conflicts.append((spec, when, msg))
    spack_package.license = lambda lic: rec.licenses.append(lic)
    spack_package.join_path = lambda *parts: "/".join(str(p) for p in parts)
    for name in ("which", "working_dir", "Executable", "env", "make_jobs"):
        setattr(spack_package, name, None)
    spack_package.__all__ = [n for n in vars(spack_package) if not n.startswith("_")]
    cmake_mod = types.ModuleType("spack_repo.builtin.build_systems.cmake")

    class CMakePackage:
        def define(self, name, value):
            if isinstance(value, bool):
                value = "ON" if value else "OFF"
            return f"-D{name}={value}"

    cmake_mod.CMakePackage = CMakePackage
    for name, mod in {"spack": types.ModuleType("spack"), "spack.package": spack_package,
                      "spack_repo": types.ModuleType("spack_repo"),
                      "spack_repo.builtin": types.ModuleType("spack_repo.builtin"),
                      "spack_repo.builtin.build_systems": types.ModuleType("spack_repo.builtin.build_systems"),
                      "spack_repo.builtin.build_systems.cmake": cmake_mod}.items():
        sys.modules[name] = mod
    namespace = {"__name__": "proxylab_recipe"}
    exec(compile(RECIPE.read_text(), str(RECIPE), "exec"), namespace)
    return namespace["Proxylab"], rec


class FakeVariant:
    def __init__(self, value):
        self.value = value


class FakeDep:
    def __init__(self, **attrs):
        self.__dict__.update(attrs)


class FakeSpec:
    def __init__(self, cxxstd):
        self.deps = {"kokkos": FakeDep(variants={"cxxstd": FakeVariant(cxxstd)}),
                     "mpi": FakeDep(mpicxx="/mpi/bin/mpicxx", mpicc="/mpi/bin/mpicc", prefix=FakeDep(bin="/mpi/bin"))}

    def __getitem__(self, name):
        return self.deps[name]


def cmake_sources():
    return "\n".join(p.read_text() for p in [ROOT / "CMakeLists.txt", *ROOT.glob("cmake/*.cmake"),
                                             *ROOT.glob("*/CMakeLists.txt")])


class SpackRecipe(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cls, cls.rec = load_recipe()

    def dep_names(self, kind=None):
        names = set()
        for spec, _, dtype in self.rec.depends:
            types_ = (dtype,) if isinstance(dtype, str) else dtype
            if kind is None or kind in types_:
                names.add(re.match(r"[a-z0-9-]+", spec).group(0))
        return names

    def test_version_is_the_version_file(self):
        self.assertEqual(self.rec.versions, [(ROOT / "VERSION").read_text().strip()])

    def test_license_is_the_license_file(self):
        self.assertEqual(self.rec.licenses, ["BSD-3-Clause"])
        self.assertTrue((ROOT / "LICENSE").read_text().startswith("BSD 3-Clause License"))

    def test_depends_on_what_cmake_finds(self):
        link = self.dep_names("link")
        for name in ("kokkos", "mpi", "fftw-api", "blas", "lapack", "yaml-cpp", "nlohmann-json", "cli11"):
            self.assertIn(name, link)
        self.assertEqual(self.dep_names("test"), {"catch2"})
        self.assertIn("python", self.dep_names("run"))
        deps = cmake_sources()
        for package in ("Kokkos", "MPI", "yaml-cpp", "nlohmann_json", "CLI11", "BLAS", "LAPACK", "Catch2"):
            self.assertRegex(deps, rf"find_package\({package}\b", f"CMake no longer looks for {package}")

    def test_openmp_variant_chooses_the_kokkos_backend(self):
        self.assertIn("openmp", self.rec.variants)
        whens = {(spec, when) for spec, when, _ in self.rec.depends}
        self.assertIn(("kokkos+openmp", "+openmp"), whens)
        self.assertIn(("kokkos~openmp", "~openmp"), whens)

    def test_cmake_args_name_existing_cache_variables(self):
        sources = cmake_sources()
        for cxxstd in ("17", "20"):
            pkg = self.cls.__new__(self.cls)
            pkg.spec, pkg.run_tests = FakeSpec(cxxstd), True
            args = dict(a[2:].split("=", 1) for a in pkg.cmake_args())
            self.assertEqual(args["CMAKE_CXX_STANDARD"], cxxstd)
            self.assertEqual(args["PROXYLAB_ENABLE_TESTS"], "ON")
            for name in args:
                if name.startswith("PROXYLAB_"):
                    self.assertRegex(sources, rf"(option|set)\({name}\b", f"{name} is not a cache variable")
        allowed = re.search(r'CMAKE_CXX_STANDARD PROPERTY STRINGS ([0-9 ]+)\)', sources).group(1).split()
        self.assertEqual(allowed, ["17", "20"])
        self.assertIn(("^kokkos cxxstd=23", None), {(s, w) for s, w, _ in self.rec.conflicts})

    def test_build_time_ctest_leaves_out_the_scheduler_label(self):
        self.assertIn('"-LE", "scheduler"', RECIPE.read_text())
        self.assertRegex(cmake_sources(), r'LABELS "scheduler;')


if __name__ == "__main__":
    unittest.main(verbosity=2)
