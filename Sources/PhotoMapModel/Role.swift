// SPDX-License-Identifier: Apache-2.0
/// What a signed-in person is to the catalog's owner, Flickr's way: a friend, family, both, or the owner.
public enum Role: String, CaseIterable, Sendable, Codable {
    case friend
    case family
    case friendAndFamily = "friend+family"
    case owner

    /// The words `users add --role` takes.
    public static var names: [String] { allCases.map(\.rawValue) }
}
