from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("games/<id:game_id>/chat/", views.thread, name="thread"),
    path("games/<id:game_id>/chat/post/", views.post, name="post"),
    path("games/<id:game_id>/chat/read/", views.read, name="read"),
    path("chat/messages/<id:pk>/", views.message, name="message"),
    path("leagues/<slug:slug>/chat/", views.league, name="league"),
    path("leagues/<slug:slug>/board/", views.board_page, name="board"),
    path("leagues/<slug:slug>/board/<id:pk>/", views.board_post, name="board_post"),
]
