// The extension backend's pairing (transports/extension): the extension's id as Chromium derives
// it from the manifest's key, and the pairing token file (private, stable, rotated on demand).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "engine/files.h"
#include "transports/extension/ext_backend.h"
#include "transports/extension/ext_relay.h"

using namespace lscope;
namespace fs = std::filesystem;

TEST_CASE("the shipped extension's id comes from its manifest key, as Chromium computes it") {
  // The id Chromium showed for the shipped manifest when loaded unpacked (chrome://extensions).
  auto id = ext::extensionIdOf(std::string(LSCOPE_SOURCE_DIR) + "/transports/extension/chrome");
  REQUIRE(static_cast<bool>(id));
  CHECK(*id == "eogpbfcebmfbpimcgigckphmjmdnhbbi");
  CHECK(id->size() == 32);
  auto missing = ext::extensionIdOf("/nonexistent");
  CHECK_FALSE(static_cast<bool>(missing));
  CHECK(missing.status().hint().find("--extension-id") != std::string::npos);
}

TEST_CASE("the pairing token is private, stays the same, and changes only when rotated") {
  std::string dir = makeTempDir("lscope-token-test-");
  std::string file = dir + "/sub/extension-token";
  auto first = ext::loadOrCreateToken(file, false);
  REQUIRE(static_cast<bool>(first));
  CHECK(first->size() == 32);
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  auto again = ext::loadOrCreateToken(file, false);
  REQUIRE(static_cast<bool>(again));
  CHECK(*again == *first);
  auto rotated = ext::loadOrCreateToken(file, true);
  REQUIRE(static_cast<bool>(rotated));
  CHECK(*rotated != *first);
  // A file that does not hold a token is replaced, not trusted.
  std::ofstream(file, std::ios::trunc) << "secret\n";
  auto replaced = ext::loadOrCreateToken(file, false);
  REQUIRE(static_cast<bool>(replaced));
  CHECK(replaced->size() == 32);
  CHECK(*replaced != "secret");
  CHECK(ext::pairingCode(9217, *replaced) == "lsx1:9217:" + *replaced);
  fs::remove_all(dir);
}
