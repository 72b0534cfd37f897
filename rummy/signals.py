"""What the games tell the rest of the site, without knowing who listens."""

from django.dispatch import Signal

# A game has just finished (after commit); ``game`` is the finished Game with its seats.
game_finished = Signal()
