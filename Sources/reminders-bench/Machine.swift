import Foundation

/// The machine a run was measured on, for the table's heading and the
/// README: figures mean little without it.
struct Machine: Codable, Sendable {
    var cores: Int
    var cpu: String
    var memoryGiB: Double
    var os: String
    var buildConfiguration: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let totalKiB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { line in line.split(separator: " ").dropFirst().first }
            .flatMap { Double($0) } ?? 0
        let release = ((try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? "")
            .split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            ?? "Linux"
        #if DEBUG
        var configuration = "debug"
        #else
        var configuration = "release"
        #endif
        // `--static-swift-stdlib` (as run.sh builds the app) links the
        // Swift runtime into the program; a start then loads no Swift
        // library, which the first-frame figure shows.
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        configuration += maps.contains("libswiftCore.so") ? ", Swift runtime shared" : ", Swift runtime linked in"
        return Machine(cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model,
                       memoryGiB: (totalKiB / 1024 / 1024 * 10).rounded() / 10, os: release,
                       buildConfiguration: configuration)
    }

    var summary: String {
        "\(cores) cores, \(cpu), \(String(format: "%.1f", memoryGiB)) GiB RAM, \(os), \(buildConfiguration) build"
    }
}

/// Peak and current resident size of this process, in bytes, from
/// /proc/self/status.
struct ResidentSize: Codable, Sendable {
    var peak: Int
    var current: Int

    static func now() -> ResidentSize {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func kibibytes(_ key: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix(key) }
                .flatMap { $0.split(separator: " ").dropFirst().first }
                .flatMap { Int($0) } ?? 0
        }
        return ResidentSize(peak: kibibytes("VmHWM:") * 1024, current: kibibytes("VmRSS:") * 1024)
    }
}
