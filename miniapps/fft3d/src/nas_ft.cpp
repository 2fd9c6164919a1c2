#include "nas_ft.hpp"

#include <cmath>
#include <string>

#include "proxylab/kmath.hpp"

namespace proxylab::fft3d::nas {
namespace {

// Per memory dim of a pencil: first global index, global extent (copied into the twiddle kernel).
struct SpectralAxes {
  int lo[3], g[3];
};

}  // namespace

void initial_field(const Pencil& p, const int global[3], const Field& u) {
  const int nx = global[0], ny = global[1], x0 = p.lo[0], y0 = p.lo[1], z0 = p.lo[2], nyl = p.n[1], nxl = p.n[0];
  const long long lines = (long long)p.n[2] * nyl;
  const double two_m46 = std::ldexp(1.0, -46);
  Kokkos::parallel_for(
      "fft3d::nas_initial_field", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>>(0, lines),
      KOKKOS_LAMBDA(long long line) {
        const long long z = z0 + line / nyl, y = y0 + line % nyl;
        // Draws consumed before (x0, y, z): 2 per point, x fastest; the first draw is a * seed.
        const std::uint64_t before = 2ULL * (std::uint64_t(z * ny + y) * nx + x0);
        std::uint64_t x = mulmod46(powmod46(lcg_a, before), lcg_seed);
        Complex* row = u.data() + line * nxl;
        for (int i = 0; i < nxl; ++i) {
          x = mulmod46(lcg_a, x);
          const double re = double(x) * two_m46;
          x = mulmod46(lcg_a, x);
          row[i] = Complex(re, double(x) * two_m46);
        }
      });
  Kokkos::fence();
}

RealField twiddle(const Pencil& p, const int global[3], double alpha_value) {
  RealField tw(std::string("fft3d::twiddle"), size_t(p.size() > 0 ? p.size() : 1));
  const double ap = -4.0 * alpha_value * M_PI * M_PI;
  SpectralAxes ax;
  for (int d = 0; d < 3; ++d) {
    ax.lo[d] = p.lo[p.order[d]];
    ax.g[d] = global[p.order[d]];
  }
  const int e1 = p.extent(1), e2 = p.extent(2);
  Kokkos::parallel_for(
      "fft3d::nas_twiddle", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>>(0, p.size()),
      KOKKOS_LAMBDA(long long idx) {
        const int m[3] = {int(idx / ((long long)e1 * e2)), int((idx / e2) % e1), int(idx % e2)};
        long long k2 = 0;
        for (int d = 0; d < 3; ++d) {
          const int i = ax.lo[d] + m[d], n = ax.g[d];
          const long long kbar = (i + n / 2) % n - n / 2;  // NPB: mod(i + n/2, n) - n/2
          k2 += kbar * kbar;
        }
        tw(idx) = kmath::exp(ap * double(k2));
      });
  Kokkos::fence();
  return tw;
}

void evolve(const Field& u, const RealField& tw) {
  Kokkos::parallel_for(
      "fft3d::nas_evolve", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>>(0, (long long)tw.extent(0)),
      KOKKOS_LAMBDA(long long i) { u(i) *= tw(i); });
  Kokkos::fence();
}

std::complex<double> checksum(const Pencil& p, const int global[3], const Field& u, MPI_Comm comm) {
  // Each of the 1024 points is owned by one rank; the others contribute exact zeros, and the sum
  // runs in j order on every rank, so the bits do not depend on the decomposition. The owned points are picked
  // where u lives, then copied to the host for MPI.
  View1D<double> picked("fft3d::nas_checksum_points", 2048);
  const int gx = global[0], gy = global[1], gz = global[2];
  const int lx = p.lo[0], ly = p.lo[1], lz = p.lo[2], nx = p.n[0], ny = p.n[1], nz = p.n[2];
  Kokkos::parallel_for(
      "fft3d::nas_checksum", Kokkos::RangePolicy<ExecSpace>(1, 1025), KOKKOS_LAMBDA(int j) {
        const int c0 = j % gx - lx, c1 = (3 * j) % gy - ly, c2 = (5 * j) % gz - lz;
        if (c0 < 0 || c0 >= nx || c1 < 0 || c1 >= ny || c2 < 0 || c2 >= nz) return;
        const Complex v = u(((long long)c2 * ny + c1) * nx + c0);  // X stage: (z, y, x)
        picked(2 * (j - 1)) = v.real();
        picked(2 * (j - 1) + 1) = v.imag();
      });
  const auto mine = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), picked);
  std::vector<double> all(2048);
  MPI_Allreduce(mine.data(), all.data(), 2048, MPI_DOUBLE, MPI_SUM, comm);
  double re = 0, im = 0;
  for (int j = 0; j < 1024; ++j) {
    re += all[2 * j];
    im += all[2 * j + 1];
  }
  const double n = double(global[0]) * global[1] * global[2];
  return {re / n, im / n};
}

