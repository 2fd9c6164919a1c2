"""The performance model's arithmetic: counts a proxy reports (results.model_counts) -> time per step on a machine
description (machines/*.yaml) at any rank count. Standard library only; the command is model_command.py.

Counts come from the code: each record carries, per step, every kernel's flops and memory bytes (totals over all
ranks) and every communication pattern's calls per step and, per call, the busiest rank's bytes and messages and
the group size (common/include/proxylab/model_counts.hpp). Two records (by default 1 and 4 ranks, run by the
command) give the counts; their dependence on the rank count P follows one rule per kind of count, the same for
every proxy (docs/model.md, "Scaling rules"):

    kernel totals         linear in P through the two records (replicated work shows as the slope); per rank / P
    calls per step        as at the larger record
    alltoall              group g(P) = P^e with e from the larger record (1: all ranks), or the rows / columns of
                          the most square process grid for a grid's communicators (record's grid_axis);
                          bytes sent and packed per rank ~ (1/P) (g-1)/g; g-1 messages
    halo                  bytes per rank ~ sqrt(P_ref / P) (2-D blocks: perimeter / area); messages as recorded
    allreduce             bytes as recorded; ceil(log2 g) stages
    launches              the first record's, plus the second's extra in proportion to the point-to-point messages

Costs (per rank, seconds): a kernel takes max(flops / rate, bytes / bandwidth) with the rate its record names
(fft or dgemm per core) and the bandwidth a rank gets when the node's ranks share it, or, where the machine
describes its last-level cache, the blend of cache and memory bandwidth by the part of the step's working set (its
counted bytes) that fits the rank's share of the cache; every kernel launch the record
counts costs the machine's kernel_launch_us; a "calibrated" kernel
(work units without flops or bytes: EVH1's PPM sweeps) costs what its unit cost on the calibration machine was,
scaled by the DGEMM (core speed) ratio of the two machines. Messages cost latency + bytes / bandwidth, inside a node
or between nodes (ranks fill nodes in order; the node's ranks share one NIC); a transpose's packing and unpacking
costs its copied bytes at the rank's memory bandwidth.
"""
from __future__ import annotations

import math

PARTS = ("compute", "transpose", "halo", "reduction")
PATTERN_PART = {"alltoall": "transpose", "alltoall_node_aware": "transpose", "halo": "halo", "allreduce": "reduction"}
RATES = ("fft", "dgemm", "memory", "calibrated")


class ModelError(ValueError):
    """Counts or inputs the model cannot use; the message names what and why."""


# ---- counts ----------------------------------------------------------------------------------------
def counts_of(record: dict, where: str = "record") -> dict:
    """The checked results.model_counts of a run record."""
    mc = (record.get("results") or {}).get("model_counts")
    if not isinstance(mc, dict):
        raise ModelError(f"{where}: no results.model_counts (a record of a proxy that reports model counts, "
                         f"run in its timed mode, is needed)")
    for key in ("step", "ranks", "kernels", "communication"):
        if key not in mc:
            raise ModelError(f"{where}: results.model_counts has no '{key}'")
    for k in mc["kernels"]:
        if k.get("rate") not in RATES:
            raise ModelError(f"{where}: kernel '{k.get('kernel')}' has rate {k.get('rate')!r}; allowed: {RATES}")
    for c in mc["communication"]:
        if c.get("pattern") not in PATTERN_PART:
            raise ModelError(f"{where}: communication pattern {c.get('pattern')!r}; allowed: {tuple(PATTERN_PART)}")
    return mc


def fit_total(p_lo: int, t_lo: float, p_hi: int, t_hi: float, p: int) -> float:
    """A kernel's total over all ranks at P: the line through the two records (constant with one), >= 0."""
    if p_hi == p_lo:
        return t_hi
    slope = (t_hi - t_lo) / (p_hi - p_lo)
    return max(0.0, t_lo + slope * (p - p_lo))


