"""Mixpanel's Python SDK (mixpanel) sends events, a profile update and a buffered batch to tracksnap serve: BASE_URL is argv[1].

With "-" as BASE_URL the SDK sends to its own default HTTPS host (through HTTPS_PROXY, as tracksnap
serve --intercept sees it).

The SDK raises unless each answer holds `"status": 1`, as tracksnap's collector's does.
"""
import sys
import mixpanel

base = sys.argv[1]
if base == "-":
    consumer = mixpanel.Consumer()
else:
    consumer = mixpanel.Consumer(api_host=base.split("//")[1], events_url=base + "/track", people_url=base + "/engage",
                                 import_url=base + "/import")
mp = mixpanel.Mixpanel("mp_token_test_e2e", consumer=consumer)
mp.track("user-42", "Signed Up", {"plan": "pro", "trial_days": 14})
mp.people_set("user-42", {"$email": "ada@example.com", "plan": "pro"})
buffered = mixpanel.BufferedConsumer(max_size=10) if base == "-" else mixpanel.BufferedConsumer(max_size=10, events_url=base + "/track")
mpb = mixpanel.Mixpanel("mp_token_test_e2e", consumer=buffered)
mpb.track("user-42", "Song Played", {"song": "one"})
mpb.track("user-42", "Song Played", {"song": "two"})
buffered.flush()
