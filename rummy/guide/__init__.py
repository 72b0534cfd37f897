"""The "How to play" page: the rule book in plain words, one section per rule id, and the
links that turn a rule id in a message ("(R5.2 b)") into a link to its section.

It reads nothing of the game: no models, no engine state; the other rooms and leagues
(through ``rummy.public``) use its ``rule_links``.
"""
