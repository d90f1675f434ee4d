"""Every duration of the table, in seconds at normal speed, by name (KPat style), and
the animation-speed setting.

Animators build tweens only from these names; :class:`game.view.anim.Animator` is the
one place that applies the player's speed (:func:`factor`). The thinking pause of
computer players is a setting of its own (``think_pause``), not scaled here.
No pygame.
"""

from __future__ import annotations

import math

# ----------------------------------------------------------------- the speed setting

#: time runs this many times faster than normal; ``off`` finishes every animation at once
SPEEDS = {"off": math.inf, "fast": 2.5, "normal": 1.0, "slow": 0.6,
          "skip": 6.0}       # fast-forward: the computers finish while the person watches


def factor(speed: str) -> float:
    return SPEEDS.get(speed, 1.0)


def reading_factor(speed: str) -> float:
    """How much faster than normal a text put up to be read goes by: as the speed
    setting says, but never faster than ``fast`` (``off`` skips animations, and a
    message must still be readable)."""
    return min(factor(speed), SPEEDS["fast"])


# ----------------------------------------------------------------- building blocks

MOVE = 0.23          # a card sliding to a new place
DEAL = 0.16          # one card dealt
FLIP = 0.18          # a card turned over (shrinks to an edge, grows back)
SWAP = 0.45          # two cards crossing
BUBBLE = 0.75        # a speech bubble stays
BANNER = 1.1         # a banner stays
CHIP = 0.45          # a chip's flight unit
COLLECT = 0.3        # a card gathered to a pile

FLIP_QUICK = FLIP * 0.6               # turning cards down while they are collected
BUBBLE_IN = 0.12
BUBBLE_OUT = 0.35
BANNER_IN = 0.15
BANNER_OUT = 0.25
BUTTON_FADE = 0.3                     # the dealer button appears
BUTTON_MOVE = MOVE * 2                # the dealer button passes on
HIGHLIGHT_GROW = 0.2                  # a card grows to stand out
ROUND_BANNER = 0.35                   # "Round n"

# ----------------------------------------------------------------- lives and the end

CHIP_FLY = CHIP * 1.5                 # a lost life flies to the pot
CHIP_STAGGER = 0.12                   # between the chips of one loss
CHIP_FADE = 0.2
LIVES_UPDATE_DELAY = 0.15             # the plate counts the loss a moment after the chip leaves
AFTER_LOSS = 0.1
GAME_OVER_BANNER = 2.0
CONFETTI = 3.5
END_HOLD = 0.6                        # the finished table stays before the results
DEMO_END_HOLD = 2.5                   # ... before the attract mode's next game

# ----------------------------------------------------------------- Chase the Ace

FIRST_DEALER_DEAL = DEAL * 1.2        # a card dealt face up to find the first dealer
FIRST_DEALER_FLIP_DELAY = DEAL * 0.4
FIRST_DEALER_FLIP = DEAL * 0.8
FIRST_DEALER_SAY = BUBBLE * 1.3
FIRST_DEALER_COLLECT_STAGGER = 0.02
COLLECT_STAGGER = 0.015               # between the cards gathered after a round
SUDDEN_ROUND_BANNER = 0.5
CHASE_RIFFLE_STEP = 0.16              # one of the four halves of a riffle
CUT_SAY = 0.3
RESHUFFLE_BANNER = 0.4
SHOW_SAY = 0.2                        # "I show my low card"
SHOW_HOLD = BUBBLE                    # the shown card stays up
ASK_SAY = 0.35                        # "Swap with …?"
BLOCK_ASK_SAY = 0.3
REVEAL_SAY = BUBBLE * 1.2             # a block or a Queen's refusal is explained
DRAW_SAY = 0.3
DRAW_MOVE = MOVE * 1.4                # the dealer's card to the discards, a new one in
SHOWDOWN_STAGGER = 0.06               # between the cards turned at the showdown
SHOWDOWN_BANNER = 0.5
SHOWDOWN_PAUSE = 0.2
LOSER_GROW = 0.25
SHOWDOWN_HOLD = 0.8

# ----------------------------------------------------------------- Rams

RAMS_COLLECT_STAGGER = 0.01
SUMMARY_IN = 0.2                      # the round's summary table
SUMMARY_HOLD = 2.4
SUMMARY_HOLD_DEMO = 1.6
SUMMARY_OUT = 0.25
RAMS_RIFFLE_STEP = 0.14
RAMS_CUT_SAY = 0.25
RAMS_DEAL_FLY = DEAL * 1.6            # one card's flight to a hand (in the background)
RAMS_DEAL_GAP = DEAL * 0.32           # the next card leaves this much later
TRUMP_BANNER = 0.5
TRUMP_MOVE = MOVE * 1.5
TRUMP_PAUSE = 0.15
TAKE_SAY = 0.4
TAKE_MOVE = MOVE * 2                  # the trump card into the dealer's hand and back
PASS_SAY = 0.4
DECLARE_SAY = 0.45
VOID_BANNER = 0.9
RAMS_BANNER = 1.0
PLAY_MOVE = MOVE * 1.3                # a card to the trick
PLAY_FLIP = FLIP * 0.9
TRICK_PAUSE = 0.25                    # the full trick stays before the winner shows
TRICK_WINNER_GROW = 0.18
TRICK_HOLD = 0.45
TRICK_SWEEP = COLLECT * 1.4           # the trick to the winner's pile
TRICK_SWEEP_STAGGER = 0.03

# ----------------------------------------------------------------- pacing for people

TOAST = 8.0                           # a message over the screen stays (:func:`reading_factor`)

SKIP_HOLD = 1.2                       # a reveal while fast-forwarding: seen, not waited on
CONTINUE_BLINK = 1.6                  # the "continue" hint breathes this slowly

# ----------------------------------------------------------------- the replay viewer

REPLAY_THINK = 0.45                   # between recorded moves at speed 1
