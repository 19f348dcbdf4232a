#!/usr/bin/env python3
"""ghs08_words.py: GHS08's Algorithm 1 against GHS08's definitions, by enumeration.

GHS08 (Guerraoui, Henzinger, Singh, CONCUR 2008) define strict
serializability (pi_ss) and opacity (pi_op) on words of statements
(read, v)_t, (write, v)_t, commit_t, abort_t by conflicts and real-time
order (their Section 2), and give deterministic specification automata for
them (Section 3.2, Algorithm 1). This script enumerates every word in which
each thread runs one transaction (as in specs/StrictSerializability.yaml and
specs/Opacity.yaml, where a TM transaction is used once), with at most
--per-thread statements per thread, and compares membership in the language
of Algorithm 1 with membership in pi, both as printed and with the
correction of the write case (a reader u of the written variable is a weak
predecessor of the writer t only when u != t). Both languages are
prefix-closed, so the enumeration stops below a word that both reject.

  scripts/ghs08_words.py [--threads 2] [--vars 2] [--per-thread 3]

prints, for each property and each version of Algorithm 1, the number of
words visited, the number on which Algorithm 1 and the definition disagree,
and the shortest such words. Exit status 1 when the corrected algorithm
disagrees with the definition on some word.
"""
import argparse
import copy
import itertools
import sys


def in_pi(w, prop):
    """Membership of word w (a list of (kind, var, thread)) in pi_ss or pi_op."""
    tx = {}
    for i, (_, _, t) in enumerate(w):
        tx.setdefault(t, []).append(i)
    status = {t: w[ix[-1]][0] if w[ix[-1]][0] in 'ca' else 'u' for t, ix in tx.items()}
    # pi_ss looks at com(w), the committing transactions; pi_op at all of them.
    keep = {t for t in tx if status[t] == 'c'} if prop == 'ss' else set(tx)
    writes = {t: {w[i][1] for i in tx[t] if w[i][0] == 'w'} for t in tx}
    gread = set()  # positions of global reads
    for t in tx:
        written = set()
        for i in tx[t]:
            k, v, _ = w[i]
            if k == 'w':
                written.add(v)
            if k == 'r' and v not in written:
                gread.add(i)
    before = set()  # (x, y): x must come before y in the sequential word
    idx = [i for i in range(len(w)) if w[i][2] in keep]
    for a in range(len(idx)):
        for b in range(a + 1, len(idx)):
            i, j = idx[a], idx[b]
            (ki, vi, x), (kj, vj, y) = w[i], w[j]
            if x == y:
                continue
            if ((i in gread and kj == 'c' and vi in writes[y])
                    or (j in gread and ki == 'c' and vj in writes[x])
                    or (ki == 'c' and kj == 'c' and writes[x] & writes[y])):
                before.add((x, y))
    for x in keep:
        if status[x] in 'ca':
            for y in keep:
                if y != x and tx[x][-1] < tx[y][0]:
                    before.add((x, y))
    for perm in itertools.permutations(sorted(keep)):
        pos = {t: i for i, t in enumerate(perm)}
        if all(pos[a] < pos[b] for a, b in before):
            return True
    return False


class State:
    """A state <Status, rs, ws, prs, pws, wp, sp> of Algorithm 1."""

    def __init__(self, threads):
        self.status = {t: 'finished' for t in threads}
        self.rs, self.ws, self.prs, self.pws, self.wp, self.sp = (
            {t: set() for t in threads} for _ in range(6))


def reset(q, t):
    q.status[t] = 'finished'
    for m in (q.rs, q.ws, q.prs, q.pws, q.wp, q.sp):
        m[t] = set()


def start(q, t):
    if q.status[t] == 'finished':
        pend = [u for u in q.status if q.status[u] == 'pending']
        for u in pend:
            q.wp[t].add(u)
            q.sp[t].add(u)
        for u in pend:
            q.sp[t] |= q.sp[u]
        q.status[t] = 'started'


