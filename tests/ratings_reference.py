#!/usr/bin/env python3
"""ratings_reference.py - the ratings of a field computed independently of
the referee, for tests/test_e2e_report.c: the same model as stats_ratings
(stats.h), fitted another way.

Model: Bradley-Terry on the Elo scale, P(i beats j) = 1 / (1 + 10^((Rj -
Ri) / 400)), a draw half a win and half a loss, plus PRIOR virtual draws of
every engine against an opponent rated 0. The referee fits it with Newton
iterations and takes its intervals from the analytic Hessian; this script
fits it with minorization-maximization (Hunter 2004: gamma_i = W_i / sum_j
n_ij / (gamma_i + gamma_j), the virtual opponent's gamma fixed at 1) and
takes the Hessian by finite differences of the log-likelihood, inverted by
Gauss-Jordan elimination.

Usage: ratings_reference.py JOURNAL [PRIOR]
Reads a journal (JSON lines: a header naming the engines, then one record
per game) and prints one line per engine, in the header's order:
  NAME ELO MARGIN
ELO relative to the field's mean, MARGIN the 95% margin of that difference.
"""
import json
import math
import sys

Z95 = 1.959963984540054
UNIT = 400 / math.log(10)


def read(path):
    names, games = [], []
    with open(path, encoding="utf-8") as f:
        for k, line in enumerate(f):
            obj = json.loads(line)
            if k == 0:
                names = [e["name"] for e in obj["engines"]]
                continue
            a, b = obj["players"]["1"], obj["players"]["2"]
            s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[obj["result"]]
            games.append((names.index(a), names.index(b), s))
    return names, games


def tables(n, games):
    count = [[0.0] * n for _ in range(n)]
    wins = [0.0] * n
    for a, b, s in games:
        count[a][b] += 1
        count[b][a] += 1
        wins[a] += s
        wins[b] += 1 - s
    return count, wins


def mm_fit(n, count, wins, prior):
    gamma = [1.0] * n
    for _ in range(100000):
        new = []
        for i in range(n):
            denom = prior / (gamma[i] + 1.0)
            denom += sum(count[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append((wins[i] + prior / 2) / denom)
        done = max(abs(math.log(x / y)) for x, y in zip(new, gamma)) < 1e-13
        gamma = new
        if done:
            break
    return [math.log(g) for g in gamma]


def loglik(x, n, games, prior):
    total = 0.0
    for a, b, s in games:
        p = 1 / (1 + math.exp(x[b] - x[a]))
        total += s * math.log(p) + (1 - s) * math.log(1 - p)
    for i in range(n):
        p = 1 / (1 + math.exp(-x[i]))
        total += prior / 2 * (math.log(p) + math.log(1 - p))
    return total


def neg_hessian(x, n, games, prior, h=1e-4):
    def f(d):
        return loglik([x[k] + d.get(k, 0.0) for k in range(n)], n, games, prior)
    out = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            out[i][j] = -(f({i: h, j: h} if i != j else {i: 2 * h}) - f({i: h, j: -h} if i != j else {})
                          - f({i: -h, j: h} if i != j else {}) + f({i: -h, j: -h} if i != j else {i: -2 * h})) / (4 * h * h)
    return out


def inverse(m):
    n = len(m)
    a = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[piv] = a[piv], a[c]
        d = a[c][c]
        a[c] = [v / d for v in a[c]]
        for r in range(n):
            if r != c:
                f = a[r][c]
                a[r] = [v - f * w for v, w in zip(a[r], a[c])]
    return [row[n:] for row in a]


def main():
    names, games = read(sys.argv[1])
    prior = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    n = len(names)
    count, wins = tables(n, games)
    x = mm_fit(n, count, wins, prior)
    cov = inverse(neg_hessian(x, n, games, prior))
    mean = sum(x) / n
    for i, name in enumerate(names):
        c = [(k == i) - 1 / n for k in range(n)]
        var = sum(c[a] * cov[a][b] * c[b] for a in range(n) for b in range(n))
        print(f"{name} {(x[i] - mean) * UNIT:.4f} {Z95 * math.sqrt(var) * UNIT:.4f}")


if __name__ == "__main__":
    main()
