"""An example Stammtisch bot for Chase the Ace (and a fallback for Rams).

A bot is a Python file with one function, ``choose(view) -> str``, returning one of
``view["legal"]``. The view (docs/view.md) is a plain dict of what this seat may know:
its hand, the public events of this round (``events``) and of earlier rounds
(``history``, showdown cards included), the rules in force and more. A bot that
raises, returns an illegal move or thinks longer than the time limit forfeits that
decision (the first legal move is played and the incident is reported). The bot runs
in a process of its own (docs/bots.md): it sees the view and nothing else, and
what it prints goes to its own standard error.

Run it:

    stammtisch tournament --game chase --players 4 \\
        --seats bot:game/ai/example_bot.py,medium,medium,hard --games 500 --json

Strategy: a threshold player that knows the table size. Swap with a card of 6 or
lower (one lower from the first seat, one higher just before the dealer); the
dealer draws with 7 or lower; never ask a neighbour who shows a King; refuse with a
Queen (house rule) and use a domino swap when the card received is low.
"""

ORDER_LOW = "A23456789TJQK"
ORDER_HIGH = "23456789TJQKA"
CUCKOO = ["Fool", "Lion", "Mask", "Bucket", "Zero", "1", "2", "3", "4", "5", "6", "7",
          "8", "9", "10", "Inn", "Cat", "Horse", "Hussar", "Cuckoo"]

rounds_seen = set()   # module globals persist between calls (a new round: view["round"])


def value(card, rules):
    """1 (lowest) … 13 (highest) on the French scale; the Cuckoo deck squeezed onto it."""
    if card in CUCKOO:
        return 1 + round(CUCKOO.index(card) * 12 / 19)
    order = ORDER_HIGH if rules.get("ace_high") else ORDER_LOW
    return order.index(card[0]) + 1


def choose(view):
    legal = view["legal"]
    rounds_seen.add(view["round"])
    if view["game"] != "chase":
        return legal[0]                  # Rams: play the first legal move
    decision = view.get("decision")
    if decision == "queen":
        return "refuse"
    card = view["hand"][0]
    v = value(card, view["rules"])
    if decision == "domino":
        return "swap" if v <= 3 else "keep"
    if card[0] == "K" or card == "Cuckoo":
        return "keep"                    # a King never loses
    if "draw" in legal:
        return "draw" if v <= 7 else "keep"
    # turn order: the seats after the dealer, clockwise
    active = view["active"]
    i = active.index(view["dealer"])
    order = active[i + 1:] + active[:i + 1]
    pos = order.index(view["seat"])
    left = order[(pos + 1) % len(order)]
    shown = view["faceup"].get(str(left), "")
    if shown[:1] == "K" or shown == "Cuckoo":
        return "keep"                    # the swap would be blocked
    limit = 6 - (pos == 0) + (pos == len(order) - 2)
    return "swap" if v <= limit else "keep"
