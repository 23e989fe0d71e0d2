#!/usr/bin/env bash
# Installs what is missing (Debian packages, npm packages for the tests) and builds lscope.
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake ninja-build ccache pkg-config
  nlohmann-json3-dev libcpp-httplib-dev libssl-dev zlib1g-dev libbrotli-dev libyaml-cpp-dev
  libwebsocketpp-dev libasio-dev libspdlog-dev doctest-dev libcli11-dev libre2-dev
  libstemmer-dev                 # Snowball stemmers, for do
  libsqlite3-dev sqlite3         # the intent learner's store (sqlite3: its tests check the file)
  chromium chromium-driver
  wpewebkit-driver cog           # WPE WebKit behind WebDriver (lscope-e)
  openjdk-17-jre-headless        # Selenium Grid in the tests
  openssl                        # the site copies' HTTPS certificate in the pack tests
  lintian                        # checks the .deb in the package test
  clang libclang-rt-14-dev)      # the sanitizer build and the libFuzzer targets (scripts/sanitize.sh)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "==> installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages: the MCP client for the tests, the libraries fixture pages load, ajv (schema
# tests) and the MCP conformance suite with the Node 22 it needs.
for dir in tests/e2e tests/fixtures tests/schemas tests/conformance; do
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules" ]; then
    echo "==> npm ci ($dir)"
    # IBM_TELEMETRY_DISABLED: Carbon's postinstall otherwise leaves background processes that
    # report the install to IBM (they only reach the network if the machine lets them).
    (cd "$dir" && IBM_TELEMETRY_DISABLED=true npm ci --no-audit --no-fund --loglevel=error)
  fi
done

echo "==> building"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
