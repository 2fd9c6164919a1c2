// fft3d's deck, read once into typed values (the schema is declared in fft3d_app.cpp); the driver and the
// memory estimate take these, never the Config.
#pragma once
#include <string>

#include "distributed_fft.hpp"
#include "proxylab/config.hpp"
#include "run_choices.hpp"

namespace proxylab::fft3d {

struct RunOptions {
  RunMode mode = RunMode::fft;
  int nx = 64, ny = 64, nz = 64;
  DecompKind decomposition = DecompKind::slab;
  int p_row = 0, p_col = 0;  // 0 = automatic
  FFTOptions fft;            // transpose strategy, FFTW planning, mapping, fusion, emulated node size
  int iterations = 10, warmup = 1;
  bool serial_baseline = false;
  std::string wisdom;  // fft3d.wisdom: FFTW wisdom file read before planning and written after the run ("": none)
  double ft_alpha = 0;
  long long serial_max_points = 0;  // verify against a serial FFTW 3-D transform up to this many points
  double tolerance = 0;             // verify.tolerance
};

// comm: the run's comm options (RunContext::comm_options), kept in FFTOptions for the transposes.
RunOptions read_options(const Config& cfg, CommOptions comm);

}  // namespace proxylab::fft3d
