# Writes the browser extension as it is loaded and shipped into OUT (build/extension): the files
# of transports/extension/chrome, and the scanner and listener registry in the forms the
# extension injects without a debugger (script mode, when Chromium refuses chrome.debugger on a
# tab): scanner-world.js defines the scanner's API in the extension's isolated world of a
# document; registry-fn.js gives the service worker the registry as a function, which
# chrome.scripting runs in the page's main world with the tab's channel.
#   cmake -DSRC=<repo> -DOUT=<dir> -P cmake/extension.cmake
# Written beside OUT, then moved into place: a browser lscope launches meanwhile copies a whole one.
set(FINAL ${OUT})
set(OUT ${FINAL}.new)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(GLOB files ${SRC}/transports/extension/chrome/*)
file(COPY ${files} DESTINATION ${OUT})
file(READ ${SRC}/scanner/scanner.js scanner)
file(WRITE ${OUT}/scanner-world.js
  "// Generated from scanner/scanner.js by cmake/extension.cmake. Do not edit.\n"
  "globalThis.__lemmascope || (globalThis.__lemmascope = (\n${scanner}\n));\n")
file(READ ${SRC}/scanner/listeners.js registry)
file(WRITE ${OUT}/registry-fn.js
  "// Generated from scanner/listeners.js by cmake/extension.cmake. Do not edit.\n"
  "self.lemmascopeRegistry = (\n${registry}\n);\n")
file(REMOVE_RECURSE ${FINAL})
file(RENAME ${OUT} ${FINAL})
