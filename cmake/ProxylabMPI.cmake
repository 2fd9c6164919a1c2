# Which MPI proxylab builds with: the one the user's environment gives, else Debian's MPICH (docs/cluster.md,
# "Which MPI"). proxylab_choose_mpi() applies the rules, first that holds:
#   1. MPI_CXX_COMPILER (-D or the cache) or MPI_HOME (-D or the environment): used as given (FindMPI reads them).
#   2. the MPI C++ wrapper first on PATH (mpicxx, mpic++, mpiCC), unless it is a Debian alternatives link
#      (/usr/bin/mpicxx -> /etc/alternatives/mpicxx): a module, a Spack view or a vendor install put it there on
#      purpose, while an alternatives link names whichever MPI package was installed last (OpenMPI and MPICH can
#      both be installed on one Debian machine);
#   3. Debian's MPICH (/usr/bin/mpicxx.mpich), when installed (what ./proxylab setup and CI install);
#   4. whatever FindMPI finds (on a Cray the compiler wrapper CC has MPI built in).
# The launcher comes from the same installation: mpiexec (or mpirun) beside the wrapper, with its Debian flavour
# suffix (mpiexec.mpich beside mpicxx.mpich), unless MPIEXEC_EXECUTABLE is given.
# It sets in the caller: PROXYLAB_MPI_SOURCE (which rule), PROXYLAB_MPI_CXX, PROXYLAB_MPI_C, PROXYLAB_MPIEXEC
# (each empty when FindMPI is to decide). Usable in script mode (cmake -P), which the unit test does.

# proxylab_mpi_sibling(OUT WRAPPER NAME...): the first NAME beside WRAPPER, with WRAPPER's Debian flavour suffix
# (".mpich", ".openmpi") when it has one; empty when none exists.
function(proxylab_mpi_sibling out wrapper)
  get_filename_component(dir "${wrapper}" DIRECTORY)
  get_filename_component(file "${wrapper}" NAME)
  string(REGEX MATCH "\\.(mpich|openmpi)$" flavour "${file}")
  set(${out} "" PARENT_SCOPE)
  foreach(name IN LISTS ARGN)
    if(EXISTS "${dir}/${name}${flavour}")
      set(${out} "${dir}/${name}${flavour}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

function(proxylab_choose_mpi)
  set(cxx "")
  set(c "")
  set(exec "")
  if(DEFINED MPI_CXX_COMPILER AND NOT "${MPI_CXX_COMPILER}" STREQUAL "${PROXYLAB_MPI_CHOSEN}")
    set(source "MPI_CXX_COMPILER")
  elseif(DEFINED MPI_HOME OR DEFINED ENV{MPI_HOME})
    set(source "MPI_HOME")
  else()
    find_program(proxylab_path_wrapper NAMES mpicxx mpic++ mpiCC)
    set(wrapper "${proxylab_path_wrapper}")
    unset(proxylab_path_wrapper CACHE)
    set(alternatives FALSE)
    if(wrapper AND IS_SYMLINK "${wrapper}")
      file(READ_SYMLINK "${wrapper}" target)
      if(target MATCHES "^/etc/alternatives/")
        set(alternatives TRUE)
      endif()
    endif()
    if(wrapper AND NOT alternatives)
      set(source "PATH")
      set(cxx "${wrapper}")
    elseif(EXISTS /usr/bin/mpicxx.mpich)
      set(source "Debian MPICH")
      set(cxx /usr/bin/mpicxx.mpich)
    else()
      set(source "FindMPI")
    endif()
    if(cxx)
      proxylab_mpi_sibling(c "${cxx}" mpicc)
    endif()
  endif()
  if(NOT DEFINED MPIEXEC_EXECUTABLE)
    if(cxx)
      proxylab_mpi_sibling(exec "${cxx}" mpiexec mpirun)
    elseif(source STREQUAL "MPI_CXX_COMPILER")
      proxylab_mpi_sibling(exec "${MPI_CXX_COMPILER}" mpiexec mpirun)
    endif()
  endif()
  set(PROXYLAB_MPI_SOURCE "${source}" PARENT_SCOPE)
  set(PROXYLAB_MPI_CXX "${cxx}" PARENT_SCOPE)
  set(PROXYLAB_MPI_C "${c}" PARENT_SCOPE)
  set(PROXYLAB_MPIEXEC "${exec}" PARENT_SCOPE)
endfunction()
