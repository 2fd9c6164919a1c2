// proxylab-fft3d: CASTEP-like distributed complex 3-D FFT (slab / pencil, five transpose strategies)
// and the NAS FT benchmark recipe.
#pragma once
#include "proxylab/app.hpp"

namespace proxylab::fft3d {
AppSpec app_spec();
}
