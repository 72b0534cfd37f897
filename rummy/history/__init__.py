"""A game's history, read-only: the score sheet, the replay, the portable record
(``carousel-vectors/1``), the season downloads, the check that every stored game
replays (``manage.py verify_games``), a player's record on their profile, the hints a
game's players used, and its missed plays (``review``: solved once by the background
pass after the game, stored as ``TurnReview`` rows; ``missed``: the record's reading).

Nothing here writes a game (the review writes only its own rows): it reads the move
log and replays it through the engine (``rummy.play.replay.apply_move``), and asks
``rummy.table.access`` who may look.
"""