def group_at(g_ref: int, p_ref: int, p: int) -> int:
    """The size of a communicator at P ranks that had g_ref members at p_ref: g = P^e, e = log g_ref / log p_ref."""
    if p_ref <= 1 or g_ref <= 1:
        return p if g_ref >= p_ref else 1
    if g_ref >= p_ref:
        return p
    e = math.log(g_ref) / math.log(p_ref)
    return max(1, min(p, round(p ** e)))


def grid_group(p: int, axis: int) -> int:
    """The rows (axis 0) or columns (axis 1) of a 2-D process grid of P ranks, factored as fft3d factors it
    (Decomposition::make: the most square grid, p_row <= p_col)."""
    rows = max(d for d in range(1, math.isqrt(p) + 1) if p % d == 0)
    return rows if axis == 0 else p // rows


def scale_comm(c: dict, p_ref: int, p: int) -> dict:
    """One communication entry of the record at p_ref, moved to P ranks (per call, busiest rank)."""
    pattern = c["pattern"]
    out = {"pattern": pattern, "calls": float(c["calls"])}
    if pattern.startswith("alltoall"):
        g_ref, axis = int(c["group"]), int(c.get("grid_axis", -1))
        g = grid_group(p, axis) if axis in (0, 1) else group_at(g_ref, p_ref, p)
        share = lambda n: (n - 1) / n if n > 1 else 0.0
        out["group"] = g
        moved = (p_ref / p) * (share(g) / share(g_ref)) if share(g_ref) > 0 else 0.0
        out["bytes"] = float(c["bytes"]) * moved
        out["copy_bytes"] = float(c.get("copy_bytes", 0.0)) * moved
        out["messages"] = float(g - 1)
    elif pattern == "halo":
        out["group"] = p
        out["bytes"] = float(c["bytes"]) * math.sqrt(p_ref / p)
        out["messages"] = float(c["messages"])
    else:  # allreduce
        out["group"] = group_at(int(c["group"]), p_ref, p)
        out["bytes"] = float(c["bytes"])
        out["messages"] = 1.0
    return out


def counts_at(lo: dict, hi: dict, p: int) -> dict:
    """Per-rank counts per step at P ranks from two records' model_counts (lo may be hi)."""
    if [k["kernel"] for k in lo["kernels"]] != [k["kernel"] for k in hi["kernels"]]:
        raise ModelError("the two records report different kernels: were they run with the same deck and options?")
    p_lo, p_hi = int(lo["ranks"]), int(hi["ranks"])
    kernels = []
    for a, b in zip(lo["kernels"], hi["kernels"]):
        per_rank = {q: fit_total(p_lo, float(a[q]), p_hi, float(b[q]), p) / p for q in ("flops", "bytes", "work")}
        kernels.append({"kernel": b["kernel"], "rate": b["rate"], **per_rank})
    moved = [] if p == 1 else [scale_comm(c, p_hi, p) for c in hi["communication"] if int(c["group"]) > 1]
    comms = [c for c in moved if c["group"] > 1]  # a communicator of one rank (a 1 x P grid's rows) sends nothing
    out = {"step": hi["step"], "ranks": p, "kernels": kernels, "communication": comms,
           "launches": launches_at(lo, hi, comms)}
    if "max_ranks" in hi:  # the deck's decomposition limit, where the proxy reports one
        out["max_ranks"] = int(hi["max_ranks"])
    return out


def point_to_point_messages(comms: list) -> float:
    """Messages per step of the busiest rank in its transposes and halo updates (not its allreduces)."""
    return sum(float(c["calls"]) * float(c["messages"]) for c in comms
               if c["pattern"] != "allreduce" and int(c["group"]) > 1)


def launches_at(lo: dict, hi: dict, comms: list) -> float:
    """Kernel launches per step and rank at the ranks of `comms` (the moved communication): the first record's,
    plus the launches the second record adds in proportion to its point-to-point messages (a transpose packs and
    unpacks one block per partner, a halo update one buffer per neighbour: fft3d's slabs launch 1, 2, 4 kernels per
    transform at 1, 2, 4 ranks)."""
    l_lo, l_hi = float(lo.get("launches", 0.0)), float(hi.get("launches", 0.0))
    m_hi = point_to_point_messages(hi["communication"])
    if m_hi <= 0:
        return l_lo if not comms else l_hi
    return max(0.0, l_lo + (l_hi - l_lo) * point_to_point_messages(comms) / m_hi)


