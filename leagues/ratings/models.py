"""Ratings as stored: the current rating of a player in a league and site-wide, and the
history row of every rated game and player, which also keeps a game from being applied
twice (unique on game, player and scope)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    LEAGUE = "league", _("League")
    SITE = "site", _("Site-wide")


class Rating(models.Model):
    """A player's rating in one league, or site-wide (``league`` None): the model's mean
    skill ``mu`` and its uncertainty ``sigma``, after ``games`` rated games."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, null=True, blank=True, related_name="ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            # Two constraints, because NULLs are distinct in a unique index.
            models.UniqueConstraint(
                fields=["user", "league"],
                condition=Q(league__isnull=False),
                name="one_league_rating_per_user",
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(league__isnull=True), name="one_site_rating_per_user"
            ),
        ]

    def __str__(self):
        return f"{self.user_id} in {self.league_id or 'site'}: {self.mu:.2f} ± {self.sigma:.2f}"

    @property
    def scope(self):
        return Scope.SITE if self.league_id is None else Scope.LEAGUE


class RatingChange(models.Model):
    """What one rated game did to one player's rating in one scope."""

    game = models.ForeignKey("rummy.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    scope = models.CharField(max_length=6, choices=Scope.choices)
    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # The final place (1 = first; equal final scores share a place).
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # The player's chance of finishing first as the ratings before the game predicted
    # it (``leagues.ratings.chances``): what the league's figures of skill compare the
    # results with.
    chance_first = models.FloatField(null=True, blank=True)
    # The game's, copied: the order ratings were applied in, and a chart's x axis.
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user", "scope"], name="one_rating_change_per_game_player_scope"
            ),
        ]
        indexes = [models.Index(fields=["user", "league", "finished_at"])]

    def __str__(self):
        return f"game {self.game_id}, user {self.user_id} ({self.scope})"
