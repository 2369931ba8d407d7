"""What a player may see (RC-A68, model doc "What a player observes")."""
from __future__ import annotations


def _copy(x):
    return list(x) if isinstance(x, list) else x


class Observe:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    def observation(self, viewer: int) -> dict:
        """Everything ``viewer`` may know, as plain values; hidden information never enters it.

        Hidden: other players' chest tiles (their count is public) and goal cards, deck and stack
        orders, face-down tiles, old tribes and item stacks before they are revealed, the bag's
        order (its counts are public).
        """
        n = self.n
        face_up_field = [self.slot_of_field[f] < 0 or self.face_up[self.slot_of_field[f]] for f in range(self.NF)]
        board = {name: [getattr(self, name)[f] if face_up_field[f] else None for f in range(self.NF)]
                 for name in ("terr", "art", "pigs", "farm", "island", "ring", "camp", "startno", "pigpic")}
        board["site"] = [sorted(self.site[f]) for f in range(self.NF)]
        players = []
        for p in range(n):
            seen = {name: _copy(getattr(self, name)[p])
                    for name in ("fol", "bld", "cr", "score", "purple", "trk", "stones", "placed", "avail",
                                 "slots", "sanct", "ws", "mons", "arts", "upg", "tribe", "items", "unlocked",
                                 "paths", "raft", "raft_fol", "start_field", "supply")}
            seen["uses"] = sorted(self.uses[p].items())
            seen["camp_got"] = sorted(self.camp_got[p])
            seen["chest_count"] = sum(self.chests[p])
            seen["goal_count"] = len(self.goals[p])
            if p == viewer:
                seen["chests"] = list(self.chests[p])
                seen["goals"] = list(self.goals[p])
            players.append(seen)
        return {
            "viewer": viewer, "space": self.space, "active": self.active,
            "decider": self.decider, "kind": self.kind, "legal": tuple(self.legal_list()) if self.decider == viewer else (),
            "face_up": list(self.face_up), "rotation": [self.rotation[k] if self.face_up[k] else None for k in range(self.NS)],
            "tile": [self.slot_tile[k] if self.face_up[k] else None for k in range(self.NS)],
            "board": board, "mon_tile": sorted(self.mon_tile.items()), "players": players,
            "light": list(self.light), "dark": list(self.dark), "paths": list(self.path_at), "sides": list(self.side_at),
            "symbol_letter": list(self.symbol_letter), "upg_left": list(self.upg_left),
            "yellow": sorted(self.yellow.items()), "display": {c: list(v) for c, v in self.display.items()},
            "deck_sizes": {c: len(v) for c, v in self.decks.items()},
            "art_display": list(self.art_display), "mon_display": list(self.mon_display),
            "bag_art": list(self.bag_art), "bag_stone": list(self.bag_stone),
            "chest_stack_size": len(self.chest_stack), "chest_discard": list(self.chest_discard),
            "old_tribe": [self.old_tribe[t] if self.revealed[t] else None for t in range(3)],
            "item_stack": [list(self.item_stack[t]) if self.revealed[t] else len(self.item_stack[t]) for t in range(3)],
            "third_first": list(self.third_first), "rings_left": len(self.ring_left),
            "pending": [(item, src) for item, src in self.turn["pending"]] if self.turn else None,
        }
