"""The game's pages (namespace ``rummy``): the game page and its controls (the table),
opening a table (the lobby), a game's score sheet, replay and downloads (the history).
Sockets: ``rummy/routing.py``."""

from django.urls import path

import config.converters  # noqa: F401  (registers <id:…>, the bounded id of every address)
from rummy.history import views as history
from rummy.lobby import views as lobby
from rummy.table import views as table

app_name = "rummy"

urlpatterns = [
    path("<id:game_id>/", table.table, name="table"),
    path("<id:game_id>/act/", table.act, name="act"),
    path("<id:game_id>/end-early/", table.end_early, name="end_early"),
    path("<id:game_id>/rematch/", lobby.rematch, name="rematch"),
    path("open/<slug:slug>/", lobby.open_table, name="open_table"),
    path("practice/", lobby.practice, name="practice"),
    # A game's history (rummy.history): read-only.
    path("<id:game_id>/record/", history.record, name="record"),
    path("<id:game_id>/record.json", history.record_json, name="record_json"),
    path("<id:game_id>/replay/", history.replay, name="replay"),
    path("seasons/<id:pk>/games.jsonl", history.season_games, name="season_games"),
    path("seasons/<id:pk>/results.csv", history.season_results, name="season_results"),
]
