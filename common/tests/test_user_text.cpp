// User text as a run prints it (user_text.hpp): one line, quoted, control characters escaped C-style.
#include "proxylab/testing.hpp"
#include "proxylab/user_text.hpp"

using proxylab::escaped;
using proxylab::excerpt;
using proxylab::quote;

// A sod.label holding newlines printed "VERIFICATION: PASSED" and "FOM:" lines of its own on a failing run, and raw
// escape codes reached the terminal.
TEST_CASE("user text: one line, quoted, control characters escaped", "[user_text]") {
  CHECK(quote("a\nVERIFICATION: PASSED\r\tb") == "'a\\nVERIFICATION: PASSED\\r\\tb'");
  CHECK(quote("\x1b[2J\x7f") == "'\\x1b[2J\\x7f'");
  CHECK(quote("it's a \\") == "'it\\'s a \\\\'");
  CHECK(escaped("it's") == "it's");  // unquoted text keeps its quotes
  CHECK(quote("a\xf6"
              "b") == "'a\\xf6b'");  // not UTF-8
  // C1 controls (0x9b starts an escape sequence) and the line breaks of Unicode and str.splitlines()
  CHECK(quote("\xc2\x9b\xe2\x80\xa8\xe2\x80\xa9\xc2\x85") == "'\\u009b\\u2028\\u2029\\u0085'");
  CHECK(quote("h\xc3\xa9t \xe2\x82\xac \xf0\x9f\x98\x80") == "'h\xc3\xa9t \xe2\x82\xac \xf0\x9f\x98\x80'");
  for (const std::string text : {"a\nb", "\x1b", "x\ry", "\xe2\x80\xa8"}) {
    const std::string q = quote(text);
    CHECK(q.find_first_of("\n\r\x1b") == std::string::npos);
    CHECK(q.find("\xe2\x80\xa8") == std::string::npos);
  }
}

TEST_CASE("user text: an excerpt is quoted and short", "[user_text]") {
  const std::string e = excerpt(std::string(60000, 'k'));
  CHECK(e.rfind("'kkkk", 0) == 0);
  CHECK(e.find("... (60000 bytes)'") != std::string::npos);
  CHECK(e.size() < 120);
  CHECK(excerpt("short") == "'short'");
}
