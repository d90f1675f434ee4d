"""Where the phone server listens, and whom it answers: the local network only.

The server binds to this computer's loopback address and to its addresses in private
ranges (10/8, 172.16/12, 192.168/16, IPv6 unique-local) or link-local ranges
(169.254/16, fe80::/10), never to a public address or to "every interface". Every
request is checked once more against the peer's address (:func:`allowed_peer`), so a
router that forwards a port from the internet still gets nothing.
"""

from __future__ import annotations

import ipaddress
import socket

LOOPBACK = "127.0.0.1"
#: An address of the documentation range TEST-NET-1: never routed anywhere. Asking
#: the system which local address would reach it names the computer's main network
#: address; a UDP socket's ``connect`` only consults the routing table and sends nothing.
_PROBE = ("192.0.2.1", 9)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


#: The ranges a phone may come from: loopback, private (RFC 1918, IPv6 unique-local)
#: and link-local. Listed, not taken from ``ipaddress.is_private``, which also counts
#: documentation and benchmark ranges.
LOCAL_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
    "::1/128", "fc00::/7", "fe80::/10"))


def is_local(text: str) -> bool:
    """True for a loopback, private or link-local address."""
    ip = _ip(text)
    return ip is not None and any(ip in net for net in LOCAL_NETWORKS
                                  if net.version == ip.version)


def allowed_peer(text: str | None) -> bool:
    """Whether a device at this address may talk to the server."""
    return bool(text) and is_local(str(text))


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on a local network (private or link-local),
    main one first; empty when it has none (then only this computer can join)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_PROBE)
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    out: list[str] = []
    for addr in found:
        ip = _ip(addr)
        if ip is not None and not ip.is_loopback and is_local(addr) and addr not in out:
            out.append(addr)
    return out


def listen_hosts(bind: str | None = None) -> list[str]:
    """The addresses to listen on: ``bind`` alone when given (it must be local), else
    loopback and every local-network address. Raises ``ValueError`` for a public or
    malformed ``bind``."""
    if bind is not None:
        if not is_local(bind):
            raise ValueError(f"{bind!r} is not a loopback, private or link-local address: "
                             "the phone table only listens on the local network")
        return [bind]
    return [LOOPBACK, *lan_addresses()]


def public_host(hosts: list[str]) -> str:
    """The address to print in join links: the first one other devices can reach."""
    for h in hosts:
        ip = _ip(h)
        if ip is not None and not ip.is_loopback:
            return h
    return hosts[0] if hosts else LOOPBACK
