#!/usr/bin/env python3
"""Per-kernel registers, stack frame, spills and static shared memory of proxylab's CUDA kernels.

usage: cuda_resources.py [--cuobjdump PATH] [--out FILE] [--no-spill FILE] BINARY...

The figures are ptxas's own (`ptxas -v`), read without recompiling anything: cuobjdump extracts the PTX that nvcc
embedded in each binary, and ptxas assembles it again for the same architecture, printing what it printed when the
binary was built. Only kernels whose name holds `proxylab::` are reported (Kokkos's own are not ours to tune).
Every spill is printed. Exit status 1 when a kernel named in the --no-spill file (one regular expression a line,
matched against the short name the table prints; `#` starts a comment) spills, 0 otherwise: the hot kernels are
designed not to spill, while a validation kernel that runs once may.

The toolkit on the CI machines has ptxas but no cuobjdump; ci/stage-cuda.sh installs the pinned PyPI wheel
nvidia-cuda-cuobjdump and passes its path.
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ENTRY = re.compile(r"ptxas info\s*: Compiling entry function '(\w+)' for '(sm_\w+)'")
STACK = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?")
ANONYMOUS = re.compile(r"(_INTERNAL_\w+::|\(anonymous namespace\)::)")
FUNCTION = re.compile(r"proxylab::(?:\w+(?:<[^<>()]*>)?::)*\w+(?:<[^<>()]*>)?(?=\()")
PATTERN = re.compile(r"Kokkos::Impl::Parallel(For|Reduce|Scan)")
POLICY = re.compile(r"(MDRange|Team|Range)Policy")
LAMBDA = re.compile(r"\{lambda\([^{}]*\)#(\d+)\}")


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def short_name(demangled):
    """The proxylab function that launches the kernel, its lambda's number and the Kokkos pattern and policy:
    `proxylab::pop::pcg_fused #2 (reduce, mdrange)`."""
    text = ANONYMOUS.sub("", demangled)
    match = FUNCTION.search(text)
    name = match.group(0) if match else text[:120]
    lam = LAMBDA.search(text, match.end()) if match else None
    pattern = PATTERN.search(text)
    policies = POLICY.findall(text)
    how = ", ".join(x.lower() for x in (pattern.group(1) if pattern else None, policies[-1] if policies else None) if x)
    return name + (f" #{lam.group(1)}" if lam else "") + (f" ({how})" if how else "")


def parse_ptxas(log):
    """(mangled name, arch, registers, stack, spill stores, spill loads, static shared) of each proxylab kernel in
    a `ptxas -v` report."""
    rows, current = [], None
    for line in log.splitlines():
        if m := ENTRY.search(line):
            current = [m.group(1), m.group(2), 0, 0, 0, 0, 0]
        elif current and (m := STACK.search(line)):
            current[3:6] = [int(g) for g in m.groups()]
        elif current and (m := USED.search(line)):
            current[2] = int(m.group(1))
            current[6] = int(m.group(2) or 0)
            if "proxylab" in current[0]:
                rows.append(tuple(current))
            current = None
    return rows


def assemble(ptx):
    """ptxas's report for one PTX module (a path), for the architecture the module targets."""
    arch = re.search(r"^\.target\s+(sm_\w+)", ptx.read_text(errors="replace"), re.M)
    if not arch:
        return ""
    log = subprocess.run(["ptxas", f"-arch={arch.group(1)}", "-c", "-v", str(ptx), "-o", "/dev/null"],
                         capture_output=True, text=True)
    if log.returncode != 0:
        sys.exit(f"cuda_resources: ptxas failed on {ptx.name}:\n{log.stderr[-2000:]}")
    return log.stderr


def kernels_of(binary, cuobjdump, workdir, reports):
    """The proxylab kernels of one binary (parse_ptxas's rows). The PTX modules that hold proxylab code are
    assembled in parallel, each distinct module once (the common library's are in every binary): `reports` maps a
    module's text to ptxas's report."""
    folder = pathlib.Path(workdir) / pathlib.Path(binary).name
    folder.mkdir()
    subprocess.run([cuobjdump, "-xptx", "all", str(pathlib.Path(binary).resolve())], cwd=folder, check=True,
                   capture_output=True)
    modules = {}
    for ptx in sorted(folder.glob("*.ptx")):
        text = ptx.read_text(errors="replace")
        if "proxylab" in text and text not in reports:
            modules[text] = ptx
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        reports.update(zip(modules, pool.map(assemble, modules.values())))
    texts = {ptx.read_text(errors="replace") for ptx in folder.glob("*.ptx")}
    return [row for text in texts if text in reports for row in parse_ptxas(reports[text])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuobjdump", default="cuobjdump")
    parser.add_argument("--out", help="write the table to this file, and print only the --no-spill kernels' rows")
    parser.add_argument("--no-spill", help="file of regular expressions naming the kernels that must not spill")
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    lines = [f"{'binary':16} {'regs':>4} {'stack':>6} {'spill st':>8} {'spill ld':>8} {'smem':>6}  kernel"]
    spilling, forbidden = [], []
    hot = []
    if args.no_spill:
        for line in pathlib.Path(args.no_spill).read_text().splitlines():
            if line.split("#", 1)[0].strip():
                hot.append(re.compile(line.split("#", 1)[0].strip()))
    reports = {}
    with tempfile.TemporaryDirectory() as workdir:
        for binary in args.binaries:
            rows = kernels_of(binary, args.cuobjdump, workdir, reports)
            names = demangle([r[0] for r in rows])
            seen = set()
            for row, name in sorted(zip(rows, names), key=lambda p: short_name(p[1])):
                key = (short_name(name), row[2:])
                if key in seen:  # one lambda instantiated alike in several translation units
                    continue
                seen.add(key)
                label = pathlib.Path(binary).name
                lines.append(f"{label:16} {row[2]:4} {row[3]:6} {row[4]:8} {row[5]:8} {row[6]:6}  {key[0]}")
                if row[4] or row[5]:
                    what = f"{label}: {key[0]} ({row[4]} B spill stores, {row[5]} B spill loads)"
                    spilling.append(what)
                    if any(p.search(key[0]) for p in hot):
                        forbidden.append(what)
    if args.out:  # the whole table there; here the hot kernels' rows only
        pathlib.Path(args.out).write_text("\n".join(lines) + "\n")
        lines = lines[:1] + [line for line in lines[1:] if any(p.search(line) for p in hot)]
    print("\n".join(lines))
    print(f"cuda_resources: {len(lines) - 1} proxylab kernels, {len(spilling)} spill registers to local memory")
    for what in spilling:
        print(f"  {what}")
    if forbidden:
        print(f"cuda_resources: {len(forbidden)} of them must not spill ({args.no_spill}):\n  " + "\n  ".join(forbidden))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
