#include "cli/trace_view.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/files.h"

namespace lscope {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A screenshot next to the trace as a data: URL ("" when missing or not a PNG).
std::string image(const fs::path& dir, const json& name) {
  if (!name.is_string()) return "";
  std::string file = name.get<std::string>();
  if (file.find('/') != std::string::npos || file.find("..") != std::string::npos) return "";  // only beside it
  std::ifstream in(dir / file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string bytes = ss.str();
  if (bytes.size() < 8 || bytes.compare(1, 3, "PNG") != 0) return "";
  return "data:image/png;base64," + base64Encode(bytes);
}

struct Step {
  json line;
  std::vector<std::string> actions;  // an intent's steps
};

const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#f6f6f8}
header{padding:16px 24px;background:#fff;border-bottom:1px solid #ddd}
h1{font-size:18px;margin:0 0 4px}
.summary{color:#555}
.timeline{display:flex;gap:2px;padding:12px 24px;background:#fff;border-bottom:1px solid #ddd}
.tick{height:18px;min-width:6px;flex:1 1 0;background:#4a7;border-radius:2px}
.tick.fail{background:#d33}
main{padding:12px 24px}
section.step{background:#fff;border:1px solid #ddd;border-radius:6px;margin:0 0 12px;padding:12px}
section.step.fail{border-color:#d33;box-shadow:0 0 0 2px #fdd}
.head{display:flex;gap:12px;align-items:baseline}
.n{color:#888}.cmd{font-weight:600}.ms{color:#888;margin-left:auto}
.badge{font-size:12px;padding:1px 6px;border-radius:8px;background:#e6f4ea;color:#1e6b34}
.fail .badge{background:#fde7e7;color:#a11}
.error{color:#a11;font-weight:600}.hint{color:#a11}
ul{margin:6px 0;padding-left:20px}
.shots{display:flex;gap:12px;flex-wrap:wrap;margin-top:8px}
figure{margin:0;position:relative}
figure img{max-width:480px;border:1px solid #ccc;display:block}
figcaption{font-size:12px;color:#666}
.outline{position:absolute;border:2px solid #e0a;box-shadow:0 0 0 2px rgba(255,255,255,.7);pointer-events:none}
code{background:#f1f1f4;padding:0 3px;border-radius:3px}
)";

// One screenshot (index `shot` of the report's list, -1: none), scaled to the figure's width;
// `rect` (viewport pixels) outlined on it. Each image is in the file once: a step's "after" is
// the next one's "before", and the script at the end gives every <img> its data URL.
std::string figure(int shot, const std::string& caption, const json& rect) {
  if (shot < 0) return "";
  std::string out = "<figure><div style=\"position:relative\"><img alt=\"" + htmlEscape(caption) + "\" data-shot=\"" +
                    std::to_string(shot) + "\"";
  if (rect.is_array() && rect.size() == 4) {
    // The outline is placed in the image's own pixels once it has loaded (its natural width).
    out += " onload=\"var o=this.nextElementSibling,s=this.width/this.naturalWidth;o.style.left=(" + rect[0].dump() +
           "*s)+'px';o.style.top=(" + rect[1].dump() + "*s)+'px';o.style.width=(" + rect[2].dump() +
           "*s)+'px';o.style.height=(" + rect[3].dump() + "*s)+'px';o.hidden=false\"><div class=\"outline\" hidden></div>";
  } else {
    out += ">";
  }
  return out + "</div><figcaption>" + htmlEscape(caption) + "</figcaption></figure>";
}

}  // namespace

int writeTraceReport(const std::string& trace, std::string out) {
  std::ifstream in(trace);
  if (!in) {
    std::cerr << "lscope: cannot read " << trace << "\n";
    return 2;
  }
  std::vector<Step> steps;
  std::string text;
  int line_no = 0;
  while (std::getline(in, text)) {
    ++line_no;
    if (text.empty()) continue;
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      std::cerr << "lscope: " << trace << ":" << line_no << ": not a trace line (JSON object)\n";
      return 2;
    }
    if (j.contains("intent") && j.contains("action") && !steps.empty()) {
      steps.back().actions.push_back(j["action"].is_string() ? j["action"].get<std::string>() : j["action"].dump());
    } else if (j.contains("command")) {
      steps.push_back({j, {}});
    }
  }
  if (out.empty()) out = (fs::path(trace).replace_extension(".html")).string();
  const fs::path dir = fs::path(trace).parent_path();
  size_t failures = 0;
  long long total_ms = 0;
  for (const auto& s : steps) {
    failures += s.line.value("ok", true) ? 0 : 1;
    total_ms += s.line.value("ms", 0LL);
  }
  std::ostringstream h;
  h << "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Lemmascope trace: "
    << htmlEscape(fs::path(trace).filename().string()) << "</title><style>" << kStyle << "</style></head><body>";
  h << "<header><h1>Lemmascope trace</h1><div class=\"summary\">" << htmlEscape(fs::path(trace).filename().string()) << ": "
    << steps.size() << " steps, " << failures << (failures == 1 ? " failure" : " failures") << ", " << total_ms
    << " ms in all</div></header>";
  // The timeline: one tick per step, as wide as its share of the time (at least a few pixels).
  h << "<nav class=\"timeline\" aria-label=\"Timeline\">";
  for (size_t i = 0; i < steps.size(); ++i) {
    const json& l = steps[i].line;
    h << "<a class=\"tick" << (l.value("ok", true) ? "" : " fail") << "\" href=\"#step-" << (i + 1) << "\" title=\""
      << htmlEscape(std::to_string(i + 1) + " " + l.value("command", std::string()) + ", " +
                    std::to_string(l.value("ms", 0LL)) + " ms")
      << "\" style=\"flex-grow:" << std::max(1LL, l.value("ms", 0LL)) << "\"></a>";
  }
  h << "</nav><main>";
  std::vector<std::string> shots;  // data URLs, each once
  int before = -1;                 // the previous step's screenshot: this one's "before"
  for (size_t i = 0; i < steps.size(); ++i) {
    const json& l = steps[i].line;
    bool ok = l.value("ok", true);
    h << "<section class=\"step" << (ok ? "" : " fail") << "\" id=\"step-" << (i + 1) << "\"><div class=\"head\">"
      << "<span class=\"n\">" << (i + 1) << "</span><span class=\"cmd\">" << htmlEscape(l.value("command", std::string()))
      << "</span>";
    if (l.contains("target") && l["target"].is_string()) h << "<code>" << htmlEscape(l["target"].get<std::string>()) << "</code>";
    h << "<span class=\"badge\">" << (ok ? "ok" : htmlEscape(l.value("code", std::string("error")))) << "</span>"
      << "<span class=\"ms\">" << htmlEscape(l.value("t", std::string())) << " · " << l.value("ms", 0LL) << " ms</span></div>";
    if (!ok) {
      h << "<div class=\"error\">" << htmlEscape(l.value("error", std::string())) << "</div>";
      if (l.contains("hint")) h << "<div class=\"hint\">hint: " << htmlEscape(l.value("hint", std::string())) << "</div>";
    } else if (l.contains("summary")) {
      h << "<div>" << htmlEscape(l.value("summary", std::string())) << "</div>";
    }
    if (l.contains("resolved") && l["resolved"].is_object()) {
      const json& r = l["resolved"];
      h << "<div class=\"summary\">resolved to [" << htmlEscape(r.value("id", json()).dump()) << "] " << htmlEscape(r.value("type", std::string()))
        << " " << htmlEscape(r.value("text", std::string())) << " <code>" << htmlEscape(r.value("selector", std::string())) << "</code></div>";
    }
    if (!steps[i].actions.empty()) {
      h << "<div>steps</div><ul>";
      for (const auto& a : steps[i].actions) h << "<li><code>" << htmlEscape(a) << "</code></li>";
      h << "</ul>";
    }
    if (l.contains("changes") && l["changes"].is_array()) {
      h << "<div>changes</div><ul>";
      for (const auto& c : l["changes"]) h << "<li><code>" << htmlEscape(c.is_string() ? c.get<std::string>() : c.dump()) << "</code></li>";
      h << "</ul>";
    }
    std::string png = image(dir, l.value("screenshot", json()));
    int after = -1;
    if (!png.empty()) {
      shots.push_back(std::move(png));
      after = static_cast<int>(shots.size()) - 1;
    }
    if (before >= 0 || after >= 0) {
      h << "<div class=\"shots\">" << figure(before, "before", l.value("rect", json())) << figure(after, "after", json()) << "</div>";
    }
    if (after >= 0) before = after;
    h << "</section>";
  }
  h << "</main><script>const shots=[";
  for (size_t i = 0; i < shots.size(); ++i) h << (i ? ",\"" : "\"") << shots[i] << "\"";
  h << "];for(const img of document.querySelectorAll('img[data-shot]'))img.src=shots[+img.dataset.shot];</script>"
    << "</body></html>\n";
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  file << h.str();
  if (!file.good()) {
    std::cerr << "lscope: cannot write " << out << "\n";
    return 2;
  }
  std::cerr << "lscope: wrote " << out << " (" << steps.size() << " steps, " << failures << " failed)\n";
  return 0;
}

}  // namespace lscope
