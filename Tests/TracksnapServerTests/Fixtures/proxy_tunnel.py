"""What the tunnel clients share: a CONNECT through tracksnap's proxy, answered 200."""
import socket
import sys


def open_tunnel(port, target, timeout):
    """A socket to the proxy on 127.0.0.1:PORT, tunnelled to TARGET (host:port); exits naming
    what the proxy did instead."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            sys.exit("the proxy closed before answering the CONNECT")
        head += chunk
    if not head.startswith(b"HTTP/1.1 200"):
        sys.exit(f"CONNECT answered {head!r}")
    return sock
