// SPDX-License-Identifier: Apache-2.0
/// Who may see an imported photo, or where it was taken, Flickr's way: everyone, friends, family, friends
/// and family, or only its owner. Photos of Flickr and of the embedded catalog are public.
public enum Audience: String, CaseIterable, Sendable, Codable, Comparable {
    case `public`
    case friends
    case family
    case friendsAndFamily = "friends+family"
    case `private`

    /// The words `--visibility` and `--location` take.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// The audiences whose photos a viewer may see: `role` signed in, or nil for anyone at all. The owner
    /// sees everything; friend+family sees what either role may.
    public static func seen(by role: Role?) -> Set<Audience> {
        switch role {
        case nil: [.public]
        case .friend: [.public, .friends, .friendsAndFamily]
        case .family: [.public, .family, .friendsAndFamily]
        case .friendAndFamily: [.public, .friends, .family, .friendsAndFamily]
        case .owner: Set(allCases)
        }
    }

    /// Whether everyone this audience holds is in `other` too (friends is within friends+family, but not
    /// within family).
    public func isWithin(_ other: Audience) -> Bool {
        ([nil] + Role.allCases).allSatisfy { role in
            let seen = Self.seen(by: role)
            return !seen.contains(self) || seen.contains(other)
        }
    }

    /// Widest first, as listed.
    public static func < (left: Audience, right: Audience) -> Bool {
        let order = allCases
        return (order.firstIndex(of: left) ?? 0) < (order.firstIndex(of: right) ?? 0)
    }

    /// The audiences as an SQL list of literals (`'public', 'friends'`): enum words only, never user text.
    package static func sqlList(_ audiences: Set<Audience>) -> String {
        audiences.sorted().map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }
}

/// An imported photo's two audiences: who sees it, and who sees where it was taken (never more people).
public struct PhotoPrivacy: Sendable, Equatable, Codable {
    /// Who sees the photo.
    public let visibility: Audience
    /// Who sees its location: its visibility or fewer people.
    public let location: Audience

    /// Photos imported before audiences existed, and Flickr's: everyone sees them and where.
    public static let everyone = PhotoPrivacy(visibility: .public)

    /// A visibility, its location seen by the same people.
    public init(visibility: Audience) {
        self.visibility = visibility
        location = visibility
    }

    /// A visibility and a location audience; nil when the location's is wider than the photo's.
    public init?(visibility: Audience, location: Audience) {
        guard location.isWithin(visibility) else { return nil }
        self.visibility = visibility
        self.location = location
    }
}
