"""How many worker processes this process may really use: the CPUs it is allowed to run on (affinity and the
cgroup's CPU quota, which is what a Binder pod or a container limits) and the memory it may still take.

``os.cpu_count()`` counts the host's cores: on Binder it said 16 for a pod with a quota of 1–2 CPUs and about
2 GB, and 16 workers took 905 MB. Every default process count of the lab (``simulate``, training, interval
measuring) comes from :func:`default_processes`.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

# Memory one worker process of the lab takes (pandas, numpy and a game imported, a chunk of games in play):
# 905 MB for 16 workers measured on Binder, ~57 MB each; the cap leaves room for bigger chunks and bots.
WORKER_MB = 120
CGROUP = Path("/sys/fs/cgroup")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def cpu_quota(root: Path = CGROUP) -> float | None:
    """The cgroup's CPU quota in CPUs (cgroup v2 ``cpu.max``, else v1 ``cpu.cfs_quota_us``); None if unlimited."""
    v2 = _read(root / "cpu.max")
    if v2:
        quota, _, period = v2.partition(" ")
        if quota != "max" and period:
            try:
                return int(quota) / int(period)
            except ValueError:
                return None
        return None
    quota_us, period_us = _read(root / "cpu" / "cpu.cfs_quota_us"), _read(root / "cpu" / "cpu.cfs_period_us")
    try:
        if quota_us and period_us and int(quota_us) > 0:
            return int(quota_us) / int(period_us)
    except ValueError:
        return None
    return None


def usable_cpus(root: Path = CGROUP) -> int:
    """The CPUs this process may use: its affinity, capped by the cgroup quota (rounded up), at least 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cpus = os.cpu_count() or 1
    quota = cpu_quota(root)
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return max(1, cpus)


def available_memory(root: Path = CGROUP) -> int | None:
    """Bytes this process may still take: the cgroup's limit less its use, else the system's MemAvailable."""
    limit, used = _read(root / "memory.max"), _read(root / "memory.current")
    if limit is None:  # cgroup v1
        limit, used = _read(root / "memory" / "memory.limit_in_bytes"), _read(root / "memory" / "memory.usage_in_bytes")
    try:
        if limit and used and limit != "max" and int(limit) < 1 << 60:
            return max(0, int(limit) - int(used))
    except ValueError:
        pass
    meminfo = _read(Path("/proc/meminfo")) or ""
    for line in meminfo.splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return None


def default_processes(worker_mb: int = WORKER_MB, root: Path = CGROUP) -> int:
    """Worker processes by default: the usable CPUs, no more than the free memory holds at ``worker_mb`` each."""
    cpus = usable_cpus(root)
    free = available_memory(root)
    if free is None:
        return cpus
    return max(1, min(cpus, free // (worker_mb * 1024 * 1024)))


__all__ = ["WORKER_MB", "available_memory", "cpu_quota", "default_processes", "usable_cpus"]
