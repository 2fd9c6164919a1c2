// Global sums behind one interface (POP's GLOBAL_SUM, the latency-bound part of the barotropic solver).
//
//   allreduce     local Kokkos reduction, then MPI_Allreduce of the N words (one message)
//   iallreduce    local reduction, MPI_Iallreduce started at once, completed in wait(): work placed
//                 between start and wait overlaps the reduction (pipelined CG)
//   reproducible  every contribution is added exactly into a fixed-point accumulator (ExactSum), the
//                 accumulators are summed as integers across ranks: the result is bit-identical for any
//                 decomposition, rank count, thread count or mapping (POP's reproducible sums)
//
// Usage: a multi-word sum over a 2-D range in one call (N words = one message):
//   auto [rr, rz] = gsum.sum_2d<2>("pcg::dots", mapping, j0, j1, i0, i1,
//                                  KOKKOS_LAMBDA(int j, int i, double* c) { c[0] = r(j,i)*r(j,i); c[1] = r(j,i)*z(j,i);
//                                  });
#pragma once
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "proxylab/mapping.hpp"

// Kokkos <= 3.6 joins reduction values through volatile references, so the value types below need a volatile
// operator+= there; Kokkos 3.7+ joins plain references, and C++20 deprecates compound assignment to volatile.
#if KOKKOS_VERSION < 30700
#define PROXYLAB_KOKKOS_VOLATILE_JOIN 1
#else
#define PROXYLAB_KOKKOS_VOLATILE_JOIN 0
#endif

namespace proxylab {

enum class ReduceStrategy { allreduce, iallreduce, reproducible };
PROXYLAB_CHOICE_NAMES(ReduceStrategy, "reduction strategy", "allreduce", "iallreduce", "reproducible");
inline const std::vector<std::string>& reduce_strategy_names() { return choice_names<ReduceStrategy>(); }
inline ReduceStrategy parse_reduce_strategy(const std::string& name) { return parse_choice<ReduceStrategy>(name); }

// Exact fixed-point sum of doubles: 32-bit limbs held in int64 (room for 2^30 additions before
// normalisation), covering magnitudes 2^-288 .. 2^288; smaller parts are truncated (deterministically),
// larger values or NaN/Inf make the result NaN.
struct ExactSum {
  static constexpr int limbs = 18;
  static constexpr int emin = -288;
  int64_t limb[limbs];
  int64_t nonfinite;

  KOKKOS_INLINE_FUNCTION ExactSum() { clear(); }
  KOKKOS_INLINE_FUNCTION ExactSum(const ExactSum& o) {
    for (int k = 0; k < limbs; ++k) limb[k] = o.limb[k];
    nonfinite = o.nonfinite;
  }
  KOKKOS_INLINE_FUNCTION ExactSum& operator=(const ExactSum& o) {
    for (int k = 0; k < limbs; ++k) limb[k] = o.limb[k];
    nonfinite = o.nonfinite;
    return *this;
  }
  KOKKOS_INLINE_FUNCTION void clear() {
    for (int k = 0; k < limbs; ++k) limb[k] = 0;
    nonfinite = 0;
  }
  KOKKOS_INLINE_FUNCTION void add(double x) {
    uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    const int64_t sign = (u >> 63) ? -1 : 1;
    const int ex = static_cast<int>((u >> 52) & 0x7ff);
    uint64_t m = u & ((uint64_t(1) << 52) - 1);
    if (ex == 0x7ff) {
      nonfinite += 1;
      return;
    }
    int e2 = ex == 0 ? -1074 : ex - 1075;
    if (ex != 0) m |= uint64_t(1) << 52;
    if (m == 0) return;
    int shift = e2 - emin;
    if (shift < 0) {
      if (shift <= -53) return;
      m >>= -shift;
      shift = 0;
    }
    const int k = shift / 32, off = shift % 32;
    if (k + 2 >= limbs) {
      nonfinite += 1;
      return;
    }
    const uint64_t a = (m & 0xffffffffu) << off, b = (m >> 32) << off;
    limb[k] += sign * int64_t(a & 0xffffffffu);
    limb[k + 1] += sign * (int64_t(a >> 32) + int64_t(b & 0xffffffffu));
    limb[k + 2] += sign * int64_t(b >> 32);
  }
  KOKKOS_INLINE_FUNCTION ExactSum& operator+=(const ExactSum& o) {
    for (int k = 0; k < limbs; ++k) limb[k] += o.limb[k];
    nonfinite += o.nonfinite;
    return *this;
  }
#if PROXYLAB_KOKKOS_VOLATILE_JOIN
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile ExactSum& o) volatile {
    for (int k = 0; k < limbs; ++k) limb[k] += o.limb[k];
    nonfinite += o.nonfinite;
  }
#endif
  // Carry propagation: every limb but the top one in [0, 2^32).
  void normalize() {
    for (int k = 0; k + 1 < limbs; ++k) {
      const int64_t carry = limb[k] >> 32;  // arithmetic shift: floor division
      limb[k] -= carry * (int64_t(1) << 32);
      limb[k + 1] += carry;
    }
  }
  // Deterministic conversion (same limbs -> same double), most significant limb first.
  double to_double() const;
};

