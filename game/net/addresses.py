"""Where the phone server listens, and whom it answers: the local network only.

By default the server binds to this computer's loopback address and to its one main
address on the local network (:func:`lan_choices`: the Wi-Fi's or the Ethernet's,
not a VPN's, a bridge's or a container network's); the setup and ``--bind`` offer the
others. Only addresses in private ranges (10/8, 172.16/12, 192.168/16, IPv6
unique-local) or link-local ranges (169.254/16, fe80::/10) are allowed, never a public
address or "every interface". Every request is checked once more against the peer's
address (:func:`allowed_peer`), so a router that forwards a port from the internet
still gets nothing.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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


@dataclass(frozen=True)
class Interface:
    """One of this computer's IPv4 addresses and what is known of its network device.

    ``physical``: a network card (Wi-Fi, Ethernet) rather than a tunnel (VPN), bridge
    or container link, ``None`` when the system does not say. ``route``: the metric of
    the device's default route (lower is preferred), ``None`` when it has none."""

    address: str
    name: str = ""
    physical: bool | None = None
    route: int | None = None

    def label(self) -> str:
        return f"{self.address} ({self.name})" if self.name else self.address


def _main_route_address() -> str | None:
    """The local address of the system's main route (a VPN's, when a VPN takes all
    traffic)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_PROBE)
            return str(s.getsockname()[0])
    except OSError:
        return None


def _linux_default_routes(text: str) -> dict[str, int]:
    """Device -> lowest metric of its default routes, from ``/proc/net/route``."""
    out: dict[str, int] = {}
    for line in text.splitlines()[1:]:
        f = line.split()
        if len(f) < 8:
            continue
        try:
            up = int(f[3], 16) & 1
            metric = int(f[6])
        except ValueError:
            continue
        if f[1] == "00000000" and f[7] == "00000000" and up:
            out[f[0]] = min(metric, out.get(f[0], metric))
    return out


def _linux_address(name: str) -> str | None:
    """The IPv4 address of a device (``SIOCGIFADDR``), ``None`` if it has none."""
    import fcntl
    import struct

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
    except OSError:
        return None
    return socket.inet_ntoa(raw[20:24])


def linux_interfaces(root: Path = Path("/"),
                     address_of: Callable[[str], str | None] | None = None
                     ) -> list[Interface]:
    """The IPv4 devices of a Linux system: ``/sys/class/net`` names them (a device
    with a ``device`` link is hardware), ``/proc/net/route`` gives the default routes."""
    net = root / "sys" / "class" / "net"
    try:
        names = sorted(p.name for p in net.iterdir())
    except OSError:
        return []
    try:
        routes = _linux_default_routes((root / "proc" / "net" / "route").read_text())
    except OSError:
        routes = {}
    get = address_of or _linux_address
    out = []
    for name in names:
        addr = get(name)
        if addr:
            out.append(Interface(addr, name, (net / name / "device").exists(),
                                 routes.get(name)))
    return out


def interfaces() -> list[Interface]:
    """This computer's IPv4 addresses with what is known of their devices: on Linux
    from the system; elsewhere the main route's address and the host name's addresses,
    nothing known of their devices."""
    if sys.platform.startswith("linux"):
        found = linux_interfaces()
        if found:
            return found
    out: list[Interface] = []
    main = _main_route_address()
    if main:
        out.append(Interface(main, route=0))
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = str(info[4][0])
            if all(addr != i.address for i in out):
                out.append(Interface(addr))
    except OSError:
        pass
    return out


def lan_choices(found: list[Interface] | None = None) -> list[Interface]:
    """This computer's addresses on a local network (private or link-local), the one
    phones should use first: a network card with a default route (the lowest metric
    first), then other network cards, then devices the system does not describe, then
    tunnels, bridges and container links (a VPN's address is no use to a phone on the
    Wi-Fi, even when the VPN carries the main route)."""
    found = interfaces() if found is None else found
    rank = {True: 0, None: 1, False: 2}
    unique: dict[str, Interface] = {}
    for i in found:
        if is_local(i.address) and not _is_loopback(i.address):
            unique.setdefault(i.address, i)
    return sorted(unique.values(),
                  key=lambda i: (rank[i.physical], i.route is None, i.route or 0))


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on a local network, the main one first; empty
    when it has none (then only this computer can join)."""
    return [i.address for i in lan_choices()]


def _is_loopback(text: str) -> bool:
    ip = _ip(text)
    return ip is not None and ip.is_loopback


def listen_hosts(bind: str | None = None) -> list[str]:
    """The addresses to listen on: ``bind`` alone when given (it must be local), else
    loopback and the main local-network address (:func:`lan_choices`; the others only
    when asked for). Raises ``ValueError`` for a public or malformed ``bind``."""
    if bind is not None:
        if not is_local(bind):
            raise ValueError(f"{bind!r} is not a loopback, private or link-local address: "
                             "the phone table only listens on the local network")
        return [bind]
    return [LOOPBACK, *lan_addresses()[:1]]


def socket_family(host: str) -> socket.AddressFamily:
    """The socket family to listen on ``host`` with (IPv6 when it has a colon)."""
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def public_host(hosts: list[str]) -> str:
    """The address to print in join links: the first one other devices can reach."""
    for h in hosts:
        ip = _ip(h)
        if ip is not None and not ip.is_loopback:
            return h
    return hosts[0] if hosts else LOOPBACK
