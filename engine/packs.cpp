// Pattern packs: pack.yaml + patterns.yaml -> the scanner's pattern_rules (spec §9.2, §9.3).
#include "engine/packs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/intent_loader.h"

namespace lscope {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

Result<json> readYaml(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return Status(codes::kPackLoadFailed, "cannot read " + path.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return parseYamlDocument(ss.str(), path.string());
}

// §9.2: a pack for every site says so with the domain "*".
bool everySite(const json& pack) {
  const json domains = pack.value("domains", json::array());
  return std::any_of(domains.begin(), domains.end(), [](const json& d) { return d == "*"; });
}

Status loadPack(const fs::path& dir, PackLoad& out) {
  auto meta = readYaml(dir / "pack.yaml");
  if (!meta) return meta.status();
  if (!meta->is_object() || !meta->contains("pack")) {
    return Status(codes::kPackLoadFailed, (dir / "pack.yaml").string() + ": no \"pack\" name", "see schemas/pack-v1.json");
  }
  if (!everySite(*meta)) return Status::ok();  // a site pack: loaded per domain (not here)
  json files = meta->value("patterns", json::array({"patterns.yaml"}));
  json rules = json::array();
  for (const auto& f : files) {
    if (!f.is_string()) continue;
    fs::path file = dir / f.get<std::string>();
    auto doc = readYaml(file);
    if (!doc) return doc.status();
    const json patterns = doc->value("patterns", json::object());
    if (!patterns.is_object()) {
      return Status(codes::kPackLoadFailed, file.string() + ": \"patterns\" is not a map of pattern names",
                    "see schemas/patterns-v1.json");
    }
    for (auto it = patterns.begin(); it != patterns.end(); ++it) {
      if (!it->is_object() || !it->contains("detection") || !it->contains("elements")) {
        return Status(codes::kPackLoadFailed, file.string() + ": pattern \"" + it.key() + "\" needs detection and elements",
                      "see schemas/patterns-v1.json");
      }
      json rule = *it;
      rule["name"] = it.key();
      rule.erase("description");
      rules.push_back(std::move(rule));
    }
  }
  for (auto& r : rules) out.rules.push_back(std::move(r));
  out.packs.push_back(meta->value("pack", dir.filename().string()));
  return Status::ok();
}

}  // namespace

PackLoad loadPatternPacks(const std::vector<std::string>& dirs) {
  PackLoad out;
  for (const auto& d : dirs) {
    std::error_code ec;
    if (d.empty() || !fs::is_directory(d, ec)) continue;
    std::vector<fs::path> packs;
    for (const auto& entry : fs::directory_iterator(d, ec)) {
      if (entry.is_directory() && fs::exists(entry.path() / "pack.yaml")) packs.push_back(entry.path());
    }
    std::sort(packs.begin(), packs.end());
    for (const auto& p : packs) {
      Status s = loadPack(p, out);
      if (!s) out.errors.push_back(s);
    }
  }
  return out;
}

}  // namespace lscope
