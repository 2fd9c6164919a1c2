// STREAM probe: the memory-bandwidth ceiling every other proxy is judged against.
#pragma once
#include "proxylab/app.hpp"

namespace proxylab::stream {
AppSpec app_spec();
}
