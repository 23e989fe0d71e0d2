# Writes OUTPUT: a C++ translation unit defining lscope::FUNCTION() (default scannerSource) that
# returns INPUT's bytes.
if(NOT DEFINED FUNCTION)
  set(FUNCTION scannerSource)
endif()
file(READ ${INPUT} js)
string(FIND "${js}" ")LSCOPE_JS\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )LSCOPE_JS\"")
endif()
get_filename_component(name ${INPUT} NAME)
file(WRITE ${OUTPUT}.tmp
"// Generated from scanner/${name} by cmake/embed_js.cmake. Do not edit.\n"
"#include \"scanner/scanner_source.h\"\n"
"namespace lscope {\n"
"namespace { const char kSource[] = R\"LSCOPE_JS(${js})LSCOPE_JS\"; }\n"
"std::string_view ${FUNCTION}() { return std::string_view(kSource, sizeof(kSource) - 1); }\n"
"}  // namespace lscope\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
