#include "json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace mjhand::cli {

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += ch;  // UTF-8 passes through unchanged
        }
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (v == 0) return "0";  // also turns -0 into 0
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);  // shortest round-trip form
  return std::string(buf, res.ptr);
}

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

std::string JsonWriter::path() const {
  std::string p;
  for (const Level& l : stack_) {
    if (l.object) {
      p += (p.empty() ? "" : ".") + l.key;
    } else {
      p += "[" + std::to_string(l.count - 1) + "]";
    }
  }
  return p;
}

void JsonWriter::before_value() {
  if (stack_.empty()) {
    if (!out_.empty()) throw std::logic_error("JsonWriter: a second top-level value");
    return;
  }
  Level& l = stack_.back();
  if (l.object) {
    if (pending_key_.empty()) throw std::logic_error("JsonWriter: value without a key inside an object");
    if (l.count++ > 0) out_ += ',';
    newline();
    out_ += json_quote(pending_key_) + ": ";
    l.key = pending_key_;
    pending_key_.clear();
  } else {
    if (l.count++ > 0) out_ += l.inline_items ? ", " : ",";
    if (!l.inline_items) newline();
  }
}

void JsonWriter::key(const std::string& k) {
  if (stack_.empty() || !stack_.back().object) throw std::logic_error("JsonWriter: key outside an object");
  pending_key_ = k;
}

void JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  stack_.push_back(Level{true, false, 0, {}});
}

void JsonWriter::end_object() {
  const bool empty = stack_.back().count == 0;
  stack_.pop_back();
  if (!empty) newline();
  out_ += '}';
  if (stack_.empty()) out_ += '\n';
}

void JsonWriter::begin_array(bool inline_items) {
  before_value();
  out_ += '[';
  stack_.push_back(Level{false, inline_items, 0, {}});
}

void JsonWriter::end_array() {
  const Level l = stack_.back();
  stack_.pop_back();
  if (l.count > 0 && !l.inline_items) newline();
  out_ += ']';
}

void JsonWriter::value(double v) {
  before_value();
  if (std::isfinite(v)) {
    out_ += json_number(v);
  } else {
    out_ += "null";
    non_finite_.push_back(path());
  }
}

void JsonWriter::value(int v) {
  before_value();
  out_ += std::to_string(v);
}

void JsonWriter::value(bool v) {
  before_value();
  out_ += v ? "true" : "false";
}

void JsonWriter::value(const std::string& v) {
  before_value();
  out_ += json_quote(v);
}

void JsonWriter::value(const char* v) { value(std::string(v)); }

void JsonWriter::null() {
  before_value();
  out_ += "null";
}

void JsonWriter::vector(const std::string& k, const Eigen::Ref<const Eigen::VectorXd>& v) {
  key(k);
  begin_array(true);
  for (Eigen::Index i = 0; i < v.size(); ++i) value(v(i));
  end_array();
}

void JsonWriter::matrix(const std::string& k, const Eigen::Ref<const Eigen::MatrixXd>& m) {
  key(k);
  begin_array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    begin_array(true);
    for (Eigen::Index c = 0; c < m.cols(); ++c) value(m(r, c));
    end_array();
  }
  end_array();
}

void JsonWriter::strings(const std::string& k, const std::vector<std::string>& items) {
  key(k);
  begin_array(true);
  for (const std::string& s : items) value(s);
  end_array();
}

}  // namespace mjhand::cli
