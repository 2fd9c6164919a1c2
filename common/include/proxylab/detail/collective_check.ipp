#pragma once
#include <vector>

namespace proxylab {

template <class ErrorT>
void collective_check(MPI_Comm comm, bool ok, const std::string& message) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = ok ? size : rank;  // lowest failing rank wins
  int first_bad = size;
  MPI_Allreduce(&mine, &first_bad, 1, MPI_INT, MPI_MIN, comm);
  if (first_bad == size) return;
  // Broadcast the failing rank's message so every rank throws the same text.
  int len = rank == first_bad ? static_cast<int>(message.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first_bad, comm);
  std::vector<char> text(message.begin(), message.end());
  text.resize(len);
  MPI_Bcast(text.data(), len, MPI_CHAR, first_bad, comm);
  std::string what(text.begin(), text.end());
  if (first_bad != 0) what = "rank " + std::to_string(first_bad) + ": " + what;
  throw ErrorT(what);
}

}  // namespace proxylab
