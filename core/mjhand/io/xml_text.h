// Small helpers for MJCF held as text: escaping attribute values, and blanking comments before a text search.
#pragma once

#include <string>

namespace mjhand {

// s with & < > " replaced by their XML entities (for an attribute value in double quotes).
std::string xml_escape(const std::string& s);

// text with every <!-- ... --> blanked by spaces (newlines kept, so offsets and line numbers stay valid).
std::string blank_xml_comments(std::string text);

}  // namespace mjhand
