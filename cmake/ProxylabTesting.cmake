# Test registration. Every test carries LABELS (unit, mpi, regression) and a timeout; MPI tests run at
# each requested rank count through MPICH's mpiexec; thread counts are fixed so runs are repeatable.
#
# proxylab_unit_test(NAME n SOURCES ... [LIBS ...] [RANKS 1 2 4])
#     Catch2 executable test-n. RANKS absent: one run (label unit). RANKS given: one run per count,
#     named unit.n.npN (labels unit;mpi).
# proxylab_regression_test(NAME n APP app [ARGS ...] [RANKS 1 2 4] [THREADS t] [EXPECT_EXIT c] [EXPECT_REGEX r]
#                          [TIMEOUT s])
#     Runs bin/proxylab-app through mpiexec at each rank count and checks the exit code (default 0) and
#     the output (default "VERIFICATION: PASSED"). Labels regression (+mpi when ranks > 1).
find_package(Catch2 REQUIRED)
set(PROXYLAB_TEST_TIMEOUT 300 CACHE STRING "Default ctest timeout (s)")
set(PROXYLAB_EXPECT ${PROJECT_SOURCE_DIR}/cmake/expect.sh)

add_library(proxylab_catch_main OBJECT ${PROJECT_SOURCE_DIR}/common/tests/catch_main.cpp)
target_link_libraries(proxylab_catch_main PUBLIC proxylab::common Catch2::Catch2)

function(proxylab_unit_test)
  cmake_parse_arguments(ARG "" "NAME;THREADS" "SOURCES;LIBS;RANKS" ${ARGN})
  if(NOT ARG_THREADS)
    set(ARG_THREADS 2)
  endif()
  add_executable(test-${ARG_NAME} ${ARG_SOURCES} $<TARGET_OBJECTS:proxylab_catch_main>)
  target_link_libraries(test-${ARG_NAME} PRIVATE proxylab::common Catch2::Catch2 ${ARG_LIBS})
  if(NOT ARG_RANKS)
    add_test(NAME unit.${ARG_NAME} COMMAND ${MPIEXEC_EXECUTABLE} -n 1 $<TARGET_FILE:test-${ARG_NAME}>)
    set_tests_properties(unit.${ARG_NAME} PROPERTIES LABELS unit TIMEOUT ${PROXYLAB_TEST_TIMEOUT}
                         ENVIRONMENT "OMP_NUM_THREADS=${ARG_THREADS};OMP_PROC_BIND=false")
  else()
    foreach(np ${ARG_RANKS})
      set(t unit.${ARG_NAME}.np${np})
      add_test(NAME ${t} COMMAND ${MPIEXEC_EXECUTABLE} -n ${np} $<TARGET_FILE:test-${ARG_NAME}>)
      set_tests_properties(${t} PROPERTIES LABELS "unit;mpi" TIMEOUT ${PROXYLAB_TEST_TIMEOUT}
                           ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false" PROCESSORS ${np})
    endforeach()
  endif()
endfunction()

function(proxylab_regression_test)
  cmake_parse_arguments(ARG "" "NAME;APP;THREADS;EXPECT_EXIT;EXPECT_REGEX;TIMEOUT" "ARGS;RANKS" ${ARGN})
  if(NOT ARG_RANKS)
    set(ARG_RANKS 1)
  endif()
  if(NOT ARG_THREADS)
    set(ARG_THREADS 1)
  endif()
  if(NOT DEFINED ARG_EXPECT_EXIT)
    set(ARG_EXPECT_EXIT 0)
  endif()
  if(NOT DEFINED ARG_EXPECT_REGEX)
    set(ARG_EXPECT_REGEX "VERIFICATION: PASSED")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT ${PROXYLAB_TEST_TIMEOUT})
  endif()
  foreach(np ${ARG_RANKS})
    set(t regression.${ARG_NAME}.np${np})
    add_test(NAME ${t}
             COMMAND ${PROXYLAB_EXPECT} ${ARG_EXPECT_EXIT} "${ARG_EXPECT_REGEX}"
                     ${MPIEXEC_EXECUTABLE} -n ${np} $<TARGET_FILE:proxylab-${ARG_APP}> ${ARG_ARGS}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set(labels regression)
    if(np GREATER 1)
      list(APPEND labels mpi)
    endif()
    set_tests_properties(${t} PROPERTIES LABELS "${labels}" TIMEOUT ${ARG_TIMEOUT} PROCESSORS ${np}
                         ENVIRONMENT "OMP_NUM_THREADS=${ARG_THREADS};OMP_PROC_BIND=false")
  endforeach()
endfunction()
