// lscope doctor (issue 20): checks what each backend needs on this machine (the browser, the
// drivers, the extension's files and port, writable directories) and says what to install.
#pragma once

#include <ostream>
#include <string>

namespace lscope {

struct DoctorOptions {
  std::string browser;         // --browser, else found on PATH
  std::string extension_dir;   // the extension's files
  std::string token_file;      // the extension's pairing secret
  std::string home;            // ~/.lemmascope's parent; empty when there is none
  int extension_port = 9217;
  std::string learner_db;      // the intent learner's store
  std::string learner_mode;    // on, off or auto (stdio only), as configured
};

// Prints one line per backend and check; 0 when the default backend (CDP) works, else 1.
int runDoctor(const DoctorOptions& options, std::ostream& out);

}  // namespace lscope
