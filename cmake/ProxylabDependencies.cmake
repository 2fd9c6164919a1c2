# Finds every dependency of proxylab.
#
# MPI: the one the user's environment gives, else Debian's MPICH (rules in cmake/ProxylabMPI.cmake).
# Kokkos: an installed Kokkos >= 3.4 (Kokkos_ROOT), else the one ci/setup-deps.sh built into .deps/kokkos.
# kokkos-fft >= 1.0 (needs Kokkos >= 4.6) where Kokkos has a device back end: the FFT layer's device library.

include(ProxylabMPI)
proxylab_choose_mpi()
if(PROXYLAB_MPI_CXX)
  set(MPI_CXX_COMPILER "${PROXYLAB_MPI_CXX}" CACHE FILEPATH "MPI C++ wrapper (chosen by rule: ${PROXYLAB_MPI_SOURCE})")
  set(PROXYLAB_MPI_CHOSEN "${PROXYLAB_MPI_CXX}" CACHE INTERNAL "the wrapper proxylab_choose_mpi() chose")
endif()
if(PROXYLAB_MPI_C)
  set(MPI_C_COMPILER "${PROXYLAB_MPI_C}" CACHE FILEPATH "MPI C wrapper (beside MPI_CXX_COMPILER)")
endif()
if(PROXYLAB_MPIEXEC)
  set(MPIEXEC_EXECUTABLE "${PROXYLAB_MPIEXEC}" CACHE FILEPATH "MPI launcher (beside MPI_CXX_COMPILER)")
endif()
find_package(MPI REQUIRED COMPONENTS C CXX)

# Kokkos: any version >= 3.4 (3.4 .. 5.x); the package's own version file would reject 4.x for "3.4".
find_package(Kokkos CONFIG REQUIRED HINTS ${PROJECT_SOURCE_DIR}/.deps/kokkos)
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "proxylab needs Kokkos >= 3.4, found ${Kokkos_VERSION} in ${Kokkos_DIR}")
endif()
set(PROXYLAB_KOKKOS_BACKENDS "${Kokkos_DEVICES}")
# The back ends a packager asks for (the Spack recipe's +openmp / +cuda): ON requires the Kokkos found to have it, OFF
# requires it not to, empty (the default) takes what that Kokkos has.
set(PROXYLAB_ENABLE_OPENMP "" CACHE STRING "Kokkos' OpenMP back end: ON requires it, OFF refuses it, empty: as Kokkos has")
set(PROXYLAB_ENABLE_CUDA "" CACHE STRING "Kokkos' CUDA back end: ON requires it, OFF refuses it, empty: as Kokkos has")
foreach(_backend OPENMP CUDA)
  if(PROXYLAB_ENABLE_${_backend} STREQUAL "")
    continue()
  endif()
  set(_has_backend OFF)
  if(_backend IN_LIST Kokkos_DEVICES)
    set(_has_backend ON)
  endif()
  if(PROXYLAB_ENABLE_${_backend} AND NOT _has_backend)
    message(FATAL_ERROR "PROXYLAB_ENABLE_${_backend}=${PROXYLAB_ENABLE_${_backend}} but the Kokkos in ${Kokkos_DIR} has "
                        "no ${_backend} back end (its back ends: ${Kokkos_DEVICES})")
  elseif(NOT PROXYLAB_ENABLE_${_backend} AND _has_backend)
    message(FATAL_ERROR "PROXYLAB_ENABLE_${_backend}=${PROXYLAB_ENABLE_${_backend}} but the Kokkos in ${Kokkos_DIR} has "
                        "the ${_backend} back end (its back ends: ${Kokkos_DEVICES})")
  endif()
endforeach()
# Device back ends of this Kokkos (CUDA, HIP, SYCL, OpenMPTarget): the apps marked host-only in miniapps/apps.txt are
# left out, and the FFT layer's device library is kokkos-fft (ci/setup-deps.sh installs it beside a CUDA Kokkos).
set(PROXYLAB_DEVICE_BACKENDS ${Kokkos_DEVICES})
list(FILTER PROXYLAB_DEVICE_BACKENDS INCLUDE REGEX "^(CUDA|HIP|SYCL|OPENMPTARGET)$")
if(PROXYLAB_DEVICE_BACKENDS)
  find_package(KokkosFFT 1.0 CONFIG REQUIRED HINTS ${PROJECT_SOURCE_DIR}/.deps/kokkos-fft-cuda)
endif()

find_package(yaml-cpp REQUIRED)
if(NOT TARGET yaml-cpp::yaml-cpp)
  add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED)
  target_link_libraries(yaml-cpp::yaml-cpp INTERFACE yaml-cpp)
endif()
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)
# The host BLAS: CMake's choice, or the one named by BLA_VENDOR (FindBLAS), e.g. OpenBLAS, or FLAME for BLIS (AMD's BLAS
# on EPYC, as AOCL-BLIS). BLIS has no LAPACK of its own: the reference LAPACK runs over it, BLIS linked first so that
# its dgemm_ serves every caller.
find_package(BLAS REQUIRED)
if(BLA_VENDOR STREQUAL "FLAME")
  find_library(PROXYLAB_REFERENCE_LAPACK NAMES lapack REQUIRED)
  set(LAPACK_LIBRARIES ${BLAS_LIBRARIES} ${PROXYLAB_REFERENCE_LAPACK})
else()
  find_package(LAPACK REQUIRED)
endif()
