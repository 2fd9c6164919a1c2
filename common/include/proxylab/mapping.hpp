// Loop mappings: how an index space is spread over threads and vector lanes, chosen at run time.
//
//   flat    one RangePolicy over the linearised index space (the compiler vectorises what it can); the
//           indices are recovered by division (32-bit while the space fits), the cost this mapping teaches
//   mdrange MDRangePolicy with tiles, last index fastest (matches LayoutRight); 1-D: chunked RangePolicy
//   team    TeamPolicy over the outermost index, TeamThreadRange over the middle one and
//           ThreadVectorRange over the contiguous (last) one: the hierarchical form. In 2-D its shape (rows of the
//           outer index per team, vector length over the contiguous one, threads per team) is the back end's own
//           (TeamShape): a host core runs a team's rows in turn and vectorises 8 lanes; on a GPU a warp covers 32
//           consecutive points of a row and the team has one thread (a warp) per row, so each warp's loads are whole
//           cache lines (the host's 8 lanes x 4 rows made a warp touch 4 rows of 8 doubles)
//
// A kernel is written once as a functor or KOKKOS_LAMBDA taking (i), (i,j) or (i,j,k); the last index is
// the contiguous one. The mapping is a run-time argument, chosen outside the hot loop.
// for_each_* never changes the arithmetic, so all three mappings give bit-identical results;
// reduce_* may differ in the last bits (summation order depends on the mapping).
//
// team on host spaces: the contiguous loop is a plain loop marked free of loop-carried dependences
// (ThreadVectorRange's own contract; Kokkos marks it only for the Intel/PGI compilers). Without the
// mark GCC gives up vectorising a kernel that touches more than ~5 arrays (it would need more than 10
// run-time alias checks): POP's fused operator + dot products ran scalar, at half the bandwidth.
#pragma once
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "proxylab/named_choice.hpp"

#if defined(__clang__)
#define PROXYLAB_PRAGMA_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__) && !defined(__INTEL_COMPILER) && !defined(__NVCOMPILER)
#define PROXYLAB_PRAGMA_IVDEP _Pragma("GCC ivdep")
#elif defined(__INTEL_COMPILER) || defined(__INTEL_LLVM_COMPILER)
#define PROXYLAB_PRAGMA_IVDEP _Pragma("ivdep")
#else
#define PROXYLAB_PRAGMA_IVDEP
#endif

