"""Bots: players the server itself plays, so that two friends, or one, can have a game.

A bot sees what a person in its seat sees (the seat's view) and nothing else,
and acts through the same action path as everyone. Its sense of words is a
small embedding model run on the CPU (``model``); ``writing`` finds its clues,
``guessing`` rebuilds a clover from clues, and ``player`` turns a view into
its next action. The service's side, which plays the bots of every room at a
person's pace, is ``app.service.bots``.

The brain is an optional extra (``pip install .[bots]``); this package imports
its heavy parts only when a bot first thinks.
"""

LANGUAGES = frozenset({"en"})
"""The rooms' languages bots play in: the model knows English words only."""
