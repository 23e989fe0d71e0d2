// SecretPortal: one-time pages served on loopback for URL-mode elicitation of secrets.
#include "server/secret_portal.h"

#include <sys/random.h>

#include "engine/files.h"
#include "net/http.h"
#include "server/http_server.h"

namespace lscope::mcp {
namespace {

// application/x-www-form-urlencoded
std::map<std::string, std::string> parseForm(const std::string& body) {
  std::map<std::string, std::string> out;
  auto decode = [](const std::string& s) {
    std::string r;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '+') {
        r += ' ';
      } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                 std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        r += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        r += s[i];
      }
    }
    return r;
  };
  size_t start = 0;
  while (start <= body.size()) {
    size_t amp = body.find('&', start);
    std::string pair = body.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    auto eq = pair.find('=');
    if (eq != std::string::npos) out[decode(pair.substr(0, eq))] = decode(pair.substr(eq + 1));
    if (amp == std::string::npos) break;
    start = amp + 1;
  }
  return out;
}

std::string page(const std::string& title, const std::string& body) {
  return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + htmlEscape(title) +
         " · Lemmascope</title><style>body{font-family:sans-serif;max-width:30rem;margin:4rem auto}"
         "input,button{font-size:1rem;padding:.4rem}input{width:100%}</style></head><body>" + body +
         "</body></html>";
}

}  // namespace

std::string randomHex() {
  unsigned char bytes[16];
  size_t got = 0;
  while (got < sizeof bytes) {
    ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) got += static_cast<size_t>(n);
  }
  static const char* kHex = "0123456789abcdef";
  std::string id;
  for (unsigned char b : bytes) {
    id += kHex[b >> 4];
    id += kHex[b & 15];
  }
  return id;
}

SecretPortal::SecretPortal() = default;

SecretPortal::~SecretPortal() {
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
}

Result<std::string> SecretPortal::open(const std::string& id, const std::string& name,
                                       std::function<void(const std::string&)> on_submit) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!http_) {
    http_ = std::make_unique<net::HttpServer>(
        [this](const net::ServerRequest& req, net::ServerResponse& res) { handle(req, res); });
    auto port = http_->bind("127.0.0.1", 0);
    if (!port) {
      http_.reset();
      return port.status();
    }
    port_ = *port;
    thread_ = std::thread([this] { http_->run(); });
  }
  Entry e{name, randomHex(), std::move(on_submit)};
  std::string url = "http://127.0.0.1:" + std::to_string(port_) + "/secret/" + id + "?t=" + e.token;
  entries_[id] = std::move(e);
  return url;
}

void SecretPortal::close(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.erase(id);
}

void SecretPortal::handle(const net::ServerRequest& req, net::ServerResponse& res) {
  res.content_type = "text/html; charset=utf-8";
  res.headers["Cache-Control"] = "no-store";
  res.headers["Referrer-Policy"] = "no-referrer";
  // Only this machine's browser, addressing us by a loopback name (no DNS rebinding).
  std::string host = req.header("host");
  host = host.substr(0, host.rfind(':'));
  if (!isLoopbackHost(host)) {
    res.status = 403;
    res.body = page("Forbidden", "<p>Forbidden.</p>");
    return;
  }
  std::string id = req.path.rfind("/secret/", 0) == 0 ? req.path.substr(8) : "";
  std::string token;
  std::function<void(const std::string&)> submit;
  std::string name;
  std::map<std::string, std::string> form;
  if (req.method == "POST") form = parseForm(req.body);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(id);
    // The token arrives in the query (GET) or the form (POST).
    auto t = req.query.find("t");
    std::string given = req.method == "POST" ? form["t"] : (t == req.query.end() ? "" : t->second);
    if (it == entries_.end()) {
      res.status = 404;
      res.body = page("Gone", "<p>This link has been used or has expired.</p>");
      return;
    }
    token = it->second.token;
    name = it->second.name;
    if (given != token) {
      res.status = 403;
      res.body = page("Forbidden", "<p>Forbidden.</p>");
      return;
    }
    if (req.method == "POST") {
      submit = it->second.on_submit;
      entries_.erase(it);  // one time
    }
  }
  if (req.method == "POST") {
    submit(form["value"]);
    res.body = page("Received", "<h1>Received</h1><p>Lemmascope has the secret <b>" + htmlEscape(name) +
                                    "</b> for this session. You can close this tab.</p>");
    return;
  }
  res.body = page("Secret needed",
                  "<h1>Secret needed</h1><p>An agent using Lemmascope needs <b>" + htmlEscape(name) +
                      "</b>. What you type here goes to the browser Lemmascope drives, for this session "
                      "only; the agent and its model never see it.</p>"
                      "<form method=\"post\"><input type=\"hidden\" name=\"t\" value=\"" + htmlEscape(token) +
                      "\"><p><input type=\"password\" name=\"value\" autocomplete=\"off\" autofocus "
                      "aria-label=\"" + htmlEscape(name) + "\"></p><p><button type=\"submit\">Send</button></p></form>");
}

}  // namespace lscope::mcp
