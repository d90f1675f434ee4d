"""Placeholder window until the table lands (replaced by the app shell)."""

from __future__ import annotations

import argparse


def run(opts: argparse.Namespace) -> int:
    import pygame

    pygame.init()
    size = opts.size or (1280, 720)
    screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.display.set_caption("Stammtisch")
    screen.fill((20, 90, 50))
    pygame.display.flip()
    if opts.smoke_test:
        pygame.quit()
        return 0
    clock = pygame.time.Clock()
    running = True
    elapsed = 0.0
    while running:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
        elapsed += clock.tick(30) / 1000
        if opts.quit_after is not None and elapsed >= opts.quit_after:
            running = False
    pygame.quit()
    return 0
