"""A game's history, read-only: the score sheet, the replay, the portable record
(``carousel-vectors/1``), the season downloads, the check that every stored game
replays (``manage.py verify_games``) and a player's record on their profile.

Nothing here writes a game: it reads the move log and replays it through the engine
(``rummy.play.replay.apply_move``), and asks ``rummy.table.access`` who may look.
"""
