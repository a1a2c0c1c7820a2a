import Foundation
import Testing
import TestSupport

/// The recipes for many catalogs: the Kubernetes CronJob of an Indexed Job (kubernetes-validate for 1.33, then its
/// pod's command run as written against a scratch project), the GitHub Actions matrix (actionlint, then its plan
/// step's command), and the container build file.
@Suite(.serialized) struct ShardRecipeTests {
    static let kubernetes = RecipeTests.recipes.appendingPathComponent("kubernetes")

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test(.needs(.kubernetesValidate)) func theManifestsPassKubernetesValidateFor1_33() async throws {
        try OptionalTool.kubernetesValidate.require()
        let files = ["cronjob.yaml", "outputs.yaml"].map { "'\(Self.kubernetes.appendingPathComponent($0).path)'" }
        let check = try await RecipeTests.shell("kubernetes-validate --kubernetes-version 1.33.0 --strict \(files.joined(separator: " "))")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.components(separatedBy: "passed for resource").count - 1 == 3, "\(check.stdout)")
    }

    @Test func theCronJobRetriesOnlyTemporaryFailuresAndItsPodRunsAShardThenTheIndex() async throws {
        let cronjob = try Self.text(Self.kubernetes.appendingPathComponent("cronjob.yaml"))
        for needed in ["kind: CronJob", "concurrencyPolicy: Forbid", "completionMode: Indexed", "backoffLimitPerIndex:",
                       "restartPolicy: Never", "runAsNonRoot: true", "claimName: gvingest-outputs"] {
            #expect(cronjob.contains(needed), "\(needed)")
        }
        let rules = try #require(cronjob.components(separatedBy: "podFailurePolicy:").last)
        #expect(rules.contains("action: FailIndex\n            onExitCodes:\n              containerName: gvingest\n              operator: In\n              values: [64, 65, 66, 69]"))
        #expect(rules.contains("action: Count\n            onExitCodes:\n              containerName: gvingest\n              operator: In\n              values: [75]"))
        let completions = try #require(cronjob.firstMatch(of: /completions: (\d+)/)?.output.1)
        #expect(cronjob.contains("--shard index/\(completions)"))
        #expect(try Self.text(Self.kubernetes.appendingPathComponent("outputs.yaml")).contains("ReadWriteMany"))

        // The pod's command, as its shell runs it, on a scratch project in place of the volume: shard 0 runs the
        // catalog, the index follows, and the shard's status is the pod's.
        let script = try #require(cronjob.components(separatedBy: "- >-\n").last?.components(separatedBy: "\n              env:").first)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let project = try RecipeTests.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let command = script.replacingOccurrences(of: "/usr/local/bin/gvingest", with: Binary.url.path)
            .replacingOccurrences(of: "/srv/gvingest", with: project.path)
        for (index, status) in [("0", 0), ("1", 0)] {
            let outcome = try await Binary.run(["-c", command], environment: ["JOB_COMPLETION_INDEX": index],
                                               executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(outcome.status == Int32(status), "\(command)\n\(outcome.stderr)")
        }
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent("out/index.json"))) as? [String: Any]
        let catalogs = try #require(index?["catalogs"] as? [[String: Any]])
        #expect(catalogs.map { $0["id"] as? String } == ["gvsu-fixture"])
        #expect(catalogs.first?["exitStatus"] as? Int == 0)
        // A guard's refusal is the pod's exit status too, after the index: the index fails, not retried.
        var config = try Self.text(project.appendingPathComponent("pipeline.json"))
        config = config.replacingOccurrences(of: #""minimumCourses": 60"#, with: #""minimumCourses": 100000"#)
        try Data(config.utf8).write(to: project.appendingPathComponent("pipeline.json"))
        let refused = try await Binary.run(["-c", command], environment: ["JOB_COMPLETION_INDEX": "0"],
                                           executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(refused.status == 65, "\(refused.stderr)")
        let after = try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent("out/index.json"))) as? [String: Any]
        #expect((after?["catalogs"] as? [[String: Any]])?.first?["exitStatus"] as? Int == 65)
    }

    @Test(.needs(.actionlint)) func theMatrixWorkflowPassesActionlintAndItsPlanIsAMatrix() async throws {
        try OptionalTool.actionlint.require()
        let file = RecipeTests.recipes.appendingPathComponent("publish-catalogs-matrix.yml")
        let lint = try await RecipeTests.shell("actionlint -no-color '\(file.path)'")
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let workflow = try Self.text(file)
        for needed in ["fail-fast: false", "fromJSON(needs.plan.outputs.matrix)", "--shard \"$SHARD\"", "gvingest index",
                       "[ \"$status\" -eq 75 ] || break"] {
            #expect(workflow.contains(needed), "\(needed)")
        }
        // The plan step's command, as written: its output is a matrix of one include entry a shard.
        let line = try #require(workflow.split(separator: "\n").first { $0.contains("$(.build/release/gvingest shards") })
        let plan = try #require(line.firstMatch(of: /\$\((\.build\/release\/gvingest shards [^)]*)\)/)?.output.1)
        let project = try RecipeTests.project()
        defer { try? FileManager.default.removeItem(at: project) }
        let command = "cd '\(project.path)' && export SHARDS=4 && " + plan.replacingOccurrences(of: ".build/release/gvingest", with: Binary.url.path)
        let outcome = try await RecipeTests.shell(command)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let matrix = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let include = try #require(matrix?["include"] as? [[String: Any]])
        #expect(include.map { $0["shard"] as? String } == ["0/4", "1/4", "2/4", "3/4"])
        #expect(include.compactMap { $0["catalogs"] as? [String] }.flatMap { $0 } == ["gvsu-fixture"])
    }

    @Test func theContainerIsDebianSlimWithTheStaticReleaseBinaryRunAsNonRoot() throws {
        let file = try Self.text(Self.kubernetes.appendingPathComponent("Dockerfile"))
        let stages = file.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
        #expect(stages.count == 2)
        #expect(stages.last?.hasPrefix("FROM debian:") == true && stages.last?.hasSuffix("-slim") == true, "\(stages)")
        #expect(file.contains("swift build -c release --static-swift-stdlib --product gvingest"))
        let user = try #require(file.split(separator: "\n").last { $0.hasPrefix("USER ") })
        let uid = try #require(Int(user.dropFirst(5).split(separator: ":")[0]))
        #expect(uid != 0)
        // The pod's securityContext runs as the image's user.
        let cronjob = try Self.text(Self.kubernetes.appendingPathComponent("cronjob.yaml"))
        #expect(cronjob.contains("runAsUser: \(uid)"))
    }
}
