#include "distributed_fft.hpp"

#include <algorithm>
#include <cmath>

namespace proxylab::fft3d {
namespace {

// Every rank's piece of a stage, in the order of the ranks of a row (vary r) or column (vary c).
template <class F>
std::vector<Pencil> along_row(int p_row, int c, F stage) {
  std::vector<Pencil> v;
  for (int r = 0; r < p_row; ++r) v.push_back(stage(r, c));
  return v;
}
template <class F>
std::vector<Pencil> along_col(int r, int p_col, F stage) {
  std::vector<Pencil> v;
  for (int c = 0; c < p_col; ++c) v.push_back(stage(r, c));
  return v;
}

}  // namespace

DistributedFFT::DistributedFFT(const Decomposition& d, MPI_Comm comm, const FFTOptions& opt) : d_(d), opt_(opt) {
  grid_ = std::make_unique<ProcessGrid>(ProcessGrid::make_2d(comm, d.p_row, d.p_col, false, false, "fft3d.p_row/p_col"));
  const int r = grid_->cx(), c = grid_->cy();
  auto xs = [&](int rr, int cc) { return d_.x_pencil(rr, cc); };
  auto ys = [&](int rr, int cc) { return d_.y_pencil(rr, cc); };
  auto zs = [&](int rr, int cc) { return d_.z_pencil(rr, cc); };
  x_ = xs(r, c), y_ = ys(r, c), z_ = zs(r, c);
  long long scratch = std::max(x_.size(), z_.size());
  if (d_.kind == DecompKind::slab) {
    x_to_z_ = std::make_unique<Reshape>(along_col(r, d.p_col, xs), along_col(r, d.p_col, zs), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node);
    z_to_x_ = std::make_unique<Reshape>(along_col(r, d.p_col, zs), along_col(r, d.p_col, xs), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node);
  } else {
    scratch = std::max(scratch, y_.size());
    x_to_y_ = std::make_unique<Reshape>(along_row(d.p_row, c, xs), along_row(d.p_row, c, ys), grid_->row_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node);
    y_to_x_ = std::make_unique<Reshape>(along_row(d.p_row, c, ys), along_row(d.p_row, c, xs), grid_->row_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node);
    y_to_z_ = std::make_unique<Reshape>(along_col(r, d.p_col, ys), along_col(r, d.p_col, zs), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node);
    z_to_y_ = std::make_unique<Reshape>(along_col(r, d.p_col, zs), along_col(r, d.p_col, ys), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node);
  }
  long long send = 0, recv = 0;
  for (const auto* rs : {x_to_y_.get(), y_to_z_.get(), z_to_y_.get(), y_to_x_.get(), x_to_z_.get(), z_to_x_.get()})
    if (rs) send = std::max(send, rs->send_size()), recv = std::max(recv, rs->recv_size());
  work_ = make_field("fft3d::work", scratch);
  if (d_.kind == DecompKind::pencil) work2_ = make_field("fft3d::work2", scratch);
  send_ = make_field("fft3d::send", send);
  recv_ = make_field("fft3d::recv", recv);
  // Plan every transform now (FFTW_MEASURE overwrites scratch arrays; not inside timed regions).
  Field a = make_field("fft3d::plan_in", scratch), b = make_field("fft3d::plan_out", scratch);
  for (int axis = 0; axis < 3; ++axis)
    for (bool fwd : {true, false}) {
      local_fft(axis, fwd, a.data(), b.data(), nullptr);
      local_fft(axis, fwd, a.data(), a.data(), nullptr);
    }
}

// 1-D FFTs along `axis` of the stage where that axis is whole (x: X stage; y: Y stage, or the X
// stage for slab; z: Z stage). in == out runs in place.
void DistributedFFT::local_fft(int axis, bool forward, const Complex* in, Complex* out, Timers* timers) {
  auto t = timers ? std::make_unique<Timers::Scope>(timers->scope("local_fft")) : nullptr;
  const FFTKind kind = forward ? FFTKind::c2c_forward : FFTKind::c2c_backward;
  const bool in_place = in == out;
  const int n = d_.global[axis];
  if (axis == 1 && d_.kind == DecompKind::slab) {
    // Slab: y is the middle dim of the X stage (z, y, x): per z plane, nx transforms of stride nx.
    const int nx = x_.n[0], ny = x_.n[1], planes = x_.n[2];
    const auto& plan = fft_plan(kind, ny, nx, nx, 1, nx, 1, in_place, opt_.planning);
    for (int p = 0; p < planes; ++p) plan.execute(in + (long long)p * nx * ny, out + (long long)p * nx * ny);
    return;
  }
  const Pencil& s = axis == 0 ? x_ : axis == 1 ? y_ : z_;
  const int howmany = int(s.size() / n);
  fft_plan(kind, n, howmany, 1, n, 1, n, in_place, opt_.planning).execute(in, out);
}

void DistributedFFT::forward(const Field& in, const Field& out, Timers* timers) {
  Complex* w = work_.data();
  local_fft(0, true, in.data(), w, timers);
  if (d_.kind == DecompKind::slab) {
    local_fft(1, true, w, w, timers);
    x_to_z_->apply(w, out.data(), send_.data(), recv_.data(), timers);
  } else {
    Complex* w2 = work2_.data();
    x_to_y_->apply(w, w2, send_.data(), recv_.data(), timers);
    local_fft(1, true, w2, w2, timers);
    y_to_z_->apply(w2, out.data(), send_.data(), recv_.data(), timers);
  }
  local_fft(2, true, out.data(), out.data(), timers);
}

void DistributedFFT::inverse(const Field& in, const Field& out, Timers* timers) {
  Complex* w = work_.data();
  local_fft(2, false, in.data(), w, timers);
  if (d_.kind == DecompKind::slab) {
    z_to_x_->apply(w, out.data(), send_.data(), recv_.data(), timers);
    local_fft(1, false, out.data(), out.data(), timers);
  } else {
    Complex* w2 = work2_.data();
    z_to_y_->apply(w, w2, send_.data(), recv_.data(), timers);
    local_fft(1, false, w2, w2, timers);
    y_to_x_->apply(w2, out.data(), send_.data(), recv_.data(), timers);
  }
  local_fft(0, false, out.data(), out.data(), timers);
}

long long DistributedFFT::transpose_bytes_sent() const {
  long long b = 0;
  for (const auto* r : {x_to_y_.get(), y_to_z_.get(), z_to_y_.get(), y_to_x_.get(), x_to_z_.get(), z_to_x_.get()})
    if (r && r->transpose()) b += r->transpose()->bytes_sent();
  return b;
}

double DistributedFFT::flops() const {
  const double n = double(d_.points());
  return 5.0 * n * std::log2(n);
}

}  // namespace proxylab::fft3d
