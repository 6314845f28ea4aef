extension Firebase {
    /// The names GA4 and its BigQuery export give what the SDK sends under an internal `_` name:
    /// the SDK's own tables of internal and public names (its `AppMeasurement.Event`, `.Param`
    /// and `.UserProperty` arrays). A `_` name missing here stays as sent.
    enum Names {
        /// Automatic events.
        static let events: [String: String] = [
            "_aa": "ad_activeview", "_ac": "ad_click", "_xa": "ad_exposure", "_aq": "ad_query", "_ar": "ad_reward",
            "_xu": "adunit_exposure", "_ab": "app_background", "_cd": "app_clear_data", "_ae": "app_exception",
            "_ui": "app_remove", "_ug": "app_upgrade", "_in": "app_install", "_au": "app_update",
            "_cmp": "firebase_campaign", "_err": "error", "_f": "first_open", "_v": "first_visit",
            "_iap": "in_app_purchase", "_nd": "notification_dismiss", "_nf": "notification_foreground",
            "_no": "notification_open", "_nr": "notification_receive", "_ou": "os_update", "_s": "session_start",
            "_ssr": "session_start_with_rollout", "_e": "user_engagement", "_ai": "ad_impression", "_vs": "screen_view",
            "_ep": "ga_extra_parameter",
        ]

        /// Automatic event parameters.
        static let parameters: [String: String] = [
            "_c": "firebase_conversion", "_et": "engagement_time_msec", "_xt": "exposure_time", "_aeid": "ad_event_id",
            "_ai": "ad_unit_id", "_err": "firebase_error", "_ev": "firebase_error_value",
            "_el": "firebase_error_length", "_o": "firebase_event_origin", "_sn": "firebase_screen",
            "_sc": "firebase_screen_class", "_si": "firebase_screen_id", "_pn": "firebase_previous_screen",
            "_pc": "firebase_previous_class", "_pi": "firebase_previous_id", "_mst": "manual_tracking",
            "_ndt": "message_device_time", "_nmid": "message_id", "_nmn": "message_name", "_nmt": "message_time",
            "_nmtid": "message_tracking_id", "_nmc": "message_type", "_pv": "previous_app_version",
            "_po": "previous_os_version", "_nt": "topic", "_uwa": "update_with_analytics",
            "_pfo": "previous_first_open_count", "_sys": "system_app", "_sysu": "system_app_update",
            "_pin": "previous_install_count", "_eid": "ga_event_id", "_epc": "ga_extra_params_ct",
            "_gn": "ga_group_name", "_ll": "ga_list_length", "_i": "ga_index", "_en": "ga_event_name",
            "_cis": "campaign_info_source", "_cc": "cached_campaign", "_dac": "deferred_analytics_collection",
            "_sno": "ga_session_number", "_sid": "ga_session_id", "_cer": "campaign_extra_referrer",
            "_aib": "app_in_background", "_ffr": "firebase_feature_rollouts",
        ]

        /// Automatic user properties.
        static let userProperties: [String: String] = [
            "_ln": "firebase_last_notification", "_fot": "first_open_time", "_fvt": "first_visit_time",
            "_ldl": "last_deep_link_referrer", "_id": "user_id", "_lair": "last_advertising_id_reset",
            "_fi": "first_open_after_install", "_lte": "lifetime_user_engagement", "_se": "session_user_engagement",
            "_npa": "non_personalized_ads", "_sno": "ga_session_number", "_sid": "ga_session_id",
            "_lgclid": "last_gclid",
        ]
    }
}
