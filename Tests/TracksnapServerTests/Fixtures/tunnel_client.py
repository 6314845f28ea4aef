"""Misbehaving clients of an intercepted CONNECT tunnel, for tracksnap's interception tests.

usage: tunnel_client.py PROXY_PORT TARGET_HOST:PORT MODE [CA_FILE | SERVER_NAME]

Modes (each prints what it saw on stdout, one line, and exits 0 when it could run):
  plain-http     a POST in plain HTTP inside the tunnel; prints the answer's status line
  plain-garbage  bytes that are neither TLS nor HTTP; prints the first answer line, or "closed"
  garbage-hello  a TLS handshake record holding garbage; prints "closed" once the proxy closes
  sni            a TLS handshake naming sni.other.example, not the CONNECT host; prints the error
  get-as=NAME    a TLS GET /internal naming NAME as the server name (a CONNECT to an address may);
                 prints the answer's status line, "closed", or the handshake's error
  mid-request    a TLS request whose body stops half-way, then the connection closes; prints "sent"
  hold           a TLS GET kept alive; prints the answer's status line, then holds the tunnel open
                 until the proxy closes the connection (it never answers TLS's close_notify)
  hello-sni      a ClientHello naming SERVER_NAME, whatever it holds (no TLS library sends `*`, control
                 characters or 60 KB), in one record; prints "closed" once the proxy closes
"""
import os
import select
import ssl
import sys

from proxy_tunnel import open_tunnel

port, target, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
host = target.rsplit(":", 1)[0]
sock = open_tunnel(port, target, timeout=20)


def read_all(connection):
    data = b""
    try:
        while True:
            chunk = connection.recv(4096)
            if not chunk:
                return data
            data += chunk
    except (ConnectionResetError, ssl.SSLError):
        return data


if mode == "plain-http":
    body = b'{"type":"track","event":"Plain","userId":"u-1"}'
    sock.sendall(b"POST /v1/track HTTP/1.1\r\nHost: " + host.encode() + b"\r\nContent-Type: application/json\r\n"
                 + b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
    print(read_all(sock).split(b"\r\n")[0].decode())
elif mode == "plain-garbage":
    sock.sendall(b"\x00\x01\x02 not tls, not http \xff\xfe\r\n\r\n")
    answer = read_all(sock)
    print(answer.split(b"\r\n")[0].decode(errors="replace") if answer else "closed")
elif mode == "garbage-hello":
    sock.sendall(b"\x16\x03\x01\x00\x20" + b"\x01" + b"\xee" * 31)
    read_all(sock)
    print("closed")
elif mode == "sni":
    context = ssl.create_default_context(cafile=sys.argv[4])
    try:
        context.wrap_socket(sock, server_hostname="sni.other.example")
        print("handshake succeeded")
    except (ssl.SSLError, OSError) as error:
        print(f"handshake failed: {error}")
elif mode.startswith("get-as="):
    name = mode.split("=", 1)[1]
    context = ssl.create_default_context(cafile=sys.argv[4])
    try:
        tls = context.wrap_socket(sock, server_hostname=name)
    except (ssl.SSLError, OSError) as error:
        print(f"handshake failed: {error}")
        sys.exit(0)
    tls.sendall(b"GET /internal HTTP/1.1\r\nHost: " + name.encode() + b"\r\nConnection: close\r\n\r\n")
    answer = read_all(tls)
    print(answer.split(b"\r\n")[0].decode(errors="replace") if answer else "closed")
elif mode == "mid-request":
    context = ssl.create_default_context(cafile=sys.argv[4])
    tls = context.wrap_socket(sock, server_hostname=host)
    tls.sendall(b"POST /v1/track HTTP/1.1\r\nHost: " + host.encode() + b"\r\nContent-Length: 100\r\n\r\n" + b'{"half":')
    tls.close()
    print("sent")
elif mode == "hold":
    context = ssl.create_default_context(cafile=sys.argv[4])
    tls = context.wrap_socket(sock, server_hostname=host)
    tls.sendall(b"GET /held HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n")
    answer = b""
    while b"\r\n" not in answer:
        answer += tls.recv(4096)
    print(answer.split(b"\r\n")[0].decode(), flush=True)
    # Held until the proxy closes the connection itself: the test shows that the proxy's
    # shutdown ends a held tunnel. The proxy's close_notify ends the TLS reads, and is not answered, as a client that holds its
    # connection does not; the socket is then read until the TCP connection ends.
    try:
        while tls.recv(4096):
            pass
        while select.select([tls], [], [], 600)[0] and os.read(tls.fileno(), 4096):
            pass
    except (OSError, ssl.SSLError):
        pass
elif mode == "hello-sni":
    name = sys.argv[4].encode()
    entry = b"\x00" + len(name).to_bytes(2, "big") + name  # host_name
    entries = len(entry).to_bytes(2, "big") + entry
    extensions = b"\x00\x00" + len(entries).to_bytes(2, "big") + entries  # server_name
    body = (b"\x03\x03" + os.urandom(32) + b"\x00" + b"\x00\x02\x13\x01" + b"\x01\x00"
            + len(extensions).to_bytes(2, "big") + extensions)
    handshake = b"\x01" + len(body).to_bytes(3, "big") + body
    sock.sendall(b"\x16\x03\x01" + len(handshake).to_bytes(2, "big") + handshake)
    read_all(sock)
    print("closed")
else:
    sys.exit(f"unknown mode {mode}")
