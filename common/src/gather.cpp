// Text gathered on one rank, or sent from one to all (see comm/gather.hpp).
#include "proxylab/comm/gather.hpp"

namespace proxylab {

std::vector<std::string> gather_text(MPI_Comm comm, const std::string& mine, int root) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(size), displs(size);
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, root, comm);
  std::vector<char> all;
  if (rank == root) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = total;
      total += lens[r];
    }
    all.resize(static_cast<size_t>(total));
  }
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, root, comm);
  std::vector<std::string> out;
  if (rank == root)
    for (int r = 0; r < size; ++r) out.emplace_back(all.begin() + displs[r], all.begin() + displs[r] + lens[r]);
  return out;
}

std::string broadcast_text(MPI_Comm comm, std::string text, int root) {
  int len = static_cast<int>(text.size());
  MPI_Bcast(&len, 1, MPI_INT, root, comm);
  text.resize(static_cast<size_t>(len));
  MPI_Bcast(text.data(), len, MPI_CHAR, root, comm);
  return text;
}

}  // namespace proxylab
