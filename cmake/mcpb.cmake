# Makes the MCP Bundle (the `binary` server type, MCPB manifest 0.3) and server.json:
#   cmake -DBUILD_DIR=build -DOUT_DIR=dir -DSOURCE_DIR=. -DVERSION=x.y.z -DPROCESSOR=x86_64 -P cmake/mcpb.cmake
# The bundle is what `cmake --install BUILD_DIR --strip` installs (bin/lscope and share/lemmascope,
# where lscope looks beside its binary), without the alias symlinks (zip extractors do not all
# keep symlinks), plus manifest.json. OUT_DIR/server.json is SOURCE_DIR/server.json with the
# bundle's sha256 as the mcpb package's fileSha256. Packages what is built; builds nothing.
foreach(v BUILD_DIR OUT_DIR SOURCE_DIR VERSION PROCESSOR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "mcpb.cmake: -D${v}= is required")
  endif()
endforeach()

if(PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(arch x64)
elseif(PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(arch arm64)
else()
  set(arch ${PROCESSOR})
endif()
set(name lemmascope-${VERSION}-linux-${arch}.mcpb)
set(bundle ${OUT_DIR}/${name})

# server.json first: it must name this bundle, at this version, before anything is packed.
file(READ ${SOURCE_DIR}/server.json server)
string(JSON server_version GET "${server}" version)
if(NOT server_version STREQUAL VERSION)
  message(FATAL_ERROR "server.json says version ${server_version}, the project is ${VERSION}: update server.json")
endif()
string(JSON npackages LENGTH "${server}" packages)
set(mcpb_index -1)
math(EXPR last "${npackages} - 1")
foreach(i RANGE ${last})
  string(JSON type GET "${server}" packages ${i} registryType)
  if(type STREQUAL "mcpb")
    set(mcpb_index ${i})
  endif()
endforeach()
if(mcpb_index EQUAL -1)
  message(FATAL_ERROR "server.json has no package with registryType mcpb")
endif()
string(JSON identifier GET "${server}" packages ${mcpb_index} identifier)
string(JSON package_version GET "${server}" packages ${mcpb_index} version)
if(NOT package_version STREQUAL VERSION OR NOT identifier MATCHES "/${name}$")
  message(FATAL_ERROR "server.json's mcpb package (${identifier}, version ${package_version}) does not name "
                      "this bundle, ${name}: update server.json")
endif()

# The tree: a fresh stage each time, so nothing from an older bundle stays in.
set(stage ${OUT_DIR}/mcpb-stage)
file(REMOVE_RECURSE ${stage})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${stage} --strip
                OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${rc})")
endif()
file(GLOB aliases ${stage}/bin/lscope-*)
file(REMOVE ${aliases})
if(NOT EXISTS ${stage}/bin/lscope OR NOT IS_DIRECTORY ${stage}/share/lemmascope/intents/core)
  message(FATAL_ERROR "the installed tree in ${stage} has no bin/lscope or share/lemmascope/intents/core")
endif()
configure_file(${SOURCE_DIR}/packaging/mcpb/manifest.json.in ${stage}/manifest.json @ONLY)

# The zip (named in sorted order; libarchive writes each file's times, so two runs differ).
file(GLOB_RECURSE files RELATIVE ${stage} ${stage}/*)
list(SORT files)
file(REMOVE ${bundle})
execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf ${bundle} --format=zip -- ${files}
                WORKING_DIRECTORY ${stage} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "zipping ${bundle} failed (${rc})")
endif()

# The hash goes in as text, so server.json keeps the repository's layout: it replaces the mcpb
# package's fileSha256 if there is one, else follows its "registryType": "mcpb" line. Read back
# as JSON to be sure it landed where it belongs.
file(SHA256 ${bundle} sha)
string(JSON old_sha ERROR_VARIABLE no_sha GET "${server}" packages ${mcpb_index} fileSha256)
if(no_sha)
  string(REGEX REPLACE "([ \t]*)(\"registryType\"[ \t]*:[ \t]*\"mcpb\",?)\n"
                       "\\1\\2\n\\1\"fileSha256\": \"${sha}\",\n" written "${server}")
else()
  string(REPLACE "\"${old_sha}\"" "\"${sha}\"" written "${server}")
endif()
string(JSON check ERROR_VARIABLE bad GET "${written}" packages ${mcpb_index} fileSha256)
if(bad OR NOT check STREQUAL sha)
  message(FATAL_ERROR "could not write fileSha256 into server.json: ${bad}")
endif()
file(WRITE ${OUT_DIR}/server.json "${written}")
message(STATUS "${bundle}\n   sha256 ${sha}, in ${OUT_DIR}/server.json")