namespace proxylab {

enum class Mapping { flat, mdrange, team };
PROXYLAB_CHOICE_NAMES(Mapping, "mapping", "flat", "mdrange", "team");
inline const std::vector<std::string>& mapping_names() { return choice_names<Mapping>(); }
inline Mapping parse_mapping(const std::string& name) { return parse_choice<Mapping>(name); }

namespace detail {
constexpr int range_chunk = 512;               // 1-D "mdrange" tile and 1-D "team" chunk
constexpr int64_t int_index_max = 2147483647;  // flat index spaces up to this size use 32-bit index math
template <class ExecSpace>
using team_member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
template <class ExecSpace>
constexpr bool on_host = std::is_same<typename ExecSpace::memory_space, Kokkos::HostSpace>::value;
}  // namespace detail

// The 2-D team mapping's shape: `rows` of the outer index per team, one per thread of the team (threads = rows), or
// spread over Kokkos' own team size (threads = 0: Kokkos::AUTO); `vector` lanes over the contiguous index.
struct TeamShape {
  int rows, vector, threads;
  std::string name() const {
    return std::to_string(rows) + " rows x " + std::to_string(vector) + " lanes per team" +
           (threads > 0 ? ", " + std::to_string(threads) + " threads" : "");
  }
};
inline constexpr TeamShape host_team_shape{4, 8, 0};
inline constexpr TeamShape gpu_team_shape{8, 32, 8};
// Each back end's own shape.
template <class ExecSpace = Kokkos::DefaultExecutionSpace>
constexpr TeamShape team_shape() {
  return detail::on_host<ExecSpace> ? host_team_shape : gpu_team_shape;
}

namespace detail {
template <class ExecSpace>
Kokkos::TeamPolicy<ExecSpace> team_rows_policy(int rows, TeamShape shape) {
  const int league = (rows + shape.rows - 1) / shape.rows;
  if (shape.threads > 0) return Kokkos::TeamPolicy<ExecSpace>(league, shape.threads, shape.vector);
  return Kokkos::TeamPolicy<ExecSpace>(league, Kokkos::AUTO, shape.vector);
}
// The vector (contiguous) loop of the team mapping: g(k) for k in [b, e).
template <class ExecSpace, class Member, class G>
KOKKOS_INLINE_FUNCTION void vector_loop(const Member& t, int b, int e, const G& g) {
  if constexpr (on_host<ExecSpace>) {
    (void)t;
    PROXYLAB_PRAGMA_IVDEP
    for (int k = b; k < e; ++k) g(k);
  } else {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(t, b, e), g);
  }
}
template <class Reducer>
KOKKOS_INLINE_FUNCTION void join_into(typename Reducer::value_type& dest, const typename Reducer::value_type& src) {
  typename Reducer::value_type scratch;
  Reducer(scratch).join(dest, src);
}
// The 2-D team reduction: teams of shape.rows rows of the outer index [b0, e0), one row per thread;
// row(t, i, ai) joins row i's contribution into ai (the contiguous loop is row's business). The result goes where
// `into` points: a host value (Kokkos fences before it returns) or a View (no fence: it stays on the device).
template <class Reducer, class ExecSpace, class Row>
void team_rows_reduce_into(const std::string& name, int b0, int e0, const Row& row, const Reducer& into,
                           TeamShape shape = team_shape<ExecSpace>()) {
  using V = typename Reducer::value_type;
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  const int rows = shape.rows;
  Kokkos::parallel_reduce(
      name, team_rows_policy<ExecSpace>(e0 - b0, shape),
      KOKKOS_LAMBDA(const Member& t, V& acc) {
        const int lo = b0 + t.league_rank() * rows, hi = lo + rows < e0 ? lo + rows : e0;
        V part;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(t, lo, hi), [&](int i, V& ai) { row(t, i, ai); }, Reducer(part));
        Kokkos::single(Kokkos::PerTeam(t), [&]() { join_into<Reducer>(acc, part); });
      },
      into);
}
template <class Reducer, class ExecSpace, class Row>
typename Reducer::value_type team_rows_reduce(const std::string& name, int b0, int e0, const Row& row,
                                              TeamShape shape = team_shape<ExecSpace>()) {
  typename Reducer::value_type result;
  Reducer(result).init(result);
  team_rows_reduce_into<Reducer, ExecSpace>(name, b0, e0, row, Reducer(result), shape);
  return result;
}
}  // namespace detail

// ---- for_each --------------------------------------------------------------------------------------
template <class ExecSpace = Kokkos::DefaultExecutionSpace, class F>
void for_each_1d(const std::string& name, Mapping m, int b, int e, const F& f) {
  if (e <= b) return;
  switch (m) {
    case Mapping::flat:
      Kokkos::parallel_for(name, Kokkos::RangePolicy<ExecSpace>(b, e), f);
      break;
    case Mapping::mdrange:
      Kokkos::parallel_for(name, Kokkos::RangePolicy<ExecSpace>(b, e).set_chunk_size(detail::range_chunk), f);
      break;
    case Mapping::team: {
      const int chunk = detail::range_chunk, league = (e - b + chunk - 1) / chunk;
      using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
      Kokkos::parallel_for(
          name, Kokkos::TeamPolicy<ExecSpace>(league, 1, 8), KOKKOS_LAMBDA(const Member& t) {
            const int lo = b + t.league_rank() * chunk, hi = lo + chunk < e ? lo + chunk : e;
            detail::vector_loop<ExecSpace>(t, lo, hi, [&](int i) { f(i); });
          });
      break;
    }
  }
}

// shape: the team mapping's (the back end's own unless given).
template <class ExecSpace = Kokkos::DefaultExecutionSpace, class F>
void for_each_2d(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, const F& f,
                 TeamShape shape = team_shape<ExecSpace>()) {
  if (e0 <= b0 || e1 <= b1) return;
  switch (m) {
    case Mapping::flat: {
      const int64_t n1 = e1 - b1, n = int64_t(e0 - b0) * n1;
      if (n <= detail::int_index_max) {  // 32-bit index arithmetic: a much cheaper division per point
        const int m1 = int(n1);
        Kokkos::parallel_for(
            name, Kokkos::RangePolicy<ExecSpace>(0, int(n)),
            KOKKOS_LAMBDA(int idx) { f(b0 + idx / m1, b1 + idx % m1); });
      } else {
        Kokkos::parallel_for(
            name, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n),
            KOKKOS_LAMBDA(int64_t idx) { f(b0 + int(idx / n1), b1 + int(idx % n1)); });
      }
      break;
    }
    case Mapping::mdrange: {
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
      Kokkos::parallel_for(name, Policy({b0, b1}, {e0, e1}), f);
      break;
    }
    case Mapping::team: {
      using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
      const int rows = shape.rows;
      Kokkos::parallel_for(
          name, detail::team_rows_policy<ExecSpace>(e0 - b0, shape), KOKKOS_LAMBDA(const Member& t) {
            const int lo = b0 + t.league_rank() * rows, hi = lo + rows < e0 ? lo + rows : e0;
            Kokkos::parallel_for(Kokkos::TeamThreadRange(t, lo, hi),
                                 [&](int i) { detail::vector_loop<ExecSpace>(t, b1, e1, [&](int j) { f(i, j); }); });
          });
      break;
    }
  }
}

