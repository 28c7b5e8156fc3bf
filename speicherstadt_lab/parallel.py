"""Where a batch of self-play runs: in this process, on a local process pool, or on any ``concurrent.futures``
executor, a ``dask.distributed`` client's among them (or the client itself), on one machine or many.

``simulate``, value-model training (``value.train``) and the interval measuring (``heldout``) all hand their work
here as parts (chunks of game indices, each game with its own explicit seeds) and get the parts' results back in
the order of the parts, whatever finished first: so every number they make depends on their arguments only, never
on where or in how many pieces it ran.

    from distributed import Client
    client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
    sl.simulate(1000, 4, ["greedy"] * 4, seed=1, executor=client)
    train("speicherstadt", 3, games=3000, executor=client)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from tqdm.auto import tqdm

from .resources import default_processes, usable_cpus

T = TypeVar("T")
P = TypeVar("P")

#: What the ``executor`` argument takes: None (a local pool, as many processes as this process may use), a number
#: of processes, "serial" (this process), a ``concurrent.futures.Executor``, or a ``dask.distributed`` Client.
EXECUTOR_HELP = ("None (a local process pool, the CPUs this process may use), a number of processes, 'serial' "
                 "(this process), a concurrent.futures Executor, or a dask.distributed Client")


def executor_size(executor: Any) -> int:
    """About how many workers ``executor`` (``EXECUTOR_HELP``) runs parts on (1: this process), for sizing the
    parts; ValueError naming ``executor`` for anything else. Makes no pool."""
    if executor is None:
        return default_processes()
    if isinstance(executor, int) and not isinstance(executor, bool):
        if executor < 1:
            raise ValueError(f"executor: a number of processes must be at least 1, got {executor}")
        return executor
    if isinstance(executor, str) and executor == "serial":
        return 1
    pool = _given(executor)
    if pool is None:
        raise ValueError(f"executor: expected {EXECUTOR_HELP}; got {executor!r}")
    return executor_workers(pool)


def _given(executor: Any) -> Executor | None:
    """A given executor as a ``concurrent.futures.Executor`` (a dask.distributed Client's own), else None."""
    if isinstance(executor, Executor):
        return executor
    get_executor = getattr(executor, "get_executor", None)  # a dask.distributed Client: its Executor face
    if callable(get_executor):
        pool = get_executor()
        if isinstance(pool, Executor):
            return pool
    return None


def executor_for_processes(processes: int | None) -> Any:
    """The ``executor`` argument a ``processes`` count stands for: None the default pool, 1 this process, n a pool of
    n (a count below 1 is a ValueError naming ``processes``)."""
    if processes is None:
        return None
    if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
        raise ValueError(f"processes: a whole number of at least 1, got {processes!r}")
    return "serial" if processes == 1 else processes


def executor_workers(executor: Executor) -> int:
    """How many workers an executor has, for chunk sizing (a guess is fine: it never changes results)."""
    n = getattr(executor, "_max_workers", None)
    if isinstance(n, int) and n > 0:
        return n
    client = getattr(executor, "_client", None)  # dask.distributed's ClientExecutor
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # a client that cannot answer just gets the default sizing
            return usable_cpus()
    return usable_cpus()


def run_parts(job: Callable[[P], T], parts: Sequence[P], executor: Any = None, *, sizes: Sequence[int] | None = None,
              progress: bool = True, desc: str = "games") -> list[T]:
    """``job(part)`` for every part, on ``executor`` (``EXECUTOR_HELP``); the results in the order of ``parts``.

    ``job`` and the parts must pickle for a process pool or a cluster (a module-level function, or a
    ``functools.partial`` of one). ``sizes``: each part's games, for the progress bar (default 1 a part). A part
    that fails cancels the rest and raises its error; a pool made here is shut down either way."""
    workers = executor_size(executor)  # checks it first
    own = executor is None or isinstance(executor, int)
    pool: Executor | None
    if own:
        pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None  # one process: this one
    else:
        pool = None if isinstance(executor, str) else _given(executor)
    counts = list(sizes) if sizes is not None else [1] * len(parts)
    results: list[Any] = [None] * len(parts)
    bar = tqdm(total=sum(counts), desc=desc, unit="game", disable=not progress, smoothing=0.1)
    try:
        if pool is None:
            for k, part in enumerate(parts):
                results[k] = job(part)
                bar.update(counts[k])
        else:
            futures: dict[Future[T], int] = {pool.submit(job, part): k for k, part in enumerate(parts)}
            try:
                for fut in as_completed(futures):
                    k = futures[fut]
                    results[k] = fut.result()
                    bar.update(counts[k])
            except BaseException:
                for fut in futures:
                    fut.cancel()
                raise
    finally:
        bar.close()
        if own and pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return results


__all__ = ["EXECUTOR_HELP", "executor_for_processes", "executor_size", "executor_workers", "run_parts"]
