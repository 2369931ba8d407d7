"""Recall (1-4 players): content, board, setup, scoring and positions (docs/recall_content.md)."""
