// The run record. An app fills in its figure of merit, its verification checks and any results;
// app.cpp adds the configuration, timers and provenance, prints the text summary on rank 0 (timer
// table, one grep-able `FOM:` line, one `VERIFICATION: PASSED|FAILED` line) and writes the JSON
// record for --json. Values passed here must be the same on every rank (reduce them first).
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "proxylab/timers.hpp"

namespace proxylab {

struct VerificationCheck {
  std::string name;
  bool passed = false;
  double value = 0, limit = 0;  // e.g. a residual and its threshold
  std::string detail;
};

class Report {
 public:
  explicit Report(std::string app) : app_(std::move(app)) {}

  void set_fom(const std::string& name, double value, const std::string& unit);
  // A check that passes when `passed`; value/limit are shown ("1.2e-14 <= 1e-10").
  void check(const std::string& name, bool passed, double value, double limit, const std::string& detail = "");
  // Shorthand for the common "value <= limit" check.
  void check_le(const std::string& name, double value, double limit, const std::string& detail = "") {
    check(name, value <= limit, value, limit, detail);
  }
  nlohmann::json& results() { return results_; }  // free-form app results (tables, counts, errors)
  const nlohmann::json& results() const { return results_; }

  bool verified() const;  // at least one check, all passed
  const std::vector<VerificationCheck>& checks() const { return checks_; }
  const std::string& app() const { return app_; }
  const std::string& fom_name() const { return fom_name_; }
  double fom_value() const { return fom_value_; }
  const std::string& fom_unit() const { return fom_unit_; }

  // Verification limits the user changed from the schema's defaults ([{key, value, default}]): the
  // VERIFICATION line and the record name them, so relaxed checks never pass silently.
  void set_changed_limits(nlohmann::json changed) { changed_limits_ = std::move(changed); }
  const nlohmann::json& changed_limits() const { return changed_limits_; }

  // An output the run could not write (the message names the file and the error): the record says
  // status 'output_failed' and lists them, the run exits 3 (its results and verification stay in the record).
  void output_failed(const std::string& message) { failed_outputs_.push_back(message); }
  const std::vector<std::string>& failed_outputs() const { return failed_outputs_; }

  std::string summary_text() const;                  // checks, OUTPUT FAILED:, FOM: and VERIFICATION: lines
  std::string verification_line(bool passed) const;  // "VERIFICATION: PASSED" (+ changed limits)
  nlohmann::json to_json() const;                    // app, fom, verification, results

 private:
  std::string app_, fom_name_ = "none", fom_unit_;
  double fom_value_ = 0;
  std::vector<VerificationCheck> checks_;
  nlohmann::json results_ = nlohmann::json::object();
  nlohmann::json changed_limits_ = nlohmann::json::array();
  std::vector<std::string> failed_outputs_;
};

// Provenance of a run: version, git hash and dirty flag, compiler and flags, Kokkos version and enabled
// back ends, MPI library, ranks x threads, host, date, OMP_* / KOKKOS_* / PROXYLAB_* environment.
nlohmann::json provenance(MPI_Comm comm);

// Kokkos back ends compiled in, e.g. "Serial,OpenMP"; and the default execution space's name.
std::string enabled_backends();
std::string default_backend();
int host_threads();

}  // namespace proxylab
