"""Runs an SDK script as on another machine with another SDK release: macOS on arm64 instead of
Linux, another Python version, every vendor library's version bumped, another user agent. What
a snapshot recorded on the first machine must not depend on.

    python other_machine.py BASE_URL SCRIPT [ARGS...]   # runs SCRIPT BASE_URL [ARGS...]
"""
import importlib
import importlib.metadata
import platform
import runpy
import sys

platform.system = lambda: "Darwin"
platform.release = lambda: "24.1.0"
platform.version = lambda: "Darwin Kernel Version 24.1.0"
platform.mac_ver = lambda *args, **kwargs: ("15.1", ("", "", ""), "arm64")
platform.machine = lambda: "arm64"
platform.python_version = lambda: "3.13.1"

import requests.utils  # noqa: E402  (the user agent of the SDKs built on requests)

requests.utils.default_user_agent = lambda name="python-requests": f"{name}/9.9.9"

# Each SDK's version, wherever a module holds it (bound at import time, so every copy).
SDKS = {
    "segment.analytics": "segment-analytics-python", "rudderstack.analytics": "rudder-sdk-python",
    "mixpanel": "mixpanel", "posthog": "posthog", "amplitude": "amplitude-analytics",
    "snowplow_tracker": "snowplow-tracker",
}
for package, distribution in SDKS.items():
    importlib.import_module(package)
    real = importlib.metadata.version(distribution)
    for name, module in list(sys.modules.items()):
        if name != package and not name.startswith(package + "."):
            continue
        for attribute in ("VERSION", "__version__", "SDK_VERSION"):
            value = getattr(module, attribute, None)
            if isinstance(value, str) and real in value:
                setattr(module, attribute, value.replace(real, "99.1.0"))



class VersionInfo(tuple):
    """`sys.version_info` of another Python, read after every import is done."""
    major, minor, micro, releaselevel, serial = 3, 13, 1, "final", 0


# Read at run time by the SDKs (PostHog's $os and $python_version), after every module is loaded.
sys.platform = "darwin"
sys.version_info = VersionInfo((3, 13, 1, "final", 0))

base_url, script, *arguments = sys.argv[1:]
sys.argv = [script, base_url, *arguments]
runpy.run_path(script, run_name="__main__")
