import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a request got no answer, in one line an operator can act on, never "(NSURLErrorDomain error -1004.)".
public enum ConnectionFailure {
    public static func describe(_ error: any Error, url: URL, timeoutSeconds: Int) -> String {
        let host = url.host ?? "(no host)"
        let endpoint = url.port.map { "\(host):\($0)" } ?? host
        let nsError = error as NSError
        // On Linux the description is libcurl's line, specific where the code is not (a TLS failure is code -1).
        let detail = nsError.localizedDescription.hasPrefix("The operation could not be completed") ? nil : nsError.localizedDescription
        guard nsError.domain == NSURLErrorDomain else {
            return "connection error with \(endpoint): \(detail ?? "\(nsError.domain) \(nsError.code)")"
        }
        let code = URLError.Code(rawValue: nsError.code)
        if let detail, detail.contains("SSL") || detail.contains("TLS") || detail.lowercased().contains("certificate") {
            return "TLS failure with \(endpoint): \(tlsReason(detail))"
        }
        switch code {
        case .cannotFindHost, .dnsLookupFailed:
            return "cannot resolve host \(host) (DNS lookup failed)"
        case .notConnectedToInternet:
            return "no network connection (reaching \(host))"
        case .cannotConnectToHost:
            return "connection refused by \(endpoint)"
        case .networkConnectionLost:
            return "connection reset by \(endpoint)"
        case .timedOut:
            return "timed out after \(timeoutSeconds) s waiting for \(endpoint)"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
             .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            return "TLS failure with \(endpoint): \(detail.map(tlsReason) ?? "handshake or certificate refused")"
        case .badServerResponse, .zeroByteResource, .cannotParseResponse:
            return "no usable HTTP answer from \(endpoint) (connection closed or garbled)"
        default:
            return "connection error with \(endpoint): \(detail ?? "URLError \(nsError.code)")"
        }
    }

    /// "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number" → "wrong version number (SSL routines)".
    static func tlsReason(_ detail: String) -> String {
        let parts = detail.components(separatedBy: ":").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard parts.count >= 3, let last = parts.last, let library = parts.dropLast().last else { return detail }
        return "\(last) (\(library))"
    }
}
