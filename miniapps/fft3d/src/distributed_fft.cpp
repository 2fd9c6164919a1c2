#include "distributed_fft.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "backend.hpp"
#include "proxylab/errors.hpp"
#include "proxylab/stop.hpp"
#include "strided_stages.hpp"

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

FFTKind kind_of(bool forward) { return forward ? FFTKind::c2c_forward : FFTKind::c2c_backward; }

// A timer's scope over queued work: the work is complete when the scope closes (a device queues it, so the scope
// fences; without timers nothing waits).
class TimedStage {
 public:
  TimedStage(Timers* timers, const char* name)
      : scope_(timers ? std::make_unique<Timers::Scope>(timers->scope(name)) : nullptr) {}
  ~TimedStage() {
    if (scope_ && backend::asynchronous_kernels) ExecSpace().fence();
  }
  TimedStage(const TimedStage&) = delete;
  TimedStage& operator=(const TimedStage&) = delete;

 private:
  std::unique_ptr<Timers::Scope> scope_;
};

}  // namespace

// The transposes among ranks send in place (the FFTs before them write the send buffer), forward and inverse, on
// the unfused path, a device's: there the FFT library's strides do the local transpose. The host's fused path packs
// instead (a copy of runs contiguous on both sides): on this 2-core EPYC VM the FFTW plans writing the strided send
// layout cost more than the pack they save (bench/fft3d/README.md, "P > 1").
DistributedFFT::DistributedFFT(const Decomposition& d, MPI_Comm comm, const FFTOptions& opt) : d_(d), opt_(opt) {
  Transpose::require_reachable(opt.strategy, opt.comm, "fft3d.transpose");
  grid_ =
      std::make_unique<ProcessGrid>(ProcessGrid::make_2d(comm, d.p_row, d.p_col, false, false, "fft3d.p_row/p_col"));
  const int r = grid_->cx(), c = grid_->cy();
  auto xs = [&](int rr, int cc) { return d_.x_pencil(rr, cc); };
  auto zs = [&](int rr, int cc) { return d_.z_pencil(rr, cc); };
  // The Y stage's layout in each direction. Unfused (sending in place): forward (x, z, y), the X stage rotated, so
  // that the x FFTs write it (or X -> Y's send layout, the same order) and the y FFTs Y -> Z's (y, x, z) each in one
  // plan; inverse (y, z, x), into which the z FFTs' send layout (z, y, x) unpacks along x and whose order the y FFTs
  // write Y -> X's send layout in. Fused: the stage's own (the FFTs gather and scatter contiguous lines).
  const bool sends = !opt.fused();
  auto y_stage = [&](std::array<int, 3> unfused) {
    return [&, unfused](int rr, int cc) {
      Pencil p = d_.y_pencil(rr, cc);
      if (sends) std::copy(unfused.begin(), unfused.end(), p.order);
      return p;
    };
  };
  const auto ys = y_stage({0, 2, 1});
  const auto inverse_ys = y_stage({1, 2, 0});
  x_ = xs(r, c);
  y_ = ys(r, c);
  z_ = zs(r, c);
  long long scratch = std::max(x_.size(), z_.size());
  if (FFTOptions::whole_planes(d_)) {
    // host only: FFTW's 2-D and z FFTs write the blocks in the receiver's order
    const SendLayout planes_send = sends ? SendLayout::receivers_order : SendLayout::packed;
    x_to_z_ = std::make_unique<Reshape>(along_col(r, d.p_col, xs), along_col(r, d.p_col, zs), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node, planes_send);
    z_to_x_ = std::make_unique<Reshape>(along_col(r, d.p_col, zs), along_col(r, d.p_col, xs), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node, planes_send);
  }
  if (FFTOptions::pencil_path(d_.kind)) {
    scratch = std::max(scratch, y_.size());
    const SendLayout pencil_send = sends ? SendLayout::senders_order : SendLayout::packed;
    x_to_y_ = std::make_unique<Reshape>(along_row(d.p_row, c, xs), along_row(d.p_row, c, ys), grid_->row_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node, pencil_send);
    y_to_x_ = std::make_unique<Reshape>(along_row(d.p_row, c, inverse_ys), along_row(d.p_row, c, xs), grid_->row_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node, pencil_send);
    y_to_z_ = std::make_unique<Reshape>(along_col(r, d.p_col, ys), along_col(r, d.p_col, zs), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node, pencil_send);
    z_to_y_ = std::make_unique<Reshape>(along_col(r, d.p_col, zs), along_col(r, d.p_col, inverse_ys), grid_->col_comm(),
                                        opt.strategy, opt.mapping, opt.ranks_per_node, pencil_send);
  }
  long long send = 0, recv = 0;
  for (const auto* rs : {x_to_y_.get(), y_to_z_.get(), z_to_y_.get(), y_to_x_.get(), x_to_z_.get(), z_to_x_.get()})
    if (rs) {
      send = std::max(send, rs->send_size());
      recv = std::max(recv, rs->recv_size());
    }
  work_ = make_field("fft3d::work", scratch);
  if (FFTOptions::pencil_path(d_.kind)) work2_ = make_field("fft3d::work2", scratch);
  send_ = TransposeBuffer("fft3d::send", size_t(send), opt.comm);
  recv_ = TransposeBuffer("fft3d::recv", size_t(recv), opt.comm);
  choose_local_plan();
}

