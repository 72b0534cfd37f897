from django.urls import path

from rummy import views

app_name = "rummy"

urlpatterns = [
    path("<int:game_id>/", views.table, name="table"),
    path("<int:game_id>/act/", views.act, name="act"),
    path("open/<slug:slug>/", views.open_table, name="open_table"),
]
