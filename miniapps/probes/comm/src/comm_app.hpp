// Communication probes: the seeds' COMMS1/COMMTEST/HALO/SYNCH1/HPCC network tests on one binary.
#pragma once
#include "proxylab/app.hpp"

namespace proxylab::comm {
AppSpec app_spec();
}
