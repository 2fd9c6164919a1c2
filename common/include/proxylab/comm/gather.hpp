// Text across ranks, sizes first, then the bytes; collective over comm.
//   gather_text: one text per rank on a root rank (records, traces, timer lists, placement, FFTW wisdom); the
//                root gets one string per rank (in rank order), the others none.
//   broadcast_text: the root's text on every rank (a deck, a wisdom file, a memory source's name).
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace proxylab {

std::vector<std::string> gather_text(MPI_Comm comm, const std::string& mine, int root = 0);
std::string broadcast_text(MPI_Comm comm, std::string text, int root = 0);  // `text` is read on the root only

}  // namespace proxylab
