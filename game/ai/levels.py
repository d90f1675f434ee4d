"""The difficulty levels ``easy``, ``medium``, ``hard``, ``expert`` (``FACTORIES``).

Chase the Ace levels live in :mod:`game.ai.chase_levels` and :mod:`game.ai.expert`;
Rams levels in :mod:`game.ai.rams_levels`. Each level object dispatches on
``view["game"]``: a Chase view goes to the Chase level unchanged, a Rams view to the
Rams level of the same name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from game.ai.chase_levels import ChaseLevel, Easy, Hard, Medium
from game.ai.expert import Expert


def _with_rams(chase_cls: type[ChaseLevel], level: str) -> type[ChaseLevel]:
    """The Chase level class, answering Rams views with the Rams level ``level``."""

    def choose(self: Any, view: Mapping[str, Any]) -> str:
        if view.get("game") == "rams":
            rams = self.__dict__.get("_rams")
            if rams is None:
                from game.ai.rams_levels import make

                rams = self._rams = make(level)
            return str(rams.choose(view))
        return str(chase_cls.choose(self, view))

    return type(chase_cls.__name__, (chase_cls,),
                {"choose": choose, "__module__": chase_cls.__module__,
                 "__doc__": chase_cls.__doc__})


FACTORIES: dict[str, Callable[[], ChaseLevel]] = {
    "easy": _with_rams(Easy, "easy"),
    "medium": _with_rams(Medium, "medium"),
    "hard": _with_rams(Hard, "hard"),
    "expert": _with_rams(Expert, "expert"),
}
