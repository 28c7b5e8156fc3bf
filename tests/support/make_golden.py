"""(Re)create the golden playthroughs in ``tests/golden/`` that ``tests/games/test_golden.py`` replays.

Usage (from the repository root):

    .venv/bin/python tests/support/make_golden.py           # write tests/golden/*.json
    .venv/bin/python tests/support/make_golden.py --check   # exit 1 if regenerating would change a file

Each file is one seeded game of Die Speicherstadt played by ``RandomBot``s through ``play_game``: the
players, the game seed, the bots' seeds, the actions in notation and the outcome (rounds, scores, score
breakdowns, coins, winners). ``speicherstadt_<n>p.json`` are base games; ``kaispeicher_<n>p.json`` are games
with the Kaispeicher expansion (their record says ``"expansion": "kaispeicher"``). The files are regression
data: regenerate them only after a deliberate change of the rules or of the random bot, and say so in the commit.

A seeded ``RandomBot`` chooses the same in every process (its per-decision seed is a CRC of the
observation), so running this script again on unchanged rules rewrites identical files; ``--check``
verifies exactly that. A game that has not ended after ``MAX_STEPS`` decisions is an error (every loading
turn is finite, so a bot game always ends).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file: tests/support/make_golden.py)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import speicherstadt_lab as sl  # noqa: E402
from speicherstadt_lab.bots import RandomBot, play_game  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
FORMAT = "speicherstadt-lab/golden/1"
#: (players, game seed) of each golden file.
GAMES = ((2, 101), (3, 202), (4, 303), (5, 404))
#: (players, game seed) of each golden file with the Kaispeicher expansion.
KAI_GAMES = ((2, 111), (3, 222), (4, 333), (5, 444))
MAX_STEPS = 3000


def bot_seeds(players: int, seed: int) -> list[int]:
    """The ``RandomBot`` seed of each seat for a game seed."""
    return [1000 * seed + seat for seat in range(players)]


def bot_game(start: Any, game: str, seed: int, purse: str, **head: Any) -> dict[str, Any]:
    """The golden record of ``RandomBot``s playing ``game`` from ``start`` (made with the game ``seed``): ``head``
    follows the game's name, ``purse`` names the seats' money (``coins``, ``money``) in the state and the record."""
    players = start.n_players
    seeds = bot_seeds(players, seed)
    final, actions = play_game(start, [RandomBot(seed=b) for b in seeds], max_steps=MAX_STEPS)
    return {
        "format": FORMAT,
        "game": game,
        **head,
        "players": players,
        "seed": seed,
        "bots": [{"bot": "random", "seed": b} for b in seeds],
        "rounds": final.round,
        "decisions": len(actions),
        "scores": list(final.scores()),
        "breakdowns": [final.score_breakdown(i) for i in range(players)],
        purse: list(getattr(final, purse)),
        "winners": final.winners(),
        "actions": actions,
    }


def generate(players: int, seed: int, expansion: str | None = None) -> dict[str, Any]:
    """The golden record of one bot game (base game records have no ``expansion`` field)."""
    head = {"expansion": expansion} if expansion is not None else {}
    return bot_game(sl.new_game(players=players, seed=seed, expansion=expansion), "speicherstadt", seed, "coins",
                    **head)


def path_for(players: int, expansion: str | None = None) -> Path:
    return GOLDEN / f"{expansion or 'speicherstadt'}_{players}p.json"


def dumps(record: dict[str, Any]) -> str:
    """The file text: one key per line, the action list one action per line (reviewable diffs)."""
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"


#: (players, game seed) of each Packet Row golden file (``packet_row_<n>p.json``).
PACKET_ROW_GAMES = ((2, 505), (3, 606), (4, 707), (5, 808))


def generate_packet_row(players: int, seed: int) -> dict[str, Any]:
    """The golden record of one Packet Row bot game (money instead of coins)."""
    return bot_game(sl.new_game("packet_row", players=players, seed=seed), "packet_row", seed, "money")


def _emit(path: Path, text: str, check: bool, changed: list[str]) -> None:
    """Write ``text`` to ``path``, or with ``check`` note the file in ``changed`` if it differs."""
    if check:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            changed.append(path.name)
    else:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored files instead of writing")
    args = parser.parse_args(argv)
    changed = []
    games = [(p, s, None) for p, s in GAMES] + [(p, s, "kaispeicher") for p, s in KAI_GAMES]
    for players, seed, expansion in games:
        _emit(path_for(players, expansion), dumps(generate(players, seed, expansion)), args.check, changed)
    for players, seed in PACKET_ROW_GAMES:
        _emit(GOLDEN / f"packet_row_{players}p.json", dumps(generate_packet_row(players, seed)), args.check, changed)
    if changed:
        print(f"differs from a fresh generation: {', '.join(changed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