// The local plans that can run here: planes where the X stage holds whole planes (slabs, pencils of one row; host
// FFTW's 2-D plans), whole at one rank (two FFTW stages on the host, three strided 1-D stages on a device). In place
// every one of them runs: whole is FFTW's in-place 3-D plan (or the stages through the work array), the others
// stage through the work arrays the transform keeps anyway.
std::vector<LocalPlan> DistributedFFT::local_candidates() const {
  const bool whole = grid_->size() == 1;
  std::vector<LocalPlan> v{LocalPlan::staged};
  if (FFTOptions::whole_planes(d_)) v.push_back(LocalPlan::planes);
  if (whole) v.push_back(LocalPlan::whole);
  return v;
}

// fft3d.local: the one asked for; auto: the only one that can run, else with planning=measure or patient the fastest
// candidate over 3 forward + inverse pairs on scratch fields (max over ranks, after one pair each that plans them; the
// candidates timed in turn, round by round), with estimate a fixed rule: on the host planes wherever the X stage
// holds whole planes (slabs, and pencil grids of one row, whose stages are a slab's; in place too), staged elsewhere;
// on a device whole at one rank (bench/fft3d/README.md, "Local plans"). Every transform is planned here, outside the
// timed regions, by running a pair (the plans are made on FFTW's own scratch arrays, so FFTW_MEASURE touches no data).
void DistributedFFT::choose_local_plan() {
  const std::vector<LocalPlan> candidates = local_candidates();
  const long long scratch = std::max({x_.size(), y_.size(), z_.size()});
  Field a = make_field("fft3d::plan_in", scratch), b = opt_.in_place ? a : make_field("fft3d::plan_out", scratch);
  auto pair = [&] {
    forward(a, b, nullptr);
    inverse(b, a, nullptr);
  };
  if (opt_.local != LocalPlan::automatic) {
    if (std::find(candidates.begin(), candidates.end(), opt_.local) == candidates.end())
      throw InputError(std::string("key 'fft3d.local' has value '") + to_string(opt_.local) +
                       "', which cannot run with " + d_.describe() + (backend::host_fft_plans ? "" : " on a device") +
                       "; allowed: staged (every decomposition), planes (slabs and pencil grids of one row, on the "
                       "host), whole (one rank), or auto");
    local_ = opt_.local;
    pair();
    return;
  }
  if (candidates.size() == 1) {  // nothing to choose (pencils of several rows; several ranks on a device: staged)
    local_ = candidates.front();
    pair();
    return;
  }
  if (planning_times(opt_.planning)) {
    // Ctrl-C (which cuts FFTW's planning short: fftw_planning.hpp) skips the rest of the planning and the timing on
    // every rank alike; the caller's stop check then ends the run (local_ names a candidate, no times are kept).
    for (LocalPlan p : candidates) {  // plans
      if (stop_agreed(comm())) return;
      local_ = p;
      pair();
    }
    // 3 rounds, each timing every candidate in turn (interleaved: a change of the machine's speed between candidates
    // does not decide), the best pair of each kept
    for (LocalPlan p : candidates) local_times_.push_back({p, 1e300});
    for (int round = 0; round < 3; ++round) {
      if (stop_agreed(comm())) {
        local_times_.clear();
        return;
      }
      for (auto& [plan, best] : local_times_) {
        local_ = plan;
        MPI_Barrier(comm());
        const double t0 = MPI_Wtime();
        pair();
        double t = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm());
        best = std::min(best, t);
      }
    }
    local_ = std::min_element(local_times_.begin(), local_times_.end(), [](const auto& x, const auto& y) {
               return x.second < y.second;
             })->first;
    return;
  }
  local_ = FFTOptions::whole_planes(d_) ? LocalPlan::planes
           : backend::host_fft_plans    ? LocalPlan::staged
                                        : LocalPlan::whole;
  pair();
}

