"""The web table: the page, its server routes, sessions, and live updates (DESIGN.md
"The web table"). Game-specific parts live in each wing (bot/games/<game>/web.py)."""
