// Intent packs (intent-engine.md §9, §12, §13.3): folders of pack.yaml, patterns.yaml and
// intents/*.yaml. The PackManager finds them (shipped, the user's, --packs), checks them, and
// installs new ones (a folder, a .tar.gz or a pack index over HTTP). Which packs are loaded is
// a session's business (auto-load by URL, pack load/unload): see Session.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/intent_loader.h"
#include "engine/intents.h"
#include "engine/status.h"

namespace lscope {

struct Pack {
  PackSpec spec;
  std::string dir;     // the folder it was read from
  std::string source;  // shipped, user or a --packs folder
  std::string trust;   // builtin, trusted or community (§13.3): what the user granted
  std::string origin;  // where it was installed from (an index URL), "" if unknown
  std::shared_ptr<const PackRuntime> runtime;
  nlohmann::json rules = nlohmann::json::array();  // its patterns as scanner pattern_rules
  std::vector<std::shared_ptr<const IntentEntry>> intents;

  const std::string& name() const { return spec.name; }
  bool trusted() const { return trust != "community"; }
  std::string intentNames() const;  // "create_issue, sign_in" (file order)
  bool everySite() const;  // domains ["*"]: patterns found anywhere (consent managers)
  // Hosts the pack serves: its domains, else the hosts of its auto_load URLs.
  std::vector<std::string> hosts() const;
  bool servesHost(const std::string& host) const;
  // §9.6: visiting `url` loads the pack (an auto_load glob matches).
  bool autoLoads(const std::string& url) const;
  // The rules for a scan: `gated` adds detection.hosts, so the scanner applies them only on
  // the pack's own hosts (the engine learns the URL from the same scan).
  nlohmann::json scanRules(bool gated) const;
};

struct PackProblem {
  std::string name;  // the folder name
  std::string dir;
  Status error;      // file:line: why
};

// `*` matches any run of characters; the rest literally (auto_load, trigger URLs).
bool urlGlobMatch(const std::string& glob, const std::string& url);
// The host of an http(s) URL, lower-case, without port; "" for other URLs.
std::string urlHost(const std::string& url);
// "github.com" serves github.com; "*.github.com" its subdomains; "*" every host.
bool hostMatches(const std::string& domain_glob, const std::string& host);

// Reads and checks one pack folder. `trust`: builtin, trusted or community; a community
// folder marked trusted by an install (.lemmascope-trust) is trusted.
Result<std::shared_ptr<const Pack>> loadPack(const std::string& dir, const std::string& source, bool shipped);

// Writes a new pack folder for `domain` under `parent` (lscope pack new): pack.yaml,
// patterns.yaml and one intent, valid as written. Fails if the folder exists.
Result<std::string> writePackTemplate(const std::string& domain, const std::string& parent);

// Thread-safe; shared by the server's sessions.
class PackManager {
 public:
  struct Dir {
    std::string path;
    std::string source;    // shipped, user, or the folder as given
    bool shipped = false;  // shipped with Lemmascope: trusted (§13.3 builtin)
  };
  // `install_dir`: where pack install puts packs (the user's pack folder, also one of `dirs`).
  PackManager(std::vector<Dir> dirs, std::string install_dir);

  // Reads every folder again. A pack of a later folder replaces one of the same name before it.
  void reload();
  std::vector<std::shared_ptr<const Pack>> packs() const;
  std::vector<PackProblem> problems() const;
  std::shared_ptr<const Pack> find(const std::string& name) const;
  // The patterns of every pack that serves every site (consent managers).
  nlohmann::json everySiteRules() const;
  uint64_t generation() const;

  struct InstallOptions {
    bool trusted = false;  // the user trusts the author: scripts, files, sensitive reads allowed
    bool force = false;    // replace an installed pack of the same name
    std::string name;      // which pack of an index
    std::string index;     // the index URL (`pack install <name> --source <url>`)
  };
  // Installs from a folder, a .tar.gz, or a pack index (http://host/index.json: {"packs":
  // [{"name", "version", "archive", "sha256"}]}), then reloads. Returns the installed pack.
  Result<std::shared_ptr<const Pack>> install(const std::string& source, const InstallOptions& options);
  // Re-reads one pack from its folder; a pack installed from an index is fetched again when
  // the index has a newer version. Returns the pack as it is now.
  Result<std::shared_ptr<const Pack>> update(const std::string& name);
  const std::string& installDir() const { return install_dir_; }

  // HTTP GET for indexes and archives (the server plugs in its HTTP client).
  using Fetch = std::function<Result<std::string>(const std::string& url)>;
  void setFetch(Fetch fetch) { fetch_ = std::move(fetch); }

 private:
  Result<std::shared_ptr<const Pack>> installFolder(const std::string& dir, const InstallOptions& options,
                                                    const std::string& origin);
  Result<std::shared_ptr<const Pack>> installArchive(const std::string& file, const InstallOptions& options,
                                                     const std::string& origin);
  Result<std::shared_ptr<const Pack>> installFromIndex(const std::string& url, const InstallOptions& options);

  std::vector<Dir> dirs_;
  std::string install_dir_;
  Fetch fetch_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<const Pack>> packs_;
  std::vector<PackProblem> problems_;
  uint64_t generation_ = 0;
};

// SHA-256 of bytes, lower-case hex (pack archives from an index are checked against it).
std::string sha256Hex(const std::string& bytes);

}  // namespace lscope
