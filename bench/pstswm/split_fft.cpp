// pstswm's longitude FFTs two ways, per latitude pair as the latitude loop runs them (spherical_transform.cpp): a
// pair's L north rows and L south rows of nlon grid points, rows contiguous, north first.
//   r2c     the proxy's: one r2c plan over the 2L rows forward, one c2r back (FFTW_MEASURE, rows `fdist` doubles apart)
//   split   one complex FFT of L rows whose real part is a north row and imaginary part the south row of the same
//           level (FFTW's split-format guru plan: no copy into complex numbers), forward and back; the north and
//           south spectra follow from Z(m) and Z(nlon - m) (N = (Z(m) + conj Z(-m)) / 2, S = (Z(m) - conj Z(-m)) / 2i),
//           which the fold could compute as it reads them (checked here against r2c, not timed)
//   packed  the same complex FFT on rows stored as complex numbers (north, south) per longitude, as a grid-point kernel
//           could write them (FFTW's interleaved format, out of place, forward and back)
// Each round times `reps` forward + inverse passes over `pairs` distinct pairs' buffers per variant, the variants in
// turn; medians over the rounds.
//   g++ -O3 -march=native bench/pstswm/split_fft.cpp -o /tmp/split_fft -lfftw3
//   /tmp/split_fft NLON [LEVELS] [PAIRS] [ROUNDS]     (defaults 18, 8, 9)
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s NLON [LEVELS] [PAIRS] [ROUNDS]\n", argv[0]);
    return 2;
  }
  const int nlon = std::atoi(argv[1]), L = argc > 2 ? std::atoi(argv[2]) : 18;
  const int pairs = argc > 3 ? std::atoi(argv[3]) : 8, rounds = argc > 4 ? std::atoi(argv[4]) : 9;
  const int nh = nlon / 2 + 1, fdist = 2 * (nh + (nh & 1));  // spherical_transform.cpp: fused_row_distance
  const size_t grid = size_t(2) * L * nlon;                  // one pair's grid rows
  const size_t spec_r2c = size_t(2) * L * fdist;             // its r2c spectra (doubles)
  const size_t spec_split = size_t(2) * L * nlon;            // its split spectra: L real rows, then L imaginary rows
  double* g = fftw_alloc_real(grid * pairs);
  double* back = fftw_alloc_real(grid * pairs);
  double* r = fftw_alloc_real(spec_r2c * pairs);
  double* z = fftw_alloc_real(spec_split * pairs);

  // r2c: 2L rows of nlon, spectra fdist doubles apart; c2r back (the c2r overwrites its input, as in the proxy)
  int n[1] = {nlon};
  fftw_plan r2c =
      fftw_plan_many_dft_r2c(1, n, 2 * L, g, nullptr, 1, nlon, (fftw_complex*)r, nullptr, 1, fdist / 2, FFTW_MEASURE);
  fftw_plan c2r = fftw_plan_many_dft_c2r(1, n, 2 * L, (fftw_complex*)r, nullptr, 1, fdist / 2, back, nullptr, 1, nlon,
                                         FFTW_MEASURE);
  // split: L complex rows, real part the north row l, imaginary part the south row l (L rows further)
  fftw_iodim dim{nlon, 1, 1}, many{L, nlon, nlon};
  const size_t half = size_t(L) * nlon;
  fftw_plan fwd = fftw_plan_guru_split_dft(1, &dim, 1, &many, g, g + half, z, z + half, FFTW_MEASURE);
  // the inverse: the split format's backward transform is the forward one with real and imaginary parts swapped
  fftw_plan inv = fftw_plan_guru_split_dft(1, &dim, 1, &many, z + half, z, back + half, back, FFTW_MEASURE);
  // packed: L interleaved complex rows of nlon, into a buffer of the same size and back
  double* c = fftw_alloc_real(spec_split * pairs);
  fftw_plan pfwd = fftw_plan_many_dft(1, n, L, (fftw_complex*)back, nullptr, 1, nlon, (fftw_complex*)c, nullptr, 1,
                                      nlon, FFTW_FORWARD, FFTW_MEASURE);
  fftw_plan pinv = fftw_plan_many_dft(1, n, L, (fftw_complex*)c, nullptr, 1, nlon, (fftw_complex*)back, nullptr, 1,
                                      nlon, FFTW_BACKWARD, FFTW_MEASURE);
  if (!r2c || !c2r || !fwd || !inv || !pfwd || !pinv) {
    std::fprintf(stderr, "FFTW could not plan\n");
    return 1;
  }

  for (size_t i = 0; i < grid * pairs; ++i) g[i] = std::sin(0.37 * double(i)) + 0.25 * std::cos(1.3 * double(i));
  // the split spectra give the r2c ones: N(m) = (Z(m) + conj Z(-m)) / 2, S(m) = (Z(m) - conj Z(-m)) / 2i
  fftw_execute_dft_r2c(r2c, g, (fftw_complex*)r);
  fftw_execute_split_dft(fwd, g, g + half, z, z + half);
  double err = 0, scale = 0;
  for (int l = 0; l < L; ++l)
    for (int m = 0; m < nh; ++m) {
      const int mm = (nlon - m) % nlon;
      const std::complex<double> zm(z[l * nlon + m], z[half + l * nlon + m]);
      const std::complex<double> zc = std::conj(std::complex<double>(z[l * nlon + mm], z[half + l * nlon + mm]));
      const std::complex<double> north = 0.5 * (zm + zc), south = (zm - zc) / std::complex<double>(0, 2);
      const std::complex<double> rn(r[l * fdist + 2 * m], r[l * fdist + 2 * m + 1]);
      const std::complex<double> rs(r[(L + l) * fdist + 2 * m], r[(L + l) * fdist + 2 * m + 1]);
      err = std::max({err, std::abs(north - rn), std::abs(south - rs)});
      scale = std::max(scale, std::abs(rn));
    }

  // the split round trip returns nlon times the grid
  fftw_execute_split_dft(inv, z + half, z, back + half, back);
  double back_err = 0;
  for (size_t i = 0; i < grid; ++i) back_err = std::max(back_err, std::abs(back[i] / nlon - g[i]));

  const int reps = std::max(1, int(2e8 / (5.0 * nlon * std::log2(nlon) * 2 * L * pairs)));
  std::vector<double> t_r2c, t_split, t_packed;
  for (int round = 0; round < rounds; ++round) {
    double t0 = seconds();
    for (int rep = 0; rep < reps; ++rep)
      for (int p = 0; p < pairs; ++p) {
        fftw_execute_dft_r2c(r2c, g + p * grid, (fftw_complex*)(r + p * spec_r2c));
        fftw_execute_dft_c2r(c2r, (fftw_complex*)(r + p * spec_r2c), back + p * grid);
      }
    t_r2c.push_back((seconds() - t0) / (reps * pairs));
    t0 = seconds();
    for (int rep = 0; rep < reps; ++rep)
      for (int p = 0; p < pairs; ++p) {
        double *gp = g + p * grid, *zp = z + p * spec_split, *bp = back + p * grid;
        fftw_execute_split_dft(fwd, gp, gp + half, zp, zp + half);
        fftw_execute_split_dft(inv, zp + half, zp, bp + half, bp);
      }
    t_split.push_back((seconds() - t0) / (reps * pairs));
    t0 = seconds();
    for (int rep = 0; rep < reps; ++rep)
      for (int p = 0; p < pairs; ++p) {
        auto *gp = (fftw_complex*)(back + p * grid), *cp = (fftw_complex*)(c + p * spec_split);
        fftw_execute_dft(pfwd, gp, cp);
        fftw_execute_dft(pinv, cp, gp);
      }
    t_packed.push_back((seconds() - t0) / (reps * pairs));
  }
  std::vector<double> ratio, packed_ratio;
  for (int i = 0; i < rounds; ++i) {
    ratio.push_back(t_r2c[i] / t_split[i]);
    packed_ratio.push_back(t_r2c[i] / t_packed[i]);
  }
  const double a = median(t_r2c), b = median(t_split);
  std::printf(
      "nlon %d, %d levels, %d pairs, %d rounds: per pair forward + inverse r2c %.2f us, split %.2f us: split "
      "%.2fx the r2c speed (median of per-round ratios, range %.2f-%.2f); split spectra vs r2c %.1e (relative), round "
      "trip %.1e\n",
      nlon, L, pairs, rounds, 1e6 * a, 1e6 * b, median(ratio), *std::min_element(ratio.begin(), ratio.end()),
      *std::max_element(ratio.begin(), ratio.end()), err / scale, back_err);
  std::printf("  packed %.2f us: %.2fx the r2c speed (range %.2f-%.2f)\n", 1e6 * median(t_packed), median(packed_ratio),
              *std::min_element(packed_ratio.begin(), packed_ratio.end()),
              *std::max_element(packed_ratio.begin(), packed_ratio.end()));
  fftw_destroy_plan(r2c);
  fftw_destroy_plan(c2r);
  fftw_destroy_plan(fwd);
  fftw_destroy_plan(inv);
  fftw_free(g);
  fftw_free(back);
  fftw_free(r);
  fftw_free(z);
  fftw_destroy_plan(pfwd);
  fftw_destroy_plan(pinv);
  fftw_free(c);
  return err / scale < 1e-12 && back_err < 1e-9 ? 0 : 1;
}
