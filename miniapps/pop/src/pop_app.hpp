// POP barotropic solver proxy: declare + run.
#pragma once
#include "proxylab/app.hpp"

namespace proxylab::pop {
AppSpec app_spec();
}
