# proxylab_add_app_directory(NAME DIR): adds an app's directory when it exists and NAME is selected
# by PROXYLAB_APPS ("all" or a list).
# proxylab_add_app(NAME SOURCES ...): the executable bin/proxylab-NAME linked to the backend.
set(PROXYLAB_APPS_BUILT "" CACHE INTERNAL "")

macro(proxylab_add_app_directory name dir)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${dir}/CMakeLists.txt AND ("all" IN_LIST PROXYLAB_APPS OR "${name}" IN_LIST PROXYLAB_APPS))
    add_subdirectory(${dir})
    set(PROXYLAB_APPS_BUILT "${PROXYLAB_APPS_BUILT};${name}" CACHE INTERNAL "")
  endif()
endmacro()

function(proxylab_add_app name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(proxylab-${name} ${ARG_SOURCES})
  target_link_libraries(proxylab-${name} PRIVATE proxylab::common ${ARG_LIBS})
endfunction()
