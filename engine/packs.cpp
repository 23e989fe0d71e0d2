// Intent packs: reading, checking and installing pack folders (intent-engine.md §9, §12, §13.3).
#include "engine/packs.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "engine/files.h"
#include "engine/intent_loader.h"
#include "engine/json_bounded.h"

namespace lscope {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr const char* kTrustFile = ".lemmascope-trust";    // written by pack install --trusted
constexpr const char* kOriginFile = ".lemmascope-origin";  // the index a pack came from

Status packError(const std::string& message, const std::string& hint = "") {
  return Status(codes::kPackLoadFailed, message, hint);
}

// Files of a pack named by a path or a glob in its last segment ("intents/*.yaml"), sorted.
std::vector<fs::path> expandFiles(const fs::path& dir, const std::string& pattern) {
  std::vector<fs::path> out;
  fs::path rel(pattern);
  std::string leaf = rel.filename().string();
  if (leaf.find('*') == std::string::npos) {
    out.push_back(dir / rel);
    return out;
  }
  std::error_code ec;
  fs::path parent = dir / rel.parent_path();
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    if (e.is_regular_file() && urlGlobMatch(leaf, e.path().filename().string())) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A pack folder's bookkeeping file (trust mark, origin), "" when absent.
std::string readMark(const fs::path& p) {
  auto text = readTextFile(p.string(), codes::kPackLoadFailed);
  return text ? *text : "";
}

// Numeric comparison of dotted versions: <0, 0, >0.
int compareVersions(const std::string& a, const std::string& b) {
  std::stringstream sa(a), sb(b);
  for (;;) {
    std::string x, y;
    bool ha = static_cast<bool>(std::getline(sa, x, '.')), hb = static_cast<bool>(std::getline(sb, y, '.'));
    if (!ha && !hb) return 0;
    long long nx = ha ? std::atoll(x.c_str()) : 0, ny = hb ? std::atoll(y.c_str()) : 0;
    if (nx != ny) return nx < ny ? -1 : 1;
  }
}

// Runs a program without a shell; its output is discarded. Returns its exit status.
int runProgram(const std::vector<std::string>& argv) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    // Never our stdout: in stdio mode it carries the protocol.
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      dup2(null_fd, 1);
      dup2(null_fd, 2);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// An archive may hold only folders and regular files inside the pack (no links, devices).
Status checkTree(const fs::path& root) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return packError("cannot read the unpacked archive: " + ec.message());
    auto st = it->symlink_status(ec);
    if (fs::is_symlink(st) || !(fs::is_directory(st) || fs::is_regular_file(st))) {
      return packError("the archive holds " + fs::relative(it->path(), root, ec).string() +
                           ", which is not a plain file or folder (links are refused)");
    }
  }
  return Status::ok();
}

// The folder of an unpacked archive or a given folder that holds pack.yaml: itself, or its
// one subfolder.
Result<fs::path> packRoot(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / "pack.yaml", ec)) return dir;
  std::vector<fs::path> subs;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_directory() && fs::exists(e.path() / "pack.yaml", ec)) subs.push_back(e.path());
  }
  if (subs.size() == 1) return subs[0];
  return packError(subs.empty() ? "no pack.yaml in " + dir.string() : "several packs in " + dir.string(),
                   "a pack is a folder with pack.yaml (packs/README.md)");
}

}  // namespace

// --- URLs and hosts ------------------------------------------------------------------------------

bool urlGlobMatch(const std::string& pattern, const std::string& text) {
  size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::string urlHost(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  std::string s = url.substr(0, scheme);
  if (s != "http" && s != "https" && s != "*") return "";
  size_t start = scheme + 3;
  size_t end = url.find_first_of("/?#", start);
  std::string host = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
  auto at = host.rfind('@');
  if (at != std::string::npos) host = host.substr(at + 1);
  if (!host.empty() && host[0] == '[') {
    auto close = host.find(']');
    host = host.substr(0, close == std::string::npos ? host.size() : close + 1);
  } else {
    auto colon = host.find(':');
    if (colon != std::string::npos) host = host.substr(0, colon);
  }
  std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return std::tolower(c); });
  return host;
}

bool hostMatches(const std::string& glob, const std::string& host) {
  if (glob == "*") return true;
  if (glob.rfind("*.", 0) == 0) {
    std::string base = glob.substr(2);
    return host.size() > base.size() && host.compare(host.size() - base.size(), base.size(), base) == 0 &&
           host[host.size() - base.size() - 1] == '.';
  }
  return host == glob;
}

