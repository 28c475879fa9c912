# What `cmake --install` writes, in three components (the .deb packages of cmake/package.cmake
# follow them):
#   lib   liboclfuse.so.MAJOR.MINOR.PATCH and its SONAME link: what a program needs to run
#   dev   the header, liboclfuse.so (the link a linker looks for), liboclfuse.a, the CMake package
#         (oclfuseConfig.cmake, its version file and the exported targets) and oclfuse.pc
#   tool  the oclfuse command and its man page (bench/CMakeLists.txt)
# Included from the top-level CMakeLists.txt when OCLFUSE_INSTALL is on.

include(CMakePackageConfigHelpers)

install(TARGETS oclfuse oclfuse_static EXPORT oclfuseTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT lib
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/oclfuse.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)

# ---- the CMake package: find_package(oclfuse 0.2 CONFIG) gives oclfuse::oclfuse (shared) and
# oclfuse::oclfuse_static ----
set(ocf_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/oclfuse)
install(EXPORT oclfuseTargets NAMESPACE oclfuse:: DESTINATION ${ocf_cmake_dir} COMPONENT dev)
configure_package_config_file(cmake/oclfuseConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/oclfuseConfig.cmake
                              INSTALL_DESTINATION ${ocf_cmake_dir})
# Which installed versions satisfy find_package(oclfuse X.Y): the ABI's rule. Before 1.0 each minor
# version may break it (the SONAME is liboclfuse.so.0.MINOR), so 0.2.x answers requests for 0.2
# and 0.2.y with y <= x only; from 1.0 on, any 1.y.z answers a request for 1.x with x <= y.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(ocf_compatibility SameMinorVersion)
else()
  set(ocf_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/oclfuseConfigVersion.cmake
                                 COMPATIBILITY ${ocf_compatibility})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/oclfuseConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/oclfuseConfigVersion.cmake
        DESTINATION ${ocf_cmake_dir} COMPONENT dev)

# ---- oclfuse.pc ----
# Its paths are relative to the file's own folder (${pcfiledir}), so that an installed tree can
# move (cmake --install --prefix DIR, a .deb unpacked anywhere). A folder given as an absolute
# path (-DCMAKE_INSTALL_LIBDIR=/opt/lib) is installed there whatever the prefix, and the file
# names it as it is.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(OCLFUSE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(OCLFUSE_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH ocf_pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
  string(REGEX REPLACE "/$" "" ocf_pc_to_prefix "${ocf_pc_to_prefix}")
  set(OCLFUSE_PC_PREFIX "\${pcfiledir}/${ocf_pc_to_prefix}")
  set(OCLFUSE_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(OCLFUSE_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(OCLFUSE_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(cmake/oclfuse.pc.in ${CMAKE_CURRENT_BINARY_DIR}/oclfuse.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/oclfuse.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)
