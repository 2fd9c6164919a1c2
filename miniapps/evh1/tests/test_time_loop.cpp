// The time loop's guard against a run that cannot end (extreme states can let dt collapse for days while the
// progress line says "left ~0.0 s"). A stand-in domain whose signal rate is chosen by the test drives run_to:
// a rate that doubles every step collapses dt, a huge constant rate puts t_end out of reach, and a well-behaved
// rate runs to t_end with the guard on.
#include <unistd.h>

#include <string>

#include "proxylab/errors.hpp"
#include "proxylab/testing.hpp"
#include "time_loop.hpp"
#include "zone_block.hpp"

using namespace proxylab;
using namespace proxylab::evh1;

namespace {

class StandInDomain : public Domain {
 public:
  StandInDomain(Timers& t, double rate, double growth)
      : Domain(GridSpec{}, SweepOptions{}, t), rate_(rate), growth_(growth) {}
  void initialize(const InitialState&) override {}
  void sweep_x(double) override {
    rate_ *= growth_;
    usleep(50);  // a step takes time, as a real one does
  }
  void sweep_y(double) override {}
  double max_signal_rate() const override { return rate_; }
  ZoneBlock local() const override { return {}; }
  std::string describe() const override { return "stand-in"; }
  CommCount exchange_count() const override { return {}; }

 private:
  double rate_, growth_;
};

std::string error_of(double rate, double growth, const StepGuard& guard) {
  Timers timers;
  StandInDomain d(timers, rate, growth);
  try {
    run_to(d, MPI_COMM_WORLD, 1.0, 0.5, 0, {}, guard);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("evh1 time loop: a collapsing time step ends the run", "[evh1][time_loop]") {
  const std::string e = error_of(1.0, 2.0, StepGuard{1e-6, 0});
  CHECK(e.find("the time step collapsed") != std::string::npos);
  CHECK(e.find("below time.dt_min_ratio = 1e-06 x the first step's dt 0.05") != std::string::npos);
  CHECK(error_of(1.0, 2.0, StepGuard{0, 0}).find("Courant signal rate is inf") != std::string::npos);  // unguarded
}

TEST_CASE("evh1 time loop: an end beyond the wall-time limit ends the run", "[evh1][time_loop]") {
  const std::string e = error_of(1e12, 1.0, StepGuard{1e-6, 60});
  CHECK(e.find("t_end is out of reach") != std::string::npos);
  CHECK(e.find("beyond time.wall_limit = 60 s") != std::string::npos);
}

TEST_CASE("evh1 time loop: a well-behaved run reaches t_end with the guard on", "[evh1][time_loop]") {
  Timers timers;
  StandInDomain d(timers, 10.0, 0.99);
  const LoopResult r = run_to(d, MPI_COMM_WORLD, 1.0, 0.5, 0, {}, StepGuard{1e-6, 60});
  CHECK(r.time == 1.0);
  CHECK(r.steps > 10);
}
