"""Fit the six-card value network (``greenfelt/bots/golf_value.py``).

Approximate policy iteration against greedy, two-player six-card Golf:

1. ``collect``: play a policy against greedy over mirrored deals and keep every
   afterstate of its seat (the position it leaves when its turn ends, from its
   view) with a target: what the hole gave it (``ismcts.golf_reward``), or with
   ``--lam`` below 1 the TD(lambda) blend of that and the values the policy
   computed at its next turns (``golf_value.decide``), far less noisy;
2. ``train``: fit the network to those targets (PyTorch, CPU: ``pip install -e
   '.[fit]'``, only here; the bots run it with numpy);
3. ``play``: the value policy with a network against greedy (win rate of decided
   holes with its 95% interval, points a hole), the same mirrored deals for a seed;
4. ``heldout``: networks' error on the afterstates ``train`` holds out of the same
   data (the same split for the same ``--seed``), the shipped network's included,
   to compare fits on equal terms. ``train --keep best`` keeps the epoch of the
   lowest held-out error: a fit from scratch overfits after three or four.

The shipped network came from (a ``collect`` of 40,000 deals takes 18-40 minutes
on 2 cores, the exploring ones the longest; a ``train`` a minute or two)::

    fit_value.py collect --policy playout --deals 220000 --seed 2 --out d0.npz
    fit_value.py train d0.npz --out n0.npz --epochs 6
    fit_value.py collect --policy n0.npz --deals 40000 --seed 31 --out d1.npz
    fit_value.py train d1.npz --init n0.npz --lr 5e-4 --epochs 4 --out n1.npz
    fit_value.py collect --policy n1.npz --deals 40000 --seed 41 --lam 0.7 --out d2.npz
    fit_value.py train d2.npz --init n1.npz --lr 5e-4 --epochs 4 --out n2.npz
    ...  # the same, a round or two more: nN.npz

and then a round with exploration (``--explore``), two sets played by the
network of the round before (nN) and one by a network fitted on the first two::

    fit_value.py collect --policy nN.npz --deals 40000 --seed 51 --lam 0.7 --out e1.npz
    fit_value.py collect --policy nN.npz --deals 40000 --seed 52 --lam 0.7 \
        --explore 0.1 --out e2.npz
    fit_value.py train e1.npz e2.npz --init nN.npz --lr 5e-4 --epochs 4 --out m.npz
    fit_value.py collect --policy m.npz --deals 40000 --seed 53 --lam 0.7 \
        --explore 0.1 --out e3.npz
    fit_value.py train e1.npz e2.npz e3.npz --init nN.npz --lr 5e-4 --epochs 4 \
        --out shipped.npz
    fit_value.py play --deals 5000 --seed 79 --policy nN.npz --policy shipped.npz

(docs/expert-six-card.md has each round's figures). ``--jobs`` spreads the games
over processes; the same seed gives the same games.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from greenfelt.bots import golf_value
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.golf_playout import playout_policy
from greenfelt.bots.ismcts import golf_reward
from greenfelt.golf import find_preset, new_round
from greenfelt.lab.stats import mean_interval, wilson_interval

RULES = find_preset("six-card")
_models: dict[str, golf_value.ValueModel] = {}


def _model(path: str) -> golf_value.ValueModel:
    if path not in _models:
        _models[path] = golf_value.ValueModel(dict(np.load(path)))
    return _models[path]


def _hole(
    deal: int, me: int, policy: str, lam: float, *, explore: float = 0.0, top: int = 3
) -> tuple[list[list[int]], list[float], list[float], list[int]]:
    """One mirrored half: ``policy`` at seat ``me`` against greedy. Returns the seat's
    afterstates (layout 6, the other's 6, top, unseen 14, closed), their TD and
    Monte Carlo targets, and the scores.

    With ``explore``, that share of the seat's decisions plays another of the
    policy's ``top`` best moves instead of its best, so the network also learns the
    afterstates the policy weighs but rarely plays; the TD(lambda) target of the
    afterstate before such a turn is cut to the value the policy computed there
    (Watkins), since what followed was not the policy's play.
    """
    state = new_round(RULES, 2, deal % 2, rng=random.Random(deal))
    rng = random.Random(deal * 2 + me)
    explorer = random.Random(f"explore:{deal}:{me}")
    model = None if policy == "playout" else _model(policy)
    afterstates: list[list[int]] = []
    following: list[float] = []  # the value at the seat's next turn, per afterstate
    explored: list[bool] = []  # whether that next turn strayed from the policy
    straying = False
    while not state.is_over:
        seat = state.to_move
        if seat != me:
            state.apply_unchecked(greedy_policy(state, rng))
            continue
        if model is None:
            action = playout_policy(state, rng)
        elif state.phase.value == "reveal":
            action = golf_value.value_policy(state, rng)
        else:
            moves = golf_value.options(golf_value.sight(state.view(me)), model)
            action, value = golf_value.best_move(moves)
            if state.phase.value == "turn" and len(following) < len(afterstates):
                following.append(value)
            if explore and len(moves) > 1 and explorer.random() < explore:
                ranked = sorted(moves, key=lambda m: -m[1])[:top]
                action = explorer.choice([a for a, _ in ranked if a != action])
                straying = True
        state.apply_unchecked(action)
        if state.to_move != me and not state.is_over and state.phase.value == "turn":
            s = golf_value.sight(state.view(me))
            closed = int(state.closer == me)
            afterstates.append([*s.mine, *s.theirs, s.top, *s.unseen, closed])
            if len(afterstates) > 1:
                explored.append(straying)
            straying = False
    explored.append(straying)
    scores = state.scores
    assert scores is not None
    result = golf_reward(state)[me]
    targets = []
    g = result
    following += [math.nan] * (len(afterstates) - len(following))
    for v, cut in zip(reversed(following), reversed(explored[: len(afterstates)]), strict=True):
        if math.isnan(v):
            g = result  # no next turn: the hole's own reward
        elif cut:
            g = v  # the next turn strayed: the policy's own value there
        else:
            g = (1 - lam) * v + lam * g
        targets.append(g)
    targets.reverse()
    return afterstates, targets, [result] * len(afterstates), scores


def _play_chunk(args: tuple[str, list[int], float, float]) -> dict[str, Any]:
    policy, deals, lam, explore = args
    rows: list[list[int]] = []
    td: list[float] = []
    mc: list[float] = []
    won: list[float] = []  # per hole, in order: the win value (100, 50 for a tie, 0)
    margins: list[int] = []  # per hole: greedy's points less the policy's
    for deal in deals:
        for me in (0, 1):
            a, t, m, scores = _hole(deal, me, policy, lam, explore=explore)
            rows += a
            td += t
            mc += m
            won.append(
                100.0 if scores[me] < scores[1 - me] else 50.0 * (scores[me] == scores[1 - me])
            )
            margins.append(scores[1 - me] - scores[me])
    return {"rows": rows, "td": td, "mc": mc, "won": won, "margins": margins}


def _games(
    policy: str, deals: int, seed: int, jobs: int, lam: float, *, explore: float = 0.0
) -> dict[str, Any]:
    rng = random.Random(seed)
    ids = [rng.getrandbits(40) for _ in range(deals)]
    chunks = [ids[i : i + 50] for i in range(0, deals, 50)]
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_play_chunk, [(policy, c, lam, explore) for c in chunks]))
    out: dict[str, Any] = {k: [] for k in ("rows", "td", "mc", "won", "margins")}
    for p in parts:
        for key in ("rows", "td", "mc", "won", "margins"):
            out[key] += p[key]
    out["holes"] = 2 * deals
    return out


def _report(name: str, g: dict[str, Any]) -> str:
    """The win rate of decided holes (Wilson interval) and the margin a hole."""
    wins = sum(w == 100.0 for w in g["won"])
    decided = wins + sum(w == 0.0 for w in g["won"])
    rate = wilson_interval(wins, decided)
    assert rate.value is not None and rate.low is not None and rate.high is not None
    return (
        f"{name} vs greedy: {100 * rate.value:.1f}% [{100 * rate.low:.1f},"
        f" {100 * rate.high:.1f}] of {decided} decided holes ({g['holes']} played),"
        f" {sum(g['margins']) / g['holes']:+.2f} points a hole"
    )


def collect(args: argparse.Namespace) -> None:
    start = time.monotonic()
    g = _games(args.policy, args.deals, args.seed, args.jobs, args.lam, explore=args.explore)
    print(_report(args.policy, g))
    rows = np.array(g["rows"], dtype=np.int8).reshape(-1, 28)
    np.savez_compressed(
        args.out,
        mine=rows[:, :6],
        theirs=rows[:, 6:12],
        top=rows[:, 12],
        unseen=rows[:, 13:27],
        closed=rows[:, 27],
        td=np.array(g["td"], dtype=np.float32),
        mc=np.array(g["mc"], dtype=np.float32),
    )
    print(f"{len(rows)} afterstates to {args.out} in {time.monotonic() - start:.0f} s")


def _paired(a: list[float], b: list[float]) -> str:
    """The mean of b - a over the same holes, with its 95% interval."""
    diff = mean_interval([y - x for x, y in zip(a, b, strict=True)])
    assert diff.value is not None and diff.high is not None
    return f"{diff.value:+.2f} +-{diff.high - diff.value:.2f}"


def play(args: argparse.Namespace) -> None:
    policies = args.policy or [str(golf_value.WEIGHTS_PATH)]
    first = None
    for policy in policies:
        g = _games(policy, args.deals, args.seed, args.jobs, 1.0)
        print(_report(policy, g), flush=True)
        if first is None:
            first = g
        else:
            print(
                f"  paired with {policies[0]} on the same holes: win value"
                f" {_paired(first['won'], g['won'])} points of percentage, margin"
                f" {_paired(first['margins'], g['margins'])} points a hole",
                flush=True,
            )


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        sys.exit("train and heldout need PyTorch (CPU): .venv/bin/pip install -e '.[fit]'")
    return torch


def _mse(net: Any, x: Any, y: Any) -> float:
    """The network's mean squared error on inputs ``x`` against targets ``y``."""
    torch = _torch()
    with torch.no_grad():
        return float(((torch.sigmoid(net(x)[:, 0]) - y) ** 2).mean())


def _split(data: list[str], target: str, seed: int) -> tuple[Any, Any, Any, Any]:
    """The collected afterstates as network inputs, split as ``train`` splits them:
    shuffled by ``seed``, the first 50,000 (a tenth at most) held out. Returns the
    held-out inputs and targets, then the fitted ones (torch tensors)."""
    torch = _torch()
    xs, ys = [], []
    for name in data:
        d = np.load(name)
        index, scalars = golf_value.featurize(
            d["mine"], d["theirs"], d["top"], d["unseen"], d["closed"]
        )
        x = np.zeros((len(index), golf_value.FEATURES), dtype=np.float32)
        np.add.at(x, (np.arange(len(index))[:, None], index), 1.0)
        x[:, golf_value.ONE_HOT :] = scalars
        xs.append(x)
        ys.append(d[target])
    x_all = torch.from_numpy(np.concatenate(xs))
    y_all = torch.from_numpy(np.concatenate(ys))
    torch.manual_seed(seed)
    order = torch.randperm(len(y_all))
    x_all, y_all = x_all[order], y_all[order]
    held = min(50_000, len(y_all) // 10)
    return x_all[:held], y_all[:held], x_all[held:], y_all[held:]


def _constant_mse(yv: Any, yt: Any) -> float:
    """The held-out error of the fitted targets' mean: what any fit must beat."""
    return float(((yv - yt.mean()) ** 2).mean())


def heldout(args: argparse.Namespace) -> None:
    """Each network's error on the afterstates ``train`` holds out of ``data``: whether
    a fit generalises better than another, the shipped network included."""
    xv, yv, _, yt = _split(args.data, args.target, args.seed)
    constant = _constant_mse(yv, yt)
    print(f"{len(yv)} afterstates held out of {len(yv) + len(yt)}; a constant: {constant:.5f}")
    for path in args.network or [str(golf_value.WEIGHTS_PATH)]:
        with np.load(path) as w:
            hidden = [w[f"b{i}"].shape[0] for i in range(1, 10) if f"b{i + 1}" in w]
        net, _ = _network(hidden, path)
        print(f"{path}: held-out mse {_mse(net, xv, yv):.5f}")


def _network(hidden: list[int], init: str) -> tuple[Any, list[Any]]:
    """The network ``train`` fits (ReLU layers of ``hidden`` sizes, one output before
    the sigmoid), with the weights of the file ``init`` if one is named; and its
    linear layers."""
    torch = _torch()
    sizes = [golf_value.FEATURES, *hidden, 1]
    layers: list[Any] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*layers)
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    if init:
        with np.load(init) as w:
            for i, m in enumerate(linear):
                m.weight.data = torch.from_numpy(w[f"W{i + 1}"].T.copy()).float()
                m.bias.data = torch.from_numpy(w[f"b{i + 1}"].copy()).float()
    return net, linear


def train(args: argparse.Namespace) -> None:
    torch = _torch()
    torch.set_num_threads(args.threads)
    xv, yv, xt, yt = _split(args.data, args.target, args.seed)
    net, linear = _network([int(h) for h in args.hidden.split(",")], args.init)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    constant = _constant_mse(yv, yt)
    best_mse, best_epoch, best_weights = math.inf, 0, []
    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(yt))
        for i in range(0, len(yt), args.batch):
            idx = perm[i : i + args.batch]
            loss = ((torch.sigmoid(net(xt[idx])[:, 0]) - yt[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        schedule.step()
        net.eval()
        mse = _mse(net, xv, yv)
        print(f"epoch {epoch + 1}: held-out mse {mse:.5f} (a constant: {constant:.5f})")
        if mse < best_mse:
            best_mse, best_epoch = mse, epoch + 1
            best_weights = [(m.weight.data.clone(), m.bias.data.clone()) for m in linear]
    if args.keep == "best" and best_weights:
        for m, (weight, bias) in zip(linear, best_weights, strict=True):
            m.weight.data, m.bias.data = weight, bias
        print(f"kept epoch {best_epoch}, the lowest held-out mse")
    weights = {}
    for i, m in enumerate(linear):
        weights[f"W{i + 1}"] = m.weight.data.numpy().T.copy()
        weights[f"b{i + 1}"] = m.bias.data.numpy().copy()
    np.savez(args.out, **weights)
    print(f"{len(yt)} afterstates fitted; the network to {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description="fit the six-card value network")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="afterstates and targets from games against greedy")
    c.add_argument("--policy", default="playout", help="playout, or a network file (.npz)")
    c.add_argument("--deals", type=int, default=40000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--lam", type=float, default=1.0, help="TD(lambda); 1: what the hole gave")
    c.add_argument(
        "--explore",
        type=float,
        default=0.0,
        help="the share of decisions that play another of the policy's three best moves",
    )
    c.add_argument("--out", required=True)
    t = sub.add_parser("train", help="fit a network to collected afterstates")
    t.add_argument("data", nargs="+")
    t.add_argument("--out", required=True)
    t.add_argument("--init", default="", help="start from this network")
    t.add_argument("--target", choices=("td", "mc"), default="td")
    t.add_argument("--hidden", default="256,128")
    t.add_argument("--epochs", type=int, default=4)
    t.add_argument("--batch", type=int, default=1024)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=1)
    t.add_argument(
        "--keep",
        choices=("last", "best"),
        default="last",
        help="the network of the last epoch (as the shipped one was fitted), or of the"
        " epoch with the lowest held-out mse (a fit from scratch overfits after a few)",
    )
    h = sub.add_parser("heldout", help="networks' error on the afterstates train holds out")
    h.add_argument("data", nargs="+")
    h.add_argument(
        "--network", action="append", help="a network file (.npz); default: the shipped one"
    )
    h.add_argument("--target", choices=("td", "mc"), default="td")
    h.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("play", help="the value policy against greedy")
    p.add_argument(
        "--policy",
        action="append",
        help="a network file (.npz) or playout; repeat to compare on the same deals"
        " (paired with the first); default: the shipped network",
    )
    p.add_argument("--deals", type=int, default=5000)
    p.add_argument("--seed", type=int, default=22)
    p.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    {"collect": collect, "train": train, "heldout": heldout, "play": play}[args.command](args)


if __name__ == "__main__":
    main()
