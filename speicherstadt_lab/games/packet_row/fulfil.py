"""Which contracts a hand can fulfil, and with which cards: the minimal combinations, not every permutation.

A fulfilment is (contracts, ships, goods uses). Ships are ``(from, to)`` destination pairs: ``to != from``
means a captain sends the ship elsewhere. Goods uses are ``(card type, target)``: target ``-1`` for a goods
card used as its own good or for a gold card (its good is not named), otherwise the good a merchant turns
the card into. Everything used is discarded, so the solver lists exactly the *minimal* combinations: no
card (goods, gold, ship, captain, merchant) could be left out. Ships and goods are independent (a ship
serves destinations, goods serve units), so a combination is minimal iff its ship part and its goods part
are. Several contracts at once are listed only when they cannot be split into two fulfilments that each
stand alone (they share a ship, or a goods card is split between them); the split ones are reached by
fulfilling one group after the other, with the same result.

Units of one good are pooled over the contracts fulfilled together (the rulebook lets a goods card be split
between contracts), so the goods side only needs the units per good.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

Ships = tuple[tuple[int, int], ...]
Uses = tuple[tuple[int, int], ...]
Option = tuple[tuple[int, ...], Ships, Uses]
INF = 1 << 30


class Tables:
    """Per card type: kind, good, amount (units; bars for gold), destination, pay. Small ints only."""

    def __init__(self, kinds: list[str], goods: list[int], amounts: list[int], dests: list[int], pays: list[int],
                 n_goods: int) -> None:
        self.kind = kinds
        self.good = goods
        self.amount = amounts
        self.dest = dests
        self.pays = pays
        self.n_goods = n_goods
        self._options: dict[tuple[object, ...], tuple[Option, ...]] = {}
        self._mm: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

    # -- goods ------------------------------------------------------------------------------------

    def need(self, contracts: tuple[int, ...]) -> tuple[int, ...]:
        """The units of each good a set of contracts asks for together, by good index."""
        out = [0] * self.n_goods
        for c in contracts:
            out[self.good[c]] += self.amount[c]
        return tuple(out)

    def min_merchants(self, need: tuple[int, ...], items: tuple[int, ...]) -> int:
        """Fewest merchants with which ``items`` (goods and gold card types) cover ``need``; INF if none."""
        return _min_merchants(self, need, items)

    def fixed_feasible(self, need: tuple[int, ...], uses: Uses) -> bool:
        """Do these uses, with their stated targets (gold free), cover ``need``?"""
        supply = [0] * self.n_goods
        golds: list[int] = []
        for t, target in uses:
            if self.kind[t] == "gold":
                golds.append(self.amount[t])
            else:
                supply[self.good[t] if target < 0 else target] += self.amount[t]
        deficit = tuple(max(0, n - s) for n, s in zip(need, supply, strict=True))
        return _gold_covers(deficit, tuple(sorted(golds, reverse=True)))

    def goods_options(self, need: tuple[int, ...], items: tuple[int, ...], merchants: int) -> list[Uses]:
        """Every minimal way (with the merchants' targets) to cover ``need`` from ``items``."""
        useful = tuple(t for t in items if self.kind[t] == "gold" or merchants > 0 or need[self.good[t]] > 0)
        avail = Counter(useful)
        types = sorted(avail)
        total_need = sum(need)
        out: list[Uses] = []

        def rec(start: int, chosen: tuple[int, ...], have: int) -> None:
            for j in range(start, len(types)):
                t = types[j]
                if chosen.count(t) >= avail[t]:
                    continue
                new = (*chosen, t)
                m = self.min_merchants(need, new)
                if m <= merchants:
                    if all(self.min_merchants(need, _minus(new, x)) > m for x in set(new)):
                        out.extend(self._assignments(need, new, m))
                    continue  # anything added to a feasible set could be left out again
                units = have + self.amount[t]
                more = sum(self.amount[u] * (avail[u] - new.count(u)) for u in types[j:])
                if units + more >= total_need:
                    rec(j, new, units)

        rec(0, (), 0)
        return out

    def _assignments(self, need: tuple[int, ...], cards: tuple[int, ...], m: int) -> list[Uses]:
        """The target assignments of ``cards`` with exactly ``m`` merchant conversions that cover ``need``."""
        goods_cards = [t for t in cards if self.kind[t] != "gold"]
        golds = [(t, -1) for t in cards if self.kind[t] == "gold"]
        if m == 0:
            uses = tuple(sorted([(t, -1) for t in goods_cards] + golds))
            return [uses] if self.fixed_feasible(need, uses) else []
        targets = [h for h in range(self.n_goods) if need[h] > 0]
        kinds = sorted({(t, h) for t in goods_cards for h in targets if h != self.good[t]})
        have = Counter(goods_cards)
        out = []
        for conv in itertools.combinations_with_replacement(kinds, m):
            used = Counter(t for t, _ in conv)
            if any(used[t] > have[t] for t in used):
                continue
            native = [(t, -1) for t in (have - used).elements()]
            uses = tuple(sorted([*native, *conv, *golds]))
            if self.fixed_feasible(need, uses):
                out.append(uses)
        return out

    # -- ships ------------------------------------------------------------------------------------

    @staticmethod
    def ship_options(dests: tuple[int, ...], ships: tuple[int, ...], captains: int) -> list[Ships]:
        """Every minimal way to have one ship per destination in ``dests`` (sorted, distinct)."""
        have = Counter(ships)
        found: set[Ships] = set()

        def rec(i: int, left: Counter[int], caps: int, acc: tuple[tuple[int, int], ...]) -> None:
            if i == len(dests):
                found.add(tuple(sorted(acc)))
                return
            d = dests[i]
            if left[d] > 0:
                left[d] -= 1
                rec(i + 1, left, caps, (*acc, (d, d)))
                left[d] += 1
            if caps > 0:
                for e in sorted(left):
                    if e != d and left[e] > 0:
                        left[e] -= 1
                        rec(i + 1, left, caps - 1, (*acc, (e, d)))
                        left[e] += 1

        rec(0, have, captains, ())
        return sorted(s for s in found if _ships_minimal(s, dests))

    @staticmethod
    def ships_feasible(dests: tuple[int, ...], ships: tuple[int, ...], captains: int) -> bool:
        """Whether ``ships`` (their destinations) reach every one of ``dests``, sailing elsewhere with at most
        ``captains`` captains."""
        have = set(ships)
        redirects = sum(1 for d in dests if d not in have)
        return len(ships) >= len(dests) and redirects <= captains

    # -- whole fulfilments ------------------------------------------------------------------------

    def options(self, contracts: tuple[int, ...], items: tuple[int, ...], ships: tuple[int, ...], captains: int,
                merchants: int) -> tuple[Option, ...]:
        """Every fulfilment the hand allows (sorted inputs; cached by the hand)."""
        key = (contracts, items, ships, captains, merchants)
        hit = self._options.get(key)
        if hit is not None:
            return hit
        result = self._compute(contracts, items, ships, captains, merchants)
        if len(self._options) > 20000:
            self._options.clear()
        self._options[key] = result
        return result

    def _compute(self, contracts: tuple[int, ...], items: tuple[int, ...], ships: tuple[int, ...], captains: int,
                 merchants: int) -> tuple[Option, ...]:
        if not contracts or not items or not ships:
            return ()
        units = [0] * self.n_goods  # units each good could get without a merchant (gold counts for every good)
        gold = 0
        for t in items:
            if self.kind[t] == "gold":
                gold += self.amount[t]
            else:
                units[self.good[t]] += self.amount[t]
        alone = [c for c in contracts
                 if (merchants or units[self.good[c]] + gold >= self.amount[c])
                 and self.ships_feasible((self.dest[c],), ships, captains)
                 and self.min_merchants(self.need((c,)), items) <= merchants]
        out: list[Option] = []
        seen: set[tuple[int, ...]] = set()
        infeasible: list[frozenset[int]] = []
        for size in range(1, len(alone) + 1):
            for pos in itertools.combinations(range(len(alone)), size):
                group = tuple(alone[p] for p in pos)
                if group in seen:
                    continue
                seen.add(group)
                fpos = frozenset(pos)
                if any(bad <= fpos for bad in infeasible):
                    continue
                dests = tuple(sorted({self.dest[c] for c in group}))
                need = self.need(group)
                if not self.ships_feasible(dests, ships, captains) or self.min_merchants(need, items) > merchants:
                    infeasible.append(fpos)
                    continue
                goods = self.goods_options(need, items, merchants)
                for sh in self.ship_options(dests, ships, captains):
                    for uses in goods:
                        if len(group) > 1 and self.splittable(group, sh, uses):
                            continue
                        out.append((group, sh, uses))
        return tuple(out)

    def splittable(self, group: tuple[int, ...], ships: Ships, uses: Uses) -> bool:
        """Can (group, ships, uses) be done as two fulfilments one after the other, with the same cards?"""
        n = len(group)
        kinds = sorted(set(uses))
        counts = Counter(uses)
        for mask in range(1, (1 << n) - 1):
            if not mask & 1:
                continue  # each split once: the first contract is always in part one
            c1 = tuple(group[i] for i in range(n) if mask >> i & 1)
            c2 = tuple(group[i] for i in range(n) if not mask >> i & 1)
            if {self.dest[c] for c in c1} & {self.dest[c] for c in c2}:
                continue
            n1, n2 = self.need(c1), self.need(c2)
            for split in itertools.product(*(range(counts[k] + 1) for k in kinds)):
                u1 = tuple(k for k, m in zip(kinds, split, strict=True) for _ in range(m))
                u2 = tuple(k for k, m in zip(kinds, split, strict=True) for _ in range(counts[k] - m))
                if u1 and u2 and self.fixed_feasible(n1, u1) and self.fixed_feasible(n2, u2):
                    return True
        return False

    def is_minimal(self, need: tuple[int, ...], dests: tuple[int, ...], ships: Ships, uses: Uses) -> bool:
        """No card of this combination could be left out (ships, captains, goods, gold, merchants)."""
        cards = tuple(sorted(t for t, _ in uses))
        m = sum(1 for _, target in uses if target >= 0)
        if self.min_merchants(need, cards) != m:
            return False
        if any(self.min_merchants(need, _minus(cards, x)) <= m for x in set(cards)):
            return False
        return _ships_minimal(ships, dests)


def _ships_minimal(ships: Ships, dests: tuple[int, ...]) -> bool:
    """One ship per destination, and a captain only where no ship of the combination sails there itself."""
    if len(ships) != len(dests) or sorted(b for _, b in ships) != sorted(dests):
        return False
    own = {a for a, _ in ships}
    return sum(1 for a, b in ships if a != b) == sum(1 for d in dests if d not in own)


def _minus(t: tuple[int, ...], x: int) -> tuple[int, ...]:
    i = t.index(x)
    return t[:i] + t[i + 1:]


@lru_cache(maxsize=65536)
def _gold_covers(deficit: tuple[int, ...], golds: tuple[int, ...]) -> bool:
    """Can gold cards (bars each, all for one good) cover the deficits? ``golds`` sorted, largest first."""
    short = [d for d in deficit if d > 0]
    if not short:
        return True
    if sum(golds) < sum(short):
        return False
    g, rest = golds[0], golds[1:]
    tried: set[int] = set()
    for h, d in enumerate(deficit):
        if d > 0 and d not in tried:
            tried.add(d)
            nxt = (*deficit[:h], max(0, d - g), *deficit[h + 1:])
            if _gold_covers(tuple(sorted(nxt, reverse=True)), rest):
                return True
    return False


def _min_merchants(tb: Tables, need: tuple[int, ...], items: tuple[int, ...]) -> int:
    key = (need, items)
    hit = tb._mm.get(key)
    if hit is not None:
        return hit
    goods_cards = [t for t in items if tb.kind[t] != "gold"]
    golds = tuple(sorted((tb.amount[t] for t in items if tb.kind[t] == "gold"), reverse=True))
    if sum(tb.amount[t] for t in items) < sum(need):
        result = INF
    else:
        targets = [h for h in range(tb.n_goods) if need[h] > 0]
        memo: dict[tuple[int, tuple[int, ...]], int] = {}

        def best(i: int, supply: tuple[int, ...]) -> int:
            """Fewest conversions for cards i.. given the (clamped) supply so far."""
            if i == len(goods_cards):
                deficit = tuple(sorted((n - s for n, s in zip(need, supply, strict=True)), reverse=True))
                return 0 if _gold_covers(tuple(max(0, d) for d in deficit), golds) else INF
            k = (i, supply)
            if k in memo:
                return memo[k]
            t = goods_cards[i]
            g, a = tb.good[t], tb.amount[t]
            r = best(i + 1, _add_clamped(supply, g, a, need))
            for h in targets:
                if h != g and supply[h] < need[h]:
                    r = min(r, 1 + best(i + 1, _add_clamped(supply, h, a, need)))
            memo[k] = r
            return r

        result = best(0, (0,) * tb.n_goods)
    if len(tb._mm) > 200000:
        tb._mm.clear()
    tb._mm[key] = result
    return result


def _add_clamped(supply: tuple[int, ...], g: int, a: int, need: tuple[int, ...]) -> tuple[int, ...]:
    return (*supply[:g], min(need[g], supply[g] + a), *supply[g + 1:])
