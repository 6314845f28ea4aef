"""Amplitude's Python SDK (amplitude-analytics) sends events to tracksnap serve's /2/httpapi: BASE_URL is argv[1].

With "-" as BASE_URL the SDK sends to its own default HTTPS host (through HTTPS_PROXY, as tracksnap
serve --intercept sees it).
"""
import sys
from amplitude import Amplitude, BaseEvent, Config, EventOptions, Identify

client = Amplitude("amp_key_test_e2e", configuration=Config(server_url=None if sys.argv[1] == "-" else sys.argv[1] + "/2/httpapi",
                                                           flush_queue_size=50))
client.track(BaseEvent(event_type="Song Played", user_id="user-42", device_id="device-9",
                       event_properties={"title": "One", "duration": 215.5}))
client.track(BaseEvent(event_type="Purchase", user_id="user-42", event_properties={"price": 3.99, "quantity": 2}))
client.identify(Identify().set("plan", "pro"), EventOptions(user_id="user-42"))
client.flush()
client.shutdown()
