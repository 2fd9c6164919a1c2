// User text (deck values, paths, the deck's name) as a run prints it: on one line, in quotes, every character that a
// terminal or a line-matching script could take for something else escaped C-style. A `sod.label` holding a newline
// then prints as one quoted line, never as a forged `VERIFICATION: PASSED` or `FOM:` line, and no escape sequence
// reaches the terminal. The front end's helper is the same (python/proxylab_tools/user_text.py).
//
//   quote(text)     'text' with \n \r \t \\ \' and \xHH (other control bytes, bytes that are not UTF-8) and \uXXXX
//                   (C1 controls, U+2028, U+2029) escaped: for every user string in a message or a printed line
//   excerpt(text)   quote(text) shortened to about 80 characters (a deck may hold a 64 KiB scalar)
//   escaped(text)   the same escapes, no quotes (a quote stays as it is): for user text that a line holds unquoted
//                   (the deck's name in "deck NAME: line 3", a check's name, CLI11's message about a flag)
#pragma once
#include <cstddef>
#include <string>

namespace proxylab {

// Length of the well-formed UTF-8 sequence that starts at text[at] (1-4 bytes; Unicode's table 3-7: no
// overlong forms, surrogates or code points above U+10FFFF), or 0 when the bytes there are not one.
inline std::size_t utf8_sequence_length(const std::string& text, std::size_t at) {
  auto byte = [&](std::size_t k) { return at + k < text.size() ? static_cast<unsigned char>(text[at + k]) : 0x100u; };
  const unsigned b0 = byte(0);
  if (b0 < 0x80) return 1;
  auto tail = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return byte(k) >= lo && byte(k) <= hi; };
  if (b0 >= 0xC2 && b0 <= 0xDF) return tail(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    const bool second = b0 == 0xE0 ? tail(1, 0xA0) : b0 == 0xED ? tail(1, 0x80, 0x9F) : tail(1);
    return second && tail(2) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    const bool second = b0 == 0xF0 ? tail(1, 0x90) : b0 == 0xF4 ? tail(1, 0x80, 0x8F) : tail(1);
    return second && tail(2) && tail(3) ? 4 : 0;
  }
  return 0;
}

// True when text is well-formed UTF-8 (what the JSON record can hold).
inline bool is_utf8(const std::string& text) {
  for (std::size_t at = 0, n = 0; at < text.size(); at += n)
    if ((n = utf8_sequence_length(text, at)) == 0) return false;
  return true;
}

namespace detail {

// The text escaped (see above), at most about `limit` characters of it, then "... (N bytes)"; `'` escaped in quotes.
inline std::string escaped_text(const std::string& text, std::size_t limit, bool in_quotes) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  std::size_t at = 0;
  for (std::size_t n = 0; at < text.size() && out.size() < limit; at += n) {
    n = utf8_sequence_length(text, at);
    const unsigned char c = static_cast<unsigned char>(text[at]);
    // C1 controls (U+0080-U+009F: 0x9b starts an escape sequence) and the Unicode line and paragraph separators
    const unsigned code = n == 2   ? ((c & 0x1Fu) << 6 | (static_cast<unsigned char>(text[at + 1]) & 0x3Fu))
                          : n == 3 ? ((c & 0x0Fu) << 12 | (static_cast<unsigned char>(text[at + 1]) & 0x3Fu) << 6 |
                                      (static_cast<unsigned char>(text[at + 2]) & 0x3Fu))
                                   : 0;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\\' || (c == '\'' && in_quotes)) {
      out += std::string("\\") + static_cast<char>(c);
    } else if (n == 0 || c < 0x20 || c == 0x7F) {
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
      n = 1;
    } else if ((code >= 0x80 && code <= 0x9F) || code == 0x2028 || code == 0x2029) {
      out += std::string("\\u") + hex[code >> 12] + hex[(code >> 8) & 15] + hex[(code >> 4) & 15] + hex[code & 15];
    } else {
      out.append(text, at, n);
    }
  }
  if (at < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace detail

inline std::string escaped(const std::string& text) { return detail::escaped_text(text, std::string::npos, false); }
inline std::string quote(const std::string& text) {
  return "'" + detail::escaped_text(text, std::string::npos, true) + "'";
}
inline std::string excerpt(const std::string& text) { return "'" + detail::escaped_text(text, 80, true) + "'"; }

}  // namespace proxylab
