#!/bin/sh
# An example Stammtisch bot in POSIX shell: the bot protocol needs no Python.
#
# The tournament starts this program once and writes one view per line on its
# standard input (the view (docs/view.md) as one JSON object). For every line the bot writes
# one line: its move. This bot plays Chase the Ace by a threshold: swap (or, as the
# dealer, draw) with an Ace to a 6, keep anything higher. In any other decision, and
# in Rams, it plays the first legal move.
#
#   stammtisch tournament --game chase --players 4 \
#       --seats exe:game/ai/example_bot.sh,medium,medium,hard --games 200 --json
#
# No JSON parser is needed for this: the view's keys are written without spaces, so
# the shell's pattern matching finds "legal":[...] and "hand":[...] in the line.

while IFS= read -r view; do
    legal=${view#*\"legal\":[}          # the legal moves: "keep","swap"]...
    legal=${legal%%]*}
    first=${legal#\"}                   # the first of them
    first=${first%%\"*}
    hand=${view#*\"hand\":[\"}          # this seat's first card, e.g. 5H
    card=${hand%%\"*}
    move=$first
    case $view in
        *\"game\":\"chase\"*)
            case $legal in
                *\"swap\"*) low=swap ;;
                *\"draw\"*) low=draw ;;
                *) low= ;;
            esac
            case $card in
                [A23456]?) [ -n "$low" ] && move=$low ;;
                *) case $legal in *\"keep\"*) move=keep ;; esac ;;
            esac
            ;;
    esac
    printf '%s\n' "$move"
done
