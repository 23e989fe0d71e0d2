#!/usr/bin/env bash
# Runs the official MCP conformance suite (server mode, Streamable HTTP) against lscope, on the
# scenarios that apply to a tool server. The others need tools, prompts or resources that only
# the suite's reference server has (test_simple_text, test_reconnection, ...).
set -euo pipefail
cd "$(dirname "$0")"
bin=${LSCOPE_BIN:-../../build/lscope}
scenarios=(server-initialize ping tools-list logging-set-level dns-rebinding-protection server-sse-multiple-streams)

log=$(mktemp)
"$bin" serve --http 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -f "$log"' EXIT
url=""
# lscope prints its address on stderr once it listens; follow the log until that line.
while read -r line; do
  if [[ $line =~ (http://[^[:space:]]+/mcp) ]]; then url=${BASH_REMATCH[1]}; break; fi
done < <(tail -n +1 -f "$log" --pid=$server)
[ -n "$url" ] || { echo "lscope did not start:"; cat "$log"; exit 1; }

node22=node_modules/.bin/node
"$node22" --version >/dev/null
failed=0
for s in "${scenarios[@]}"; do
  if out=$("$node22" node_modules/@modelcontextprotocol/conformance/dist/index.js server --url "$url" --scenario "$s" 2>&1); then
    echo "pass  $s: $(grep -o 'Passed: [^,]*' <<<"$out")"
  else
    echo "FAIL  $s"
    echo "$out" | tail -20
    failed=1
  fi
done
exit $failed