// N words summed together (one message for N dot products).
template <int N>
struct SumWords {
  double v[N];
  KOKKOS_INLINE_FUNCTION SumWords() {
    for (int n = 0; n < N; ++n) v[n] = 0;
  }
  KOKKOS_INLINE_FUNCTION SumWords(const SumWords& o) {
    for (int n = 0; n < N; ++n) v[n] = o.v[n];
  }
  KOKKOS_INLINE_FUNCTION SumWords& operator=(const SumWords& o) {
    for (int n = 0; n < N; ++n) v[n] = o.v[n];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION SumWords& operator+=(const SumWords& o) {
    for (int n = 0; n < N; ++n) v[n] += o.v[n];
    return *this;
  }
#if PROXYLAB_KOKKOS_VOLATILE_JOIN
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile SumWords& o) volatile {
    for (int n = 0; n < N; ++n) v[n] += o.v[n];
  }
#endif
};

template <int N>
struct ExactWords {
  ExactSum s[N];
  KOKKOS_INLINE_FUNCTION ExactWords() {}
  KOKKOS_INLINE_FUNCTION ExactWords(const ExactWords& o) {
    for (int n = 0; n < N; ++n) s[n] = o.s[n];
  }
  KOKKOS_INLINE_FUNCTION ExactWords& operator=(const ExactWords& o) {
    for (int n = 0; n < N; ++n) s[n] = o.s[n];
    return *this;
  }
  KOKKOS_INLINE_FUNCTION ExactWords& operator+=(const ExactWords& o) {
    for (int n = 0; n < N; ++n) s[n] += o.s[n];
    return *this;
  }
#if PROXYLAB_KOKKOS_VOLATILE_JOIN
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile ExactWords& o) volatile {
    for (int n = 0; n < N; ++n) s[n] += o.s[n];
  }
#endif
};

}  // namespace proxylab

namespace Kokkos {
template <int N>
struct reduction_identity<proxylab::SumWords<N>> {
  KOKKOS_FORCEINLINE_FUNCTION static proxylab::SumWords<N> sum() { return proxylab::SumWords<N>(); }
};
template <int N>
struct reduction_identity<proxylab::ExactWords<N>> {
  KOKKOS_FORCEINLINE_FUNCTION static proxylab::ExactWords<N> sum() { return proxylab::ExactWords<N>(); }
};
}  // namespace Kokkos

