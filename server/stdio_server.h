// MCP over stdio (specification/2025-11-25/basic/transports#stdio): one JSON-RPC message per
// line on stdin and stdout; nothing else is ever written to stdout.
#pragma once

#include <istream>
#include <ostream>

#include "engine/backend.h"
#include "server/mcp_session.h"

namespace lscope::mcp {

// Serves one session until `in` reaches EOF, then waits for queued tool calls to finish.
// Returns 0. Blocks the calling thread.
int serveStdio(const ServerConfig& config, BackendFactory* factory, std::istream& in, std::ostream& out);

// The framing of serveStdio: each line of `in` (CR LF or LF; blank lines skipped) to the
// session, its immediate reply to `outbox`. Returns at EOF without draining.
void serveLines(McpSession& session, Outbox& outbox, std::istream& in);

}  // namespace lscope::mcp
