"""tracksnap for Python: drive `tracksnap serve` from tests, and assert on the analytics an app sends.

>>> from tracksnap import Tracksnap, assert_tracking
>>> with Tracksnap.start() as server:
...     session = server.session("checkout")
...     run_the_app(analytics_host=session.base_url)
...     assert_tracking(session, "snapshots/checkout.json")
"""

from .assertion import RECORD_MODES, RECORD_VARIABLE, assert_tracking, record_mode
from .client import Report, Session, Tracksnap, TracksnapError

__all__ = ["Tracksnap", "Session", "Report", "TracksnapError", "assert_tracking", "record_mode", "RECORD_MODES",
           "RECORD_VARIABLE"]
