"""Player ratings: Weng-Lin's Plackett-Luce model (``openskill``), one rating per player
per league and one site-wide, from the final places of finished games.

How a finished game is rated is ``leagues.ratings.rating``; how a rating is shown,
``leagues.ratings.display``; the reads of the pages, ``leagues.ratings.reads``; the
profile's chart and a game's changes, ``history``; the chances of finishing first,
``chances`` (the model itself, ``model``); how much of a league's results is skill,
``skill``. A finished game is rated by a background job
(``rummy.background.tasks.rate_game``, which calls ``rating.rate_game``); what this room
needs about games is ``rummy.public.rated_game`` and ``rated_games``.
"""
