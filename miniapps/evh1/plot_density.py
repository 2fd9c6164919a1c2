#!/usr/bin/env python3
"""Density image of an EVH1 run: reads the raw float64 field and its .json header written by
`proxylab-evh1 --set output.density_file=FILE` and saves a PNG (log colour scale for Sedov).

    .deps/venv/bin/python miniapps/evh1/plot_density.py FILE [PNG]
"""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip())
        return 2
    raw = Path(argv[1])
    meta = json.loads(Path(str(raw) + ".json").read_text())
    ny, nx = meta["shape"]
    rho = np.fromfile(raw, dtype="<f8").reshape(ny, nx)
    png = Path(argv[2]) if len(argv) > 2 else raw.with_suffix(".png")
    x0, y0, dx = meta["x0"], meta["y0"], meta["dx"]
    extent = [x0, x0 + nx * dx, y0, y0 + ny * dx]
    fig, ax = plt.subplots(figsize=(6.4, 5.6 * min(2.0, max(0.3, ny / nx))))
    norm = LogNorm(vmin=max(rho.min(), 1e-3 * rho.max()), vmax=rho.max()) if meta["problem"] == "sedov" else None
    if meta.get("geometry") == "spherical":  # r-theta zones drawn in the meridional plane (x = r sin, z = r cos)
        r = x0 + dx * np.arange(nx + 1)
        theta = y0 + meta["dtheta"] * np.arange(ny + 1)
        rr, tt = np.meshgrid(r, theta)
        im = ax.pcolormesh(rr * np.sin(tt), rr * np.cos(tt), rho, cmap="inferno", norm=norm, shading="flat")
        ax.set_aspect("equal")
        ax.set_xlabel("r sin(theta)")
        ax.set_ylabel("r cos(theta)")
    else:
        im = ax.imshow(rho, origin="lower", extent=extent, cmap="inferno", norm=norm, interpolation="nearest")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
    fig.colorbar(im, ax=ax, label="density")
    ax.set_title(f"evh1 {meta['problem']}: density at t = {meta['time']:.4g} ({nx} x {ny} zones)")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"wrote {png} (density min {rho.min():.4g}, max {rho.max():.4g})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
