"""The rating model, made once: Weng-Lin's Plackett-Luce (``openskill``, pinned in
requirements.in) with the library's defaults (μ 25, σ 25/3, β 25/6, τ 25/300). A
module of its own, importing nothing of ours, so that the write path may predict a
table's chances without importing the rating of games (which reads rummy.public)."""

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