// 1-D FFTs along `axis` of this rank's box, reading `in` laid out as `from` and writing `out` laid out as `to` (the
// same box; FFTW's guru interface with each layout's strides). in == out runs in place (then from and to are one
// layout). The axis must be whole in the box.
void DistributedFFT::fft_along(int axis, bool forward, const Pencil& from, const Field& in, const Pencil& to,
                               const Field& out, Timers* timers) {
  const TimedStage t(timers, "local_fft");
  const FFTShape sh = axis_fft_shape(axis, forward, from, to, in.data() == out.data(), opt_.planning);
  fft_plan(ExecSpace(), sh).execute(in, out);
}

void DistributedFFT::fft_axes(std::initializer_list<int> axes, bool forward, const Pencil& from, const Field& in,
                              const Pencil& to, const Field& out, Timers* timers) {
  const TimedStage t(timers, "local_fft");
  // the transform's dimensions; the axes left over (at most one) are the batch
  FFTDim dims[3];
  int k = 0;
  for (int axis : axes) dims[k++] = {from.n[axis], from.stride(axis), to.stride(axis)};
  FFTShape sh;
  sh.kind = kind_of(forward);
  sh.n = dims[0].n;
  sh.istride = dims[0].istride;
  sh.ostride = dims[0].ostride;
  sh.dim2 = dims[1];
  sh.dim3 = dims[2];
  for (int axis = 0; axis < 3; ++axis)
    if (std::find(axes.begin(), axes.end(), axis) == axes.end())
      sh.inner = {from.n[axis], from.stride(axis), to.stride(axis)};
  sh.in_place = in.data() == out.data();
  sh.planning = opt_.planning;
  fft_plan(ExecSpace(), sh).execute(in, out);
}

// Where the FFTs before reshape r write: the send buffer, laid out as r's input layout, where r sends in place (no
// pack), else `otherwise`.
const Field& DistributedFFT::stage_before(const Reshape& r, const Field& otherwise) const {
  return r.sends_in_place() ? send_.view() : otherwise;
}

// The reshape r of src (laid out as r's input layout), then FFTs along `axis` into dst laid out as `to`. Fused
// (fft3d.fuse_transpose; dst laid out as r's output): the others' blocks are exchanged (packed first unless r sends
// in place), then the FFT gathers its lines from the own block in src and the received blocks. Unfused: the reshape
// into mid (r's output layout: exchange, own block and unpack copies), then the FFTs from mid into dst (in place
// where they are one array).
void DistributedFFT::reshape_then_fft(const Reshape& r, int axis, bool forward, const Field& src, const Field& mid,
                                      const Pencil& to, const Field& dst, Timers* timers) {
  if (opt_.fused()) {
    r.pack_and_exchange(src.data(), send_, recv_, timers);
    const TimedStage t(timers, "local_fft");
    gather_fft(kind_of(forward), opt_.planning, axis, r.received(src.data(), recv_), to, dst.data());
    return;
  }
  r.apply(src.data(), mid.data(), send_, recv_, timers);
  fft_along(axis, forward, r.output_layout(), mid, to, dst, timers);
}

