// Peak memory of one pstswm rank from its transform options (before any table is computed): the arrays
// of SphericalTransform, LegendreTransform and ShallowWater, counted from the code that allocates them
// (memory_budget.hpp; the unit test compares it with what Kokkos allocates).
#pragma once
#include <mpi.h>

#include "proxylab/memory_budget.hpp"
#include "spherical_transform.hpp"

namespace proxylab::pstswm {

MemoryEstimate estimate_memory(const TransformOptions& opt, MPI_Comm comm);

}  // namespace proxylab::pstswm