def seconds_per_step(app: str, record: dict) -> float:
    """The measured time of one model step (model_counts.step) as the proxy's record reports it."""
    r = record["results"]
    if app == "pop":  # the solve less P-CSI's eigenvalue estimate (Lanczos), per iteration
        return (r["solve_seconds"] - r.get("setup_seconds", 0.0)) / max(1, r["iterations"])
    if app == "pstswm":
        return r["per_step_s"]["total"]
    if app == "evh1":
        return r["elapsed_s"] / r["steps"]
    if app == "fft3d":
        return 0.5 * (r["forward_seconds_median"] + r["inverse_seconds_median"])
    raise ModelError(f"{app}: no time per step to compare with (pop, pstswm, evh1, fft3d)")


# ---- costs -----------------------------------------------------------------------------------------
def layout(machine: dict, p: int) -> tuple[int, int]:
    """(ranks per node, nodes) with ranks filling nodes in order."""
    per_node = min(p, machine["cores_per_node"])
    return per_node, math.ceil(p / machine["cores_per_node"])


def shared_rate(machine: dict, p: int, per_core: str) -> float:
    """A per-core rate (GB/s or GFLOP/s) one rank gets while the node's other ranks run too: min(per core, per node /
    ranks on the node), the per-node key being per_core's name with _per_node (absent for a compute rate or the cache
    bandwidth: the cores do not slow each other)."""
    per_node, _ = layout(machine, p)
    node = machine.get(per_core.replace("_per_core", "_per_node"))
    return min(machine[per_core], node / per_node) if node else machine[per_core]


def rate_key(rate: str) -> str:
    """The machine key (per core) of a kernel rate: memory, fft, or dgemm (for dgemm and whatever is core speed)."""
    return {"memory": "memory_bandwidth_per_core_gbs", "fft": "fft_gflops_per_core"}.get(rate, "dgemm_gflops_per_core")


def bandwidth_per_rank(machine: dict, p: int) -> float:
    """Memory bandwidth one rank gets when the node's ranks stream together [B/s]."""
    return 1e9 * shared_rate(machine, p, rate_key("memory"))


def cache_share(machine: dict, p: int) -> float:
    """Last-level cache of one rank [B]: the node's cache shared by the ranks on it (0: not described)."""
    if "cache_per_core_mb" not in machine:
        return 0.0
    per_node, _ = layout(machine, p)
    return 1e6 * machine["cache_per_core_mb"] * machine["cores_per_node"] / per_node


def seconds_per_byte(machine: dict, p: int, working_set: float) -> float:
    """Memory time per byte for a rank whose step touches working_set bytes: the fraction f = share / working set
    (at most 1) that its cache share holds moves at the cache bandwidth, the rest at the memory bandwidth the node's
    ranks share. Without a cache description, memory bandwidth at every size."""
    memory = 1.0 / bandwidth_per_rank(machine, p)
    share = cache_share(machine, p)
    if share <= 0 or working_set <= 0:
        return memory
    f = min(1.0, share / working_set)
    return f / (1e9 * shared_rate(machine, p, "cache_bandwidth_per_core_gbs")) + (1.0 - f) * memory


def working_set(counts: dict) -> float:
    """Bytes one rank's step touches, as the model counts them: the sum of its kernels' compulsory bytes (an array
    read by two kernels counts twice, so this errs large: toward memory bandwidth)."""
    return sum(k["bytes"] for k in counts["kernels"])


def kernel_seconds(k: dict, machine: dict, p: int, unit_cost: float | None = None,
                   per_byte: float | None = None) -> float:
    """One kernel's seconds per step on a rank; per_byte: seconds per memory byte (seconds_per_byte), default the
    memory bandwidth's."""
    if per_byte is None:
        per_byte = 1.0 / bandwidth_per_rank(machine, p)
    if k["rate"] == "calibrated":
        if unit_cost is None:
            raise ModelError(f"kernel '{k['kernel']}' is calibrated (work units only): a calibration is needed")
        return k["work"] * unit_cost
    memory = k["bytes"] * per_byte
    if k["rate"] == "memory":
        return memory
    rate = 1e9 * shared_rate(machine, p, rate_key(k["rate"]))
    return max(k["flops"] / rate, memory)


