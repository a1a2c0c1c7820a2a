import CatalogKit
import Foundation

/// `gvingest run --source`: one catalog from a URL, mirror or directory, with `--config`'s settings.
enum SourceRun {
    /// The configuration for `source`. A missing directory is an unavailable source (69), as for a configured one.
    static func config(source: String, system: SystemChoice, out: String?, id chosenID: String?,
                       base: PipelineConfig?) throws -> PipelineConfig {
        let (catalogSource, derivedID) = try catalogSource(source, named: "--source \(source)")
        let id = String((chosenID ?? derivedID).map { $0.isASCII && ($0.isLetter || $0.isNumber) || $0 == "-" || $0 == "_" ? $0 : "-" })
        let fixedSystem = if case let .fixed(chosen) = system { chosen } else { CatalogSystem.gvsu }
        let catalog = CatalogConfig(id: id, name: id, system: fixedSystem, source: catalogSource)
        let outputs = out.map { OutputSettings(directory: URL(fileURLWithPath: $0).standardizedFileURL,
                                               keepSnapshots: base?.outputs.keepSnapshots ?? OutputSettings.defaultKeepSnapshots) }
        guard var config = base ?? outputs.map({ PipelineConfig(catalogs: [], outputs: $0) }) else {
            throw UsageError(message: "--source needs --out DIR (or --config FILE, whose outputs it then uses)")
        }
        config.catalogs = [catalog]
        config.outputs = outputs ?? config.outputs
        // Each catalog its own feed: the id and title come from the catalog, never shared between two sources.
        config.news.feedID = "urn:gvingest:\(id):news"
        config.news.feedTitle = "\(id): new courses"
        return config
    }

    /// " (did you mean https://www.gvsu.edu/catalog?)" for a URL typed without its scheme.
    /// What a source word names: an http(s) URL, a mirror (a folder with an index) or a folder of pages; and an id.
    static func catalogSource(_ source: String, named name: String) throws -> (CatalogSource, id: String) {
        if let url = URL(string: source), Origin(url) != nil, let host = url.host { return (.http(startURLs: [url]), host) }
        if let url = URL(string: source), Origin.defaultPorts[url.scheme?.lowercased() ?? ""] != nil {
            throw UsageError(message: "\(name): not an http or https URL \(Origin.rule)")
        }
        let directory = URL(fileURLWithPath: source).standardizedFileURL
        if let problem = FileBytes.directoryProblem(directory.path) {
            throw CommandFailure("\(name): \(problem)\(schemeHint(source)); a source is an http(s) URL or a directory",
                                 .unavailable)
        }
        let isMirror = FileManager.default.fileExists(atPath: directory.appendingPathComponent(MirrorIndex.fileName).path)
        return (isMirror ? .replay(directory) : .directory(directory), directory.lastPathComponent)
    }

    static func schemeHint(_ text: String) -> String {
        guard !text.hasPrefix("/"), !text.hasPrefix("."), !text.contains("://"),
              let host = text.split(separator: "/").first, host.contains("."), host.last?.isLetter == true,
              text.contains("/") || host.hasPrefix("www."),
              let lastLabel = host.split(separator: ".").last, lastLabel.count >= 2,
              !["html", "htm", "json", "txt", "xml", "csv", "md"].contains(lastLabel.lowercased()) else { return "" }
        return " (a URL needs its scheme: did you mean https://\(text)?)"
    }

    /// A warning when `--out` holds other catalogs' snapshots but none of this one: a new baseline, likely unmeant.
    static func baselineWarning(outputs: OutputSettings, catalogID: String) -> String? {
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: outputs.snapshots.path)) ?? []).sorted().filter { name in
            name != catalogID && !name.hasPrefix(".") && !((try? outputs.store(for: name).list()) ?? []).isEmpty
        }
        guard !others.isEmpty, ((try? outputs.store(for: catalogID).list()) ?? []).isEmpty else { return nil }
        return "\(outputs.directory.path) already holds snapshots of \(others.joined(separator: ", ")), none of '\(catalogID)': "
            + "this run starts a new baseline and announces nothing; to continue \(others[0]), run with --catalog \(others[0])"
    }
}