// --- Pack --------------------------------------------------------------------------------------

std::string Pack::intentNames() const {
  std::string names;
  for (const auto& e : intents) names += (names.empty() ? "" : ", ") + e->def->name;
  return names;
}

bool Pack::everySite() const {
  return std::find(spec.domains.begin(), spec.domains.end(), "*") != spec.domains.end();
}

std::vector<std::string> Pack::hosts() const {
  if (!spec.domains.empty()) return spec.domains;
  std::vector<std::string> out;
  for (const auto& g : spec.auto_load) {
    std::string h = urlHost(g);
    if (!h.empty() && std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
  }
  return out;
}

bool Pack::servesHost(const std::string& host) const {
  if (host.empty()) return false;
  for (const auto& d : hosts()) {
    if (hostMatches(d, host)) return true;
  }
  return false;
}

bool Pack::autoLoads(const std::string& url) const {
  for (const auto& g : spec.auto_load) {
    if (urlGlobMatch(g, url)) return true;
  }
  return false;
}

json Pack::scanRules(bool gated) const {
  if (!gated || everySite()) return rules;
  json out = json::array();
  json hs = hosts();
  for (json r : rules) {
    r["detection"]["hosts"] = hs;  // scanner.js evaluateRule: the page's host must match one
    out.push_back(std::move(r));
  }
  return out;
}

Result<std::shared_ptr<const Pack>> loadPack(const std::string& dir_str, const std::string& source, bool shipped) {
  fs::path dir(dir_str);
  auto pack = std::make_shared<Pack>();
  pack->dir = dir.string();
  pack->source = source;
  std::string meta_file = (dir / "pack.yaml").string();
  auto text = readTextFile(meta_file, codes::kPackLoadFailed);
  if (!text) return text.status();
  auto spec = parsePack(*text, meta_file);
  if (!spec) return spec.status();
  pack->spec = std::move(spec.value());
  std::error_code ec;
  if (dir.filename() != pack->spec.name) {
    return packError(meta_file + ": the pack is named \"" + pack->spec.name + "\" but its folder \"" +
                         dir.filename().string() + "\"",
                     "name the folder after the pack (packs/<name>/pack.yaml)");
  }
  if (shipped) {
    pack->trust = "builtin";
  } else {
    // Only pack install writes the mark, and only in the user's pack folder: a mark a pack
    // brings along elsewhere (--packs DIR) grants nothing (§13.3).
    std::string mark = source == "user" ? readMark(dir / kTrustFile) : "";
    pack->trust = mark.rfind("trusted", 0) == 0 ? "trusted" : "community";
  }
  if (fs::exists(dir / kOriginFile, ec)) {
    json o = json::parse(readMark(dir / kOriginFile), nullptr, false);
    if (o.is_object()) pack->origin = o.value("index", "");
  }
  auto runtime = std::make_shared<PackRuntime>(pack->spec.runtime);
  runtime->trusted = pack->trusted();
  runtime->trust = pack->trust;
  pack->runtime = runtime;

  std::vector<std::string> pattern_files = pack->spec.pattern_files;
  if (pattern_files.empty() && fs::exists(dir / "patterns.yaml", ec)) pattern_files.push_back("patterns.yaml");
  for (const auto& pf : pattern_files) {
    for (const auto& file : expandFiles(dir, pf)) {
      auto t = readTextFile(file.string(), codes::kPackLoadFailed);
      if (!t) return t.status();
      auto rules = parsePatterns(*t, file.string());
      if (!rules) return rules.status();
      for (auto& r : *rules) pack->rules.push_back(std::move(r));
    }
  }
  std::vector<std::string> intent_files = pack->spec.intent_files;
  if (intent_files.empty()) intent_files.push_back("intents/*.yaml");
  std::set<std::string> names;
  for (const auto& pattern : intent_files) {
    for (const auto& file : expandFiles(dir, pattern)) {
      LoadOptions o;
      o.tier = "pack";
      o.trusted = runtime->trusted;
      o.pack = runtime.get();
      auto def = loadIntentFile(file.string(), o);
      if (!def) return Status(codes::kPackLoadFailed, def.status().message(), def.status().hint());
      if (!def->pack.empty() && def->pack != pack->spec.name) {
        return packError(file.string() + ": /pack: the intent says pack \"" + def->pack + "\", its folder is pack \"" +
                         pack->spec.name + "\"");
      }
      if (!names.insert(def->name).second) {
        return packError(file.string() + ": /intent: a second intent named \"" + def->name + "\" in this pack");
      }
      def->pack = pack->spec.name;
      def->pack_runtime = runtime;
      pack->intents.push_back(makeEntry(std::move(def.value())));
    }
  }
  return std::shared_ptr<const Pack>(pack);
}

Result<std::string> writePackTemplate(const std::string& domain, const std::string& parent) {
  static const std::regex kDomainName("^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$");
  if (!std::regex_match(domain, kDomainName)) {
    return Status(codes::kParameterInvalid, "\"" + domain + "\" is not a domain name (example.com)",
                  "lscope pack new example.com [--dir DIR]");
  }
  fs::path dir = fs::path(parent) / domain;
  std::error_code ec;
  if (fs::exists(dir, ec)) return Status(codes::kParameterInvalid, dir.string() + " already exists");
  fs::create_directories(dir / "intents", ec);
  if (ec) return Status(codes::kParameterInvalid, "cannot create " + dir.string() + ": " + ec.message());
  std::ofstream(dir / "pack.yaml")
      << "# yaml-language-server: $schema=https://lemmascope.dev/schemas/pack-v1.json\n"
         "# A site pack (intent-engine.md §9): packs/README.md says what each key does.\n"
         "pack: " << domain << "\n"
         "version: 0.1.0\n"
         "description: \"" << domain << ": what the pack does\"\n"
         "author: you\n"
         "license: MIT\n"
         "domains: [" << domain << ", \"*." << domain << "\"]\n"
         "requires:\n  lemmascope: \">=1.0.0\"\n"
         "patterns: [patterns.yaml]\n"
         "intents: [\"intents/*.yaml\"]\n"
         "auto_load:\n  - \"https://" << domain << "/*\"\n  - \"https://*." << domain << "/*\"\n"
         "trust: community\n";
  std::ofstream(dir / "patterns.yaml")
      << "# yaml-language-server: $schema=https://lemmascope.dev/schemas/patterns-v1.json\n"
         "# Site patterns (§9.3): found by the scanner on this site's pages; intents name their\n"
         "# elements as {pattern: site_search.query}.\n"
         "patterns:\n"
         "  site_search:\n"
         "    description: \"The header search box\"\n"
         "    detection:\n"
         "      container: \"form[role=search], form[action*=search]\"\n"
         "    elements:\n"
         "      query: { selector: \"input[type=search], input[name=q]\" }\n"
         "      submit: { selector: \"button[type=submit], input[type=submit]\" }\n";
  std::ofstream(dir / "intents" / "search_site.yaml")
      << "# yaml-language-server: $schema=https://lemmascope.dev/schemas/intent-v1.json\n"
         "intent: search_site\n"
         "version: 1\n"
         "description: \"Search " << domain << "\"\n"
         "triggers:\n  patterns: [site_search]\n"
         "parameters:\n  - name: query\n    type: string\n    required: true\n"
         "steps:\n"
         "  - action: type\n    target: { pattern: site_search.query }\n    text: $query\n"
         "  - action: press\n    key: Enter\n"
         "success:\n  conditions:\n    - url_contains: \"q=\"\n";
  auto check = loadPack(dir.string(), "new", false);
  if (!check) return check.status();
  return dir.string();
}

// --- PackManager ----------------------------------------------------------------------------------

PackManager::PackManager(std::vector<Dir> dirs, std::string install_dir)
    : dirs_(std::move(dirs)), install_dir_(std::move(install_dir)) {
  reload();
}

void PackManager::reload() {
  std::map<std::string, std::shared_ptr<const Pack>> by_name;
  std::vector<std::string> order;
  std::vector<PackProblem> problems;
  for (const auto& d : dirs_) {
    std::error_code ec;
    if (d.path.empty() || !fs::is_directory(d.path, ec)) continue;
    std::vector<fs::path> folders;
    for (const auto& e : fs::directory_iterator(d.path, ec)) {
      if (e.is_directory() && fs::exists(e.path() / "pack.yaml")) folders.push_back(e.path());
    }
    std::sort(folders.begin(), folders.end());
    for (const auto& f : folders) {
      auto p = loadPack(f.string(), d.source, d.shipped);
      if (!p) {
        problems.push_back({f.filename().string(), f.string(), p.status()});
        continue;
      }
      const std::string& n = (*p)->name();
      if (!by_name.count(n)) order.push_back(n);
      by_name[n] = *p;  // a later folder (the user's) replaces an earlier one (shipped)
    }
  }
  std::vector<std::shared_ptr<const Pack>> packs;
  for (const auto& n : order) packs.push_back(by_name[n]);
  std::lock_guard<std::mutex> lock(mu_);
  packs_ = std::move(packs);
  problems_ = std::move(problems);
  ++generation_;
}

std::vector<std::shared_ptr<const Pack>> PackManager::packs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return packs_;
}

