"""The game's pages (namespace ``rummy``): the game page and its controls (the table),
and opening a table (the lobby). Sockets: ``rummy/routing.py``."""

from django.urls import path

from rummy.lobby import views as lobby
from rummy.table import views as table

app_name = "rummy"

urlpatterns = [
    path("<int:game_id>/", table.table, name="table"),
    path("<int:game_id>/act/", table.act, name="act"),
    path("<int:game_id>/end-early/", table.end_early, name="end_early"),
    path("<int:game_id>/rematch/", lobby.rematch, name="rematch"),
    path("open/<slug:slug>/", lobby.open_table, name="open_table"),
]
