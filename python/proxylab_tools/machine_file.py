"""Machine descriptions (machines/*.yaml): what the performance model (model.py) and the SMPI platform files
(smpi_platform.py) need to know about a machine, one number per key, each with where it came from.

Schema (docs/model.md has the full text):

    name: xt4                               # short name, used in tables and file names
    description: one line
    cores_per_node: 4
    memory_bandwidth_per_core_gbs: 5.0      # STREAM triad, one rank alone on a node [GB/s]
    memory_bandwidth_per_node_gbs: 8.0      # STREAM triad, every core of a node [GB/s]
    dgemm_gflops_per_core: 8.0              # DGEMM rate of one core [GFLOP/s]
    fft_gflops_per_core: 1.5                # complex FFT rate of one core, 5 N log2 N / t [GFLOP/s]
    intra_node_latency_us: 1.0              # MPI ping-pong half round trip, 8 B, same node [us]
    intra_node_bandwidth_gbs: 2.0           # MPI ping-pong bandwidth, large messages, same node [GB/s]
    inter_node_latency_us: 6.0              # the same between nodes
    inter_node_bandwidth_gbs: 1.5           #   (per node: the NIC the node's ranks share)
    allreduce_stage_us: 5.0                 # one stage of a small (1-word) allreduce: t = stages x this
    alltoall_message_us: 1.0                # per-message software cost of an all-to-all beyond the latency
    sources:                                # key -> where the value came from (seed and table, or the probe)
      memory_bandwidth_per_core_gbs: "..."

    kernel_launch_us: 1.0                   # optional: fixed cost of one kernel launch [us]
    cache_per_core_mb: 2.0                  # optional, with the next: last-level cache / the cores sharing it [MB]
    cache_bandwidth_per_core_gbs: 40.0      #   STREAM triad of one rank whose arrays fit in its cache share [GB/s]
    dgemm_gflops_per_node: 28.0             # optional: the node's cores together (also fft_gflops_per_node,
                                            #   cache_bandwidth_per_node_gbs); a rank gets min(per core, per node /
                                            #   ranks on the node), as with memory bandwidth

Values are plain numbers; every key above but the optional ones is required and positive (alltoall_message_us
may be 0), the two cache keys come together, and every value needs a `sources` entry. load() checks all of it and names the key, the value and what is allowed.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

from . import runner
from .runner import ROOT

MACHINES_DIR = ROOT / "machines"

# key -> (unit, meaning); the order is the order written to a file.
KEYS = {
    "cores_per_node": ("cores", "cores (MPI ranks at one thread) per node"),
    "memory_bandwidth_per_core_gbs": ("GB/s", "STREAM triad bandwidth of one rank alone on a node"),
    "memory_bandwidth_per_node_gbs": ("GB/s", "STREAM triad bandwidth of all cores of a node together"),
    "dgemm_gflops_per_core": ("GFLOP/s", "DGEMM rate of one core"),
    "fft_gflops_per_core": ("GFLOP/s", "complex FFT rate of one core (5 N log2 N / t)"),
    "intra_node_latency_us": ("us", "MPI ping-pong latency (half round trip, 8 B) inside a node"),
    "intra_node_bandwidth_gbs": ("GB/s", "MPI ping-pong bandwidth of large messages inside a node"),
    "inter_node_latency_us": ("us", "MPI ping-pong latency between nodes"),
    "inter_node_bandwidth_gbs": ("GB/s", "MPI bandwidth between nodes, per node (one NIC shared by its ranks)"),
    "allreduce_stage_us": ("us", "time of one stage of a 1-word allreduce (t = ceil(log2 P) stages)"),
    "alltoall_message_us": ("us", "software cost per message of an all-to-all, beyond the latency"),
}
# Optional keys: absent, the model derives the value (docs/model.md).
OPTIONAL_KEYS = {
    "kernel_launch_us": ("us", "fixed cost of one kernel launch (an empty kernel and a fence, one thread per rank); "
                               "absent: the calibration machine's, scaled by core speed"),
    "dgemm_gflops_per_node": ("GFLOP/s", "DGEMM rate of all cores of a node together; absent: cores x per core"),
    "fft_gflops_per_node": ("GFLOP/s", "FFT rate of all cores of a node together; absent: cores x per core"),
    "cache_per_core_mb": ("MB", "last-level cache per core (its size / the cores sharing it); absent: no cache term"),
    "cache_bandwidth_per_core_gbs": ("GB/s", "STREAM triad of one rank with its arrays in a quarter of its cache "
                                             "share"),
    "cache_bandwidth_per_node_gbs": ("GB/s", "the same triad on every core of a node together; absent: cores x per "
                                             "core"),
}
TOGETHER = ("cache_per_core_mb", "cache_bandwidth_per_core_gbs")
MAY_BE_ZERO = {"alltoall_message_us"}


class MachineError(ValueError):
    """A machine file that cannot be used: the message names the file, the key, the value and what is allowed."""


def resolve(name_or_path: str) -> Path:
    """'xt4' -> machines/xt4.yaml; a path is taken as it is."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    return MACHINES_DIR / f"{name_or_path}.yaml"


