"""Where the numbers were measured (host name, cores, CPU model, system): printed under tables and in every plot
title. Standard library only."""
from __future__ import annotations

import os
import platform
import socket
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """Where the numbers were measured: printed under tables and in every plot title."""
    return {"host": socket.gethostname(), "cores": os.cpu_count() or 1, "cpu": cpu_model(),
            "system": f"{platform.system()} {platform.release()}"}


def machine_line(m: dict) -> str:
    return f"{m['host']} ({m['cores']} cores, {m['cpu']})"
