# cmake [-DMPI_CXX_COMPILER=...] [-DMPIEXEC_EXECUTABLE=...] -P print_mpi_choice.cmake: prints the MPI that
# proxylab_choose_mpi() picks in this environment, one "key=value" per line (used by test_mpi_choice.sh).
cmake_minimum_required(VERSION 3.16)
include(${CMAKE_CURRENT_LIST_DIR}/../ProxylabMPI.cmake)
proxylab_choose_mpi()
message("source=${PROXYLAB_MPI_SOURCE}")
message("cxx=${PROXYLAB_MPI_CXX}")
message("c=${PROXYLAB_MPI_C}")
message("mpiexec=${PROXYLAB_MPIEXEC}")