def available() -> list[str]:
    return sorted(p.stem for p in MACHINES_DIR.glob("*.yaml")) if MACHINES_DIR.is_dir() else []


def validate(data, where: str) -> dict:
    """The checked description (a dict); MachineError naming the problem otherwise."""
    if not isinstance(data, dict):
        raise MachineError(f"{where}: expected a mapping of keys to values, got {type(data).__name__}")
    allowed = set(KEYS) | set(OPTIONAL_KEYS) | {"name", "description", "sources"}
    for key in data:
        if key not in allowed:
            raise MachineError(f"{where}: unknown key '{key}'; allowed: {', '.join(sorted(allowed))}")
    for key in ("name", "description"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise MachineError(f"{where}: '{key}' must be a non-empty string")
    sources = data.get("sources")
    if not isinstance(sources, dict):
        raise MachineError(f"{where}: 'sources' must map each value's key to where it came from")
    for key, (unit, meaning) in {**KEYS, **OPTIONAL_KEYS}.items():
        if key not in data:
            if key in OPTIONAL_KEYS:
                continue
            raise MachineError(f"{where}: missing key '{key}' ({meaning}, {unit})")
        v = data[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0 or \
                (v == 0 and key not in MAY_BE_ZERO):
            bound = ">= 0" if key in MAY_BE_ZERO else "> 0"
            raise MachineError(f"{where}: '{key}' = {v!r}: expected a finite number {bound} ({unit})")
        if key == "cores_per_node" and int(v) != v:
            raise MachineError(f"{where}: 'cores_per_node' = {v!r}: expected a whole number of cores")
        if not isinstance(sources.get(key), str) or not sources[key].strip():
            raise MachineError(f"{where}: 'sources' has no entry for '{key}' (say where the value came from)")
    if "cache_bandwidth_per_node_gbs" in data and "cache_per_core_mb" not in data:
        raise MachineError(f"{where}: cache_bandwidth_per_node_gbs needs the cache it describes: cache_per_core_mb and "
                           f"cache_bandwidth_per_core_gbs")
    if sum(key in data for key in TOGETHER) == 1:
        raise MachineError(f"{where}: {' and '.join(TOGETHER)} come together (the cache term needs both); "
                           f"only {next(k for k in TOGETHER if k in data)} is given")
    for key in sources:
        if key not in KEYS and not (key in OPTIONAL_KEYS and key in data):
            raise MachineError(f"{where}: 'sources' names unknown key '{key}'")
    out = dict(data)
    out["cores_per_node"] = int(data["cores_per_node"])
    return out


def load(name_or_path: str) -> dict:
    path = resolve(name_or_path)
    known = ", ".join(available()) or "none"
    if not path.exists():
        raise MachineError(f"--machine {name_or_path}: no such file {path} (machines in {MACHINES_DIR}: {known})")
    if not path.is_file():
        raise MachineError(f"--machine {name_or_path}: {path} is not a file (a machine description is one YAML "
                           f"file; machines in {MACHINES_DIR}: {known})")
    try:
        import yaml  # PyYAML: in ci/requirements.txt (.deps/venv) and Debian's python3-yaml
    except ImportError as e:
        raise MachineError(f"reading a machine file needs PyYAML: {runner.install_hint('pyyaml')} (or apt-get "
                           "install python3-yaml)") from e
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        raise MachineError(f"{path}: not valid YAML: {e}") from e
    except RecursionError:
        raise MachineError(f"{path}: nested too deep (lists and mappings inside one another beyond what the parser "
                           "follows): a machine description is one mapping of numbers") from None
    except UnicodeDecodeError as e:
        raise MachineError(f"{path}: not UTF-8 text (byte {e.start}): a machine description is a YAML file") from e
    except OSError as e:
        raise MachineError(f"{path}: cannot be read: {e.strerror}") from e
    return validate(data, str(path))


def _scalar(v) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def dumps(m: dict) -> str:
    """The description as YAML (keys in schema order, units as comments); load(dumps(m)) == m."""
    lines = [f"name: {_scalar(m['name'])}", f"description: {_scalar(m['description'])}"]
    keys = [k for k in {**KEYS, **OPTIONAL_KEYS} if k in m]
    for key in keys:
        unit, meaning = {**KEYS, **OPTIONAL_KEYS}[key]
        lines.append(f"{key}: {_scalar(m[key])}  # {unit}: {meaning}")
    lines.append("sources:")
    for key in keys:
        lines.append(f"  {key}: {_scalar(m['sources'][key])}")
    return "\n".join(lines) + "\n"


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "machine"
