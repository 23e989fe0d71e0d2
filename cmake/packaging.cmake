# Packaging (issue 20): `cpack` in the build directory makes a Debian package of what
# `cmake --install` installs; `cmake --build build --target mcpb` makes an MCP Bundle (.mcpb) of
# the same tree and writes build/server.json with the bundle's sha256 (cmake/mcpb.cmake).

# What only the packages carry: the Debian copyright and changelog files (lintian wants both).
set(LSCOPE_DEB_CHANGELOG ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(OUTPUT ${LSCOPE_DEB_CHANGELOG}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
  COMMAND gzip -9 -n -c ${CMAKE_SOURCE_DIR}/packaging/changelog > ${LSCOPE_DEB_CHANGELOG}
  DEPENDS ${CMAKE_SOURCE_DIR}/packaging/changelog
  COMMENT "Compressing packaging/changelog")
add_custom_target(deb_changelog ALL DEPENDS ${LSCOPE_DEB_CHANGELOG})
install(FILES packaging/copyright ${LSCOPE_DEB_CHANGELOG} DESTINATION share/doc/lemmascope)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lemmascope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Lemmascope")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "MCP server that drives real web browsers at the level of intent")
set(CPACK_PACKAGE_DESCRIPTION [[
Lemmascope lets LLM agents drive a real web browser through the Model Context
Protocol: goto, observe, click, type, and whole intents such as login, search,
accept_cookies and fill_form, answered in a few compact lines that say what
changed on the page.
It drives headless Chromium over the DevTools Protocol (lscope, lscope-h), any
W3C WebDriver remote end such as chromedriver or WPE WebKit (lscope-e), and the
user's own Chromium through the Lemmascope extension (lscope-r), whose files
are in /usr/share/lemmascope/extension.]])
set(LSCOPE_DEB_MAINTAINER "Lemmascope maintainers <maintainers@users.noreply.a-seed-7e20872c.example>"
    CACHE STRING "the Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LSCOPE_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION web)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/lemmascope/lemmascope")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # lemmascope_<version>_<arch>.deb
# Shared libraries (libstemmer, libre2, libyaml-cpp, libspdlog, libcpp-httplib, libssl, ...)
# become Depends through dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Chromium is what the default backend (lscope, lscope-h) starts, so apt installs it with the
# package unless told not to; it is not a Depends because lscope works without a local Chromium:
# attached to a remote one (--cdp-url), over a WebDriver remote end elsewhere (a Selenium Grid),
# or with WPE WebKit (lscope-e). The drivers serve the other backends only: Suggests.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "chromium")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "chromium-driver, wpewebkit-driver, cog")
set(CPACK_STRIP_FILES ON)  # lintian: unstripped-binary-or-object is an error
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)

# The MCP Bundle: the installed tree (stripped, without the alias symlinks) plus manifest.json,
# zipped; then server.json (the repository's, with this bundle's fileSha256) beside it.
add_custom_target(mcpb
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DOUT_DIR=${CMAKE_BINARY_DIR}
          -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
          -DPROCESSOR=${CMAKE_SYSTEM_PROCESSOR} -P ${CMAKE_SOURCE_DIR}/cmake/mcpb.cmake
  COMMENT "Packing the MCP Bundle and writing server.json"
  VERBATIM)
add_dependencies(mcpb lscope extension deb_changelog)
