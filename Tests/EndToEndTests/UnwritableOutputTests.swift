import Foundation
import Testing

/// `gvingest run` when its outputs cannot be written: a full disk and a read-only directory, made real
/// with a small tmpfs and read-only bind mounts inside a user and mount namespace (`unshare`), so the
/// kernel itself says ENOSPC or EROFS, even to root. Each scenario runs v1 (succeeds), then v2 into
/// the broken directory, and checks the exit status, that the error names the file and the reason, and
/// that every output and snapshot is byte for byte what v1 left.
@Suite(.serialized) struct UnwritableOutputTests {
    /// The files a run publishes or keeps, with their contents, from inside the namespace (a tmpfs is
    /// gone once it ends). `run-report.json` is left out: a failed run is meant to write its report.
    static let listing = #"""
    list() { (cd "$OUT" && find . -type f ! -name filler ! -name run-report.json ! -name .gvingest.lock -print0 | sort -z | xargs -0 sha256sum); }
    """#

    struct Result {
        var status: Int32
        var stderr: String
        var before: String
        var after: String
        var leftovers: String
    }

    /// Runs v1 into a fresh tmpfs at $OUT, then `breakIt`, then v2; returns v2's status and the listings.
    static func scenario(_ breakIt: String) async throws -> Result {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gvingest-unwritable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out"), v2 = root.appendingPathComponent("v2")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // v2: the recorded GVSU catalog with one course's credits changed, so its outputs differ from v1's.
        try FileManager.default.copyItem(at: Binary.fixtures.appendingPathComponent("gvsu"), to: v2)
        let page = v2.appendingPathComponent("course/cis-162.html")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(text.contains("<strong>Credits:</strong> 4"))
        try Data(text.replacingOccurrences(of: "<strong>Credits:</strong> 4", with: "<strong>Credits:</strong> 3").utf8).write(to: page)

        let script = """
        set -u
        \(listing)
        mount -t tmpfs -o size=2m tmpfs "$OUT" || exit 90
        "$BIN" run --source "$V1" --catalog gvsu --out "$OUT" --quiet 2>"$ROOT/v1.err" || exit 91
        list > "$ROOT/before"
        \(breakIt)
        "$BIN" run --source "$V2" --catalog gvsu --out "$OUT" --quiet 2>"$ROOT/v2.err"
        echo $? > "$ROOT/status"
        list > "$ROOT/after"
        (cd "$OUT" && find . -name '*.tmp') > "$ROOT/leftovers"
        """
        let outcome = try await Binary.run(["--user", "--map-root-user", "--mount", "/bin/bash", "-c", script],
                                     environment: ["OUT": out.path, "ROOT": root.path, "BIN": Binary.url.path,
                                                   "V1": Binary.fixtures.appendingPathComponent("gvsu").path, "V2": v2.path],
                                     executable: URL(fileURLWithPath: "/usr/bin/unshare"))
        func read(_ name: String) -> String {
            (try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        try #require(outcome.status == 0, "the namespace script stopped with \(outcome.status): \(outcome.stderr) \(read("v1.err"))")
        return Result(status: Int32(read("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, stderr: read("v2.err"),
                      before: read("before"), after: read("after"), leftovers: read("leftovers"))
    }

    static func expectNothingLost(_ result: Result) {
        #expect(result.before.contains("./catalog.json") && result.before.contains("./snapshots/"), "\(result.before)")
        #expect(result.after == result.before)
        #expect(result.leftovers.isEmpty, "temporary files left: \(result.leftovers)")
    }

    @Test func aFullDiskFailsTheRunAndLeavesEveryOutputAsItWas() async throws {
        let result = try await Self.scenario(#"dd if=/dev/zero of="$OUT/filler" bs=4096 2>/dev/null; true"#)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(result.stderr.contains("/catalog.json"), "\(result.stderr)")
        Self.expectNothingLost(result)
    }

    /// Room for the new outputs but not for the new snapshot (several times their size): the outputs are
    /// staged and put in place, the snapshot then fails, and the outputs must be put back on a disk with
    /// no room left, or the catalog would run ahead of the snapshot it was diffed from.
    @Test func aDiskThatFillsPartWayThroughChangesNoOutput() async throws {
        let result = try await Self.scenario(#"""
        keep=$(( $(stat -c %s "$OUT/catalog.json") + 65536 ))
        avail=$(df -B1 --output=avail "$OUT" | tail -1)
        dd if=/dev/zero of="$OUT/filler" bs=4096 count=$(( (avail - keep) / 4096 )) 2>/dev/null
        """#)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(result.stderr.contains("/snapshots/gvsu/snapshot-000002"), "the outputs were meant to fit, the snapshot not: \(result.stderr)")
        Self.expectNothingLost(result)
    }

    @Test func aReadOnlyOutputDirectoryFailsBeforeWritingAnything() async throws {
        let result = try await Self.scenario(#"mount --bind "$OUT" "$OUT" && mount -o remount,bind,ro "$OUT""#)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("Read-only file system"), "\(result.stderr)")
        #expect(result.stderr.contains("/.gvingest.lock"), "\(result.stderr)")
        Self.expectNothingLost(result)
    }

    /// The outputs can be written but the snapshot cannot: the outputs are written first, so they must be
    /// put back when the snapshot fails, or the catalog would run ahead of the snapshot it was diffed from.
    @Test func aReadOnlySnapshotDirectoryPutsTheOutputsBack() async throws {
        let result = try await Self.scenario(#"""
        dir=$(echo "$OUT"/snapshots/*)
        mount --bind "$dir" "$dir" && mount -o remount,bind,ro "$dir"
        """#)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("Read-only file system"), "\(result.stderr)")
        #expect(result.stderr.contains("/snapshots/"), "\(result.stderr)")
        Self.expectNothingLost(result)
    }
}
