"""The ``speicherstadt-lab`` command: batch simulations and game replays from a terminal.

    speicherstadt-lab simulate --games 1000 --players 4 --bots mcts,greedy,random,random --rotate
    speicherstadt-lab replay game.json --lang de
    speicherstadt-lab intervals --players 3          # re-measure a shipped value model's 95% intervals

Errors (an unknown bot, a missing or malformed file) print one line to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

PROG = "speicherstadt-lab"


MIN_REFERENCE = 20  # reference play-outs for measured intervals (heldout.measure_intervals); the shipped: 100


class UsageError(ValueError):
    """Bad input from the command line (exit status 2)."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Die Speicherstadt lab: simulate bot games, replay records.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("simulate", help="play many bot-vs-bot games and print win rates")
    s.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    s.add_argument("--players", type=int, default=None, help="players per game (default: the number of bots)")
    s.add_argument(
        "--bots",
        required=True,
        help="bot specs by seat, comma separated, e.g. mcts:iterations=200,greedy,random,random",
    )
    s.add_argument("--seed", type=int, default=0, help="master seed (default 0); equal seeds give equal results")
    s.add_argument("--rotate", action="store_true", help="rotate the lineup one seat per game")
    s.add_argument(
        "--processes", type=int, default=None,
        help="worker processes (default: the CPUs this process may use, capped by free memory; 1: this process)"
    )
    _add_scheduler(s)
    s.add_argument("--csv", type=Path, default=None, help="also write the per-game, per-seat table to this CSV file")
    s.add_argument("--game", default="speicherstadt",
                   help="the game: speicherstadt (default) or packet_row; any registered game")
    s.add_argument("--expansion", choices=["kaispeicher"], default=None, help="play with an expansion")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(run=_cmd_simulate)

    r = sub.add_parser("replay", help="print a game record move by move, with its events and final scores")
    r.add_argument("record", type=Path, help="a game record (JSON)")
    r.add_argument("--lang", choices=["en", "de"], default="en", help="language of names and events (default en)")
    r.set_defaults(run=_cmd_replay)

    t = sub.add_parser("train", help="train a value model from self-play (needs the [train] extra: scikit-learn)")
    t.add_argument("--game", default="speicherstadt", help="the game (default speicherstadt)")
    t.add_argument("--expansion", choices=["kaispeicher"], default=None, help="with an expansion")
    t.add_argument("--players", type=int, default=3, help="player count (default 3)")
    t.add_argument("--games", type=int, default=3000, help="self-play games to train on (default 3000)")
    t.add_argument("--seed", type=int, default=1, help="seed of the self-play (default 1)")
    t.add_argument("--bot", default="greedy", help="the self-play bot (default greedy)")
    t.add_argument("--catalog", type=Path, default=None, help="a card catalogue file to train with")
    t.add_argument("--head", choices=["mlp", "logistic"], default="mlp",
                   help="the win head: a small neural network over every seat (default) or a logistic regression")
    t.add_argument("--processes", type=int, default=None,
                   help="worker processes (default: the CPUs this process may use)")
    _add_scheduler(t)
    t.add_argument("--out", type=Path, default=None, help="where to write the model (default: the package's)")
    t.add_argument("--interval-games", type=int, default=60,
                   help="held-out games to measure the 95%% intervals on (default 60; 0: none)")
    _add_reference(t)
    t.add_argument("--no-progress", action="store_true", help="no progress bars")
    t.set_defaults(run=_cmd_train)

    v = sub.add_parser("intervals", help="measure a value model's 95%% intervals on held-out games (in its file)")
    v.add_argument("--game", default="speicherstadt", help="the game (default speicherstadt)")
    v.add_argument("--expansion", choices=["kaispeicher"], default=None, help="with an expansion")
    v.add_argument("--players", type=int, default=3, help="player count (default 3)")
    v.add_argument("--model", type=Path, default=None, help="the model file (default: the package's)")
    v.add_argument("--games", type=int, default=60, help="held-out games (default 60)")
    _add_reference(v)
    v.add_argument("--seed", type=int, default=None, help="seed of the held-out games (default: the model's)")
    v.add_argument("--catalog", type=Path, default=None, help="the card catalogue the model was trained with")
    v.add_argument("--processes", type=int, default=None,
                   help="worker processes (default: the CPUs this process may use)")
    _add_scheduler(v)
    v.add_argument("--no-progress", action="store_true", help="no progress bar")
    v.set_defaults(run=_cmd_intervals)

    z = sub.add_parser("puzzles", help="mine verified puzzles from self-play games into a puzzle file (JSON)")
    z.add_argument("--game", default="speicherstadt", help="the game (default speicherstadt)")
    z.add_argument("--expansion", choices=["kaispeicher"], default=None, help="with an expansion")
    z.add_argument("--players", default="2,3,4", help="player counts, comma separated (default 2,3,4)")
    z.add_argument("--games", type=int, default=20, help="self-play games to mine (default 20)")
    z.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    z.add_argument("--decisions", type=int, default=30, help="decisions screened per game (default 30)")
    z.add_argument("--rollouts", type=int, default=400, help="greedy play-outs per candidate move (default 400)")
    z.add_argument("--out", type=Path, default=None,
                   help="the puzzle file; puzzles already in it are kept (default: puzzles-VARIANT.json)")
    z.add_argument("--processes", type=int, default=None,
                   help="worker processes (default: the CPUs this process may use)")
    z.set_defaults(run=_cmd_puzzles)

    c = sub.add_parser("cards", help="print a game's card reference (Markdown), or write every game's page")
    c.add_argument("--game", default="speicherstadt", help="the game (default speicherstadt)")
    c.add_argument("--write", type=Path, default=None, metavar="FOLDER",
                   help="write every game's reference page into FOLDER (the repository's: docs)")
    c.set_defaults(run=_cmd_cards)
    return p


