import Foundation
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension VendorDecoder {
    /// Meta (Facebook) app events, as the iOS and Android SDKs send them: `POST /vNN.N/APP_ID/activities`
    /// on `graph.facebook.com`, a form (URL-encoded or multipart) whose fields hold JSON. Claimed on
    /// `facebook.com` and, elsewhere (a proxy), when the fields hold `event` and `custom_events`.
    ///
    /// ```swift
    /// // POST /v17.0/1234/activities   event=CUSTOM_APP_EVENTS&custom_events=[{"_eventName":"fb_mobile_purchase","fb_currency":"EUR","_valueToSum":12.5,…}]&advertiser_id=…
    /// VendorDecoder.metaApp.decode(request).events.first?.name  // "fb_mobile_purchase"
    /// ```
    /// `event=CUSTOM_APP_EVENTS`: one event per `custom_events` entry, type `custom_app_events`,
    /// name `_eventName`, properties the entry's other members (`_valueToSum`, `fb_currency`,
    /// `fb_content_type`…) but the SDK's own (`_logTime`, `_session_id`, `_ui`, `_eventName_md5`,
    /// `_implicitlyLogged`, `_inBackground`), which go to the context. Any other `event`
    /// (`MOBILE_APP_INSTALL`) is one event of that name, its type the `event` lowercased.
    /// Context: the request's other fields (`advertiser_id`, `anon_id`, `app_user_id`,
    /// `advertiser_tracking_enabled`, `application_tracking_enabled`, `extinfo`, `ud`…), JSON text
    /// parsed; `access_token` is dropped. The web pixel (`/tr`) is `.metaPixel`'s.
    public static let metaApp = VendorDecoder(
        builtIn: "meta-app", rule: "/activities on facebook.com (app events), elsewhere with event= and custom_events="
    ) { request throws(DecodeFailure) in
        try MetaApp.decode(request)
    }
}

enum MetaApp {
    static let secrets: Set<String> = ["access_token"]
    /// The members of a custom event the SDK adds itself (`AppEvent.getJSONObjectForAppEvent`).
    static let sdkMembers: Set<String> = [
        "_logTime", "_session_id", "_ui", "_eventName_md5", "_implicitlyLogged", "_inBackground",
    ]

    static func decode(_ request: CapturedRequest) throws(DecodeFailure) -> [AnalyticsEvent]? {
        guard request.trimmedPath.hasSuffix("/activities") else { return nil }
        let onFacebook = request.isHost(in: VendorDecoder.metaPixelHosts)
        var fields = Payload.object(request.queryItems + request.formItems + request.multipartItems)
        // The iOS SDK sends the form's fields as the members of a JSON object (`FBSDKGraphRequestBody`).
        if request.formItems.isEmpty, let body = try? Payload.bodyJSON(request), let members = body.objectValue {
            for (key, value) in members { fields[key] = value }
        }
        guard let kind = fields.removeValue(forKey: "event")?.stringValue else {
            guard onFacebook else { return nil }
            throw DecodeFailure("request has no event field")
        }
        let customEvents = fields.removeValue(forKey: "custom_events")
        guard onFacebook || customEvents != nil else { return nil }
        var context: [String: JSONValue] = ["event": .string(kind)]
        for (key, value) in fields.removing(secrets) {
            let text = value.stringValue ?? ""
            let first = text.first { !$0.isWhitespace }
            context[key] = (first == "{" || first == "[") ? Payload.jsonIfValid(text) ?? value : value
        }
        guard kind == "CUSTOM_APP_EVENTS" else {
            return [
                AnalyticsEvent(
                    vendor: "meta-app", type: kind.lowercased(), name: kind, context: .object(context),
                    request: request.id, index: 0)
            ]
        }
        guard let customEvents else { throw DecodeFailure("CUSTOM_APP_EVENTS without custom_events") }
        let list = try customEvents.stringValue.map { text throws(DecodeFailure) in
            try Payload.json(text.utf8, what: "custom_events")
        }
        guard let entries = (list ?? customEvents).arrayValue else {
            throw DecodeFailure("custom_events is not a JSON array")
        }
        return try entries.enumerated().map { (index, entry) throws(DecodeFailure) in
            guard var members = entry.objectValue else {
                throw DecodeFailure("custom_events[\(index)] is not an object")
            }
            guard let name = members.removeValue(forKey: "_eventName")?.stringValue else {
                throw DecodeFailure("custom_events[\(index)] has no \"_eventName\"")
            }
            var eventContext = context
            for key in sdkMembers { if let value = members.removeValue(forKey: key) { eventContext[key] = value } }
            return AnalyticsEvent(
                vendor: "meta-app", type: "custom_app_events", name: name, properties: .object(members),
                context: .object(eventContext), request: request.id, index: index)
        }
    }
}
