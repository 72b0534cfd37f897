"""Runner for rule vectors in the ``carousel-vectors/1`` format (shared/conformance/README.md).

    python -m rummy.engine.vectors FILE...

Prints one line per failing case (file, case id, what differed), then
``N passed, M failed``; exits 0 only when nothing failed.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from .actions import apply_action
from .cards import Card, parse_cards
from .errors import RuleError
from .melds import validate_meld
from .scoring import final_result, score_round
from .state import GameState, position

FORMAT = "carousel-vectors/1"
CASE_KINDS = ("meld", "score", "final", "game")
POSITION_KEYS = (
    "hands",
    "table",
    "stock",
    "turn",
    "drawn",
    "final_turns",
    "scores",
    "rounds_won",
    "knock_limit",
    "target",
)


class CaseFailed(Exception):
    """One difference between a vector's expectation and the engine."""


def _hand_key(text: str) -> Counter[str]:
    return Counter(str(c) for c in parse_cards(text))


def _table_key(melds: Iterable[Any]) -> list[tuple[str, ...]]:
    out = []
    for m in melds:
        cards = parse_cards(m) if isinstance(m, str) else list(m)
        out.append(tuple(sorted(str(c) for c in cards)))
    return sorted(out)


def _fmt_table(table: list[list[Card]]) -> list[str]:
    return [" ".join(str(c) for c in m) for m in table]


def _state_value(state: GameState, key: str) -> Any:
    if key in ("round_points", "round_winners"):
        if not state.round_over or state.last_round is None:
            return None
        return state.last_round["points" if key == "round_points" else "winners"]
    return getattr(state, key)


def check_state(state: GameState, expect: dict[str, Any]) -> list[str]:
    """Compare only the keys ``expect`` names; return what differed."""
    diffs = []
    for key, want in expect.items():
        if key == "hands":
            if len(want) != state.n_players or any(
                _hand_key(w) != Counter(str(c) for c in h)
                for w, h in zip(want, state.hands, strict=False)
            ):
                diffs.append(
                    f"hands: expected {want}, got {[' '.join(map(str, h)) for h in state.hands]}"
                )
        elif key == "table":
            if _table_key(want) != _table_key(state.table):
                diffs.append(f"table: expected {want}, got {_fmt_table(state.table)}")
        elif key == "stock":
            if isinstance(want, int) and not isinstance(want, bool):
                if len(state.stock) != want:
                    diffs.append(f"stock: expected {want} cards, got {len(state.stock)}")
            elif [str(c) for c in parse_cards(want)] != [str(c) for c in state.stock]:
                diffs.append(f"stock: expected {want!r}, got {' '.join(map(str, state.stock))!r}")
        elif key in (
            "turn",
            "drawn",
            "final_turns",
            "round_over",
            "round_points",
            "round_winners",
            "scores",
            "rounds_won",
            "game_over",
            "final_scores",
            "game_winners",
        ):
            got = _state_value(state, key)
            if got != want:
                diffs.append(f"{key}: expected {want!r}, got {got!r}")
        else:
            diffs.append(f"unknown expect key {key!r}")
    return diffs


def _run_meld(case: dict[str, Any]) -> list[str]:
    try:
        kind = validate_meld(parse_cards(case["meld"]))
    except RuleError as e:
        if case.get("valid"):
            return [f"expected valid {case.get('kind')}, got {e.code}: {e.message}"]
        if "error" in case and case["error"] != e.code:
            return [f"expected error {case['error']}, got {e.code}: {e.message}"]
        return []
    if not case.get("valid"):
        return [f"expected error {case.get('error')}, got valid {kind}"]
    if "kind" in case and case["kind"] != kind:
        return [f"expected kind {case['kind']}, got {kind}"]
    return []


def _run_score(case: dict[str, Any]) -> list[str]:
    spec = case["score"]
    points, winners = score_round([parse_cards(h) for h in spec["hands"]], spec.get("knocker"))
    got = {"points": points, "winners": winners}
    return [
        f"{k}: expected {v!r}, got {got.get(k)!r}"
        for k, v in case["expect"].items()
        if got.get(k) != v
    ]


def _run_final(case: dict[str, Any]) -> list[str]:
    spec = case["final"]
    over, final, winners = final_result(spec["scores"], spec["rounds_won"], spec.get("target", 150))
    got = {"game_over": over, "final_scores": final, "game_winners": winners}
    return [
        f"{k}: expected {v!r}, got {got.get(k)!r}"
        for k, v in case["expect"].items()
        if got.get(k) != v
    ]


def _run_game(case: dict[str, Any]) -> list[str]:
    spec = case["game"]
    unknown = set(spec) - set(POSITION_KEYS)
    if unknown:
        return [f"unknown position keys {sorted(unknown)}"]
    state = position(**spec)
    for i, step in enumerate(case.get("steps", []), 1):
        action = {k: v for k, v in step.items() if k not in ("seat", "expect", "error")}
        where = f"step {i} ({step.get('do')} by seat {step.get('seat')})"
        before = state.to_dict()
        try:
            after = apply_action(state, step.get("seat"), action)
        except RuleError as e:
            if "error" not in step:
                return [f"{where}: unexpected error {e.code}: {e.message}"]
            if e.code != step["error"]:
                return [f"{where}: expected error {step['error']}, got {e.code}: {e.message}"]
            if state.to_dict() != before:
                return [f"{where}: state changed by a rejected action"]
        else:
            if "error" in step:
                return [f"{where}: expected error {step['error']}, but the action succeeded"]
            state = after
        diffs = check_state(state, step.get("expect", {}))
        if diffs:
            return [f"{where}: {d}" for d in diffs]
    return check_state(state, case.get("expect", {}))


RUNNERS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "meld": _run_meld,
    "score": _run_score,
    "final": _run_final,
    "game": _run_game,
}


def run_case(case: dict[str, Any]) -> list[str]:
    """Run one case; return the differences (empty when it passes)."""
    kinds = [k for k in CASE_KINDS if k in case]
    if len(kinds) != 1:
        return [f"a case needs exactly one of {', '.join(CASE_KINDS)}, found {kinds}"]
    try:
        return RUNNERS[kinds[0]](case)
    except RuleError as e:
        return [f"unexpected error {e.code}: {e.message}"]
    except Exception as e:  # a malformed case or an engine crash: report, keep going
        return [f"crashed: {type(e).__name__}: {e}"]


def run_files(paths: Iterable[str], out: TextIO | None = None) -> tuple[int, int]:
    """Run every case of every file, print failures and the closing line; return
    (passed, failed)."""
    out = out if out is not None else sys.stdout
    passed = failed = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            if data.get("format") != FORMAT:
                raise ValueError(f"format is {data.get('format')!r}, expected {FORMAT!r}")
            cases = data["cases"]
        except Exception as e:
            print(f"{path}: unreadable vector file: {e}", file=out)
            failed += 1
            continue
        for n, case in enumerate(cases):
            case_id = case.get("id", f"#{n}") if isinstance(case, dict) else f"#{n}"
            diffs = run_case(case) if isinstance(case, dict) else ["a case must be an object"]
            if diffs:
                failed += 1
                print(f"{path}: {case_id}: {'; '.join(diffs)}", file=out)
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed", file=out)
    return passed, failed


def main(argv: list[str] | None = None) -> int:
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python -m rummy.engine.vectors FILE...", file=sys.stderr)
        return 2
    _, failed = run_files(paths)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
