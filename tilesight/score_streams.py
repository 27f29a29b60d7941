"""How far score capture has stored each table's ``(epoch, seq)`` stream: the seqs stored, the
contiguous run from 1, and the seq the table's retained state announced (the holes between are
what :class:`tilesight.scores.ScoreConsumer` asks a resync for)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class StreamProgress:
    """What one consumer knows of one table's ``(epoch, seq)`` stream."""

    seen: set[int] = field(default_factory=set)
    contiguous: int = 0  # every seq 1..contiguous is stored
    announced: int = 0  # the table's retained state says it reached this seq
    gap_since: float | None = None
    asked_at: float = 0.0

    def add(self, seq: int) -> None:
        if seq <= self.contiguous:
            return  # a duplicate or a replay of something already stored
        self.seen.add(seq)
        while self.contiguous + 1 in self.seen:
            self.contiguous += 1
            self.seen.discard(self.contiguous)

    @property
    def end(self) -> int:
        return max([self.announced, self.contiguous, *self.seen])
