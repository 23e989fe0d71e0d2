// Pack folders (engine/packs.h): trust comes from where a pack was installed, never from the
// pack's own files (§13.3); URL globs, hosts and the SHA-256 used for index downloads.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/packs.h"

using namespace lscope;
namespace fs = std::filesystem;

namespace {

fs::path makePack(const fs::path& parent, bool with_mark) {
  fs::path dir = parent / "example.org";
  fs::create_directories(dir / "intents");
  std::ofstream(dir / "pack.yaml") << "pack: example.org\nversion: 1.0.0\ndomains: [example.org]\n";
  std::ofstream(dir / "intents" / "hello.yaml") << "intent: hello\nversion: 1\nsteps:\n  - action: observe\n";
  if (with_mark) std::ofstream(dir / ".lemmascope-trust") << "trusted\n";
  return dir;
}

}  // namespace

TEST_CASE("a trust mark counts only in the user's pack folder, where pack install writes it") {
  fs::path tmp = fs::temp_directory_path() / ("lscope-packs-test-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::path dir = makePack(tmp, true);
  auto elsewhere = loadPack(dir.string(), "/some/--packs/dir", false);
  REQUIRE(elsewhere.ok());
  CHECK((*elsewhere)->trust == "community");
  CHECK_FALSE((*elsewhere)->runtime->trusted);
  auto installed = loadPack(dir.string(), "user", false);
  REQUIRE(installed.ok());
  CHECK((*installed)->trust == "trusted");
  auto shipped = loadPack(dir.string(), "shipped", true);
  REQUIRE(shipped.ok());
  CHECK((*shipped)->trust == "builtin");
  CHECK((*shipped)->intents.size() == 1);
  CHECK((*shipped)->intents[0]->def->pack == "example.org");
  CHECK((*shipped)->intents[0]->def->tier == "pack");
  fs::remove_all(tmp);
}

TEST_CASE("a pack folder must carry its pack's name") {
  fs::path tmp = fs::temp_directory_path() / ("lscope-packs-name-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::path dir = makePack(tmp, false);
  fs::rename(dir, tmp / "other.org");
  auto p = loadPack((tmp / "other.org").string(), "user", false);
  REQUIRE_FALSE(p.ok());
  CHECK(p.status().message().find("the pack is named \"example.org\" but its folder \"other.org\"") != std::string::npos);
  fs::remove_all(tmp);
}

TEST_CASE("URL globs, hosts and domain globs") {
  CHECK(urlGlobMatch("https://github.com/*", "https://github.com/login"));
  CHECK_FALSE(urlGlobMatch("https://github.com/*", "https://gist.github.com/x"));
  CHECK(urlHost("https://User@GitHub.com:8443/a?b") == "github.com");
  CHECK(urlHost("file:///etc/passwd").empty());
  CHECK(hostMatches("*.github.com", "gist.github.com"));
  CHECK_FALSE(hostMatches("*.github.com", "github.com"));
  CHECK_FALSE(hostMatches("*.github.com", "evilgithub.com"));
  CHECK(hostMatches("*", "anything.example"));
}

TEST_CASE("SHA-256 of the FIPS 180-4 examples") {
  CHECK(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
