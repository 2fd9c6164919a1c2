// Gathering one text per rank on a root rank (records, traces, timer lists, placement): sizes first, then
// the bytes. Collective over comm; the root gets one string per rank (in rank order), the others none.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace proxylab {

std::vector<std::string> gather_text(MPI_Comm comm, const std::string& mine, int root = 0);

}  // namespace proxylab
