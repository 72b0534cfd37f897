"""What one copy of a message costs its socket in queries (chat.public.deliver)."""

from chat import public, services


def test_a_copy_costs_four_queries(world, django_assert_num_queries):
    message, _ = services.post(world["cast"]["carol"], world["game"], text="hi", token="a")
    event = {"message_id": message.pk, "new": True}
    # the message with its game and league, the reader's membership, seat and blocks
    with django_assert_num_queries(4):
        assert "hi" in public.deliver(world["cast"]["hank"], world["game"].pk, event)
