// proxylab-pstswm: the PSTSWM spectral transform shallow water proxy (see ../README.md).
#pragma once
#include "proxylab/app.hpp"

namespace proxylab::pstswm {
AppSpec app_spec();
}
