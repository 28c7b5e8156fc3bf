"""``Board(state)`` draws any game's state (a notebook user need not know each game's board class), and a board
refuses a state of a game it does not draw, naming it, without changing what it shows."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.ui import Board, PacketRowBoard


def test_board_of_a_packet_row_state_is_packet_rows_board() -> None:
    state = sl.new_game("packet_row", players=3, seed=1)
    board = Board(state, lang="de", seat=1)
    assert isinstance(board, PacketRowBoard)
    assert board.state is state and board.lang == "de" and board.seat == 1
    assert board.model  # drawn


@pytest.mark.parametrize("options", [{}, {"expansion": "kaispeicher"}])
def test_board_of_die_speicherstadt_stays_a_board(options: dict[str, str]) -> None:
    board = Board(sl.new_game(players=3, seed=1, **options))
    assert isinstance(board, Board) and not isinstance(board, PacketRowBoard) and board.model


def test_a_board_refuses_another_games_state_and_keeps_its_own() -> None:
    board = Board(sl.new_game(players=3, seed=1))
    before = board.state, dict(board.model)
    with pytest.raises(ValueError, match="packet_row"):
        board.state = sl.new_game("packet_row", players=3, seed=1)
    assert (board.state, board.model) == before
