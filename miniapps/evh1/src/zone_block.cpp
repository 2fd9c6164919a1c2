#include "zone_block.hpp"

#include <algorithm>
#include <array>

namespace proxylab::evh1 {
namespace {

struct Rect {
  int i0 = 0, ni = 0, j0 = 0, nj = 0;
  long long size() const { return ni > 0 && nj > 0 ? (long long)ni * nj : 0; }
};

Rect rect_of(const ZoneBlock& b) { return {b.i0, b.ni, b.j0, b.nj}; }

Rect intersect(const Rect& a, const Rect& b) {
  const int i0 = std::max(a.i0, b.i0), i1 = std::min(a.i0 + a.ni, b.i0 + b.ni);
  const int j0 = std::max(a.j0, b.j0), j1 = std::min(a.j0 + a.nj, b.j0 + b.nj);
  return {i0, std::max(0, i1 - i0), j0, std::max(0, j1 - j0)};
}

// The image of zone (i, j), and of a rectangle (an involution: the image's image is the zone).
std::array<int, 2> image(Mirror m, const GridSpec& g, int i, int j) {
  switch (m) {
    case Mirror::y:
      return {i, g.ny - 1 - j};
    case Mirror::x:
      return {g.nx - 1 - i, j};
    case Mirror::diagonal:
      return {j, i};
  }
  return {i, j};
}
Rect image(Mirror m, const GridSpec& g, const Rect& r) {
  switch (m) {
    case Mirror::y:
      return {r.i0, r.ni, g.ny - r.j0 - r.nj, r.nj};
    case Mirror::x:
      return {g.nx - r.i0 - r.ni, r.ni, r.j0, r.nj};
    case Mirror::diagonal:
      return {r.j0, r.nj, r.i0, r.ni};
  }
  return r;
}

std::vector<Rect> all_rects(MPI_Comm comm, const ZoneBlock& mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int me[4] = {mine.i0, mine.ni, mine.j0, mine.nj};
  std::vector<int> all(4 * std::size_t(size));
  MPI_Allgather(me, 4, MPI_INT, all.data(), 4, MPI_INT, comm);
  std::vector<Rect> rects(size);
  for (int r = 0; r < size; ++r) rects[r] = {all[4 * r], all[4 * r + 1], all[4 * r + 2], all[4 * r + 3]};
  return rects;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> d(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) d[r] = d[r - 1] + counts[r - 1];
  return d;
}

}  // namespace

std::vector<double> mapped_density(MPI_Comm comm, const ZoneBlock& mine, const GridSpec& g, Mirror m) {
  const std::vector<Rect> rects = all_rects(comm, mine);
  const int size = int(rects.size());
  const Rect me = rect_of(mine);
  // To rank r: my zones that r's image covers (row by row); from rank q: the zones of q that my image covers.
  std::vector<int> sc(size), rc(size);
  std::vector<Rect> out(size), in(size);
  for (int r = 0; r < size; ++r) {
    out[r] = intersect(image(m, g, rects[r]), me);
    in[r] = intersect(image(m, g, me), rects[r]);
    sc[r] = int(out[r].size());
    rc[r] = int(in[r].size());
  }
  const std::vector<int> sd = displacements(sc), rd = displacements(rc);
  std::vector<double> send(std::size_t(sd.back() + sc.back())), recv(std::size_t(rd.back() + rc.back()));
  for (int r = 0; r < size; ++r) {
    std::size_t k = std::size_t(sd[r]);
    for (int j = out[r].j0; j < out[r].j0 + out[r].nj; ++j)
      for (int i = out[r].i0; i < out[r].i0 + out[r].ni; ++i) send[k++] = mine.at(var_rho, i, j);
  }
  MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_DOUBLE, recv.data(), rc.data(), rd.data(), MPI_DOUBLE, comm);
  // the value received for zone z of q sits at my zone image(z)
  std::vector<double> mapped(mine.zones());
  for (int q = 0; q < size; ++q) {
    std::size_t k = std::size_t(rd[q]);
    for (int j = in[q].j0; j < in[q].j0 + in[q].nj; ++j)
      for (int i = in[q].i0; i < in[q].i0 + in[q].ni; ++i) {
        const auto [mi, mj] = image(m, g, i, j);
        mapped[std::size_t(mj - mine.j0) * mine.ni + (mi - mine.i0)] = recv[k++];
      }
  }
  return mapped;
}

std::vector<double> gather_density(MPI_Comm comm, int root, const ZoneBlock& mine, const GridSpec& g) {
  const std::vector<Rect> rects = all_rects(comm, mine);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<int> counts(rects.size());
  for (std::size_t r = 0; r < rects.size(); ++r) counts[r] = int(rects[r].size());
  const std::vector<int> displs = displacements(counts);
  std::vector<double> all(rank == root ? std::size_t(g.nx) * g.ny : 0), density(all.size());
  MPI_Gatherv(mine.f.data(), counts[rank], MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, root,
              comm);  // var_rho comes first in each block
  if (rank != root) return density;
  for (std::size_t r = 0; r < rects.size(); ++r) {
    std::size_t k = std::size_t(displs[r]);
    for (int j = rects[r].j0; j < rects[r].j0 + rects[r].nj; ++j)
      for (int i = rects[r].i0; i < rects[r].i0 + rects[r].ni; ++i) density[std::size_t(j) * g.nx + i] = all[k++];
  }
  return density;
}

}  // namespace proxylab::evh1
