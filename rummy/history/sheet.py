"""The score sheet of one game, the one a Carousel table keeps on paper: per round the
dealer, how it ended and who ended it, each seat's revealed hand and count, the round's
points and winners and the running totals; at the end the R9.2 bonuses and the final
ranking.

Only finished rounds are on the sheet, and their hands are public once scored (R7), so
the sheet is the same for everyone who may view the game. ``score_sheet`` reads
nothing from the database: ``rummy.history.views`` passes the game (with its seats),
its ``Round`` rows and the dealer of every deal.
"""

import dataclasses
from dataclasses import dataclass

from django.utils.translation import gettext as _

from rummy import engine
from rummy.engine.scoring import GAME_BONUS, ROUND_WON_BONUS
from rummy.table.presenters import revealed_row


@dataclass(frozen=True)
class Player:
    number: int
    name: str
    username: str
    # A deleted account has no profile to link to (``leagues.erasure``).
    is_deleted: bool = False


def players_of(game):
    return [
        Player(s.number, s.user.name, s.user.username, s.user.is_deleted)
        for s in sorted(game.seated(), key=lambda s: s.number)
        if s.number is not None
    ]


def ending(reason, knocker, winners, went_out, names):
    """How a round ended and who ended it, as one sentence (R6, R7.2, R8)."""
    if reason == engine.RoundEnd.KNOCK and knocker is not None:
        if knocker in winners:
            return _("%(name)s knocked.") % {"name": names[knocker]}
        return _("%(name)s knocked and was undercut.") % {"name": names[knocker]}
    if reason == engine.RoundEnd.GOING_OUT and went_out is not None:
        return _("%(name)s went out.") % {"name": names[went_out]}
    if reason == engine.RoundEnd.STOCK_OUT:
        return _("The stock ran out.")
    return _("The game was ended early.")


def went_out_seat(reason, hands):
    """R6.2: whoever went out holds no card (the Round row keeps the hands, not who)."""
    if reason != engine.RoundEnd.GOING_OUT:
        return None
    return next((n for n, hand in enumerate(hands) if not hand.split()), None)


def round_rows(rounds, players, dealers):
    """Each finished round with its running totals."""
    names = {p.number: p.name for p in players}
    totals = [0] * len(players)
    out = []
    for r in rounds:
        winners = set(r.winners)
        went_out = went_out_seat(r.reason, r.hands)
        seats = []
        for p in players:
            hand = r.hands[p.number] if p.number < len(r.hands) else ""
            points = r.points[p.number] if p.number < len(r.points) else 0
            totals[p.number] += points
            row = revealed_row(
                p.name,
                hand,
                points,
                winner=p.number in winners,
                knocker=r.knocker == p.number,
                went_out=went_out == p.number,
            )
            seats.append(dataclasses.replace(row, total=totals[p.number]))
        dealer = dealers.get(r.number)
        out.append(
            {
                "number": r.number,
                "dealer": names.get(dealer) if dealer is not None else None,
                "reason": r.reason,
                "reason_label": r.get_reason_display(),
                # Who knocked or went out; the stock running out (or an early end) has no
                # one behind it, and its label alone says it (no "The stock ran out: The
                # stock ran out.").
                "ending": ending(r.reason, r.knocker, winners, went_out, names)
                if r.reason in (engine.RoundEnd.KNOCK, engine.RoundEnd.GOING_OUT)
                else None,
                "undercut": r.reason == engine.RoundEnd.KNOCK and r.knocker not in winners,
                "seats": seats,
                "winners": [names[w] for w in sorted(winners) if w in names],
            }
        )
    return out, totals


def final_rows(state, players):
    """R9.2 and R9.3: each seat's score, its bonuses, its final score and place."""
    if state is None or not state.game_over or state.final_scores is None:
        return None
    target = state.settings.target
    rows = []
    for p in players:
        score = state.scores[p.number]
        rows.append(
            {
                "player": p,
                "score": score,
                "game_bonus": GAME_BONUS if score >= target else 0,
                "rounds_won": state.rounds_won[p.number],
                "rounds_bonus": ROUND_WON_BONUS * state.rounds_won[p.number],
                "final": state.final_scores[p.number],
                "winner": p.number in (state.game_winners or []),
            }
        )
    for row in rows:
        row["place"] = 1 + sum(1 for other in rows if other["final"] > row["final"])
    return sorted(rows, key=lambda row: (row["place"], row["player"].number))


def score_sheet(game, rounds, dealers):
    """Everything the sheet shows. ``dealers``: round number -> dealer seat."""
    players = players_of(game)
    state = game.engine_state()
    rows, totals = round_rows(rounds, players, dealers)
    current = None
    if state is not None and not state.game_over and game.is_active:
        names = {p.number: p.name for p in players}
        current = {"number": state.round_no, "dealer": names.get(state.dealer)}
    return {
        "players": players,
        "rounds": rows,
        "totals": totals,
        "current": current,
        "final": final_rows(state, players),
        "ended_early": bool(
            state is not None
            and state.game_over
            and (state.last_round or {}).get("reason") == engine.RoundEnd.ENDED_EARLY
        ),
        "target": game.target_score,
    }
