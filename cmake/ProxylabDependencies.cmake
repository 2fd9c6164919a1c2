# Finds every dependency of proxylab. MPICH is preferred explicitly (Debian's mpicxx.mpich and
# mpiexec.mpich) over whatever MPI comes first on the PATH; pass MPI_CXX_COMPILER / MPIEXEC_EXECUTABLE
# to use another MPI. Kokkos: an installed Kokkos >= 3.4 (Kokkos_ROOT), else the one ci/setup-deps.sh
# built into .deps/kokkos.

if(NOT DEFINED MPI_CXX_COMPILER AND EXISTS /usr/bin/mpicxx.mpich)
  set(MPI_CXX_COMPILER /usr/bin/mpicxx.mpich CACHE FILEPATH "MPI C++ wrapper (MPICH)")
  set(MPI_C_COMPILER /usr/bin/mpicc.mpich CACHE FILEPATH "MPI C wrapper (MPICH)")
endif()
if(NOT DEFINED MPIEXEC_EXECUTABLE AND EXISTS /usr/bin/mpiexec.mpich)
  set(MPIEXEC_EXECUTABLE /usr/bin/mpiexec.mpich CACHE FILEPATH "MPI launcher (MPICH)")
endif()
find_package(MPI REQUIRED COMPONENTS C CXX)

# Kokkos: any version >= 3.4 (3.4 .. 5.x); the package's own version file would reject 4.x for "3.4".
find_package(Kokkos CONFIG REQUIRED HINTS ${PROJECT_SOURCE_DIR}/.deps/kokkos)
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "proxylab needs Kokkos >= 3.4, found ${Kokkos_VERSION} in ${Kokkos_DIR}")
endif()
set(PROXYLAB_KOKKOS_BACKENDS "${Kokkos_DEVICES}")

find_package(yaml-cpp REQUIRED)
if(NOT TARGET yaml-cpp::yaml-cpp)
  add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED)
  target_link_libraries(yaml-cpp::yaml-cpp INTERFACE yaml-cpp)
endif()
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)
