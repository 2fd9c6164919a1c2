// proxylab-fft3d: distributed 3-D FFT proxy (CASTEP's transposes; NAS FT).
#include "src/fft3d_app.hpp"

int main(int argc, char** argv) { return proxylab::run_app(argc, argv, proxylab::fft3d::app_spec()); }
