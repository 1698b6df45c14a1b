# libcassette: every engine layer (engine/util .. engine/cql) in one library,
# built from the folders' object libraries (cassette_engine_library in the
# top CMakeLists.txt). STATIC by default, SHARED with BUILD_SHARED_LIBS=ON.
# Exported as cassette::cassette, in the build tree (an alias, for
# add_subdirectory) and installed (find_package(cassette CONFIG)).
#
# Its only public include directory is include/ (with the generated
# version.h beside it in the build tree): the repository root, which the
# engine's own headers need, reaches in-tree targets through the
# cassette_<folder> interface targets, never a consumer.
get_property(cassette_object_libraries GLOBAL PROPERTY CASSETTE_ENGINE_OBJECT_LIBRARIES)
add_library(cassette_library)
foreach(object_library IN LISTS cassette_object_libraries)
  target_sources(cassette_library PRIVATE $<TARGET_OBJECTS:${object_library}>)
endforeach()
target_include_directories(
  cassette_library PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                          $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
                          $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(cassette_library PUBLIC cxx_std_20)
# The external libraries the engine folders use (their DEPS). No public
# header exposes any of them, so they are private: a static libcassette
# still passes them on for linking only, which is why the package config
# finds them again (cmake/cassetteConfig.cmake.in) and cassette.pc names
# them in Requires.private.
target_link_libraries(cassette_library PRIVATE PkgConfig::ZSTD PkgConfig::XXHASH PkgConfig::GMP
                                               PkgConfig::MPFR Threads::Threads)
# While the version is 0.x a minor release may change the ABI, so the
# soname carries major.minor (libcassette.so.0.1); from 1.0 on, the major.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(cassette_soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  set(cassette_compatibility SameMinorVersion)
else()
  set(cassette_soversion ${PROJECT_VERSION_MAJOR})
  set(cassette_compatibility SameMajorVersion)
endif()
set_target_properties(
  cassette_library
  PROPERTIES OUTPUT_NAME cassette
             EXPORT_NAME cassette
             LINKER_LANGUAGE CXX
             VERSION ${PROJECT_VERSION}
             SOVERSION ${cassette_soversion})
add_library(cassette::cassette ALIAS cassette_library)

if(NOT CASSETTE_INSTALL)
  return()
endif()

include(CMakePackageConfigHelpers)
set(cassette_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/cassette)
install(
  TARGETS cassette_library
  EXPORT cassetteTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The public headers are include/cassette/*.h and the generated version.h.
install(
  DIRECTORY ${PROJECT_SOURCE_DIR}/include/cassette
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING
  PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/cassette/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cassette)
install(EXPORT cassetteTargets NAMESPACE cassette:: DESTINATION ${cassette_cmake_dir})

# A static libcassette makes the consumer link zstd, xxhash, GMP, MPFR and
# threads; the config file finds them only then.
get_target_property(cassette_library_type cassette_library TYPE)
if(cassette_library_type STREQUAL "STATIC_LIBRARY")
  set(CASSETTE_STATIC_LIBRARY ON)
else()
  set(CASSETTE_STATIC_LIBRARY OFF)
endif()
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/cassetteConfig.cmake.in ${PROJECT_BINARY_DIR}/cassetteConfig.cmake
  INSTALL_DESTINATION ${cassette_cmake_dir})
# While 0.x a minor release may break the API (see README's Embedding), so a
# request for 0.1 accepts 0.1.x only (SameMinorVersion); from 1.0 on, any
# release of the same major version.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cassetteConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY ${cassette_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/cassetteConfig.cmake
              ${PROJECT_BINARY_DIR}/cassetteConfigVersion.cmake DESTINATION ${cassette_cmake_dir})

# cassette.pc finds its prefix from its own place (${pcfiledir}), so an
# install into any prefix (cmake --install --prefix) stays usable.
file(RELATIVE_PATH cassette_pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" cassette_pc_to_prefix "${cassette_pc_to_prefix}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/cassette.pc.in ${PROJECT_BINARY_DIR}/cassette.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cassette.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
