"""Mixpanel's Python SDK (mixpanel) sends events, a profile update and a buffered batch to tracksnap serve: BASE_URL is argv[1].

tracksnap's collector answers `{}` where Mixpanel answers `{"status": 1}`, so the SDK complains
about each answer after it has sent its request: the complaint is expected, anything else is not.
"""
import sys
import mixpanel

def sent(call):
    try:
        call()
    except KeyError as error:  # the answer has no "status": the request went out
        assert error.args == ("status",), error

base = sys.argv[1]
consumer = mixpanel.Consumer(api_host=base.split("//")[1], events_url=base + "/track", people_url=base + "/engage",
                             import_url=base + "/import")
mp = mixpanel.Mixpanel("mp_token_test_e2e", consumer=consumer)
sent(lambda: mp.track("user-42", "Signed Up", {"plan": "pro", "trial_days": 14}))
sent(lambda: mp.people_set("user-42", {"$email": "ada@example.com", "plan": "pro"}))
buffered = mixpanel.BufferedConsumer(max_size=10, events_url=base + "/track")
mpb = mixpanel.Mixpanel("mp_token_test_e2e", consumer=buffered)
mpb.track("user-42", "Song Played", {"song": "one"})
mpb.track("user-42", "Song Played", {"song": "two"})
sent(buffered.flush)