std::vector<std::complex<double>> reference_checksums(int nx, int ny, int nz, int iterations, std::string* name) {
  using C = std::complex<double>;
  struct Class {
    const char* name;
    int nx, ny, nz, iterations;
    std::vector<C> sums;
  };
  // NPB 3.x ft verify(): Class S, W, A (6 iterations), B and C (20 iterations) reference checksums.
  static const std::vector<Class> classes = {
      {"S",
       64,
       64,
       64,
       6,
       {C(5.546087004964e+02, 4.845363331978e+02), C(5.546385409189e+02, 4.865304269511e+02),
        C(5.546148406171e+02, 4.883910722336e+02), C(5.545423607415e+02, 4.901273169046e+02),
        C(5.544255039624e+02, 4.917475857993e+02), C(5.542683411902e+02, 4.932597244941e+02)}},
      {"W",
       128,
       128,
       32,
       6,
       {C(5.673612178944e+02, 5.293246849175e+02), C(5.631436885271e+02, 5.282149986629e+02),
        C(5.594024089970e+02, 5.270996558037e+02), C(5.560698047020e+02, 5.260027904925e+02),
        C(5.530898991250e+02, 5.249400845633e+02), C(5.504159734538e+02, 5.239212247086e+02)}},
      {"A",
       256,
       256,
       128,
       6,
       {C(5.046735008193e+02, 5.114047905510e+02), C(5.059412319734e+02, 5.098809666433e+02),
        C(5.069376896287e+02, 5.098144042213e+02), C(5.077892868474e+02, 5.101336130759e+02),
        C(5.085233095391e+02, 5.104914655194e+02), C(5.091487099959e+02, 5.107917842803e+02)}},
      {"B", 512, 256, 256, 20, {C(5.177643571579e+02, 5.077803458597e+02), C(5.154521291263e+02, 5.088249431599e+02),
                                C(5.146409228649e+02, 5.096208912659e+02), C(5.142378756213e+02, 5.101023387619e+02),
                                C(5.139626667737e+02, 5.103976610617e+02), C(5.137423460082e+02, 5.105948019802e+02),
                                C(5.135547056878e+02, 5.107404165783e+02), C(5.133910925466e+02, 5.108576573661e+02),
                                C(5.132470705390e+02, 5.109577278523e+02), C(5.131197729984e+02, 5.110460304483e+02),
                                C(5.130070319283e+02, 5.111252433800e+02), C(5.129070537032e+02, 5.111968077718e+02),
                                C(5.128182883502e+02, 5.112616233064e+02), C(5.127393733383e+02, 5.113203605551e+02),
                                C(5.126691062020e+02, 5.113735928093e+02), C(5.126064276004e+02, 5.114218460548e+02),
                                C(5.125504076570e+02, 5.114656139760e+02), C(5.125002331720e+02, 5.115053595966e+02),
                                C(5.124551951846e+02, 5.115415130407e+02), C(5.124146770029e+02, 5.115744692211e+02)}},
      {"C", 512, 512, 512, 20, {C(5.195078707457e+02, 5.149019699238e+02), C(5.155422171134e+02, 5.127578201997e+02),
                                C(5.144678022222e+02, 5.122251847514e+02), C(5.140150594328e+02, 5.121090289018e+02),
                                C(5.137550426810e+02, 5.121143685824e+02), C(5.135811056728e+02, 5.121496764568e+02),
                                C(5.134569343165e+02, 5.121870921893e+02), C(5.133651975661e+02, 5.122193250322e+02),
                                C(5.132955192805e+02, 5.122454735794e+02), C(5.132410471738e+02, 5.122663649603e+02),
                                C(5.131971141679e+02, 5.122830879827e+02), C(5.131605205716e+02, 5.122965869718e+02),
                                C(5.131290734194e+02, 5.123075927445e+02), C(5.131012720314e+02, 5.123166486553e+02),
                                C(5.130760908195e+02, 5.123241541685e+02), C(5.130528295923e+02, 5.123304037599e+02),
                                C(5.130310107773e+02, 5.123356167976e+02), C(5.130103090133e+02, 5.123399592211e+02),
                                C(5.129905029333e+02, 5.123435588985e+02), C(5.129714421109e+02, 5.123465164008e+02)}},
  };
  for (const auto& c : classes)
    if (c.nx == nx && c.ny == ny && c.nz == nz && c.iterations == iterations) {
      if (name) *name = c.name;
      return c.sums;
    }
  if (name) *name = "";
  return {};
}

double npb_mops(double points, int iterations, double seconds) {
  const double logn = std::log(points);
  return 1e-6 * points * (14.8157 + 7.19641 * logn + (5.23518 + 7.21113 * logn) * iterations) / seconds;
}

}  // namespace proxylab::fft3d::nas
