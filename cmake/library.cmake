# SPDX-License-Identifier: MIT
# The embeddable library: libtracefsck.so and libtracefsck.a, built from the same objects as
# the internal libraries, with the public headers, a pkg-config file and the installed layout.
include(GNUInstallDirs)

set_target_properties(tracefsck_validate tracefsck_repair tracefsck_scrub PROPERTIES POSITION_INDEPENDENT_CODE ON)
set(TFK_LIB_OBJECTS $<TARGET_OBJECTS:tracefsck_validate> $<TARGET_OBJECTS:tracefsck_repair> $<TARGET_OBJECTS:tracefsck_scrub>)
add_library(tracefsck_shared SHARED ${TFK_LIB_OBJECTS})
add_library(tracefsck_static STATIC ${TFK_LIB_OBJECTS})
set_target_properties(tracefsck_shared PROPERTIES OUTPUT_NAME tracefsck VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR} LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/tracefsck.map)
set_target_properties(tracefsck_static PROPERTIES OUTPUT_NAME tracefsck)
# Only the public API is exported; everything inside stays local to the library.
target_link_options(tracefsck_shared PRIVATE -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/tracefsck.map)
if(NOT TFK_SANITIZE AND NOT TFK_FUZZ)
  target_link_options(tracefsck_shared PRIVATE -Wl,--no-undefined)
endif()
target_link_libraries(tracefsck_shared PRIVATE ${ZSTD_LIBRARY} ZLIB::ZLIB ${LZMA_LIBRARY} ${ARCHIVE_LIBRARY} ${TRACEEVENT_LIBRARY})

install(TARGETS tracefsck_shared tracefsck_static
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tracefsck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

file(RELATIVE_PATH TFK_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
if(TFK_PC_TO_PREFIX STREQUAL "")
  set(TFK_PC_TO_PREFIX ".")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/tracefsck.pc.in ${CMAKE_BINARY_DIR}/tracefsck.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/tracefsck.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
