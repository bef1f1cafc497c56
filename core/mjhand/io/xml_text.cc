#include <mjhand/io/xml_text.h>

namespace mjhand {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string blank_xml_comments(std::string text) {
  for (size_t open = text.find("<!--"); open != std::string::npos; open = text.find("<!--", open)) {
    size_t close = text.find("-->", open + 4);
    close = close == std::string::npos ? text.size() : close + 3;
    for (size_t k = open; k < close; ++k) {
      if (text[k] != '\n') text[k] = ' ';
    }
    open = close;
  }
  return text;
}

}  // namespace mjhand
