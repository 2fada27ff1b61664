"""The seats come out in game then seat order by index, and old databases get the index."""

from __future__ import annotations

import sqlite3

from arena.tournament.store import SEATS_IN_ORDER, Store


def _add_game(db: sqlite3.Connection, gid: str, idx: int, positions: list[int]) -> None:
    db.execute(
        "INSERT INTO games (id, idx, deal, rotation, table_idx, preset, players, seed, digest, winner, days, transcript)"
        " VALUES (?, ?, 0, 0, 0, 'p', ?, 0, 'd', 'village', 1, 't')",
        (gid, idx, len(positions)),
    )
    for pos in positions:
        db.execute(
            "INSERT INTO seats (game_id, position, name, participant, agent, initial_role, role, side, won, alive)"
            " VALUES (?, ?, ?, 'bot', 'random', 'villager', 'villager', 'village', 1, 1)",
            (gid, pos, f"P{pos}"),
        )


def test_an_old_database_gets_the_order_index_on_open_and_seats_read_in_plan_order(tmp_path):
    path = tmp_path / "old.sqlite"
    store = Store(path)
    with store.db:
        store.db.execute("DROP INDEX games_order")  # as a database written before the index
        # ids sort against the plan order, seats are inserted out of seat order
        for gid, idx in (("z", 0), ("a", 2), ("m", 1)):
            _add_game(store.db, gid, idx, [2, 0, 1])
    store.close()
    store = Store(path)
    try:
        names = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert "games_order" in names
        got = [(r[0], r[1]) for r in store.seat_rows("s.game_id, s.position")]
        assert got == [(g, p) for g in ("z", "m", "a") for p in (0, 1, 2)]
        assert [r[0] for r in store.seat_outcomes()] == [g for g in ("z", "m", "a") for _ in range(3)]
        plan = " ".join(r[-1] for r in store.db.execute(f"EXPLAIN QUERY PLAN SELECT s.position {SEATS_IN_ORDER}"))
        assert "games_order" in plan and "TEMP B-TREE FOR ORDER BY" not in plan  # at most a sort within a game
    finally:
        store.close()


def test_a_read_only_database_is_read_without_the_index(tmp_path):
    path = tmp_path / "ro.sqlite"
    store = Store(path)
    with store.db:
        store.db.execute("DROP INDEX games_order")
        _add_game(store.db, "g", 0, [1, 0])
    store.close()
    ro = Store.__new__(Store)
    ro.path = path
    ro.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        ro._migrate()  # refused by SQLite as read-only: skipped, not an error
        assert [r[0] for r in ro.seat_rows("s.position")] == [0, 1]
    finally:
        ro.close()


def test_one_read_of_the_seats_gives_the_games_behaviour_and_cache_key_of_the_separate_reads(tmp_path):
    from arena.ratings.from_db import games_key, load_board, load_behaviour, load_games, stored_key

    store = Store(tmp_path / "board.sqlite")
    try:
        with store.db:
            for gid, idx in (("b", 1), ("a", 0)):
                _add_game(store.db, gid, idx, [1, 0])
            store.db.execute("UPDATE seats SET metrics = ? WHERE game_id = 'a' AND position = 0",
                             ('{"decisions_asked": 7, "ballots": 2, "wolf_votes": 1, "expected_wolf_votes": 0.5, "latency_s": 0.25}',))  # fmt: skip
            store.db.execute("UPDATE seats SET metrics = '' WHERE game_id = 'b'")
            store.db.execute("INSERT INTO games (id, idx, deal, rotation, table_idx, preset, players, seed, digest, winner, days, transcript)"
                             " VALUES ('seatless', 2, 0, 0, 0, 'p', 0, 0, 'd', 'village', 1, 't')")  # fmt: skip
        games, behaviour = load_board(store)
        assert games == load_games(store) and [g.id for g in games] == ["a", "b"]
        assert games[0].seats[0].decisions == 7
        assert behaviour == load_behaviour(store) and behaviour["bot"]["wolf_vote_rate"]["rate"] == 0.5
        assert stored_key(store) == games_key(games)
    finally:
        store.close()
