// Formatting of extract results (engine/extract.h).
#include "engine/extract.h"

#include <algorithm>
#include <map>

#include "engine/observation.h"
#include "engine/page_model.h"

namespace lscope {
namespace {

constexpr size_t kCellShown = 40;  // characters of a table cell in the aligned text

std::string origin(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  auto slash = url.find('/', scheme + 3);
  return slash == std::string::npos ? url : url.substr(0, slash);
}

// Same-origin addresses by their path: what a person would write, and fewer tokens.
std::string shownUrl(const std::string& url, const std::string& page_origin) {
  if (!page_origin.empty() && url.rfind(page_origin, 0) == 0 && url.size() > page_origin.size() &&
      url[page_origin.size()] == '/') {
    return url.substr(page_origin.size());
  }
  return url;
}

// The first `width` code points of `s`, with an ellipsis when cut.
std::string clipCells(const std::string& s, size_t width) {
  if (displayWidth(s) <= width) return s;
  size_t seen = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (seen == width - 1) break;
      ++seen;
    }
  }
  return s.substr(0, i) + "…";
}

std::string pad(const std::string& s, size_t width) {
  size_t w = displayWidth(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

long long num(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<long long>() : 0;
}

std::string plural(long long n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool sensitiveField(const json& f) {
  return str(f, "type") == "input/password" || isSensitiveName(str(f, "name")) ||
         isSensitiveName(str(f, "label")) || isSensitiveName(str(f, "autocomplete"));
}

std::string itemLine(const std::string& kind, const json& item, const std::string& page_origin) {
  if (kind == "links") return str(item, "text").empty() ? shownUrl(str(item, "href"), page_origin)
                                                        : str(item, "text") + " → " + shownUrl(str(item, "href"), page_origin);
  if (kind == "images") {
    return quote(str(item, "alt")) + " " + shownUrl(str(item, "src"), page_origin) + " " +
           std::to_string(num(item, "width")) + "×" + std::to_string(num(item, "height"));
  }
  if (kind == "meta") return str(item, "name") + ": " + str(item, "content");
  if (kind == "text") return item.is_string() ? item.get<std::string>() : "";
  if (kind == "list") {
    std::string line = str(item, "title");
    std::string text = str(item, "text");
    if (!text.empty() && text != line) {
      // The title usually opens the text: show what follows it.
      std::string rest = text.rfind(line, 0) == 0 ? text.substr(line.size()) : " · " + text;
      while (!rest.empty() && (rest[0] == ' ' || rest.rfind("·", 0) == 0)) rest = rest.substr(rest[0] == ' ' ? 1 : std::string("·").size());
      if (!rest.empty()) line += (line.empty() ? "" : " · ") + rest;
    }
    if (!str(item, "href").empty()) line += " → " + shownUrl(str(item, "href"), page_origin);
    return line;
  }
  return item.dump();
}

// A form as lines: its fields (label, type, value) and buttons.
std::vector<std::string> formLines(const json& form) {
  std::vector<std::string> lines;
  for (const auto& f : form.value("fields", json::array())) {
    std::string label = str(f, "label").empty() ? str(f, "name") : str(f, "label");
    std::string attrs = str(f, "type");
    if (f.value("required", false)) attrs += ", required";
    std::string value;
    if (f.contains("checked")) value = f.value("checked", false) ? "checked" : "unchecked";
    else value = quote(str(f, "value"));
    std::string line = (label.empty() ? "(no label)" : label) + " (" + attrs + ") = " + value;
    if (f.contains("options") && f["options"].is_array() && !f["options"].empty()) {
      std::string opts;
      size_t n = 0;
      for (const auto& o : f["options"]) {
        if (n++ == 8) {
          opts += ", …";
          break;
        }
        opts += (opts.empty() ? "" : ", ") + (o.is_string() ? o.get<std::string>() : "");
      }
      line += " of " + opts;
    }
    lines.push_back(line);
  }
  std::string buttons;
  for (const auto& b : form.value("buttons", json::array())) {
    buttons += (buttons.empty() ? "" : ", ") + (b.is_string() ? quote(b.get<std::string>()) : "");
  }
  if (!buttons.empty()) lines.push_back("buttons: " + buttons);
  return lines;
}

// A table's rows as aligned text: header, then rows, cells cut at kCellShown.
std::vector<std::string> tableLines(const json& columns, const json& rows) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head;
  for (const auto& c : columns) head.push_back(clipCells(c.is_string() ? c.get<std::string>() : "", kCellShown));
  cells.push_back(head);
  for (const auto& r : rows) {
    std::vector<std::string> line;
    for (const auto& c : columns) {
      std::string key = c.is_string() ? c.get<std::string>() : "";
      line.push_back(clipCells(r.is_object() && r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : "", kCellShown));
    }
    cells.push_back(line);
  }
  std::vector<size_t> width(head.size(), 0);
  for (const auto& line : cells) {
    for (size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], displayWidth(line[i]));
  }
  std::vector<std::string> out;
  for (const auto& line : cells) {
    std::string s;
    for (size_t i = 0; i < line.size(); ++i) s += (i ? " | " : "") + (i + 1 == line.size() ? line[i] : pad(line[i], width[i]));
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out.push_back(s);
  }
  return out;
}

}  // namespace

