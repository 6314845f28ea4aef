"""An HTTP/2 client (python-hyper's h2) in an intercepted CONNECT tunnel, for the idle tests.

usage: h2_client.py PROXY_PORT TARGET_HOST:PORT CA_FILE MODE [COUNT PACE]

Modes (each prints one JSON object on stdout and exits 0 when it could run):
  requests COUNT PACE  COUNT GETs on one connection, one every PACE seconds, each awaited; then
                       idles, acknowledging PINGs as every HTTP/2 client must, until the server
                       closes the connection
  no-stream            the connection preface and SETTINGS, no stream; idles as above
  no-ack               one GET, then reads without answering anything, not even a PING
  stall                a POST announcing 100 bytes that sends 8, waits for the answer, then
                       idles as above
  oversize COUNT PACE  a POST announcing 100000 bytes that sends COUNT parts of 8, one every
                       PACE seconds, whatever the answer, then waits for its stream to end and
                       idles as above
  hostile              two GETs sent unchecked: the first's :path carries a bidi override and a
                       CI workflow command, its x-tracksnap-session value an escape sequence
                       and a line separator; the second's :path an escape sequence and a line
                       break ("resets" counts the streams the server reset)

Times are seconds from the last thing the client did (its last answer read, or its preface
or body part sent): "goaway_after" (the first GOAWAY), "closed_after" (the end of the
connection), "answered_after" (stall, oversize: the answer's head). "statuses" are the answers'
statuses, "body" their bodies; "goaways" the GOAWAYs' [last stream id, error code];
"goaways_while_active" counts GOAWAYs read before the last request's answer.
"""
import json
import ssl
import sys
import time

import h2.config
import h2.connection
import h2.events
import hyperframe.frame

from proxy_tunnel import open_tunnel

port, target, ca_file, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
host = target.rsplit(":", 1)[0]
sock = open_tunnel(port, target, timeout=30)
context = ssl.create_default_context(cafile=ca_file)
context.set_alpn_protocols(["h2"])
tls = context.wrap_socket(sock, server_hostname=host)
if tls.selected_alpn_protocol() != "h2":
    sys.exit(f"ALPN chose {tls.selected_alpn_protocol()!r}, not h2")

# hostile sends what h2 would refuse to send: its checks of outgoing headers are off.
connection = h2.connection.H2Connection(config=h2.config.H2Configuration(
    client_side=True, validate_outbound_headers=mode != "hostile", normalize_outbound_headers=mode != "hostile"))
connection.initiate_connection()
tls.sendall(connection.data_to_send())
result = {"statuses": [], "goaways": []}
since = time.monotonic()


def receive():
    """The next bytes from the server; empty once it closed the connection."""
    try:
        return tls.recv(65536)
    except (ConnectionResetError, ssl.SSLError):
        return b""


def read_events():
    """The events of the next bytes from the server; None once it closed the connection."""
    data = receive()
    if not data:
        return None
    events = connection.receive_data(data)
    for event in events:
        if isinstance(event, h2.events.ConnectionTerminated):
            result["goaways"].append([event.last_stream_id, int(event.error_code)])
            result.setdefault("goaway_after", round(time.monotonic() - since, 3))
        if isinstance(event, h2.events.ResponseReceived):
            result["statuses"].append(int(dict(event.headers)[b":status"]))
        if isinstance(event, h2.events.DataReceived):
            connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            result["body"] = result.get("body", "") + event.data.decode(errors="replace")
    pending = connection.data_to_send()
    if pending:
        tls.sendall(pending)
    return events


