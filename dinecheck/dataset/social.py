"""The reviewer social graph: mutual friendship between reviewer names, and friend circles of 1 or 2 hops."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class SocialGraph:
    """An undirected friend graph over reviewer names (A–B when either lists the other)."""

    __slots__ = ("_adj",)

    def __init__(self, friend_graph: Mapping[str, Iterable[str]] | None = None) -> None:
        adj: dict[str, set[str]] = {}
        for name, friends in (friend_graph or {}).items():
            for friend in friends:
                if friend == name:
                    continue
                adj.setdefault(name, set()).add(friend)
                adj.setdefault(friend, set()).add(name)
        self._adj = {k: frozenset(v) for k, v in adj.items()}

    def friends_of(self, name: str) -> frozenset[str]:
        return self._adj.get(name, frozenset())

    def circle(self, friends: Iterable[str], hops: int = 1) -> frozenset[str]:
        """hops=1: the named friends; hops=2: they plus everyone who is a friend of one of them."""
        base = set(friends)
        if hops <= 1:
            return frozenset(base)
        out = set(base)
        frontier = set(base)
        for _ in range(hops - 1):
            nxt: set[str] = set()
            for name in frontier:
                nxt |= self.friends_of(name)
            nxt -= out
            out |= nxt
            frontier = nxt
        return frozenset(out)

    def as_dict(self) -> dict[str, list[str]]:
        return {k: sorted(v) for k, v in sorted(self._adj.items())}

    def __len__(self) -> int:
        return len(self._adj)
