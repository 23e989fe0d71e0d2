#!/usr/bin/env bash
# Installs, builds, and shows Lemmascope at work: serves a local sign-in page, then drives
# headless Chromium through it with an OIL script (observe -> type -> click), printing each
# response, and finally does the same over MCP with the official client.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

# The fixture server prints its URL on its first line; reading it waits until it listens.
exec 3< <(exec node tests/e2e/lib/serve.js)
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
read -r base <&3

echo
echo "==> lscope run (OIL): sign in on $base/login.html"
echo
./build/lscope run - <<OIL
goto $base/login.html
observe
type email "ada@example.com"
type password "correct horse battery staple"
click "Sign in"
text
OIL

echo
echo "==> the same over MCP (stdio, official TypeScript SDK client)"
echo
node tests/e2e/lib/mcp_demo.js "$base"
