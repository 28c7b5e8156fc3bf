"""Default process counts follow what this process may use (affinity, the cgroup's CPU quota and free memory),
never the host's core count: a Binder pod with a quota of 1 CPU and 2 GB must not start 16 workers."""

from __future__ import annotations

import os
from pathlib import Path

from speicherstadt_lab import resources


def _cgroup(tmp: Path, cpu: str | None = None, limit: str | None = None, used: str | None = None) -> Path:
    if cpu is not None:
        (tmp / "cpu.max").write_text(cpu + "\n")
    if limit is not None:
        (tmp / "memory.max").write_text(limit + "\n")
    if used is not None:
        (tmp / "memory.current").write_text(used + "\n")
    return tmp


def test_a_cpu_quota_caps_the_processes(tmp_path: Path) -> None:
    root = _cgroup(tmp_path, cpu="150000 100000")  # 1.5 CPUs
    assert resources.cpu_quota(root) == 1.5
    assert resources.usable_cpus(root) == min(2, len(os.sched_getaffinity(0)))
    root = _cgroup(tmp_path, cpu="50000 100000")
    assert resources.usable_cpus(root) == 1


def test_no_quota_means_the_affinity(tmp_path: Path) -> None:
    root = _cgroup(tmp_path, cpu="max 100000")
    assert resources.cpu_quota(root) is None
    assert resources.usable_cpus(root) == len(os.sched_getaffinity(0))


def test_a_cgroup_v1_quota_is_read(tmp_path: Path) -> None:
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("100000\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert resources.cpu_quota(tmp_path) == 1.0
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert resources.cpu_quota(tmp_path) is None


def test_memory_caps_the_processes(tmp_path: Path) -> None:
    mb = 1024 * 1024
    root = _cgroup(tmp_path, cpu="1600000 100000", limit=str(2048 * mb), used=str(1800 * mb))  # 16 CPUs, 248 MB free
    assert resources.available_memory(root) == 248 * mb
    assert resources.default_processes(worker_mb=120, root=root) == min(2, resources.usable_cpus(root))
    root = _cgroup(tmp_path, limit=str(2048 * mb), used=str(2040 * mb))
    assert resources.default_processes(worker_mb=120, root=root) == 1  # never fewer than one


def test_garbage_in_the_files_is_no_quota(tmp_path: Path) -> None:
    root = _cgroup(tmp_path, cpu="lots of", limit="max", used="12")
    assert resources.cpu_quota(root) is None
    assert resources.usable_cpus(root) >= 1
    assert resources.available_memory(root) is not None  # falls back to the system's MemAvailable