// The reverse order: FFTs along `axis` of src (layout `from`), then the reshape r into dst. Fused: the FFT writes
// the own block into dst and the others' blocks into the send buffer, then exchange and unpack. Unfused: the FFTs
// into the send buffer laid out as r's input layout where r sends in place, else into `scratch` (may be src; then
// `from` is r's input layout), then the reshape.
void DistributedFFT::fft_then_reshape(const Reshape& r, int axis, bool forward, const Pencil& from, const Field& src,
                                      const Field& scratch, const Field& dst, Timers* timers) {
  if (opt_.fused()) {
    {
      const TimedStage t(timers, "local_fft");
      fft_scatter(kind_of(forward), opt_.planning, axis, from, src.data(), r.to_send(dst.data(), send_));
    }
    r.exchange_and_unpack(send_, recv_, dst.data(), timers);
    return;
  }
  const Field& s = stage_before(r, scratch);
  fft_along(axis, forward, from, src, r.input_layout(), s, timers);
  r.apply(s.data(), dst.data(), send_, recv_, timers);
}

// One rank's whole grid. Host, out of place, as FFTW-MPI runs its transposed plan at one rank: the first stage out of
// place, the rest in place in the output (bench/fft3d/fftw_layouts.c, plan K against E): forward the 2-D FFTs of the
// (y, x) planes written straight into the Z-stage layout (their strides do the transpose), then the z FFTs; inverse
// the z FFTs written into the X-stage layout, then the planes (the input is kept). Host, in place: FFTW's in-place
// 3-D plan. A device: three strided 1-D stages (its library plans one transform dimension; strided_stages.hpp).
void DistributedFFT::whole(bool forward, const Field& in, const Field& out, Timers* timers) {
  if constexpr (backend::host_fft_plans) {
    if (in.data() == out.data())
      return fft_axes({0, 1, 2}, forward, forward ? x_ : z_, in, forward ? z_ : x_, out, timers);
    if (forward) {
      fft_axes({0, 1}, true, x_, in, z_, out, timers);
      return fft_along(2, true, z_, out, z_, out, timers);
    }
    fft_along(2, false, z_, in, x_, out, timers);
    return fft_axes({0, 1}, false, x_, out, x_, out, timers);
  }
  const TimedStage t(timers, "local_fft");
  fft3d_by_stages(forward, x_, z_, in, work_, out, opt_.planning);
}

// Each FFT stage before a transpose writes the layout the transpose sends from (stage_before): with several ranks
// the send buffer itself, each peer's block one contiguous range of it (no pack pass).
void DistributedFFT::forward(const Field& in, const Field& out, Timers* timers) {
  if (local_ == LocalPlan::whole) return whole(true, in, out, timers);
  if (local_ == LocalPlan::planes || !FFTOptions::pencil_path(d_.kind)) {
    const Reshape& r = *x_to_z_;
    const Field& xs = stage_before(r, work_);
    if (local_ == LocalPlan::planes) {
      fft_axes({0, 1}, true, x_, in, r.input_layout(), xs, timers);
    } else {
      fft_along(0, true, x_, in, x_, work_, timers);
      fft_along(1, true, x_, work_, r.input_layout(), xs, timers);
    }
    return reshape_then_fft(r, 2, true, xs, out, z_, out, timers);
  }
  if (opt_.fused()) {  // the y FFTs gather their lines (the Y stage in work2_), Y -> Z packs
    const Field& xs = stage_before(*x_to_y_, work_);
    fft_along(0, true, x_, in, x_to_y_->input_layout(), xs, timers);
    reshape_then_fft(*x_to_y_, 1, true, xs, work2_, y_, work2_, timers);
    return reshape_then_fft(*y_to_z_, 2, true, work2_, out, z_, out, timers);
  }
  // Unfused (a device's path): a transpose within one rank (p_row or p_col 1: the same box in both stages) is no
  // copy at all, the FFTs before it write the next stage themselves.
  const bool y_local = y_to_z_->ranks() == 1;
  const Pencil& y_to = y_local ? z_ : y_to_z_->input_layout();  // what the y FFTs write, and where
  const Field& ys = y_local ? out : stage_before(*y_to_z_, work2_);
  if (x_to_y_->ranks() == 1) {
    fft_along(0, true, x_, in, y_, work2_, timers);
    fft_along(1, true, y_, work2_, y_to, ys, timers);
  } else {
    const Field& xs = stage_before(*x_to_y_, work_);
    fft_along(0, true, x_, in, x_to_y_->input_layout(), xs, timers);
    reshape_then_fft(*x_to_y_, 1, true, xs, work2_, y_to, ys, timers);
  }
  if (y_local) return fft_along(2, true, z_, out, z_, out, timers);
  reshape_then_fft(*y_to_z_, 2, true, ys, out, z_, out, timers);
}

