from rummy.models import Game


def move_count(request):
    """How many games await the signed-in user's move, for the header badge."""
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    return {"move_count": Game.objects.filter(status=Game.Status.ACTIVE, to_move=user).count()}
