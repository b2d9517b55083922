// swift-tools-version:6.1
import PackageDescription

// The programs export none of their symbols: nothing links against them
// or loads code into them. Swift's static standard library links every
// executable with --export-dynamic, which put 54,000 names in their
// dynamic symbol tables, and each start paid for them: the loader looks
// every shared library's symbols up in the program first, and the
// runtime's dladdr of its own path walks the table. `reminders --version`
// 9.4-9.7 -> 7.9-8.5 ms (60 starts, three times alternated).
//
// They allocate with mimalloc (Debian's libmimalloc-dev): linked into a
// program, it takes malloc and free for the whole process, SQLite's and
// the Swift runtime's included. A first sync makes and frees some
// millions of small blocks (records, their fields, rows, statements'
// memory); with glibc's malloc 8 % of its processor time was in the
// allocator alone. The first sync of 10,000 reminders, 8 runs alternated:
// 1.397 -> 1.309 s (preloaded instead, 5 runs: 1.41 -> 1.30 s, jemalloc
// 1.32 s). The libraries link no allocator of their own: a program that
// uses them keeps its own.
let executableLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
    .linkedLibrary("mimalloc", .when(platforms: [.linux])),
]

// The project's modules reach the metadata of concrete generic types
// through accessor functions rather than mangled names. A mangled name is
// resolved at run time, and a type it names with generic requirements
// (`Set<Action>`, GRDB's cursors of a value type) makes the runtime look
// each conformance up, a scan of the program's 11,000 conformance
// records the first time: a fifth of a start's main thread, from some
// forty places. First frame 18.9-23.6 -> 17.2-20.5 ms from exec (41
// starts, twice alternated). Being unsafe flags, they also keep a package
// that depends on this one by version from using its libraries (SwiftPM
// refuses unsafe flags there); by path or by branch it can.
let swiftSettings: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

let package = Package(
    name: "Reminders",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "reminders", targets: ["reminders"]),
        .executable(name: "reminders-bench", targets: ["reminders-bench"]),
        .library(name: "RemindersCore", targets: ["RemindersCore"]),
        .library(name: "CloudServer", targets: ["CloudServer"]),
        .library(name: "SyncEngine", targets: ["SyncEngine"]),
        .library(name: "DeviceRuntime", targets: ["DeviceRuntime"]),
        .library(name: "RemindersViewModels", targets: ["RemindersViewModels"]),
        .library(name: "RemindersTUI", targets: ["RemindersTUI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // `swift package generate-documentation`; nothing in the products links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
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
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"])]
        ),
        // SQLite's process-wide options, set before the first connection
        // (sqlite3_config is variadic, so Swift cannot call it itself).
        .target(
            name: "CSQLiteSetup",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // iCalendar text (RFC 5545): lines, escaping, parameters, values.
        .target(name: "ICalendar"),
        .target(
            name: "RemindersCore",
            dependencies: [
                "ICalendar",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CPNG",
                "CJPEG",
                "CSQLiteSetup",
            ]
        ),
        .target(
            name: "CloudServer",
            dependencies: [
                "CSQLiteSetup",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The server as a network service: an HTTP API over any store,
        // accounts, and the long poll that tells devices of changes.
        .target(
            name: "SyncService",
            dependencies: [
                "CSQLiteSetup",
                "CloudServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A server store in PostgreSQL, for several `reminders serve`
        // processes on one database.
        .target(
            name: "CloudServerPostgres",
            dependencies: [
                "CloudServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A `CloudDatabase` over that HTTP API, for devices.
        .target(
            name: "CloudClient",
            dependencies: [
                "CloudServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The GNU build ID of the running code (the engine notes what its
        // own build has checked: see ChangeCapture.isNoted).
        .target(name: "CBuildID"),
        .target(
            name: "SyncEngine",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift"), "CloudServer", "CBuildID"]
        ),
        // The device's plumbing: its database and engine, the server it
        // reaches (and how), live sync, watchers and spawned processes.
        .target(
            name: "RemindersViewModels",
            dependencies: ["RemindersCore", "SyncEngine"]
        ),
        // One device at run time: its database and engine, the server it
        // reaches (the transport is chosen in one place), live sync,
        // watchers and spawned processes. It provides what the view models
        // ask for (sync status, sharing, alerts) through their protocols.
        .target(
            name: "DeviceRuntime",
            dependencies: ["RemindersCore", "SyncEngine", "CloudServer", "CloudClient", "RemindersViewModels"]
        ),
        // The config file (TOML): where it is, what it says, on which line,
        // and the order of precedence of options, environment and file.
        .target(
            name: "RemindersConfig",
            dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .target(
            name: "RemindersTUI",
            dependencies: ["RemindersViewModels", "RemindersCore", "CNcurses"]
        ),
        .executableTarget(
            name: "reminders",
            dependencies: [
                "RemindersCore", "CloudServer", "SyncEngine", "DeviceRuntime", "RemindersViewModels", "RemindersTUI",
                "SyncService", "CloudClient", "CloudServerPostgres", "RemindersConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            linkerSettings: executableLinkerSettings
        ),
        .executableTarget(
            name: "reminders-bench",
            dependencies: [
                "RemindersCore", "CloudServer", "SyncEngine", "DeviceRuntime", "RemindersViewModels", "RemindersTUI",
                "SyncService", "CloudClient", "CloudServerPostgres",
            ],
            linkerSettings: executableLinkerSettings
        ),
        // What the test targets share, one copy each: the seeded generator,
        // the process runner, temporary folders, the test clock, the world
        // of devices on a temporary server directory, waiting by outcome
        // (`eventually`), recording from other threads, `reminders serve` in a
        // process of its own on a store of each kind (a directory, or a
        // PostgreSQL database in a cluster the test run starts), and network
        // namespaces.
        .target(name: "TestSupport", dependencies: ["RemindersCore", "CloudServer", "CloudClient", "DeviceRuntime", "CloudServerPostgres"], path: "Tests/TestSupport"),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "TestSupport"]),
        .testTarget(name: "RemindersCoreTests", dependencies: ["RemindersCore", "TestSupport"]),
        .testTarget(name: "RemindersConfigTests", dependencies: ["RemindersConfig"]),
        .testTarget(name: "CloudServerTests", dependencies: ["CloudServer", "CloudServerPostgres", "TestSupport"]),
        .testTarget(name: "SyncEngineTests", dependencies: ["SyncEngine", "CloudServer", "CloudClient", "RemindersCore", "DeviceRuntime", "RemindersViewModels", "TestSupport"]),
        .testTarget(name: "RemindersViewModelsTests", dependencies: ["RemindersViewModels", "DeviceRuntime", "RemindersCore", "TestSupport"]),
        .testTarget(name: "RemindersTUITests", dependencies: ["RemindersTUI", "RemindersViewModels", "DeviceRuntime", "RemindersCore", "TestSupport"],
                    exclude: ["Recordings"]),
        .testTarget(name: "SyncServiceTests", dependencies: [
            "SyncService", "CloudClient", "CloudServer", "CloudServerPostgres", "TestSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "EndToEndTests", dependencies: [
            "RemindersCore", "ICalendar", "CloudServer", "CloudClient", "DeviceRuntime", "SyncEngine", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

// The Swift modules of the programs and libraries (not the C ones, nor the tests).
let cTargets: Set = ["CNcurses", "CPNG", "CJPEG", "CSQLiteSetup", "CBuildID", "TestSupport"]
for target in package.targets where [.regular, .executable].contains(target.type) && !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
