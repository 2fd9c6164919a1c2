// proxylab-evh1: the EVH1 / VH-1 PPM Lagrangian-remap hydrodynamics proxy.
#pragma once
#include "proxylab/app.hpp"

namespace proxylab::evh1 {
AppSpec app_spec();
}
