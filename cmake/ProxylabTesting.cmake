# Test registration. Every test carries LABELS (unit, mpi, regression) and a timeout; MPI tests run at
# each requested rank count through CMake's launcher variables (MPIEXEC_EXECUTABLE, MPIEXEC_NUMPROC_FLAG,
# MPIEXEC_PREFLAGS, MPIEXEC_POSTFLAGS: e.g. -DMPIEXEC_EXECUTABLE=srun -DMPIEXEC_PREFLAGS=--mpi=pmi2);
# thread counts are fixed so runs are repeatable. ctest runs several tests at once and 4-rank tests on
# fewer cores, so its launches are oversubscribed: the environment comes from the front end's one rule
# for that case (python/proxylab_tools/launch.py: binding off), see proxylab_test_environment().
#
# proxylab_launch_command(OUT np exe...)   the launcher words around `exe` for np ranks
# proxylab_test_environment(OUT threads)   OMP_NUM_THREADS, OMP_PROC_BIND, ... as a ctest ENVIRONMENT list
#
# proxylab_unit_test(NAME n SOURCES ... [LIBS ...] [RANKS 1 2 4])
#     Catch2 executable test-n. RANKS absent: one run (label unit). RANKS given: one run per count,
#     named unit.n.npN (labels unit;mpi).
# proxylab_regression_test(NAME n APP app [ARGS ...] [RANKS 1 2 4] [THREADS t] [EXPECT_EXIT c] [EXPECT_REGEX r]
#                          [TIMEOUT s])
#     Runs bin/proxylab-app through mpiexec at each rank count and checks the exit code (default 0) and
#     the output (default "VERIFICATION: PASSED"). Labels regression (+mpi when ranks > 1).
# Every test also carries `cpu` or `gpu`, the kind of machine it needs: the two functions above run proxylab code
# built for the default execution space (gpu in a device build). A directory that calls add_test() itself (python,
# build, packaging tests: host only) ends with proxylab_label_by_space(), which labels the rest of its tests cpu.
# `ctest -L gpu` on a GPU node runs the device tests; `ctest -L cpu` runs anywhere.
find_package(Catch2 REQUIRED)
set(PROXYLAB_TEST_TIMEOUT 300 CACHE STRING "Default ctest timeout (s)")
set(PROXYLAB_EXPECT ${PROJECT_SOURCE_DIR}/cmake/expect.sh)

find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)

if(PROXYLAB_DEVICE_BACKENDS)
  set(PROXYLAB_SPACE_LABEL gpu)
else()
  set(PROXYLAB_SPACE_LABEL cpu)
endif()

function(proxylab_launch_command out np)
  set(${out} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS} ${ARGN} ${MPIEXEC_POSTFLAGS}
      PARENT_SCOPE)
endfunction()

function(proxylab_test_environment out threads)
  if(NOT DEFINED PROXYLAB_TEST_ENV_${threads})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${PROJECT_SOURCE_DIR}/python
                            ${Python3_EXECUTABLE} -m proxylab_tools.launch ctest-env ${threads}
                    OUTPUT_VARIABLE env RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "proxylab: python/proxylab_tools/launch.py ctest-env failed (${rc})")
    endif()
    set(PROXYLAB_TEST_ENV_${threads} "${env}" CACHE INTERNAL "ctest environment for ${threads} thread(s)")
  endif()
  set(${out} "${PROXYLAB_TEST_ENV_${threads}}" PARENT_SCOPE)
endfunction()

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
    proxylab_launch_command(cmd 1 $<TARGET_FILE:test-${ARG_NAME}>)
    proxylab_test_environment(env ${ARG_THREADS})
    add_test(NAME unit.${ARG_NAME} COMMAND ${cmd})
    set_tests_properties(unit.${ARG_NAME} PROPERTIES LABELS "unit;${PROXYLAB_SPACE_LABEL}" TIMEOUT ${PROXYLAB_TEST_TIMEOUT} ENVIRONMENT "${env}")
  else()
    proxylab_test_environment(env 1)
    foreach(np ${ARG_RANKS})
      set(t unit.${ARG_NAME}.np${np})
      proxylab_launch_command(cmd ${np} $<TARGET_FILE:test-${ARG_NAME}>)
      add_test(NAME ${t} COMMAND ${cmd})
      set_tests_properties(${t} PROPERTIES LABELS "unit;mpi;${PROXYLAB_SPACE_LABEL}" TIMEOUT ${PROXYLAB_TEST_TIMEOUT} ENVIRONMENT "${env}"
                           PROCESSORS ${np})
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
  proxylab_test_environment(env ${ARG_THREADS})
  foreach(np ${ARG_RANKS})
    set(t regression.${ARG_NAME}.np${np})
    proxylab_launch_command(cmd ${np} $<TARGET_FILE:proxylab-${ARG_APP}>)
    add_test(NAME ${t} COMMAND ${PROXYLAB_EXPECT} ${ARG_EXPECT_EXIT} "${ARG_EXPECT_REGEX}" ${cmd} ${ARG_ARGS}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set(labels regression ${PROXYLAB_SPACE_LABEL})
    if(np GREATER 1)
      list(APPEND labels mpi)
    endif()
    if(ARG_EXPECT_EXIT EQUAL 2)  # exit 2 is bad input's (ctest -L bad-input runs them all)
      list(APPEND labels bad-input)
    endif()
    set_tests_properties(${t} PROPERTIES LABELS "${labels}" TIMEOUT ${ARG_TIMEOUT} PROCESSORS ${np} ENVIRONMENT "${env}")
  endforeach()
endfunction()

# Bad input through one deck value (SET key=value, after ARGS): every rank exits 2 with a message that names the key and
# the value, then says what is allowed (ALLOWED, a regex): "key 'K' has value 'V'.*ALLOWED", built here so that every
# such test checks the same form.
function(proxylab_bad_value_test)
  cmake_parse_arguments(ARG "" "NAME;APP;DECK;SET;ALLOWED" "ARGS;RANKS" ${ARGN})
  string(FIND "${ARG_SET}" "=" eq)
  if(eq LESS 1)
    message(FATAL_ERROR "proxylab_bad_value_test ${ARG_NAME}: SET '${ARG_SET}' is not key=value")
  endif()
  string(SUBSTRING "${ARG_SET}" 0 ${eq} key)
  math(EXPR value_at "${eq} + 1")
  string(SUBSTRING "${ARG_SET}" ${value_at} -1 value)
  string(REGEX REPLACE "([][+.*?()^$|\\\\])" "\\\\\\1" value_regex "${value}")
  proxylab_regression_test(NAME ${ARG_NAME} APP ${ARG_APP} RANKS ${ARG_RANKS} EXPECT_EXIT 2
                           EXPECT_REGEX "key '${key}' has value '${value_regex}'.*${ARG_ALLOWED}"
                           ARGS --deck ${ARG_DECK} ${ARG_ARGS} --set ${ARG_SET})
endfunction()

function(proxylab_label_by_space)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} LABELS labels)
    if(NOT ("cpu" IN_LIST labels OR "gpu" IN_LIST labels))
      set_property(TEST ${t} APPEND PROPERTY LABELS cpu)
    endif()
  endforeach()
endfunction()
