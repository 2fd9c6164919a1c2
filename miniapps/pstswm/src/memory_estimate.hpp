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

}  // namespace proxylab::pstswm
