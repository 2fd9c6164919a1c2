// pstswm's deck, read once into typed values (the schema is declared in pstswm_app.cpp); the driver takes these,
// never the Config.
#pragma once
#include <string>

#include "proxylab/config.hpp"
#include "shallow_water.hpp"
#include "transform_options.hpp"

namespace proxylab::pstswm {

enum class TestCase { case2, case6 };  // ModelOptions::test_case 2 or 6
PROXYLAB_CHOICE_NAMES(TestCase, "test case", "case2", "case6");

// The run's verification limits (verify.*): case 2's normalized height errors, the relative change of mass and
// (case 6) of total energy, case 6's relative drift-speed difference.
struct VerifyLimits {
  double case2 = 0, mass = 0, energy = 0, drift = 0;
};

struct RunOptions {
  TransformOptions tr;
  ModelOptions model;
  long long steps = 0;
  VerifyLimits verify;
  bool measure_dgemm = false, measure_fft = false;  // perf.*
  std::string fft_wisdom;  // transform.fft_wisdom: FFTW wisdom file read before planning, written after ("": none)
};

// InputError naming the key for what the schema's ranges cannot refuse alone (grid sizes below 3N+1, a fixed level
// count that was not compiled, a truncation too low for the test case, a time step above the stability limit or one
// that does not divide time.days). comm: the run's comm options (RunContext::comm_options), kept in TransformOptions
// for the parallel Legendre transforms.
RunOptions read_options(const Config& cfg, CommOptions comm);

}  // namespace proxylab::pstswm
