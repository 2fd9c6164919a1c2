// Results structs (proxylab/run_results.hpp): text_printf has no length limit, and publish_results prints an
// app's text and merges its JSON into the record's results without touching keys it does not own.
#include <sstream>

#include "proxylab/run_results.hpp"
#include "proxylab/testing.hpp"

namespace {
struct Demo {
  int steps = 0;
  double seconds = 0;
  std::string to_text() const { return proxylab::text_printf("  %d steps in %.3e s\n", steps, seconds); }
  nlohmann::json to_json() const { return {{"steps", steps}, {"seconds", seconds}}; }
};
}  // namespace

TEST_CASE("run results: text_printf formats strings of any length", "[run_results]") {
  CHECK(proxylab::text_printf("%d x %.2f", 3, 1.5) == "3 x 1.50");
  CHECK(proxylab::text_printf("%s", "").empty());
  const std::string long_word(5000, 'w');  // longer than any fixed buffer the drivers used (512)
  const std::string text = proxylab::text_printf("<%s|%d>", long_word.c_str(), 7);
  CHECK(text.size() == 5000 + 4);
  CHECK(text.substr(5001) == "|7>");
}

TEST_CASE("run results: publish prints the text and merges the JSON", "[run_results]") {
  proxylab::Report report("demo");
  report.results()["kept"] = true;
  report.results()["steps"] = -1;  // replaced by the struct's value
  std::ostringstream out;
  proxylab::publish_results(out, report, Demo{12, 0.25});
  CHECK(out.str() == "  12 steps in 2.500e-01 s\n");
  const auto& r = report.results();
  CHECK(r["kept"] == true);
  CHECK(r["steps"] == 12);
  CHECK(r["seconds"] == 0.25);
}
