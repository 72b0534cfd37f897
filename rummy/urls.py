from django.urls import path

from rummy import views

app_name = "rummy"

urlpatterns = [
    path("<int:game_id>/", views.table, name="table"),
]
