"""Player ratings: Weng-Lin's Plackett-Luce model (``openskill``), one rating per player
per league and one site-wide, from the final places of finished games.

How a finished game is rated is ``leagues.ratings.rating``; how a rating is shown,
``leagues.ratings.display``; the reads of the pages, ``leagues.ratings.reads``. rummy
tells this room that a game finished through ``game_finished`` (``apps.py``); what it
needs about games is ``rummy.public.rated_game`` and ``rated_games``.
"""
