# Installs the library with a package config so that consumers can write
# find_package(simdccd) and link simdccd::simdccd.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS simdccd EXPORT simdccdTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/simdccd DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT simdccdTargets NAMESPACE simdccd::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/simdccd)

configure_package_config_file(cmake/simdccdConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/simdccdConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/simdccd)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/simdccdConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/simdccdConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/simdccdConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/simdccd)
