"""The ports the tests give a bot to listen on (:func:`standin.proxy.free_port`)."""

from __future__ import annotations

import socket
from pathlib import Path

from standin.proxy import EPHEMERAL, _span, free_port


def test_a_port_is_handed_out_once_outside_the_ephemeral_range_and_binds() -> None:
    low, high = _span()
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == 50
    assert all(low <= p < high for p in ports)
    ephemeral_low = int(Path(EPHEMERAL).read_text().split()[0])
    assert all(p < ephemeral_low for p in ports)
    with socket.socket() as sock:  # nothing holds it: a bot can bind it
        sock.bind(("127.0.0.1", ports[-1]))


def test_a_port_someone_listens_on_is_skipped() -> None:
    low, high = _span()
    # the next ports this process would hand out (it walks them in turn), taken by other
    # listeners first
    probe = free_port()
    taken = [low + (probe - low + k) % (high - low) for k in range(1, 6)]
    takers = [socket.socket() for _ in taken]
    try:
        for taker, port in zip(takers, taken, strict=True):
            taker.bind(("127.0.0.1", port))
            taker.listen()
        assert free_port() not in taken
    finally:
        for taker in takers:
            taker.close()
