// Observation formatting: compact, stable, one element per line.
#include "engine/observation.h"

#include <cmath>

namespace lscope {

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

namespace {

// Cuts text to `max` bytes without splitting a UTF-8 sequence, adding "…".
std::string clip(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "…";
}

}  // namespace

std::string shortUrl(const std::string& url) {
  std::string u = url;
  auto scheme = u.find("://");
  if (scheme != std::string::npos) {
    u = u.substr(scheme + 3);
  } else if (u.rfind("about:", 0) == 0 || u.rfind("data:", 0) == 0) {
    return clip(u, 60);
  }
  if (u.rfind("www.", 0) == 0) u = u.substr(4);
  auto hash = u.find('#');
  if (hash != std::string::npos) u = u.substr(0, hash);
  if (u.size() > 1 && u.back() == '/' && u.find('/') == u.size() - 1) u.pop_back();
  return clip(u, 100);
}

std::string urlPath(const std::string& url) {
  std::string s = shortUrl(url);
  auto slash = s.find('/');
  return slash == std::string::npos ? "/" : s.substr(slash);
}

std::string pageLine(const PageScan& scan) {
  return "@ " + shortUrl(scan.url) + " " + quote(clip(scan.title, 80));
}

std::string elementLabel(const Element& e) {
  std::string out = e.type;
  if (!e.role.empty() && e.role != "generic" && e.role != e.type) {
    out += "/" + e.role;
  } else if (e.type == "input") {
    // Inputs that take something other than text say so: an agent uploads into input/file.
    static const char* kSpecial[] = {"file", "date", "time", "datetime-local", "month", "week",
                                     "number", "range", "color"};
    std::string t = e.attributes.value("type", "");
    for (const char* k : kSpecial) {
      if (t == k) out += "/" + t;
    }
  }
  if (!e.text.empty()) out += " " + quote(clip(e.text, 80));
  return out;
}

std::string nearContext(const Element& e) {
  return e.context.empty() ? "" : " near " + quote(e.context);
}

std::string elementLine(const Element& e, bool full) {
  std::string out = "[" + std::to_string(e.id) + "] " + elementLabel(e);
  std::vector<std::string> mods;
  for (const auto& m : e.modifiers) {
    if (m != "unchecked") mods.push_back(m);
  }
  if (!mods.empty()) {
    out += " {";
    for (size_t i = 0; i < mods.size(); ++i) out += (i ? ", " : "") + mods[i];
    out += "}";
  }
  // A value that is the name already (a select named by its shown choice) is not repeated.
  if (e.value && !e.value->empty() && *e.value != e.text && e.type != "button" && e.type != "link") {
    out += " = " + quote(clip(*e.value, 40));
  }
  out += nearContext(e);
  if (!e.frame_label.empty()) out += " (in " + e.frame_label + ")";
  if (full) {
    out += " css(" + e.selector + ") @" + std::to_string(std::lround(e.rect.x)) + "," +
           std::to_string(std::lround(e.rect.y)) + " " + std::to_string(std::lround(e.rect.width)) +
           "x" + std::to_string(std::lround(e.rect.height));
  }
  return out;
}

std::vector<std::string> patternLines(const PageScan& scan) {
  std::vector<std::string> out;
  for (const auto& p : scan.patterns) {
    std::string line = "- " + p.name + ":";
    for (const auto& [field, id] : p.fields) {
      if (id > 0) line += " " + field + "=[" + std::to_string(id) + "]";
    }
    for (const auto& [field, ids] : p.lists) {
      if (ids.empty()) continue;
      line += " " + field + "=[";
      for (size_t i = 0; i < ids.size(); ++i) line += (i ? "," : "") + std::to_string(ids[i]);
      line += "]";
    }
    for (const auto& [field, text] : p.texts) line += " " + field + "=" + quote(clip(text, 60));
    out.push_back(line);
  }
  return out;
}

std::string formatObservation(const PageScan& scan, const ObserveFormat& format) {
  std::string out = pageLine(scan) + "\n";
  if (!scan.elements.empty()) out += "\n";
  size_t shown = 0;
  size_t chars = 0;
  for (const auto& e : scan.elements) {
    if (shown >= format.max) break;
    std::string line = elementLine(e, format.full) + "\n";
    if (format.max_chars && shown > 0 && chars + line.size() > format.max_chars) break;
    chars += line.size();
    out += line;
    ++shown;
  }
  size_t total = std::max<size_t>(scan.elements.size(), static_cast<size_t>(scan.available));
  if (total > shown) {
    out += "… " + std::to_string(total - shown) + " more (" + format.more_hint + ")\n";
  }
  for (const auto& f : scan.frames) {
    if (f.cross_origin) out += "[frame] " + shortUrl(f.src) + " (cross-origin, not scanned)\n";
  }
  return out;
}

}  // namespace lscope
