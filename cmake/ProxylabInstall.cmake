# `cmake --install BUILD --prefix PREFIX` lays proxylab out as a user runs it on a cluster:
#   PREFIX/bin/proxylab-<app>                 the proxies built here (PROXYLAB_APPS), not the tests or exercises
#   PREFIX/bin/proxylab                       the front end (the same bash wrapper as in the checkout)
#   PREFIX/share/proxylab/python/proxylab_tools/  its Python package (standard library only)
#   PREFIX/share/proxylab/inputs/<app>/*.yaml  the decks (`proxylab run pop --deck x1` finds them by name)
#   PREFIX/share/proxylab/machines/*.yaml     the machine descriptions (`proxylab model ... --machine xt4`)
#   PREFIX/share/proxylab/VERSION, install-layout.json   the version; where the binaries are, seen from share/proxylab
#   PREFIX/share/proxylab/miniapps/apps.txt   the app list the front end shows (runner.APPS)
#   PREFIX/share/proxylab/verify/check_record.py  the record checker
#   PREFIX/share/doc/proxylab/                README.md, LICENSE, CHANGELOG.md
# The front end finds the binaries through install-layout.json (python/proxylab_tools/runner.py: installed_bin_dir),
# so a distribution may move CMAKE_INSTALL_BINDIR / DATADIR.
include(GNUInstallDirs)
set(PROXYLAB_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/proxylab)

foreach(app IN LISTS PROXYLAB_APPS_BUILT)
  if(app)
    install(TARGETS proxylab-${app} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
install(PROGRAMS ${PROJECT_SOURCE_DIR}/proxylab DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/proxylab_tools DESTINATION ${PROXYLAB_INSTALL_DATADIR}/python
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/inputs/ DESTINATION ${PROXYLAB_INSTALL_DATADIR}/inputs
        FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/machines/ DESTINATION ${PROXYLAB_INSTALL_DATADIR}/machines
        FILES_MATCHING PATTERN "*.yaml")
install(PROGRAMS ${PROJECT_SOURCE_DIR}/verify/check_record.py DESTINATION ${PROXYLAB_INSTALL_DATADIR}/verify)
install(FILES ${PROJECT_SOURCE_DIR}/VERSION DESTINATION ${PROXYLAB_INSTALL_DATADIR})
install(FILES ${PROJECT_SOURCE_DIR}/miniapps/apps.txt DESTINATION ${PROXYLAB_INSTALL_DATADIR}/miniapps)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The binaries' directory relative to share/proxylab, computed at install time (`--prefix` may change the prefix then).
string(CONFIGURE [[
  set(proxylab_bindir "@CMAKE_INSTALL_BINDIR@")
  set(proxylab_datadir "@PROXYLAB_INSTALL_DATADIR@")
  foreach(dir proxylab_bindir proxylab_datadir)
    if(NOT IS_ABSOLUTE "${${dir}}")
      set(${dir} "${CMAKE_INSTALL_PREFIX}/${${dir}}")
    endif()
  endforeach()
  file(RELATIVE_PATH proxylab_rel "${proxylab_datadir}" "${proxylab_bindir}")
  set(proxylab_layout "$ENV{DESTDIR}${proxylab_datadir}/install-layout.json")
  message(STATUS "Installing: ${proxylab_layout} (bindir ${proxylab_rel})")
  file(WRITE "${proxylab_layout}" "{\"bindir\": \"${proxylab_rel}\", \"version\": \"@PROJECT_VERSION@\"}\n")
]] proxylab_layout_code @ONLY)
install(CODE "${proxylab_layout_code}")
