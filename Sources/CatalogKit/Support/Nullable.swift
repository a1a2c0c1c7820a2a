/// An optional field written as `null` when it has no value, so every record carries the key; read back from `null`
/// or from a missing key alike. (Synthesized coding leaves a plain optional out when it is nil.)
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key is a nil value, as for a plain optional.
    public func decode<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
