#include "run_options.hpp"

namespace proxylab::fft3d {

RunOptions read_options(const Config& cfg, CommOptions comm) {
  RunOptions o;
  o.mode = cfg.choice<RunMode>("fft3d.mode");
  o.nx = int(cfg.integer("fft3d.nx"));
  o.ny = int(cfg.integer("fft3d.ny"));
  o.nz = int(cfg.integer("fft3d.nz"));
  o.decomposition = cfg.choice<DecompKind>("fft3d.decomposition");
  o.p_row = int(cfg.integer("fft3d.p_row"));
  o.p_col = int(cfg.integer("fft3d.p_col"));
  o.fft.strategy = cfg.choice<TransposeStrategy>("fft3d.transpose");
  o.fft.planning = cfg.choice<FFTPlanning>("fft3d.planning");
  o.fft.local = cfg.choice<LocalPlan>("fft3d.local");
  o.fft.mapping = cfg.choice<Mapping>("fft3d.mapping");
  o.fft.fuse_transpose = cfg.boolean("fft3d.fuse_transpose");
  o.fft.comm = comm;
  o.fft.in_place = cfg.boolean("fft3d.in_place");
  o.fft.ranks_per_node = int(cfg.integer("fft3d.ranks_per_node"));
  o.iterations = int(cfg.integer("fft3d.iterations"));
  o.warmup = int(cfg.integer("fft3d.warmup"));
  o.serial_baseline = cfg.boolean("fft3d.serial_baseline");
  o.wisdom = cfg.text("fft3d.wisdom");
  o.ft_alpha = cfg.real("ft.alpha");
  o.serial_max_points = cfg.integer("verify.serial_max_points");
  o.tolerance = cfg.real("verify.tolerance");
  return o;
}

}  // namespace proxylab::fft3d
