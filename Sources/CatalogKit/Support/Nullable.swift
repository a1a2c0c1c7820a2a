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

// The types records use, read and written without the generic path: synthesized coding calls these, and a record
// has a dozen such fields, each of which would otherwise cost a single-value container and a metadata lookup.
extension KeyedDecodingContainer {
    public func decode(_ type: Nullable<String>.Type, forKey key: Key) throws -> Nullable<String> {
        Nullable(wrappedValue: try decodeIfPresent(String.self, forKey: key))
    }

    public func decode(_ type: Nullable<CreditRange>.Type, forKey key: Key) throws -> Nullable<CreditRange> {
        Nullable(wrappedValue: try decodeIfPresent(CreditRange.self, forKey: key))
    }

    public func decode(_ type: Nullable<Requisite>.Type, forKey key: Key) throws -> Nullable<Requisite> {
        Nullable(wrappedValue: try decodeIfPresent(Requisite.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    public mutating func encode(_ value: Nullable<String>, forKey key: Key) throws {
        if let text = value.wrappedValue { try encode(text, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