namespace proxylab {

namespace detail {
// Local N-word sum over a 2-D range with the team mapping on a host space, written so that it
// vectorises: each row is processed in chunks whose contributions go to a small buffer in a
// dependence-free vector loop (the kernel, e.g. a fused stencil, vectorises), then the buffer is added
// lane-wise into `lanes` partial sums per word (no reassociation needed). A scalar running sum in the
// vector loop (ThreadVectorRange's reduction) keeps GCC from vectorising the whole kernel. The
// summation order is fixed by the row and chunk layout, so results are deterministic for a given
// decomposition (they differ from the other mappings in the last bits, as any reduction order does).
// The result goes where `into` (a Kokkos::Sum of SumWords<N>) points.
template <int N, class ExecSpace, class F, class Into>
void team_host_sum_2d(const std::string& name, int b0, int e0, int b1, int e1, const F& f, const Into& into) {
  if (e0 <= b0 || e1 <= b1) {  // the identity
    Kokkos::parallel_reduce(name, Kokkos::RangePolicy<ExecSpace>(0, 0), KOKKOS_LAMBDA(int, SumWords<N>&){}, into);
    return;
  }
  team_rows_reduce_into<Into, ExecSpace>(
      name, b0, e0,
      KOKKOS_LAMBDA(const team_member<ExecSpace>&, int i, SumWords<N>& ai) {
        constexpr int chunk = 128, lanes = 4;
        double lane[N][lanes] = {};
        double buf[N][chunk];
        for (int j0 = b1; j0 < e1; j0 += chunk) {
          const int m = e1 - j0 < chunk ? e1 - j0 : chunk, padded = (m + lanes - 1) / lanes * lanes;
          PROXYLAB_PRAGMA_IVDEP
          for (int k = 0; k < m; ++k) {
            double c[N] = {};
            f(i, j0 + k, c);
            for (int n = 0; n < N; ++n) buf[n][k] = c[n];
          }
          for (int k = m; k < padded; ++k)
            for (int n = 0; n < N; ++n) buf[n][k] = 0.0;
          for (int n = 0; n < N; ++n)
            for (int k = 0; k < padded; k += lanes)
              for (int l = 0; l < lanes; ++l) lane[n][l] += buf[n][k + l];
        }
        for (int n = 0; n < N; ++n) ai.v[n] += (lane[n][0] + lane[n][1]) + (lane[n][2] + lane[n][3]);
      },
      into);
}
// This rank's N-word sum over a 2-D range into where `into` (a Kokkos::Sum of SumWords<N>) points.
template <int N, class F, class Into>
void local_words_2d(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, const F& f, const Into& into) {
  if (m == Mapping::team && on_host<Kokkos::DefaultExecutionSpace>) {
    team_host_sum_2d<N, Kokkos::DefaultExecutionSpace>(name, b0, e0, b1, e1, f, into);
  } else {
    reduce_2d_into<Into>(
        name, m, b0, e0, b1, e1,
        KOKKOS_LAMBDA(int i, int j, SumWords<N>& acc) {
          double c[N] = {};
          f(i, j, c);
          for (int n = 0; n < N; ++n) acc.v[n] += c[n];
        },
        into);
  }
}
}  // namespace detail

class GlobalSum {
 public:
  static constexpr int max_words = 8;
  GlobalSum(ReduceStrategy s, MPI_Comm comm) : strategy_(s), comm_(comm) { MPI_Comm_size(comm, &ranks_); }
  GlobalSum(const GlobalSum&) = delete;
  GlobalSum& operator=(const GlobalSum&) = delete;

  ReduceStrategy strategy() const { return strategy_; }

  // Blocking: local contributions f(..., double* c) (c[0..N-1], zero-initialised) summed over all ranks.
  template <int N, class F>
  std::array<double, N> sum_1d(const std::string& name, Mapping m, int b, int e, const F& f) {
    start_1d<N>(name, m, b, e, f);
    return wait<N>();
  }
  template <int N, class F>
  std::array<double, N> sum_2d(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, const F& f) {
    start_2d<N>(name, m, b0, e0, b1, e1, f);
    return wait<N>();
  }

  // Split phase: the local reduction runs now; the global combine completes in wait<N>(), which must
  // follow before the next start. Only `iallreduce` overlaps; the others finish in start.
  template <int N, class F>
  void start_1d(const std::string& name, Mapping m, int b, int e, const F& f) {
    static_assert(N >= 1 && N <= max_words, "GlobalSum: 1..8 words");
    if (strategy_ == ReduceStrategy::reproducible) {
      auto local = reduce_1d<Kokkos::Sum<ExactWords<N>>>(
          name, m, b, e, KOKKOS_LAMBDA(int i, ExactWords<N>& acc) {
            double c[N] = {};
            f(i, c);
            for (int n = 0; n < N; ++n) acc.s[n].add(c[n]);
          });
      start_exact(local.s, N);
    } else {
      auto local = reduce_1d<Kokkos::Sum<SumWords<N>>>(
          name, m, b, e, KOKKOS_LAMBDA(int i, SumWords<N>& acc) {
            double c[N] = {};
            f(i, c);
            for (int n = 0; n < N; ++n) acc.v[n] += c[n];
          });
      start_words(local.v, N);
    }
  }
  template <int N, class F>
  void start_2d(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, const F& f) {
    static_assert(N >= 1 && N <= max_words, "GlobalSum: 1..8 words");
    if (strategy_ == ReduceStrategy::reproducible) {
      auto local = reduce_2d<Kokkos::Sum<ExactWords<N>>>(
          name, m, b0, e0, b1, e1, KOKKOS_LAMBDA(int i, int j, ExactWords<N>& acc) {
            double c[N] = {};
            f(i, j, c);
            for (int n = 0; n < N; ++n) acc.s[n].add(c[n]);
          });
      start_exact(local.s, N);
    } else {
      SumWords<N> local;
      detail::local_words_2d<N>(name, m, b0, e0, b1, e1, f, Kokkos::Sum<SumWords<N>>(local));
      start_words(local.v, N);
    }
  }
  template <int N>
  std::array<double, N> wait() {
    std::array<double, N> out{};
    finish(out.data(), N);
    return out;
  }