def get(path, headers=()):
    """Sends a GET and reads until its answer has ended (or its stream was reset)."""
    stream = connection.get_next_available_stream_id()
    connection.send_headers(
        stream, [(":method", "GET"), (":scheme", "https"), (":authority", host), (":path", path), *headers],
        end_stream=True)
    tls.sendall(connection.data_to_send())
    while True:
        events = read_events()
        if events is None:
            sys.exit(f"the server closed the connection before answering {path}: {result}")
        if any(isinstance(e, h2.events.StreamReset) and e.stream_id == stream for e in events):
            result["resets"] = result.get("resets", 0) + 1
            return
        if any(isinstance(e, h2.events.StreamEnded) and e.stream_id == stream for e in events):
            return


def idle_until_closed(answer=True):
    """Reads frames until the server closes the connection, acknowledging its PINGs when
    `answer` (and its SETTINGS). Frames are read with hyperframe from here on: h2 takes a GOAWAY for the end of
    the connection and refuses the PING a graceful shutdown sends after it, which the protocol
    (RFC 9113, section 6.8) expects a client to acknowledge."""
    buffer = b""
    while True:
        data = receive()
        if not data:
            break
        buffer += data
        while len(buffer) >= 9:
            frame, length = hyperframe.frame.Frame.parse_frame_header(memoryview(buffer[:9]))
            if len(buffer) < 9 + length:
                break
            frame.parse_body(memoryview(buffer[9:9 + length]))
            buffer = buffer[9 + length:]
            if isinstance(frame, hyperframe.frame.GoAwayFrame):
                result["goaways"].append([frame.last_stream_id, frame.error_code])
                result.setdefault("goaway_after", round(time.monotonic() - since, 3))
            elif isinstance(frame, hyperframe.frame.PingFrame) and "ACK" not in frame.flags and answer:
                tls.sendall(hyperframe.frame.PingFrame(0, frame.opaque_data, flags=["ACK"]).serialize())
            elif isinstance(frame, hyperframe.frame.SettingsFrame) and "ACK" not in frame.flags and answer:
                tls.sendall(hyperframe.frame.SettingsFrame(0, flags=["ACK"]).serialize())
    result["closed_after"] = round(time.monotonic() - since, 3)


if mode == "requests":
    count, pace = int(sys.argv[5]), float(sys.argv[6])
    for index in range(count):
        if index:
            time.sleep(pace)
        get(f"/v1/pixel?n={index}")
    result["goaways_while_active"] = len(result["goaways"])
    since = time.monotonic()
    idle_until_closed()
elif mode == "no-stream":
    idle_until_closed()
elif mode == "no-ack":
    get("/v1/pixel")
    since = time.monotonic()
    idle_until_closed(answer=False)
elif mode in ("stall", "oversize"):
    stream = connection.get_next_available_stream_id()
    length = "100" if mode == "stall" else "100000"
    connection.send_headers(
        stream,
        [(":method", "POST"), (":scheme", "https"), (":authority", host), (":path", "/v1/track"),
         ("content-type", "application/json"), ("content-length", length)])
    connection.send_data(stream, b'{"half":')
    tls.sendall(connection.data_to_send())
    if mode == "oversize":
        for _ in range(int(sys.argv[5]) - 1):
            time.sleep(float(sys.argv[6]))
            # Frames the server sent meanwhile (its 413) are read later, in order.
            connection.send_data(stream, b'"xxxxx",')
            tls.sendall(connection.data_to_send())
    since = time.monotonic()
    ended = False
    while not ended:
        events = read_events()
        if events is None:
            break
        if result["statuses"]:
            result.setdefault("answered_after", round(time.monotonic() - since, 3))
        ended = any(isinstance(e, (h2.events.StreamEnded, h2.events.StreamReset)) for e in events)
    idle_until_closed()
elif mode == "hostile":
    get("/v1/pixel?x=\u202e::error::from-h2-path",
        [("x-tracksnap-session", "s9\x1b[2J\u2028::add-mask::from-h2-header")])
    get("/v1/pixel?x=\x1b[31m\r\n::error::from-h2-line-break")
else:
    sys.exit(f"unknown mode {mode}")
tls.close()
print(json.dumps(result))
