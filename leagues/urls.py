"""League, season and invite pages (namespace ``leagues``)."""

from django.urls import path

import config.converters  # noqa: F401  (registers <id:…>, the bounded id of every address)
from leagues.views import admin_record, invites, leagues, members, seasons, vacations

app_name = "leagues"

urlpatterns = [
    path("", leagues.league_list, name="list"),
    path("new/", leagues.league_create, name="create"),
    path("invite/<str:token>/", invites.join_invite, name="join_invite"),
    path("<slug:slug>/", leagues.league_detail, name="detail"),
    path("<slug:slug>/join/", leagues.join, name="join"),
    path("<slug:slug>/leave/", leagues.leave, name="leave"),
    path("<slug:slug>/members/", members.members, name="members"),
    path("<slug:slug>/members/<id:pk>/remove/", members.remove_member, name="remove_member"),
    path("<slug:slug>/members/<id:pk>/role/", members.set_role, name="set_role"),
    path("<slug:slug>/invites/", invites.invites, name="invites"),
    path("<slug:slug>/invites/<id:pk>/revoke/", invites.revoke_invite, name="revoke_invite"),
    path("<slug:slug>/record/", admin_record.admin_record, name="admin_record"),
    path("<slug:slug>/seasons/", seasons.season_list, name="seasons"),
    path("<slug:slug>/seasons/new/", seasons.season_create, name="season_create"),
    path("<slug:slug>/seasons/<id:pk>/", seasons.season_detail, name="season"),
    path("<slug:slug>/seasons/<id:pk>/start/", seasons.season_start, name="season_start"),
    path("<slug:slug>/seasons/<id:pk>/close/", seasons.season_close, name="season_close"),
    path("<slug:slug>/seasons/<id:pk>/vacation/", vacations.vacation_page, name="vacation"),
    path("<slug:slug>/seasons/<id:pk>/vacation/now/", vacations.vacation_now, name="vacation_now"),
    path(
        "<slug:slug>/seasons/<id:pk>/vacation/<id:vacation_pk>/stop/",
        vacations.vacation_stop,
        name="vacation_stop",
    ),
    path(
        "<slug:slug>/seasons/<id:pk>/games/<id:game_pk>/void/",
        seasons.void_game,
        name="void_game",
    ),
]