  // Device-resident: the N words of the sum land in device memory, words [first, first + N) of `dest`, where the
  // kernels that need them read them. At one rank (allreduce or iallreduce) the local reduction is the global sum
  // and the words never visit the host: no fence. Otherwise the local result comes to the host (one wait), MPI
  // combines it, and wait_on_device puts the words into dest with a one-point kernel (a launch, no wait); the
  // reproducible strategy keeps this host path at one rank too (its exact accumulators are normalised and
  // converted on the host, so its sums stay bit-identical across decompositions).
  template <int N, class F>
  void start_2d_on_device(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, const F& f,
                          const Kokkos::View<double*>& dest, int first) {
    static_assert(N >= 1 && N <= max_words, "GlobalSum: 1..8 words");
    if (stays_on_device()) {
      if (pending_) throw std::logic_error("GlobalSum: start without wait for the previous sum");
      using Space = Kokkos::DefaultExecutionSpace::memory_space;
      const Kokkos::View<SumWords<N>, Space, Kokkos::MemoryUnmanaged> words(
          reinterpret_cast<SumWords<N>*>(dest.data() + first));
      detail::local_words_2d<N>(name, m, b0, e0, b1, e1, f, Kokkos::Sum<SumWords<N>, Space>(words));
      pending_ = N;
      reductions_ += 1;
      words_ += N;
    } else {
      start_2d<N>(name, m, b0, e0, b1, e1, f);
    }
    dest_ = dest;
    dest_first_ = first;
  }
  // Completes a start_2d_on_device: the words are in dest when the next kernel runs. Returns the words when they went
  // through the host (more than one rank, or reproducible), for a caller that can use them there at no cost.
  template <int N>
  std::optional<std::array<double, N>> wait_on_device() {
    if (stays_on_device()) {
      if (pending_ != N) throw std::logic_error("GlobalSum: wait<N> does not match the started sum");
      pending_ = 0;
      return std::nullopt;
    }
    const std::array<double, N> w = wait<N>();
    SumWords<N> words;
    for (int n = 0; n < N; ++n) words.v[n] = w[n];
    const auto dest = dest_;
    const int first = dest_first_;
    Kokkos::parallel_for(
        "proxylab::global_sum_words", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int) {
          for (int n = 0; n < N; ++n) dest(first + n) = words.v[n];
        });
    return w;
  }
  // Whether start_2d_on_device keeps the words on the device (one rank, strategy allreduce or iallreduce).
  bool stays_on_device() const { return ranks_ == 1 && strategy_ != ReduceStrategy::reproducible; }

  // Blocking sum of n values already reduced locally (any strategy; `reproducible` then only fixes
  // the order across ranks, not the local partial sums).
  void sum(double* values, int n);

  long long reductions() const { return reductions_; }  // global combines so far
  long long words() const { return words_; }            // words combined so far

  // Blocking, strategy reproducible: n exact sums of this rank's values (ExactSum, up to max_words), summed exactly
  // over all ranks; the doubles are the same bits on every decomposition.
  void sum_exact(const ExactSum* local, double* out, int n) {
    if (strategy_ != ReduceStrategy::reproducible || n < 1 || n > max_words)
      throw std::logic_error("GlobalSum::sum_exact: strategy reproducible and 1..8 sums");
    start_exact(local, n);
    finish(out, n);
  }

 private:
  void start_words(const double* local, int n);
  void start_exact(const ExactSum* local, int n);
  void finish(double* out, int n);

  ReduceStrategy strategy_;
  MPI_Comm comm_;
  int ranks_ = 1;
  Kokkos::View<double*> dest_;  // start_2d_on_device's destination
  int dest_first_ = 0;
  MPI_Request request_ = MPI_REQUEST_NULL;
  int pending_ = 0;  // words pending, 0 = nothing started
  double words_buf_[max_words] = {};
  std::vector<int64_t> exact_buf_ = std::vector<int64_t>((ExactSum::limbs + 1) * max_words);
  long long reductions_ = 0, words_ = 0;
};

}  // namespace proxylab