std::vector<PackProblem> PackManager::problems() const {
  std::lock_guard<std::mutex> lock(mu_);
  return problems_;
}

std::shared_ptr<const Pack> PackManager::find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& p : packs_) {
    if (p->name() == name) return p;
  }
  return nullptr;
}

json PackManager::everySiteRules() const {
  json out = json::array();
  for (const auto& p : packs()) {
    if (!p->everySite()) continue;
    for (const auto& r : p->rules) out.push_back(r);
  }
  return out;
}

uint64_t PackManager::generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return generation_;
}

Result<std::shared_ptr<const Pack>> PackManager::installFolder(const std::string& src, const InstallOptions& o,
                                                               const std::string& origin) {
  if (install_dir_.empty()) {
    return packError("no pack folder to install into (no home directory)", "set HOME, or use --packs DIR");
  }
  auto root = packRoot(src);
  if (!root) return root.status();
  // Check it where it is first: nothing is copied unless it loads.
  auto probe = loadPack(root->string(), "install", false);
  if (!probe) return probe.status();
  const std::string name = (*probe)->name();
  fs::path target = fs::path(install_dir_) / name;
  std::error_code ec;
  if (fs::exists(target, ec) && !o.force) {
    return packError("pack " + name + " is installed already (" + target.string() + ")",
                     "pack update " + name + ", or install again with --force to replace it");
  }
  fs::create_directories(install_dir_, ec);
  fs::path staging = fs::path(install_dir_) / ("." + name + ".installing");
  fs::remove_all(staging, ec);
  fs::copy(*root, staging, fs::copy_options::recursive, ec);
  if (ec) return packError("cannot copy the pack to " + staging.string() + ": " + ec.message());
  // Trust is the user's word at install time, never the pack's own files (§13.3).
  fs::remove(staging / kTrustFile, ec);
  fs::remove(staging / kOriginFile, ec);
  if (o.trusted) std::ofstream(staging / kTrustFile) << "trusted\n";
  if (!origin.empty()) {
    std::ofstream(staging / kOriginFile) << json{{"index", origin}, {"name", name}, {"version", (*probe)->spec.version}}.dump() << "\n";
  }
  fs::remove_all(target, ec);
  fs::rename(staging, target, ec);
  if (ec) return packError("cannot install into " + target.string() + ": " + ec.message());
  reload();
  auto installed = find(name);
  if (!installed) {
    for (const auto& pr : problems()) {
      if (pr.name == name) return pr.error;
    }
    return packError("pack " + name + " did not load after install");
  }
  return installed;
}