def links(machine: dict, p: int, group: int) -> dict:
    """Latency [s] and bandwidth [B/s] inside and between nodes for a group of consecutive ranks, and how many of a
    rank's partners are off its node. Between nodes the node's ranks share the NIC."""
    per_node, nodes = layout(machine, p)
    on_node = min(group, machine["cores_per_node"])
    return {"lat_in": 1e-6 * machine["intra_node_latency_us"], "bw_in": 1e9 * machine["intra_node_bandwidth_gbs"],
            "lat_out": 1e-6 * machine["inter_node_latency_us"],
            "bw_out": 1e9 * machine["inter_node_bandwidth_gbs"] / per_node,
            "partners_in": on_node - 1, "partners_out": group - on_node,
            "group_nodes": math.ceil(group / machine["cores_per_node"]), "per_node": per_node, "nodes": nodes}


def comm_seconds(c: dict, machine: dict, p: int) -> float:
    """One call of a communication entry (per-rank counts at P) on the machine."""
    g = c["group"]
    if g <= 1:
        return 0.0
    L = links(machine, p, g)
    b = c["bytes"]
    if c["pattern"] == "halo":
        off = 0.0 if L["nodes"] == 1 else 0.5  # 2-D blocks on nodes of consecutive ranks: about half off-node
        m = c["messages"]
        return m * ((1 - off) * L["lat_in"] + off * L["lat_out"]) + b * (1 - off) / L["bw_in"] + b * off / L["bw_out"]
    if c["pattern"] == "allreduce":
        stage = 1e-6 * machine["allreduce_stage_us"]
        stages_in = math.ceil(math.log2(max(1, min(g, machine["cores_per_node"]))))
        stages_out = math.ceil(math.log2(L["group_nodes"])) if L["group_nodes"] > 1 else 0
        moved = 2 * b * (g - 1) / g  # reduce-scatter + allgather volume of a large allreduce
        t = stages_in * stage + (moved / L["bw_in"] if stages_out == 0 else 0.0)
        if stages_out:
            t += stages_out * (stage + L["lat_out"] - L["lat_in"]) + moved / L["bw_out"]
        return t
    per_msg = 1e-6 * machine["alltoall_message_us"]
    f_out = L["partners_out"] / (g - 1)
    packing = c.get("copy_bytes", 0.0) / bandwidth_per_rank(machine, p)
    if c["pattern"] == "alltoall_node_aware" and L["partners_out"] > 0:
        # gather to the node leader and scatter back (shared memory), one message per other node from the leader,
        # which sends the whole node's off-node bytes: the node's traffic is the same, the messages are fewer.
        copies = 2 * b / L["bw_in"] + 2 * L["partners_in"] * L["lat_in"]
        leader = (L["group_nodes"] - 1) * (L["lat_out"] + per_msg)
        return packing + copies + leader + b * f_out / L["bw_out"]
    return packing + (L["partners_in"] * (L["lat_in"] + per_msg) + L["partners_out"] * (L["lat_out"] + per_msg)
            + b * (1 - f_out) / L["bw_in"] + b * f_out / L["bw_out"])


def launch_cost(calibration_machine: dict | None, target: dict) -> float:
    """Seconds per kernel launch on the target: its own kernel_launch_us, else the calibration machine's scaled by
    the ratio of their DGEMM rates (core speed: the scaling SMPI applies to the same code); 0 when neither has one
    (or there is no calibration machine)."""
    if "kernel_launch_us" in target:
        return 1e-6 * target["kernel_launch_us"]
    if calibration_machine and "kernel_launch_us" in calibration_machine:
        speed = calibration_machine["dgemm_gflops_per_core"] / target["dgemm_gflops_per_core"]
        return 1e-6 * calibration_machine["kernel_launch_us"] * speed
    return 0.0