template <class ExecSpace = Kokkos::DefaultExecutionSpace, class F>
void for_each_3d(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, int b2, int e2, const F& f) {
  if (e0 <= b0 || e1 <= b1 || e2 <= b2) return;
  switch (m) {
    case Mapping::flat: {
      const int64_t n2 = e2 - b2, n12 = int64_t(e1 - b1) * n2, n = int64_t(e0 - b0) * n12;
      if (n <= detail::int_index_max) {
        const int m2 = int(n2), m12 = int(n12);
        Kokkos::parallel_for(
            name, Kokkos::RangePolicy<ExecSpace>(0, int(n)),
            KOKKOS_LAMBDA(int idx) { f(b0 + idx / m12, b1 + (idx % m12) / m2, b2 + idx % m2); });
      } else {
        Kokkos::parallel_for(
            name, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n),
            KOKKOS_LAMBDA(int64_t idx) { f(b0 + int(idx / n12), b1 + int((idx % n12) / n2), b2 + int(idx % n2)); });
      }
      break;
    }
    case Mapping::mdrange: {
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
      Kokkos::parallel_for(name, Policy({b0, b1, b2}, {e0, e1, e2}), f);
      break;
    }
    case Mapping::team: {
      using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
      Kokkos::parallel_for(
          name, Kokkos::TeamPolicy<ExecSpace>(e0 - b0, Kokkos::AUTO, 8), KOKKOS_LAMBDA(const Member& t) {
            const int i = b0 + t.league_rank();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(t, b1, e1),
                                 [&](int j) { detail::vector_loop<ExecSpace>(t, b2, e2, [&](int k) { f(i, j, k); }); });
          });
      break;
    }
  }
}

// ---- reductions (Reducer: Kokkos::Sum<double>, Kokkos::Min<double>, Kokkos::Max<double>, ...) ------
// f(i, acc) / f(i, j, acc) / f(i, j, k, acc) adds its contribution into acc with the reducer's join.
template <class Reducer, class ExecSpace = Kokkos::DefaultExecutionSpace, class F>
typename Reducer::value_type reduce_1d(const std::string& name, Mapping m, int b, int e, const F& f) {
  using V = typename Reducer::value_type;
  V result;
  Reducer(result).init(result);
  if (e <= b) return result;
  switch (m) {
    case Mapping::flat:
      Kokkos::parallel_reduce(name, Kokkos::RangePolicy<ExecSpace>(b, e), f, Reducer(result));
      break;
    case Mapping::mdrange:
      Kokkos::parallel_reduce(name, Kokkos::RangePolicy<ExecSpace>(b, e).set_chunk_size(detail::range_chunk), f,
                              Reducer(result));
      break;
    case Mapping::team: {
      const int chunk = detail::range_chunk, league = (e - b + chunk - 1) / chunk;
      using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
      Kokkos::parallel_reduce(
          name, Kokkos::TeamPolicy<ExecSpace>(league, 1, 8),
          KOKKOS_LAMBDA(const Member& t, V& acc) {
            const int lo = b + t.league_rank() * chunk, hi = lo + chunk < e ? lo + chunk : e;
            V part;
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(t, lo, hi), [&](int i, V& a) { f(i, a); }, Reducer(part));
            Kokkos::single(Kokkos::PerTeam(t), [&]() { detail::join_into<Reducer>(acc, part); });
          },
          Reducer(result));
      break;
    }
  }
  return result;
}

