import WatcherJSON
import WatcherRules

extension NewEvent {
    /// The event's `data` object (the rules' tests have the same in their support).
    var data: JSONValue? { (try? JSONValue.parse(body))?["data"] }
}
