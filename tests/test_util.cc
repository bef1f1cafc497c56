#include "test_util.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace mjhand_test {

std::string source_path(const std::string& relative) { return std::string(MJHAND_SOURCE_DIR) + "/" + relative; }

ModelPtr load_xml_string(const std::string& xml) {
  char name[] = "/tmp/mjhand_test_XXXXXX.xml";
  const int fd = mkstemps(name, 4);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  std::ofstream(name) << xml;
  try {
    ModelPtr m = mjhand::load_model(name);
    std::remove(name);
    return m;
  } catch (...) {
    std::remove(name);
    throw;
  }
}

}  // namespace mjhand_test
