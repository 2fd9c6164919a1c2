// Global sums (see comm/reduce.hpp).
#include "proxylab/comm/reduce.hpp"

#include <cmath>

#include "proxylab/errors.hpp"

namespace proxylab {

double ExactSum::to_double() const {
  if (nonfinite) return std::nan("");
  ExactSum n(*this);
  n.normalize();
  double r = 0;
  for (int k = limbs - 1; k >= 0; --k) r += std::ldexp(static_cast<double>(n.limb[k]), emin + 32 * k);
  return r;
}

void GlobalSum::start_words(const double* local, int n) {
  if (pending_) throw std::logic_error("GlobalSum: start without wait for the previous sum");
  for (int k = 0; k < n; ++k) words_buf_[k] = local[k];
  if (strategy_ == ReduceStrategy::iallreduce)
    MPI_Iallreduce(MPI_IN_PLACE, words_buf_, n, MPI_DOUBLE, MPI_SUM, comm_, &request_);
  else
    MPI_Allreduce(MPI_IN_PLACE, words_buf_, n, MPI_DOUBLE, MPI_SUM, comm_);
  pending_ = n;
  reductions_ += 1;
  words_ += n;
}

void GlobalSum::start_exact(const ExactSum* local, int n) {
  if (pending_) throw std::logic_error("GlobalSum: start without wait for the previous sum");
  const int stride = ExactSum::limbs + 1;
  for (int k = 0; k < n; ++k) {
    ExactSum s(local[k]);
    s.normalize();  // limbs in [0, 2^32): the integer sum over ranks cannot overflow
    for (int l = 0; l < ExactSum::limbs; ++l) exact_buf_[k * stride + l] = s.limb[l];
    exact_buf_[k * stride + ExactSum::limbs] = s.nonfinite;
  }
  MPI_Allreduce(MPI_IN_PLACE, exact_buf_.data(), n * stride, MPI_INT64_T, MPI_SUM, comm_);
  pending_ = n;
  reductions_ += 1;
  words_ += n;
}

void GlobalSum::finish(double* out, int n) {
  if (pending_ != n) throw std::logic_error("GlobalSum: wait<N> does not match the started sum");
  if (strategy_ == ReduceStrategy::reproducible) {
    const int stride = ExactSum::limbs + 1;
    for (int k = 0; k < n; ++k) {
      ExactSum s;
      for (int l = 0; l < ExactSum::limbs; ++l) s.limb[l] = exact_buf_[k * stride + l];
      s.nonfinite = exact_buf_[k * stride + ExactSum::limbs];
      out[k] = s.to_double();
    }
  } else {
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
    for (int k = 0; k < n; ++k) out[k] = words_buf_[k];
  }
  pending_ = 0;
}

void GlobalSum::sum(double* values, int n) {
  if (pending_) throw std::logic_error("GlobalSum: sum() while a started sum still waits for wait()");
  if (n > max_words) {  // long vectors: plain allreduce, counted as one reduction
    MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, MPI_SUM, comm_);
    reductions_ += 1;
    words_ += n;
    return;
  }
  if (strategy_ == ReduceStrategy::reproducible) {
    ExactSum local[max_words];
    for (int k = 0; k < n; ++k) local[k].add(values[k]);
    start_exact(local, n);
  } else {
    start_words(values, n);
  }
  finish(values, n);
}

}  // namespace proxylab
