#include "oracles/gpu/bundle/Json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tgpu::bundle {

Json::Json(double d) {
  // JSON has no NaN or infinity: those become null. %.17g round-trips.
  if (!std::isfinite(d))
    return;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  kind_ = Kind::Number;
  text_ = buf;
}

Json::Json(int64_t i) : kind_(Kind::Number), text_(std::to_string(i)) {}
Json::Json(uint64_t u) : kind_(Kind::Number), text_(std::to_string(u)) {}

double Json::asDouble() const {
  if (kind_ != Kind::Number)
    return 0;
  return std::strtod(text_.c_str(), nullptr);
}

bool Json::asInt64(int64_t &out) const {
  if (kind_ != Kind::Number || text_.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text_.c_str(), &end, 10);
  if (errno || *end)
    return false;
  out = v;
  return true;
}

bool Json::asUint64(uint64_t &out) const {
  if (kind_ != Kind::Number || text_.empty() || text_[0] == '-')
    return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(text_.c_str(), &end, 10);
  if (errno || *end)
    return false;
  out = v;
  return true;
}

const Json *Json::get(const std::string &key) const {
  for (const auto &m : members_)
    if (m.first == key)
      return &m.second;
  return nullptr;
}

Json &Json::set(const std::string &key, Json value) {
  for (auto &m : members_)
    if (m.first == key) {
      m.second = std::move(value);
      return m.second;
    }
  members_.emplace_back(key, std::move(value));
  return members_.back().second;
}

std::string jsonQuote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  return out + "\"";
}

void Json::dumpTo(std::string &out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent < 0)
      return;
    out += '\n';
    out.append(size_t(indent * d), ' ');
  };
  switch (kind_) {
  case Kind::Null: out += "null"; return;
  case Kind::Bool: out += bool_ ? "true" : "false"; return;
  case Kind::Number: out += text_; return;
  case Kind::String: out += jsonQuote(text_); return;
  case Kind::Array: {
    // Arrays of numbers stay on one line: grids, blocks.
    bool flat = true;
    for (const Json &j : items_)
      flat &= j.kind_ != Kind::Array && j.kind_ != Kind::Object;
    out += '[';
    for (size_t i = 0; i < items_.size(); ++i) {
      if (i)
        out += flat || indent < 0 ? (indent < 0 ? "," : ", ") : ",";
      if (!flat)
        newline(depth + 1);
      items_[i].dumpTo(out, indent, depth + 1);
    }
    if (!flat && !items_.empty())
      newline(depth);
    out += ']';
    return;
  }
  case Kind::Object: {
    out += '{';
    for (size_t i = 0; i < members_.size(); ++i) {
      if (i)
        out += ',';
      newline(depth + 1);
      out += jsonQuote(members_[i].first);
      out += indent < 0 ? ":" : ": ";
      members_[i].second.dumpTo(out, indent, depth + 1);
    }
    if (!members_.empty())
      newline(depth);
    out += '}';
    return;
  }
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dumpTo(out, indent, 0);
  return out;
}

// Recursive descent with a depth limit, so a hostile file cannot overflow
// the stack.
class JsonParser {
public:
  explicit JsonParser(const std::string &t) : text(t) {}

  bool document(Json &out, std::string &error) {
    skipSpace();
    bool ok = value(out, 0);
    if (ok) {
      skipSpace();
      if (pos != text.size())
        ok = fail("trailing text");
    }
    if (!ok)
      error = where() + ": " + why;
    return ok;
  }

private:
  const std::string &text;
  size_t pos = 0;
  std::string why;

  std::string where() const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n')
        ++line, col = 1;
      else
        ++col;
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
  }
  bool fail(const std::string &w) {
    if (why.empty())
      why = w;
    return false;
  }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' ||
                                 text[pos] == '\t' || text[pos] == '\r'))
      ++pos;
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (text.compare(pos, n, word) != 0)
      return false;
    pos += n;
    return true;
  }

  bool value(Json &out, int depth) {
    if (depth > 64)
      return fail("nested deeper than 64 levels");
    if (pos >= text.size())
      return fail("unexpected end of text");
    char c = text[pos];
    if (c == '{')
      return object(out, depth);
    if (c == '[')
      return array(out, depth);
    if (c == '"') {
      out = Json(std::string());
      return string(out.text_);
    }
    if (literal("true")) {
      out = Json(true);
      return true;
    }
    if (literal("false")) {
      out = Json(false);
      return true;
    }
    if (literal("null")) {
      out = Json();
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return number(out);
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool number(Json &out) {
    size_t start = pos;
    auto digits = [&] {
      size_t s = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos > s;
    };
    if (text[pos] == '-')
      ++pos;
    if (!digits())
      return fail("bad number");
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      if (!digits())
        return fail("bad number");
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (!digits())
        return fail("bad number");
    }
    out = Json();
    out.kind_ = Json::Kind::Number;
    out.text_ = text.substr(start, pos - start);
    return true;
  }

  static void appendUtf8(std::string &s, uint32_t cp) {
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xC0 | (cp >> 6));
      s += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += char(0xE0 | (cp >> 12));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    } else {
      s += char(0xF0 | (cp >> 18));
      s += char(0x80 | ((cp >> 12) & 0x3F));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    }
  }

  bool hex4(uint32_t &v) {
    if (pos + 4 > text.size())
      return fail("bad \\u escape");
    v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= uint32_t(c - 'A' + 10);
      else
        return fail("bad \\u escape");
    }
    return true;
  }

  bool string(std::string &out) {
    ++pos; // the opening quote
    while (true) {
      if (pos >= text.size())
        return fail("unterminated string");
      char c = text[pos++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos >= text.size())
        return fail("unterminated string");
      char e = text[pos++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp;
        if (!hex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00 && text.compare(pos, 2, "\\u") == 0) {
          pos += 2;
          uint32_t lo;
          if (!hex4(lo))
            return false;
          if (lo < 0xDC00 || lo >= 0xE000)
            return fail("bad surrogate pair");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        return fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  bool array(Json &out, int depth) {
    ++pos;
    out = Json::array();
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      Json item;
      if (!value(item, depth + 1))
        return false;
      out.items_.push_back(std::move(item));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool object(Json &out, int depth) {
    ++pos;
    out = Json::object();
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a member name");
      std::string key;
      if (!string(key))
        return false;
      if (out.get(key))
        return fail("duplicate member '" + key + "'");
      skipSpace();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':'");
      ++pos;
      skipSpace();
      Json item;
      if (!value(item, depth + 1))
        return false;
      out.members_.emplace_back(std::move(key), std::move(item));
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }
};

bool Json::parse(const std::string &text, Json &out, std::string &error) {
  JsonParser p(text);
  return p.document(out, error);
}

} // namespace tgpu::bundle
