"""Writes the app SDK fixtures: what Meta's app events (the iOS and Android Facebook SDKs), Adjust's
and Branch's SDKs send, in their wire formats, for two runs of the same flow on two installs.

Usage: python3 write_app_fixtures.py   (from this folder; deterministic: gzip mtime 0)

Each vendor gets VENDOR.ndjson (run 1) and VENDOR-run2.ndjson (run 2: another install, another
day, another device — every per-install id, timestamp and counter differs, the events do not).
The field lists are the SDKs' own, read from their sources (facts only, no code copied):

- Meta app events: facebook/facebook-android-sdk `facebook-core/.../appevents/AppEvent.kt`
  (`getJSONObjectForAppEvent`: `_eventName`, `_eventName_md5`, `_logTime` in seconds, `_ui`,
  `_session_id`, `_valueToSum`, `_implicitlyLogged`, `_inBackground`), `SessionEventsState.kt`
  (`populateRequest`: `custom_events` as a JSON array's text, `event=CUSTOM_APP_EVENTS` and the
  attribution fields of `AppEventsLoggerUtility.getJSONObjectForGraphAPICall`: `advertiser_id`,
  `advertiser_tracking_enabled`, `anon_id`, `application_tracking_enabled`, `extinfo`);
  facebook/facebook-ios-sdk `FBSDKGraphRequestBody.m` (`mimeContentType`: the fields as a JSON
  object's members, `application/json`, unless an attachment needs `multipart/form-data`;
  `compressedData`: gzip). Android posts them as `multipart/form-data` (GraphRequest's serializer).
- Adjust: adjust/ios_sdk `Adjust/ADJPackageBuilder.m` (`buildSessionPackage` → `/session`,
  `buildEventPackage` → `/event`, `buildClickPackage` → `/sdk_click`, `buildAttributionPackage` →
  `/attribution`; `getSessionParameters`, `getEventParameters`: `app_token`, `event_token`,
  `revenue`, `currency`, `callback_params`/`partner_params` as JSON text, `created_at`,
  `session_count`, `subsession_count`, `session_length`, `time_spent`, `idfa`, `idfv`…), sent
  form-encoded (`ADJUtil`'s `queryString`), `sent_at` added when sent, the attribution as a GET query.
- Branch: BranchMetrics/ios-branch-deep-linking-attribution `BranchConstants.m` (the request
  keys: `identity`, `session_id`, `randomized_device_token`…) and `BNCRequestFactory.m`
  (`dataForInstallWithURLString`, `dataForEventWithEventDictionary`: `name`, `event_data`,
  `custom_data`, `content_items`, `user_data` with `os`, `os_version`, `model`, `idfv`,
  `developer_identity`, `randomized_device_token`…, `branch_key`, `metadata`, `instrumentation`),
  JSON bodies to `api2.branch.io`.
"""
import base64, gzip, hashlib, io, json, urllib.parse

RUNS = {
    1: dict(day="2026-11-21", epoch=1795248000, idfa="6D92078A-8246-4BA4-AE5B-76104861E7DC",
            idfv="A3B1C2D4-E5F6-4711-8A9B-0C1D2E3F4A5B", gaid="38400000-8cf0-11bd-b23e-10b96e40000d",
            anon="XZ1C8A7E4D-6B3F-4E2A-9D1C-5F6E7A8B9C0D", session="5B0E1D7A-3C2F-4B9E-8A6D-1F2E3D4C5B6A",
            adid="2f6e1d7c9a8b4c3d2e1f0a9b8c7d6e5f", device_token="1189036489331210347",
            bundle_token="1189036489276342911", identity_id="1189036489302745129",
            os="17.5.1", model="iPhone15,2", device="iPhone", locale="en_GB", order="o-1001", boundary="a1b2c3d4e5f6"),
    2: dict(day="2026-11-24", epoch=1795514400, idfa="0F3C4D5E-6A7B-4C8D-9E0F-1A2B3C4D5E6F",
            idfv="9E8D7C6B-5A49-4837-A261-504F3E2D1C0B", gaid="cdda802e-fb9c-47ad-9866-0794d394c912",
            anon="XZ7F6E5D4C-3B2A-4190-8F7E-6D5C4B3A2918", session="0A1B2C3D-4E5F-4607-8192-A3B4C5D6E7F8",
            adid="9a8b7c6d5e4f30211f2e3d4c5b6a7988", device_token="1189140022817733120",
            bundle_token="1189140022790166415", identity_id="1189140022801944763",
            os="18.1", model="iPhone16,1", device="iPhone", locale="de_DE", order="o-2417", boundary="f6e5d4c3b2a1"),
}


def line(id, method, url, headers, body=None, binary=False, time=None):
    record = {"id": str(id), "method": method, "url": url, "headers": [{"name": k, "value": v} for k, v in headers],
              "time": time}
    if body is not None:
        if binary:
            record["body"], record["bodyEncoding"] = base64.b64encode(body).decode(), "base64"
        else:
            record["body"], record["bodyEncoding"] = body, "text"
    return json.dumps(record, sort_keys=True, ensure_ascii=False)