def predict(counts: dict, machine: dict, unit_costs: dict | None = None, launch_s: float = 0.0,
            slowdowns: dict | None = None) -> dict:
    """Seconds per step at counts['ranks'] ranks: each part, the total, and every kernel and pattern. launch_s: the
    cost of one kernel launch (launch_cost), charged to compute for each of the step's launches; slowdowns: kernel ->
    factor on its bound (kernel_slowdowns; none: every kernel at its bound)."""
    p = counts["ranks"]
    parts = dict.fromkeys(PARTS, 0.0)
    detail = {}
    per_byte = seconds_per_byte(machine, p, working_set(counts))
    for k in counts["kernels"]:
        t = kernel_seconds(k, machine, p, (unit_costs or {}).get(k["kernel"]), per_byte) * \
            (slowdowns or {}).get(k["kernel"], 1.0)
        parts["compute"] += t
        detail[k["kernel"]] = t
    launches = counts.get("launches", 0.0) * launch_s
    if launches > 0:
        parts["compute"] += launches
        detail["launches"] = launches
    for c in counts["communication"]:
        t = c["calls"] * comm_seconds(c, machine, p)
        parts[PATTERN_PART[c["pattern"]]] += t
        detail[c["pattern"]] = detail.get(c["pattern"], 0.0) + t
    per_node, nodes = layout(machine, p)
    out = {"ranks": p, "nodes": nodes, **parts, "total": sum(parts.values()), "detail": detail}
    if p > counts.get("max_ranks", p):
        out["beyond_decomposition"] = counts["max_ranks"]  # the binary refuses this rank count
    return out


def kernel_slowdowns(record: dict, calibration_machine: dict) -> dict:
    """How far each kernel of a record (run on calibration_machine) stayed from its bound: measured seconds / the
    model's bound there, kernel -> factor. Applied on a target machine (predict's slowdowns) each kernel reaches the
    same fraction of the target's bound: small FFTs and GEMMs, or loops that neither flops nor bytes bound, keep
    the efficiency they had here. Calibrated kernels have their own unit cost (unit_costs) and no factor."""
    mc = counts_of(record)
    p = int(mc["ranks"])
    here = counts_at(mc, mc, p)
    per_byte = seconds_per_byte(calibration_machine, p, working_set(here))
    out = {}
    for measured, k in zip(mc["kernels"], here["kernels"]):
        if k["rate"] == "calibrated":
            continue
        bound = kernel_seconds(k, calibration_machine, p, None, per_byte)
        if bound > 0 and float(measured["seconds"]) > 0:
            out[k["kernel"]] = float(measured["seconds"]) / bound
    return out


def unit_costs(record: dict, calibration_machine: dict, target: dict) -> dict:
    """Seconds per work unit of each calibrated kernel, measured in `record` (on calibration_machine), moved to the
    target machine by the ratio of their DGEMM rates (core speed)."""
    mc = counts_of(record)
    p = int(mc["ranks"])
    speed = calibration_machine["dgemm_gflops_per_core"] / target["dgemm_gflops_per_core"]
    out = {}
    for k in mc["kernels"]:
        if k["rate"] == "calibrated":
            if k["work"] <= 0 or k["seconds"] <= 0:
                raise ModelError(f"kernel '{k['kernel']}': the calibration record has no work or no time")
            out[k["kernel"]] = k["seconds"] / (k["work"] / p) * speed
    return out


def crossovers(curves: dict[str, list[dict]]) -> list[dict]:
    """Where the fastest variant changes along the rank counts: [{ranks, from, to}]."""
    labels = list(curves)
    if len(labels) < 2:
        return []
    out, best_prev = [], None
    for i, pt in enumerate(curves[labels[0]]):
        best = min(labels, key=lambda lab: curves[lab][i]["total"])
        if best_prev is not None and best != best_prev:
            out.append({"ranks": pt["ranks"], "from": best_prev, "to": best})
        best_prev = best
    return out
