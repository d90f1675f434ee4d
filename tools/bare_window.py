"""The smallest pygame-ce program that opens a window: the yardstick for the frozen build.

``tools/bare.spec`` freezes it the same way ``build.spec`` freezes the game, and
``tools/bench_build.py`` compares their folder sizes and start-up times.
It opens a 1280x720 resizable window, draws one frame and exits 0.
"""

import os
import sys


def main() -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.init()
    screen = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
    pygame.display.set_caption("bare window")
    screen.fill((20, 90, 50))
    pygame.display.flip()
    pygame.event.pump()
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
