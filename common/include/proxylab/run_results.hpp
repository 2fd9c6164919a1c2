// An app's results of one run, each value computed once (reduced over ranks first) into a struct of its own
// from which both renderings are generated: `std::string to_text() const` (the summary lines rank 0 prints)
// and `nlohmann::json to_json() const` (merged into the record's "results"). publish_results() prints the one
// and merges the other; an app publishes its set-up summary when set-up ends and its results when they are
// known. Text lines are formatted with text_printf (printf formats into a string of any length).
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <type_traits>

#include "proxylab/app.hpp"
#include "proxylab/report.hpp"

namespace proxylab {

// printf into a std::string (no fixed buffer: the result is as long as the format makes it).
std::string text_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));

template <class Results>
void publish_results(std::ostream& out, Report& report, const Results& r) {
  static_assert(
      std::is_same_v<decltype(r.to_text()), std::string> && std::is_same_v<decltype(r.to_json()), nlohmann::json>,
      "a results struct renders itself: std::string to_text() const, nlohmann::json to_json() const");
  out << r.to_text();
  report.results().update(r.to_json());
}
// The run's own: text on rank 0's stdout (unless --quiet), JSON into the run's record.
template <class Results>
void publish_results(RunContext& ctx, const Results& r) {
  publish_results(ctx.out(), ctx.report, r);
}

}  // namespace proxylab
