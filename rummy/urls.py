from django.urls import path

from rummy import clock_views, views

app_name = "rummy"

urlpatterns = [
    path("<int:game_id>/", views.table, name="table"),
    path("<int:game_id>/act/", views.act, name="act"),
    path("<int:game_id>/end-early/", clock_views.end_early, name="end_early"),
    path("open/<slug:slug>/", views.open_table, name="open_table"),
]