// The 2-D reduction into where `into` points: a host value (Kokkos fences before it returns) or a View in the
// execution space's memory (no fence: a global sum whose words the next kernels read there). An empty range gives the
// reducer's identity.
template <class Reducer, class ExecSpace = Kokkos::DefaultExecutionSpace, class F>
void reduce_2d_into(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, const F& f, const Reducer& into,
                    TeamShape shape = team_shape<ExecSpace>()) {
  using V = typename Reducer::value_type;
  if (e0 <= b0 || e1 <= b1) {
    Kokkos::parallel_reduce(name, Kokkos::RangePolicy<ExecSpace>(0, 0), KOKKOS_LAMBDA(int, V&){}, into);
    return;
  }
  switch (m) {
    case Mapping::flat: {
      const int64_t n1 = e1 - b1, n = int64_t(e0 - b0) * n1;
      if (n <= detail::int_index_max) {
        const int m1 = int(n1);
        Kokkos::parallel_reduce(
            name, Kokkos::RangePolicy<ExecSpace>(0, int(n)),
            KOKKOS_LAMBDA(int idx, V& acc) { f(b0 + idx / m1, b1 + idx % m1, acc); }, into);
      } else {
        Kokkos::parallel_reduce(
            name, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n),
            KOKKOS_LAMBDA(int64_t idx, V & acc) { f(b0 + int(idx / n1), b1 + int(idx % n1), acc); }, into);
      }
      break;
    }
    case Mapping::mdrange: {
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
      Kokkos::parallel_reduce(name, Policy({b0, b1}, {e0, e1}), f, into);
      break;
    }
    case Mapping::team:
      detail::team_rows_reduce_into<Reducer, ExecSpace>(
          name, b0, e0,
          KOKKOS_LAMBDA(const detail::team_member<ExecSpace>& t, int i, V& ai) {
            V row;
            Kokkos::parallel_reduce(
                Kokkos::ThreadVectorRange(t, b1, e1), [&](int j, V& a) { f(i, j, a); }, Reducer(row));
            detail::join_into<Reducer>(ai, row);
          },
          into, shape);
      break;
  }
}
template <class Reducer, class ExecSpace = Kokkos::DefaultExecutionSpace, class F>
typename Reducer::value_type reduce_2d(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, const F& f,
                                       TeamShape shape = team_shape<ExecSpace>()) {
  typename Reducer::value_type result;
  Reducer(result).init(result);
  if (e0 <= b0 || e1 <= b1) return result;
  reduce_2d_into<Reducer, ExecSpace>(name, m, b0, e0, b1, e1, f, Reducer(result), shape);
  return result;
}

template <class Reducer, class ExecSpace = Kokkos::DefaultExecutionSpace, class F>
typename Reducer::value_type reduce_3d(const std::string& name, Mapping m, int b0, int e0, int b1, int e1, int b2,
                                       int e2, const F& f) {
  using V = typename Reducer::value_type;
  V result;
  Reducer(result).init(result);
  if (e0 <= b0 || e1 <= b1 || e2 <= b2) return result;
  switch (m) {
    case Mapping::flat: {
      const int64_t n2 = e2 - b2, n12 = int64_t(e1 - b1) * n2, n = int64_t(e0 - b0) * n12;
      if (n <= detail::int_index_max) {
        const int m2 = int(n2), m12 = int(n12);
        Kokkos::parallel_reduce(
            name, Kokkos::RangePolicy<ExecSpace>(0, int(n)),
            KOKKOS_LAMBDA(int idx, V& acc) { f(b0 + idx / m12, b1 + (idx % m12) / m2, b2 + idx % m2, acc); },
            Reducer(result));
      } else {
        Kokkos::parallel_reduce(
            name, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n),
            KOKKOS_LAMBDA(int64_t idx, V & acc) {
              f(b0 + int(idx / n12), b1 + int((idx % n12) / n2), b2 + int(idx % n2), acc);
            },
            Reducer(result));
      }
      break;
    }
    case Mapping::mdrange: {
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
      Kokkos::parallel_reduce(name, Policy({b0, b1, b2}, {e0, e1, e2}), f, Reducer(result));
      break;
    }
    case Mapping::team: {
      using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
      Kokkos::parallel_reduce(
          name, Kokkos::TeamPolicy<ExecSpace>(e0 - b0, Kokkos::AUTO, 8),
          KOKKOS_LAMBDA(const Member& t, V& acc) {
            const int i = b0 + t.league_rank();
            V part;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(t, b1, e1),
                [&](int j, V& aj) {
                  V row;
                  Kokkos::parallel_reduce(
                      Kokkos::ThreadVectorRange(t, b2, e2), [&](int k, V& a) { f(i, j, k, a); }, Reducer(row));
                  detail::join_into<Reducer>(aj, row);
                },
                Reducer(part));
            Kokkos::single(Kokkos::PerTeam(t), [&]() { detail::join_into<Reducer>(acc, part); });
          },
          Reducer(result));
      break;
    }
  }
  return result;
}

}  // namespace proxylab
