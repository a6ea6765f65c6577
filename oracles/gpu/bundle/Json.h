// A small JSON reader and writer for bundle metadata. Plain C++17, because
// the GPU runner builds on a machine without LLVM (whose llvm::json the CPU
// side could otherwise use).
#ifndef TGPU_ORACLES_GPU_JSON_H
#define TGPU_ORACLES_GPU_JSON_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tgpu::bundle {

class Json {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Json() = default;
  Json(bool b) : kind_(Kind::Bool), bool_(b) {}
  Json(double d);
  Json(int64_t i);
  Json(uint64_t u);
  Json(int i) : Json(int64_t(i)) {}
  Json(unsigned u) : Json(uint64_t(u)) {}
  Json(const char *s) : kind_(Kind::String), text_(s) {}
  Json(std::string s) : kind_(Kind::String), text_(std::move(s)) {}
  static Json array() { Json j; j.kind_ = Kind::Array; return j; }
  static Json object() { Json j; j.kind_ = Kind::Object; return j; }

  Kind kind() const { return kind_; }
  bool isNull() const { return kind_ == Kind::Null; }
  bool isNumber() const { return kind_ == Kind::Number; }
  bool isString() const { return kind_ == Kind::String; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isObject() const { return kind_ == Kind::Object; }

  bool asBool() const { return bool_; }
  double asDouble() const;
  // The number's text read as an integer; false if it is not one (or does
  // not fit).
  bool asInt64(int64_t &out) const;
  bool asUint64(uint64_t &out) const;
  const std::string &asString() const { return text_; }

  // Arrays.
  const std::vector<Json> &items() const { return items_; }
  void push(Json j) { items_.push_back(std::move(j)); }
  // Objects keep their keys in insertion order when written.
  const std::vector<std::pair<std::string, Json>> &members() const { return members_; }
  const Json *get(const std::string &key) const;
  Json &set(const std::string &key, Json value);

  // Compact text when indent < 0, else one member per line.
  std::string dump(int indent = 2) const;

  // Parses a whole document; on failure returns false and `error` says
  // "line L, column C: what".
  static bool parse(const std::string &text, Json &out, std::string &error);

private:
  void dumpTo(std::string &out, int indent, int depth) const;
  friend class JsonParser;
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  std::string text_; // strings, and numbers as written (exact round trip)
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

// The JSON string literal for `s` (quotes included).
std::string jsonQuote(const std::string &s);

} // namespace tgpu::bundle

#endif