size_t displayWidth(const std::string& utf8) {
  size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

Response extractResponse(const json& data, const ExtractFormat& f) {
  std::string kind = str(data, "kind");
  std::string scope = str(data, "scope");
  std::string page_origin = origin(f.page_url);
  Response r = okResponse("extract");
  r.data["kind"] = kind;
  r.data["scope"] = scope;
  size_t used = 0;
  auto next = [&](long long from) { return f.again + " --offset " + std::to_string(from); };

  if (kind == "tables") {
    json tables = json::array();
    long long total_tables = num(data, "total");
    for (auto t : data.value("tables", json::array())) {
      json rows = json::array();
      std::vector<std::string> lines;
      long long offset = num(t, "offset");
      long long total_rows = num(t, "total_rows");
      json all = t.value("rows", json::array());
      // Rows while the budget lasts (the header and at least one row always).
      std::vector<std::string> text = tableLines(t["columns"], all);
      lines.push_back(text[0]);
      used += text[0].size() + 1;
      for (size_t i = 0; i < all.size(); ++i) {
        if (used + text[i + 1].size() + 1 > f.budget_chars && !rows.empty()) break;
        used += text[i + 1].size() + 1;
        lines.push_back(text[i + 1]);
        rows.push_back(all[i]);
      }
      long long after = offset + static_cast<long long>(rows.size());
      long long more = total_rows - after;
      std::string title = "table " + std::to_string(num(t, "index")) +
                          (str(t, "name").empty() ? "" : " " + quote(str(t, "name"))) + " (" +
                          plural(static_cast<long long>(t["columns"].size()), "column", "columns") + ", " +
                          plural(total_rows, "row", "rows") +
                          (offset > 0 || more > 0 ? ", rows " + std::to_string(offset + 1) + "–" + std::to_string(after) : "") + ")";
      if (rows.empty() && total_rows == 0) lines.push_back("(no rows)");
      if (more > 0) {
        std::string again = f.again.find("--table") == std::string::npos ? f.again + " --table " + std::to_string(num(t, "index")) : f.again;
        lines.push_back("… " + plural(more, "more row", "more rows") + ": " + again + " --offset " + std::to_string(after));
      }
      for (auto& l : lines) r.add(title, l);
      t["rows"] = rows;
      t["more"] = more;
      tables.push_back(t);
    }
    long long listed = static_cast<long long>(tables.size());
    r.summary = plural(total_tables, "table", "tables") + " in " + scope;
    if (total_tables > listed && listed > 1) {
      r.add("more", std::to_string(total_tables - listed) + " more tables: " + f.again + " --table " + std::to_string(listed + 1));
    }
    r.data["total"] = total_tables;
    r.data["tables"] = tables;
    return r;
  }

  long long total = num(data, "total");
  long long offset = num(data, "offset");
  json items = json::array();
  std::vector<std::string> lines;
  if (kind == "forms") {
    long long n = offset;
    for (auto form : data.value("items", json::array())) {
      for (auto& field : form["fields"]) {
        if (sensitiveField(field) && !str(field, "value").empty()) field["value"] = kMask;
      }
      auto fl = formLines(form);
      size_t size = 0;
      for (const auto& l : fl) size += l.size() + 1;
      if (used + size > f.budget_chars && !items.empty()) break;
      used += size;
      ++n;
      std::string title = "form " + std::to_string(n) + (str(form, "name").empty() ? "" : " " + quote(str(form, "name"))) +
                          (str(form, "action").empty() ? "" : " " + (str(form, "method").empty() ? std::string("GET") : str(form, "method")) + " " + shownUrl(str(form, "action"), page_origin));
      for (auto& l : fl) r.add(title, l);
      items.push_back(form);
    }
  } else {
    for (const auto& item : data.value("items", json::array())) {
      std::string line = itemLine(kind, item, page_origin);
      if (kind == "list") line = std::to_string(offset + static_cast<long long>(items.size()) + 1) + ". " + line;
      if (used + line.size() + 1 > f.budget_chars && !items.empty()) break;
      used += line.size() + 1;
      lines.push_back(line);
      items.push_back(item);
    }
  }
  long long after = offset + static_cast<long long>(items.size());
  long long more = total - after;
  static const std::map<std::string, std::pair<std::string, std::string>> kNouns = {
      {"text", {"line", "lines"}},   {"links", {"link", "links"}}, {"images", {"image", "images"}},
      {"meta", {"entry", "entries"}}, {"forms", {"form", "forms"}}, {"list", {"item", "items"}}};
  auto noun = kNouns.count(kind) ? kNouns.at(kind) : std::make_pair(kind, kind);
  r.summary = plural(total, noun.first, noun.second) + " in " + scope +
              (offset > 0 || more > 0 ? " (" + std::to_string(offset + 1) + "–" + std::to_string(after) + ")" : "");
  for (const auto& l : lines) r.body += l + "\n";
  if (more > 0) r.add("more", std::to_string(more) + " more: " + next(after));
  r.data["total"] = total;
  r.data["offset"] = offset;
  r.data["more"] = more;
  if (kind == "meta") {
    json by_name = json::object();
    for (const auto& m : items) {
      std::string name = str(m, "name");
      if (!by_name.contains(name)) by_name[name] = str(m, "content");
    }
    r.data["meta"] = by_name;
  } else {
    r.data["items"] = items;
  }
  if (more > 0) r.data["next"] = next(after);
  return r;
}

}  // namespace lscope