def _cmd_cards(args: argparse.Namespace) -> int:
    from .cardref import markdown_page, write_pages
    from .engine.protocol import get_game

    if args.write is not None:
        if not args.write.is_dir():
            raise UsageError(f"--write: {args.write} is not a folder")
        for path in write_pages(args.write):
            print(path)
        return 0
    try:
        get_game(args.game)
    except ValueError as err:
        raise UsageError(f"--game: {err}") from None
    print(markdown_page(args.game), end="")
    return 0


def _add_scheduler(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="play the games on a dask.distributed cluster, e.g. tcp://10.0.0.5:8786 (instead of "
                             "--processes; the same numbers; needs the 'dask' extra)")


def _executor(args: argparse.Namespace) -> Any:
    """Where the games of a command run: a dask.distributed Client on ``--scheduler`` (close it when done), else what
    ``--processes`` says (None: the default pool, "serial", or a number of processes)."""
    address = getattr(args, "scheduler", None)
    if address is None:
        return None if args.processes is None else ("serial" if args.processes == 1 else args.processes)
    if args.processes is not None:
        raise UsageError("--scheduler: the cluster's workers play the games; leave out --processes")
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler: needs dask.distributed: pip install 'speicherstadt-lab[dask]'") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as err:
        raise UsageError(f"--scheduler: cannot reach a dask scheduler at {address!r} ({err})") from None


def _close(executor: Any) -> None:
    """Close a dask Client ``_executor`` opened (nothing else to close)."""
    close = getattr(executor, "close", None)
    if callable(close):
        close()


