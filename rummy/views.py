from django.contrib.auth.decorators import login_required
from django.http import HttpResponse


@login_required
def table(request, game_id):
    return HttpResponse("table")
