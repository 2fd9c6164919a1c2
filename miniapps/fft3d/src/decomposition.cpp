#include "decomposition.hpp"

#include <algorithm>
#include <array>

#include "proxylab/comm/grid.hpp"
#include "proxylab/errors.hpp"

namespace proxylab::fft3d {
namespace {

std::string str(int v) { return std::to_string(v); }

// Every rank must own at least one line in every stage (empty pieces would make empty FFT batches
// and, for slab, ranks without planes: NAS FT's drop when it runs out of "planes" in seed 001).
std::string pencil_violation(const int g[3], int p_row, int p_col) {
  if (p_row > g[0] || p_row > g[1])
    return "p_row = " + str(p_row) + " exceeds nx = " + str(g[0]) + " or ny = " + str(g[1]);
  if (p_col > g[1] || p_col > g[2])
    return "p_col = " + str(p_col) + " exceeds ny = " + str(g[1]) + " or nz = " + str(g[2]);
  return "";
}

Pencil make_pencil(const int g[3], int o0, int o1, int o2, int whole, int axis_row, int r, int p_row, int axis_col,
                   int c, int p_col) {
  Pencil p;
  p.order[0] = o0;
  p.order[1] = o1;
  p.order[2] = o2;
  p.lo[whole] = 0;
  p.n[whole] = g[whole];
  auto br = split_range(g[axis_row], p_row, r), bc = split_range(g[axis_col], p_col, c);
  p.lo[axis_row] = br.begin;
  p.n[axis_row] = br.size();
  p.lo[axis_col] = bc.begin;
  p.n[axis_col] = bc.size();
  return p;
}

}  // namespace

Decomposition Decomposition::make(DecompKind kind, int nx, int ny, int nz, int ranks, int p_row, int p_col) {
  Decomposition d;
  d.kind = kind;
  d.global[0] = nx;
  d.global[1] = ny;
  d.global[2] = nz;
  if (kind == DecompKind::slab) {
    if (p_row > 1 || (p_col != 0 && p_col != ranks))
      throw InputError("key 'fft3d.p_row' / 'fft3d.p_col' has value " + str(p_row) + " x " + str(p_col) +
                       " with decomposition 'slab'; allowed: 0 (automatic: 1 x ranks) or 1 x " + str(ranks));
    if (ranks > max_slab_ranks(ny, nz))
      throw InputError("key 'fft3d.decomposition' has value 'slab', but " + str(ranks) + " ranks cannot own slabs of " +
                       str(nz) + " z planes and " + str(ny) + " y planes; allowed: at most min(ny, nz) = " +
                       str(max_slab_ranks(ny, nz)) + " ranks, or decomposition 'pencil'");
    d.p_row = 1;
    d.p_col = ranks;
    return d;
  }
  if (p_row < 0 || p_col < 0) throw InputError("keys 'fft3d.p_row' / 'fft3d.p_col' must be >= 0");
  if (p_row == 0 && p_col == 0) {
    // Most square valid grid, p_row <= p_col preferred (the X->Y transpose then spans fewer ranks).
    const std::array<int, 2> best = ProcessGrid::factor_pair(ranks, ProcessGrid::squareness_cost, [&](int pr, int pc) {
      return pencil_violation(d.global, pr, pc).empty();
    });
    if (best[0] == 0)
      throw InputError("key 'fft3d.decomposition' has value 'pencil', but no p_row x p_col = " + str(ranks) +
                       " grid fits the " + str(nx) + " x " + str(ny) + " x " + str(nz) +
                       " grid; allowed: p_row <= min(nx, ny) and p_col <= min(ny, nz)");
    p_row = best[0];
    p_col = best[1];
  } else if (p_row == 0 || p_col == 0) {
    const int given = p_row ? p_row : p_col;
    if (ranks % given != 0)
      throw InputError("key '" + std::string(p_row ? "fft3d.p_row" : "fft3d.p_col") + "' has value " + str(given) +
                       ", which does not divide the " + str(ranks) + " ranks; allowed: a divisor of the rank count");
    (p_row ? p_col : p_row) = ranks / given;
  }
  if (p_row * p_col != ranks)
    throw InputError("keys 'fft3d.p_row' x 'fft3d.p_col' have value " + str(p_row) + " x " + str(p_col) + " = " +
                     str(p_row * p_col) + ", but the run has " + str(ranks) +
                     " ranks; allowed: a product equal to the rank count (or 0 for automatic)");
  const std::string bad = pencil_violation(d.global, p_row, p_col);
  if (!bad.empty())
    throw InputError("keys 'fft3d.p_row' x 'fft3d.p_col' have value " + str(p_row) + " x " + str(p_col) + ": " + bad +
                     "; allowed: p_row <= min(nx, ny) and p_col <= min(ny, nz)");
  d.p_row = p_row;
  d.p_col = p_col;
  return d;
}

Pencil Decomposition::x_pencil(int r, int c) const { return make_pencil(global, 2, 1, 0, 0, 1, r, p_row, 2, c, p_col); }
Pencil Decomposition::y_pencil(int r, int c) const { return make_pencil(global, 2, 0, 1, 1, 0, r, p_row, 2, c, p_col); }
Pencil Decomposition::z_pencil(int r, int c) const { return make_pencil(global, 1, 0, 2, 2, 0, r, p_row, 1, c, p_col); }

std::string Decomposition::describe() const {
  if (kind == DecompKind::slab) return "slab over " + str(p_col) + " ranks (z planes, then y planes)";
  return "pencil " + str(p_row) + " x " + str(p_col) + " (p_row x p_col)";
}

}  // namespace proxylab::fft3d
