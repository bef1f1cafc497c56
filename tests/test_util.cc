#include "test_util.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace mjhand_test {

std::string source_path(const std::string& relative) { return std::string(MJHAND_SOURCE_DIR) + "/" + relative; }

ModelPtr load_xml_file(const std::string& path) {
  char error[1024] = {0};
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (!m) throw std::runtime_error("cannot load " + path + ": " + error);
  return ModelPtr(m);
}

ModelPtr load_xml_string(const std::string& xml) {
  char name[] = "/tmp/mjhand_test_XXXXXX.xml";
  const int fd = mkstemps(name, 4);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  {
    std::ofstream out(name);
    out << xml;
  }
  try {
    ModelPtr m = load_xml_file(name);
    std::remove(name);
    return m;
  } catch (...) {
    std::remove(name);
    throw;
  }
}

}  // namespace mjhand_test