Result<std::shared_ptr<const Pack>> PackManager::installArchive(const std::string& file, const InstallOptions& o,
                                                                const std::string& origin) {
  std::string tmp = makeTempDir("lscope-pack-");
  if (tmp.empty()) return packError("cannot create a temporary folder");
  // GNU tar refuses members with ".." and strips leading "/"; links are refused below.
  int rc = runProgram({"tar", "-xzf", file, "-C", tmp, "--no-same-owner", "--no-same-permissions"});
  Result<std::shared_ptr<const Pack>> out = packError("cannot unpack " + file + " (tar exit " + std::to_string(rc) + ")",
                                                      "a pack archive is a .tar.gz of the pack folder");
  if (rc == 0) {
    Status tree = checkTree(tmp);
    out = tree ? installFolder(tmp, o, origin) : Result<std::shared_ptr<const Pack>>(tree);
  }
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return out;
}

Result<std::shared_ptr<const Pack>> PackManager::installFromIndex(const std::string& url, const InstallOptions& o) {
  if (!fetch_) return packError("this server cannot fetch over HTTP");
  auto body = fetch_(url);
  if (!body) return packError("cannot read the pack index " + url + ": " + body.status().message());
  json index = parseJsonBounded(*body);
  if (!index.is_object() || !index.contains("packs") || !index["packs"].is_array()) {
    return packError(url + " is not a pack index", "an index is {\"packs\": [{\"name\", \"version\", \"archive\", \"sha256\"}]}");
  }
  std::vector<json> matches;
  std::string names;
  for (const auto& e : index["packs"]) {
    if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) continue;
    names += (names.empty() ? "" : ", ") + e["name"].get<std::string>();
    if (o.name.empty() || e["name"] == o.name) matches.push_back(e);
  }
  if (matches.empty()) {
    return packError("the index has no pack named \"" + o.name + "\"", names.empty() ? "the index is empty" : "it has: " + names);
  }
  if (matches.size() > 1) {
    // The newest version of one name; several names need a choice.
    std::string first = matches[0].value("name", "");
    bool same = std::all_of(matches.begin(), matches.end(), [&](const json& m) { return m.value("name", "") == first; });
    if (!same) return packError("the index holds several packs", "name one: pack install <name> --source " + url + " (" + names + ")");
  }
  json best = matches[0];
  for (const auto& m : matches) {
    if (compareVersions(m.value("version", "0"), best.value("version", "0")) > 0) best = m;
  }
  std::string archive = best.value("archive", "");
  std::string sha = best.value("sha256", "");
  if (archive.empty() || sha.size() != 64) {
    return packError("the index entry for " + best.value("name", "") + " needs \"archive\" and a \"sha256\"");
  }
  if (archive.find("://") == std::string::npos) {
    // Relative to the index's own URL.
    auto slash = url.rfind('/');
    archive = (archive[0] == '/' ? url.substr(0, url.find('/', url.find("://") + 3)) : url.substr(0, slash + 1)) + archive;
  }
  auto bytes = fetch_(archive);
  if (!bytes) return packError("cannot download " + archive + ": " + bytes.status().message());
  std::string got = sha256Hex(*bytes);
  std::string want = sha;
  std::transform(want.begin(), want.end(), want.begin(), [](unsigned char c) { return std::tolower(c); });
  if (got != want) {
    return packError("the archive " + archive + " does not match the index's sha256 (got " + got + ")",
                     "the index or the archive was changed; nothing was installed");
  }
  std::string tmp = makeTempDir("lscope-dl-");
  if (tmp.empty()) return packError("cannot create a temporary folder");
  std::string file = tmp + "/pack.tar.gz";
  auto out = writeFile(file, *bytes) ? installArchive(file, o, url)
                                     : Result<std::shared_ptr<const Pack>>(packError("cannot write " + file));
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return out;
}