def _add_reference(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--reference-rollouts", type=int, default=100,
                        help="greedy play-outs that give a held-out position's true win chance (default 100, at "
                             f"least {MIN_REFERENCE}: with fewer the width is mostly their noise)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 failure, 2 bad input)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse has printed usage and its message already
        return e.code if isinstance(e.code, int) else 2
    try:
        return args.run(args)
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0
    except (UsageError, ValueError, OSError) as e:
        _error(_one_line(e))
        return 2
    except RuntimeError as e:
        _error(_one_line(e))
        return 1
    except KeyboardInterrupt:
        _error("interrupted")
        return 130


def _error(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _one_line(e: BaseException) -> str:
    if isinstance(e, FileNotFoundError) and e.filename:
        return f"no such file: {e.filename}"
    if isinstance(e, IsADirectoryError) and e.filename:
        return f"is a directory, not a file: {e.filename}"
    if isinstance(e, PermissionError) and e.filename:
        return f"permission denied: {e.filename}"
    text = " ".join(str(e).split()) or type(e).__name__
    return text


# -- simulate -------------------------------------------------------------------------------------


def _game_info(args: argparse.Namespace) -> Any:
    """The registered game of ``--game``, with ``--expansion`` checked against its expansions."""
    from .engine.protocol import get_game

    try:
        info = get_game(args.game)
    except ValueError as e:
        raise UsageError(f"--game: {e}") from None
    if args.expansion and args.expansion not in info.expansions:
        raise UsageError(f"--expansion: {info.title} has no expansion {args.expansion!r}")
    return info


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .simulation import parse_lineup, simulate, summarize_bots, summarize_seats

    info = _game_info(args)
    specs = parse_lineup(args.bots)
    players = args.players if args.players is not None else len(specs)
    _check_processes(args)
    if args.csv is not None and not args.csv.parent.is_dir():
        raise UsageError(f"--csv: directory {str(args.csv.parent)!r} does not exist")
    kwargs = {"expansion": args.expansion} if args.expansion else {}
    executor = _executor(args)
    start = time.perf_counter()
    try:
        df = simulate(
            args.games,
            players,
            specs,
            seed=args.seed,
            executor=executor,
            progress=not args.no_progress,
            rotate=args.rotate,
            game=info.name,
            **kwargs,
        )
    finally:
        _close(executor)
    elapsed = time.perf_counter() - start
    if args.csv is not None:
        df.to_csv(args.csv, index=False)

    title = info.title + (f" with {args.expansion.title()}" if args.expansion else "")
    order = "rotated one seat per game" if args.rotate else "fixed"
    print(f"{title}: {args.games} games, {players} players, seed {args.seed}, lineup {order}: {' | '.join(specs)}")
    print(f"{elapsed:.1f} s, {args.games / elapsed:.1f} games/s")
    print()
    print("Per bot")
    print(_table(summarize_bots(df), "bot"))
    print()
    print(f"Per seat (a fair share is {1 / players:.1%})")
    seats = summarize_seats(df)
    seats.index = [f"{i} ({name})" for i, name in zip(seats.index, _seat_names(info.name, players), strict=True)]
    print(_table(seats, "seat"))
    if args.csv is not None:
        print()
        print(f"wrote {len(df)} rows to {args.csv}")
    return 0


def _cmd_puzzles(args: argparse.Namespace) -> int:
    from .puzzles import MineSettings, PuzzleError, merge, mine_game, read_puzzles, write_puzzles

    info = _game_info(args)
    _check_processes(args)
    try:
        players = tuple(int(x) for x in args.players.split(","))
    except ValueError:
        raise UsageError(f"--players: comma-separated numbers, not {args.players!r}") from None
    for n in players:
        if not info.min_players <= n <= info.max_players:
            raise UsageError(f"--players: {info.title} is for {info.min_players} to {info.max_players} players")
    if args.games < 1 or args.decisions < 1 or args.rollouts < 30:
        raise UsageError("--games and --decisions: at least 1; --rollouts: at least 30")
    out = args.out or Path(f"puzzles-{args.expansion or info.name}.json")
    try:
        kept = read_puzzles(out) if out.exists() else []
    except PuzzleError as err:
        raise UsageError(f"--out: {err}") from None
    settings = MineSettings(game=info.name, expansion=args.expansion, players=players,
                            decisions_per_game=args.decisions, verify_rollouts=args.rollouts)
    seeds = range(args.seed, args.seed + args.games)
    from concurrent.futures import ProcessPoolExecutor
    from contextlib import nullcontext

    from .resources import default_processes

    n = args.processes or default_processes(args.games)
    start = time.perf_counter()
    before = len(kept)
    # One game at a time into the file: a long run that is stopped keeps what it found.
    with ProcessPoolExecutor(n) if n > 1 else nullcontext() as pool:
        for k, found in enumerate((pool.map if pool else map)(mine_game, [settings] * len(seeds), seeds)):
            kept = merge(kept, found)
            if kept:  # no empty puzzle file
                write_puzzles(kept, out)
            print(f"game {k + 1}/{len(seeds)}: {len(found)} found, {len(kept)} in {out} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"{len(kept) - before} new puzzles from {args.games} games in {time.perf_counter() - start:.0f} s")
    return 0


def _check_processes(args: argparse.Namespace) -> None:
    if args.processes is not None and args.processes < 1:
        raise UsageError(f"--processes: must be at least 1, got {args.processes}")


def _check_measuring(args: argparse.Namespace) -> None:
    if args.reference_rollouts < MIN_REFERENCE:
        raise UsageError(f"--reference-rollouts: at least {MIN_REFERENCE}, got {args.reference_rollouts}")
    _check_processes(args)


def _cmd_train(args: argparse.Namespace) -> int:
    from .heldout import measure_intervals
    from .value.model import model_path
    from .value.train import train, write_model

    info = _game_info(args)
    if args.games < 10:
        raise UsageError(f"--games: at least 10, got {args.games}")
    if args.interval_games < 0:
        raise UsageError(f"--interval-games: at least 0, got {args.interval_games}")
    _check_measuring(args)
    executor = _executor(args)
    try:
        model = train(info.name, args.players, games=args.games, seed=args.seed, bot=args.bot,
                      expansion=args.expansion, executor=executor, progress=not args.no_progress, out=args.out,
                      catalog=str(args.catalog) if args.catalog else None, head=args.head,
                      write=not args.interval_games)
        if args.interval_games:  # the file is written once, with its intervals: an interrupted run leaves the old one
            model = measure_intervals(model, games=args.interval_games, reference=args.reference_rollouts,
                                      seed=args.seed, options={"catalog": str(args.catalog)} if args.catalog else None,
                                      executor=executor, progress=not args.no_progress)
            write_model(model, args.out or model_path(info.name, args.players, args.expansion))
    finally:
        _close(executor)
    tr = model.training
    print(f"{info.title}{' + ' + args.expansion if args.expansion else ''}, {args.players} players: "
          f"{tr['positions']} positions from {tr['games']} games of {tr['bot']} self-play in {tr['seconds']} s")
    print(f"held-out Brier {tr['held_out_brier']} (1/n: {tr['uniform_brier']}) on {tr['held_out_positions']} "
          f"positions; by round: {tr['held_out_brier_by_round']}")
    _print_intervals(model)
    return 0


def _print_intervals(model: Any) -> None:
    for name, iv in model.intervals.items():
        widths = ", ".join(f"{r}: {q:.2f}" for r, q in zip(iv.rounds, iv.q, strict=True))
        print(f"95% interval of the {name} (± q · sqrt(p(1-p) + 0.01)), q from round: {widths}")


def _cmd_intervals(args: argparse.Namespace) -> int:
    from .heldout import measure_intervals
    from .value.model import load_model, model_path
    from .value.train import write_model

    info = _game_info(args)
    if args.games < 1:
        raise UsageError(f"--games: at least 1, got {args.games}")
    _check_measuring(args)
    path = args.model or model_path(info.name, args.players, args.expansion)
    model = load_model(path=path)
    if (model.game, model.players, model.expansion) != (info.name, args.players, args.expansion):
        what = f"{model.game}{' + ' + model.expansion if model.expansion else ''}, {model.players} players"
        raise UsageError(f"--model: {path} is a model of {what}, not the game asked for")
    seed = args.seed if args.seed is not None else model.training.get("seed", 1)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise UsageError(f"--seed: the model file's training.seed is {seed!r}, not a whole number; give --seed")
    executor = _executor(args)
    try:
        model = measure_intervals(model, games=args.games, reference=args.reference_rollouts, seed=seed,
                                  options={"catalog": str(args.catalog)} if args.catalog else None,
                                  executor=executor, progress=not args.no_progress)
    finally:
        _close(executor)
    write_model(model, path)
    setup = model.training["intervals"]
    print(f"{info.title}{' + ' + args.expansion if args.expansion else ''}, {args.players} players: "
          f"{setup['positions']} held-out positions from {setup['games']} games in {setup['seconds']} s; wrote {path}")
    _print_intervals(model)
    return 0


def _seat_names(game: str, players: int) -> list[str]:
    from . import new_game

    state = new_game(game, players=players, seed=0)
    namer = getattr(state, "seat_name", None)
    return [namer(i) if namer else f"seat {i}" for i in range(players)]


def _table(summary: pd.DataFrame, label: str) -> str:
    """A summary from :func:`summarize_bots` as aligned text: games, win rate, 95% Wilson interval, mean score."""
    shown = pd.DataFrame(
        {
            "games": summary["games"].astype(int),
            "wins": summary["wins"].map(lambda w: f"{w:g}"),
            "win rate": summary["win_rate"].map(lambda p: f"{p:.1%}"),
            "95% CI": [f"{lo:.1%} – {hi:.1%}" for lo, hi in zip(summary["ci_low"], summary["ci_high"], strict=True)],
            "mean score": summary["mean_score"].map(lambda s: f"{s:.2f}"),
            "mean rank": summary["mean_rank"].map(lambda r: f"{r:.2f}"),
        },
        index=summary.index,
    )
    shown.index.name = label
    return shown.to_string()


# -- replay ---------------------------------------------------------------------------------------


def _cmd_replay(args: argparse.Namespace) -> int:
    path: Path = args.record
    if not path.is_file():
        raise UsageError(f"no such file: {path}" if not path.exists() else f"not a file: {path}")
    try:
        from .records import GameRecord
    except ImportError as e:
        raise RuntimeError(f"game records are not available in this installation ({e})") from None
    record = GameRecord.load(path)
    lang = args.lang
    line = record.mainline()
    root = line[0].state
    de = lang == "de"
    players = []
    for seat in range(root.n_players):
        first = next((nd for nd in line[1:] if nd.actor == seat), None)
        players.append(f"{_name(root, seat, lang)} ({_who(first.by) if first is not None else '-'})")
    print(f"{path.name}: {', '.join(players)}")
    for event in root.events:
        print(f"           {root.describe(event, lang)}")
    print()
    print("Zug  Runde  Platz    Aktion" if de else "ply  round  seat     action")
    before = root
    for node in line[1:]:
        state = node.state
        who = _name(state, node.actor, lang) if node.actor is not None else "-"
        print(f"{node.ply:>3}  {before.round:>5}  {who:<8} {node.action}")
        for event in state.events:
            print(f"           {state.describe(event, lang)}")
        before = state
    final = line[-1].state
    print()
    if final.is_over:
        print("Endwertung" if de else "Final scores")
    else:
        print("Zwischenstand (Partie nicht beendet)" if de else "Scores so far (the game is not finished)")
    print(_scores_table(final, lang).to_string(index=False))
    return 0


def _who(by: Any) -> str:
    """Who chose a move: a bot's name (from its parameters) or the name stored for a person."""
    if isinstance(by, dict):
        return str(by.get("bot", by.get("name", "bot")))
    return str(by)


def _name(state: Any, seat: int, lang: str) -> str:
    return str(state.seat_name(seat, lang))


def _scores_table(state: Any, lang: str) -> pd.DataFrame:
    """Seat, name, score, points by category, the game's first declared figure (Die Speicherstadt: coins,
    Packet Row: money) and rank of a position (final if the game is over)."""
    from .engine.protocol import get_game, ranks
    from .records import _support

    metric = next(iter(get_game(state.game).metrics), None)
    support = _support(state.game)
    seat_ranks = ranks(state)
    rows = []
    for seat in range(state.n_players):
        row: dict[str, Any] = {"seat": seat, "name": _name(state, seat, lang), "score": state.score(seat)}
        row.update(state.score_breakdown(seat))
        if metric is not None:
            row[metric.key] = support.seat_row(state, seat)[metric.key]
        row["rank"] = seat_ranks[seat]
        rows.append(row)
    df = pd.DataFrame(rows).sort_values(["rank", "seat"], kind="stable")
    if lang == "de":
        df = df.rename(columns={**_DE_HEADERS, **({metric.key: metric.de} if metric is not None else {})})
    return df


_DE_HEADERS = {"seat": "Platz", "name": "Name", "score": "Punkte", "rank": "Rang"}


if __name__ == "__main__":
    sys.exit(main())
