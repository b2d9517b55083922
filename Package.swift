// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Reminders",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "reminders", targets: ["reminders"]),
        .executable(name: "reminders-bench", targets: ["reminders-bench"]),
        .library(name: "RemindersCore", targets: ["RemindersCore"]),
        .library(name: "CloudServer", targets: ["CloudServer"]),
        .library(name: "SyncEngine", targets: ["SyncEngine"]),
        .library(name: "RemindersViewModels", targets: ["RemindersViewModels"]),
        .library(name: "RemindersTUI", targets: ["RemindersTUI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(
            name: "RemindersCore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CPNG",
            ]
        ),
        .target(
            name: "CloudServer",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SyncEngine",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift"), "CloudServer"]
        ),
        .target(
            name: "RemindersViewModels",
            dependencies: ["RemindersCore", "SyncEngine", "CloudServer"]
        ),
        .target(
            name: "RemindersTUI",
            dependencies: ["RemindersViewModels", "RemindersCore", "CNcurses"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "reminders",
            dependencies: [
                "RemindersCore", "CloudServer", "SyncEngine", "RemindersViewModels", "RemindersTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "reminders-bench",
            dependencies: [
                "RemindersCore", "CloudServer", "SyncEngine", "RemindersViewModels", "RemindersTUI",
            ]
        ),
        // What the test targets share: one seeded generator, not a copy each.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "RemindersCoreTests", dependencies: ["RemindersCore", "TestSupport"]),
        .testTarget(name: "CloudServerTests", dependencies: ["CloudServer", "TestSupport"]),
        .testTarget(name: "SyncEngineTests", dependencies: ["SyncEngine", "CloudServer", "RemindersCore", "RemindersViewModels", "TestSupport"]),
        .testTarget(name: "RemindersViewModelsTests", dependencies: ["RemindersViewModels", "RemindersCore", "TestSupport"]),
        .testTarget(name: "RemindersTUITests", dependencies: ["RemindersTUI", "RemindersViewModels", "RemindersCore", "TestSupport"],
                    exclude: ["Recordings"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "EndToEndTests", dependencies: ["RemindersCore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