def gzipped(text):
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as file:
        file.write(text.encode())
    return out.getvalue()


def form(pairs):
    return "&".join(k + "=" + urllib.parse.quote(str(v), safe="") for k, v in pairs)


def multipart(boundary, pairs):
    parts = "".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n" for k, v in pairs)
    return parts + f"--{boundary}--\r\n"


def stamp(run, seconds):
    return f"{run['day']}T09:{seconds // 60:02d}:{seconds % 60:02d}.000Z"


def meta(run):
    app = "https://graph.facebook.com/v17.0/1234567890123456/activities"
    t = run["epoch"]

    def event(name, seconds, **parameters):
        entry = {"_eventName": name, "_eventName_md5": hashlib.md5(name.encode()).hexdigest(),
                 "_logTime": t + seconds, "_ui": "ProductViewController", "_session_id": run["session"]}
        entry.update(parameters)
        return entry

    extinfo_ios = ["i2", "com.example.shop", "412", "4.12", run["os"], run["model"], run["locale"], "GMT",
                   "", "390", "844", "3", "6", "128", "64", "Europe/London"]
    custom = [event("fb_mobile_content_view", 3, fb_content_type="product", fb_content_id="sku-1", fb_currency="EUR",
                    _valueToSum=12.5),
              event("fb_mobile_add_to_cart", 7, fb_content_type="product", fb_content_id="sku-1", fb_currency="EUR",
                    _valueToSum=12.5),
              event("fb_mobile_purchase", 12, fb_num_items=1, fb_currency="EUR", fb_order_id=run["order"],
                    _valueToSum=12.5)]
    ios_fields = {"event": "CUSTOM_APP_EVENTS", "custom_events": json.dumps(custom, separators=(",", ":")),
                  "advertiser_id": run["idfa"], "advertiser_tracking_enabled": "1",
                  "application_tracking_enabled": "1", "anon_id": run["anon"],
                  "extinfo": json.dumps(extinfo_ios, separators=(",", ":")),
                  "access_token": "1234567890123456|meta_client_token_test_fixture", "format": "json",
                  "include_headers": "false", "sdk": "ios"}
    ua = f"FBiOSSDK.17.0.0 ({run['model']}; iOS {run['os']})"
    extinfo_android = ["a2", "com.example.shop", "412", "4.12", "14", "Pixel 8", run["locale"], "GMT", "",
                       "1080", "2400", "2.625", "8", "112", "51", "Europe/London"]
    android_custom = [event("fb_mobile_activate_app", 1, _implicitlyLogged="1")]
    android_fields = [("event", "CUSTOM_APP_EVENTS"), ("advertiser_id", run["gaid"]),
                      ("advertiser_tracking_enabled", "true"), ("anon_id", run["anon"]),
                      ("application_tracking_enabled", "true"), ("advertiser_id_collection_enabled", "true"),
                      ("extinfo", json.dumps(extinfo_android, separators=(",", ":"))),
                      ("custom_events", json.dumps(android_custom, separators=(",", ":"))),
                      ("format", "json"), ("sdk", "android"),
                      ("access_token", "1234567890123456|meta_client_token_test_fixture")]
    install = [("event", "MOBILE_APP_INSTALL"), ("advertiser_id", run["idfa"]), ("advertiser_tracking_enabled", "1"),
               ("anon_id", run["anon"]), ("application_tracking_enabled", "1"),
               ("extinfo", json.dumps(extinfo_ios, separators=(",", ":"))), ("format", "json"), ("sdk", "ios")]
    return [
        line(1, "POST", app, [("User-Agent", ua), ("Content-Type", "application/x-www-form-urlencoded")],
             form(install), time=stamp(run, 0)),
        line(2, "POST", app, [("User-Agent", ua), ("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
             gzipped(json.dumps(ios_fields, separators=(",", ":"))), binary=True, time=stamp(run, 15)),
        line(3, "POST", app, [("User-Agent", "FBAndroidSDK.17.0.0"),
                              ("Content-Type", f"multipart/form-data; boundary={run['boundary']}")],
             multipart(run["boundary"], android_fields), time=stamp(run, 16)),
    ]


def adjust(run):
    base = "https://app.adjust.com"
    t = run["day"]

    def common(seconds, counts):
        return [("app_token", "2fm9gkqubvpc"), ("app_secret", "adj_secret_test_fixture"),
                ("app_version", "412"), ("app_version_short", "4.12"), ("attribution_deeplink", "1"),
                ("bundle_id", "com.example.shop"), ("created_at", f"{t}T09:00:{seconds:02d}.000Z+0000"),
                ("device_name", run["model"]), ("device_type", run["device"]), ("environment", "production"),
                ("idfa", run["idfa"]), ("idfv", run["idfv"]), ("installed_at", f"{t}T08:59:58.000Z+0000"),
                ("needs_response_details", "1"), ("os_name", "ios"), ("os_version", run["os"]),
                ("started_at", f"{t}T09:00:00.000Z+0000"), ("att_status", "3")] + counts + [
                ("sent_at", f"{t}T09:00:{seconds + 1:02d}.000Z+0000")]

    counts = [("session_count", "1"), ("subsession_count", "1"), ("session_length", "0"), ("time_spent", "0")]
    event_counts = [("event_count", "1"), ("session_count", "1"), ("subsession_count", "1"),
                    ("session_length", "9"), ("time_spent", "9"), ("primary_dedupe_token", run["session"])]
    headers = [("User-Agent", "Shop/412 CFNetwork/1496.0.7 Darwin/23.5.0"), ("Client-SDK", "ios4.38.4"),
               ("Content-Type", "application/x-www-form-urlencoded")]
    purchase = common(9, event_counts) + [
        ("event_token", "abc123"), ("revenue", "12.5"), ("currency", "EUR"),
        ("callback_params", json.dumps({"plan": "pro", "screen": "checkout"}, separators=(",", ":"))),
        ("partner_params", json.dumps({"content_id": "sku-1"}, separators=(",", ":"))),
        ("deduplication_id", run["order"])]
    attribution = [("app_token", "2fm9gkqubvpc"), ("created_at", f"{t}T09:00:11.000Z+0000"),
                   ("environment", "production"), ("idfa", run["idfa"]), ("idfv", run["idfv"]),
                   ("initiated_by", "backend"), ("needs_response_details", "1"), ("os_name", "ios"),
                   ("os_version", run["os"]), ("sent_at", f"{t}T09:00:12.000Z+0000")]
    return [
        line(1, "POST", base + "/session", headers, form(common(1, counts)), time=stamp(run, 1)),
        line(2, "POST", base + "/event", headers, form(purchase), time=stamp(run, 9)),
        line(3, "GET", base + "/attribution?" + form(attribution), headers[:2], time=stamp(run, 12)),
    ]


def branch(run):
    base = "https://api2.branch.io"
    headers = [("User-Agent", "Shop/412 CFNetwork/1496.0.7 Darwin/23.5.0"), ("Content-Type", "application/json")]
    device = {"os": "iOS", "os_version": run["os"], "model": run["model"], "brand": "Apple",
              "screen_width": 1179, "screen_height": 2556, "locale": run["locale"], "country": run["locale"][-2:],
              "language": run["locale"][:2], "sdk": "ios", "sdk_version": "3.4.1", "app_version": "4.12",
              "idfv": run["idfv"], "idfa": run["idfa"]}
    install = dict(device, branch_key="key_live_test_fixture_branch", randomized_device_token=run["device_token"],
                   randomized_bundle_token=run["bundle_token"], first_install_time=run["epoch"] * 1000,
                   latest_install_time=run["epoch"] * 1000, update=0, debug=False,
                   metadata={}, instrumentation={"/v1/install-qwt": "0"}, retryNumber=0)
    user_data = dict(device, developer_identity="user-" + run["order"], randomized_device_token=run["device_token"],
                     limit_ad_tracking=False, environment="FULL_APP")
    purchase = {"name": "PURCHASE", "customer_event_alias": "checkout",
                "event_data": {"transaction_id": run["order"], "currency": "EUR", "revenue": 12.5,
                               "shipping": 0, "tax": 2.0, "description": "Stan and Friends Tee"},
                "custom_data": {"plan": "pro"},
                "content_items": [{"$canonical_identifier": "product/sku-1", "$product_name": "Stan and Friends Tee",
                                   "$price": 12.5, "$currency": "EUR", "$quantity": 1}],
                "user_data": user_data, "branch_key": "key_live_test_fixture_branch",
                "metadata": {}, "instrumentation": {"/v2/event/standard-qwt": "0"}, "retryNumber": 0}
    tutorial = {"name": "tutorial_finished", "custom_data": {"step": "3"}, "user_data": user_data,
                "branch_key": "key_live_test_fixture_branch", "metadata": {}, "retryNumber": 0}
    dumps = lambda value: json.dumps(value, sort_keys=True, separators=(",", ":"))
    return [
        line(1, "POST", base + "/v1/install", headers, dumps(install), time=stamp(run, 1)),
        line(2, "POST", base + "/v2/event/custom", headers, dumps(tutorial), time=stamp(run, 5)),
        line(3, "POST", base + "/v2/event/standard", headers, dumps(purchase), time=stamp(run, 9)),
    ]


for name, build in (("meta-app", meta), ("adjust", adjust), ("branch", branch)):
    for number, run in RUNS.items():
        with open(f"{name}.ndjson" if number == 1 else f"{name}-run2.ndjson", "w") as out:
            out.write("\n".join(build(run)) + "\n")
