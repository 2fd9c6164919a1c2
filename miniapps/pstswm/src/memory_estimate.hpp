// Peak memory of one pstswm rank from its transform options (before any table is computed): the arrays
// of SphericalTransform, ParallelLegendre, LegendreTransform and ShallowWater, counted from the code that allocates
// them (memory_budget.hpp; the unit test compares it with what Kokkos allocates).
#pragma once
#include <mpi.h>

#include "decomposition.hpp"
#include "proxylab/memory_budget.hpp"
#include "transform_options.hpp"

namespace proxylab::pstswm {

MemoryEstimate estimate_memory(const TransformOptions& opt, MPI_Comm comm);

// The Legendre functions on one rank: the stored table's bytes (what gemm and loop hold) and the bytes the chosen
// variant holds for them (the table, or the recurrence's seeds, coefficients and tile).
struct LegendreMemory {
  double table_bytes = 0, held_bytes = 0;
};
LegendreMemory legendre_memory(const TransformOptions& opt, MPI_Comm comm);

}  // namespace proxylab::pstswm