void DistributedFFT::inverse(const Field& in, const Field& out, Timers* timers) {
  if (local_ == LocalPlan::whole) return whole(false, in, out, timers);
  if (local_ == LocalPlan::planes || !FFTOptions::pencil_path(d_.kind)) {
    // The z FFTs and the transpose into the X stage: into `out`, or in place (in == out) into the work array, since
    // the fused FFT writes the X stage while it reads the Z stage (unfused, the z FFTs then write the send buffer
    // among several ranks, else run in place in `in`).
    const bool in_place = in.data() == out.data();
    const Field& x_stage = in_place ? work_ : out;
    fft_then_reshape(*z_to_x_, 2, false, z_, in, in_place ? in : work_, x_stage, timers);
    if (local_ == LocalPlan::planes) return fft_axes({0, 1}, false, x_, x_stage, x_, out, timers);
    fft_along(1, false, x_, x_stage, x_, x_stage, timers);
    return fft_along(0, false, x_, x_stage, x_, out, timers);
  }
  fft_then_reshape(*z_to_y_, 2, false, z_, in, work_, work2_, timers);
  fft_then_reshape(*y_to_x_, 1, false, z_to_y_->output_layout(), work2_, work2_, out, timers);
  fft_along(0, false, x_, out, x_, out, timers);
}

long long DistributedFFT::transpose_bytes_sent() const {
  long long b = 0;
  for (const auto* r : {x_to_y_.get(), y_to_z_.get(), z_to_y_.get(), y_to_x_.get(), x_to_z_.get(), z_to_x_.get()})
    if (r && r->transpose()) b += r->transpose()->bytes_sent();
  return b;
}

long long DistributedFFT::copied_bytes() const {
  long long b = 0;
  for (const auto* r : {x_to_y_.get(), y_to_z_.get(), z_to_y_.get(), y_to_x_.get(), x_to_z_.get(), z_to_x_.get()})
    if (r) b += r->packed_bytes() + r->unpacked_bytes();
  return b;
}

// The reshapes the chosen local plan runs, with the process-grid axis they span (-1: all ranks) for the model.
// pencil: X<->Y among a process row, Y<->Z among a column (X<->Z of a one-row grid too); slab: among all ranks.
std::vector<std::pair<const Reshape*, int>> DistributedFFT::used_reshapes() const {
  if (local_ == LocalPlan::whole) return {};
  if (local_ == LocalPlan::planes || !FFTOptions::pencil_path(d_.kind)) {
    const int axis = d_.kind == DecompKind::slab ? -1 : 1;
    return {{x_to_z_.get(), axis}, {z_to_x_.get(), axis}};
  }
  return {{x_to_y_.get(), 0}, {y_to_z_.get(), 1}, {z_to_y_.get(), 1}, {y_to_x_.get(), 0}};
}

std::vector<CommCount> DistributedFFT::transpose_counts() const {
  std::vector<CommCount> counts;
  for (const auto& [r, grid_axis] : used_reshapes())
    if (r->transpose() && r->transpose()->calls() > 0) {
      const double calls = double(r->transpose()->calls());
      counts.push_back({alltoall_pattern(r->transpose()->strategy()), 0.5, double(r->transpose()->bytes_sent()) / calls,
                        double(r->ranks() - 1), r->ranks(),
                        2.0 * double(r->packed_bytes() + r->unpacked_bytes()) / calls, grid_axis});
    }
  return counts;
}

double DistributedFFT::flops() const {
  const double n = double(d_.points());
  return 5.0 * n * std::log2(n);
}

}  // namespace proxylab::fft3d