def spec_transition(q0, s, prop, corrected):
    """Algorithm 1: the successor of q0 by statement s, or None for bottom."""
    q = copy.deepcopy(q0)
    threads = list(q.status)
    k, v, t = s
    if k == 'r':
        if v in q.ws[t]:
            return q
        U = set()
        if prop == 'op':
            U = {u for u in threads
                 if v in q.prs[u] or any(v in q.prs[u2] and u in q.sp[u2] for u2 in threads)}
            if t in U or any(t in q.sp[u] for u in U):
                return None
        start(q, t)
        q.rs[t].add(v)
        if v in q.prs[t]:
            q.status[t] = 'aborted'
        for u in threads:
            if v in q.ws[u]:
                q.wp[u].add(t)
            if v in q.prs[u]:
                q.wp[t].add(u)
        if prop == 'ss':
            return q
        for u in threads:
            if u == t or t in q.sp[u]:
                q.sp[u] |= U
        for u in threads:
            if u in q.sp[t]:
                q.pws[u].add(v)
                if v in q.ws[u]:
                    q.status[u] = 'aborted'
        return q
    if k == 'w':
        start(q, t)
        q.ws[t].add(v)
        if v in q.pws[t]:
            q.status[t] = 'aborted'
        for u in threads:
            if v in q.rs[u] and not (corrected and u == t):
                q.wp[t].add(u)
                if prop == 'op' and t in q.sp[u]:
                    q.status[t] = 'aborted'
            if v in q.pws[u]:
                q.wp[t].add(u)
        return q
    if k == 'c':
        if t in q.wp[t]:
            return None
        U = set()
        if prop == 'op':
            U = {u for u in threads if u in q.wp[t] or any(u in q.sp[u2] for u2 in q.wp[t])}
            if t in U or any(t in q.sp[u] for u in U):
                return None
        for u in threads:
            if u in q.wp[t]:
                q.status[u] = 'aborted' if q.ws[u] & q.ws[t] else 'pending'
                q.prs[u] |= q.prs[t] | q.ws[t]
                q.pws[u] |= q.pws[t] | q.ws[t] | q.rs[t]
                for u2 in threads:
                    if t in q.wp[u2] or q.ws[u2] & q.ws[t]:
                        q.wp[u2].add(u)
        for u in threads:
            if u == t or t in q.sp[u]:
                q.sp[u] |= U
        reset(q, t)
        return q
    reset(q, t)  # abort
    return q


def compare(n, k, per, prop, corrected):
    threads = list(range(1, n + 1))
    stmts = {t: [('r', v, t) for v in range(1, k + 1)] + [('w', v, t) for v in range(1, k + 1)]
             + [('c', 0, t), ('a', 0, t)] for t in threads}
    diffs = []
    visited = 0

    def rec(w, q, done, lens):
        nonlocal visited
        visited += 1
        for t in threads:
            if t in done or lens[t] >= per:
                continue
            for s in stmts[t]:
                w2 = w + [s]
                q2 = spec_transition(q, s, prop, corrected) if q is not None else None
                p = in_pi(w2, prop)
                if (q2 is not None) != p:
                    diffs.append((p, w2))
                if q2 is None and not p:
                    continue
                rec(w2, q2, done | ({t} if s[0] in 'ca' else set()), {**lens, t: lens[t] + 1})

    rec([], State(threads), frozenset(), {t: 0 for t in threads})
    diffs.sort(key=lambda d: len(d[1]))
    return visited, diffs


def show(w):
    return ' '.join(f"({k},{v})_{t}" if k in 'rw' else f"{'c' if k == 'c' else 'a'}_{t}" for k, v, t in w)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--vars', type=int, default=2)
    ap.add_argument('--per-thread', type=int, default=3)
    a = ap.parse_args()
    bad = False
    for prop in ('ss', 'op'):
        for corrected in (False, True):
            visited, diffs = compare(a.threads, a.vars, a.per_thread, prop, corrected)
            name = 'corrected' if corrected else 'as printed'
            print(f"pi_{prop}, Algorithm 1 {name}: {a.threads} threads, {a.vars} variables, "
                  f"at most {a.per_thread} statements per thread: {visited} words, {len(diffs)} disagreements")
            for p, w in diffs[:3]:
                print(f"  {'in' if p else 'not in'} pi_{prop}, {'rejected' if p else 'accepted'} by Algorithm 1: {show(w)}")
            bad = bad or (corrected and diffs)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