Result<std::shared_ptr<const Pack>> PackManager::install(const std::string& source, const InstallOptions& o) {
  if (!o.index.empty()) {
    InstallOptions named = o;
    if (named.name.empty()) named.name = source;
    return installFromIndex(o.index, named);
  }
  if (source.rfind("http://", 0) == 0 || source.rfind("https://", 0) == 0) return installFromIndex(source, o);
  std::error_code ec;
  if (fs::is_directory(source, ec)) return installFolder(source, o, "");
  if (fs::is_regular_file(source, ec)) return installArchive(source, o, "");
  return packError("no pack at " + source,
                   "pack install <folder|file.tar.gz|http://host/index.json> [--name N] [--trusted] [--force]");
}

Result<std::shared_ptr<const Pack>> PackManager::update(const std::string& name) {
  auto current = find(name);
  if (current && !current->origin.empty()) {
    InstallOptions o;
    o.name = name;
    o.force = true;
    o.trusted = current->trust == "trusted";
    return installFromIndex(current->origin, o);
  }
  reload();
  auto now = find(name);
  if (now) return now;
  for (const auto& pr : problems()) {
    if (pr.name == name) return pr.error;
  }
  return packError("no pack named \"" + name + "\"", "packs lists them");
}

// --- SHA-256 (FIPS 180-4) --------------------------------------------------------------------------

std::string sha256Hex(const std::string& bytes) {
  static const uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
      0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
      0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
      0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
      0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
      0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
      0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string msg = bytes;
  uint64_t bits = static_cast<uint64_t>(bytes.size()) * 8;
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56) msg.push_back('\0');
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bits >> (i * 8)) & 0xff));
  auto rotr = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (size_t off = 0; off < msg.size(); off += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      w[i] = (static_cast<uint32_t>(static_cast<unsigned char>(msg[off + i * 4])) << 24) |
             (static_cast<uint32_t>(static_cast<unsigned char>(msg[off + i * 4 + 1])) << 16) |
             (static_cast<uint32_t>(static_cast<unsigned char>(msg[off + i * 4 + 2])) << 8) |
             static_cast<uint32_t>(static_cast<unsigned char>(msg[off + i * 4 + 3]));
    }
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint32_t v : h) {
    for (int i = 28; i >= 0; i -= 4) out.push_back(hex[(v >> i) & 0xf]);
  }
  return out;
}

}  // namespace lscope
