// swift-tools-version:6.0
// CrownPager: watchOS-style vertical pages on an SSD1306 OLED, turned by a rotary encoder.
//
// The arrows between targets are the architecture: nothing below points up.
//   CrownVocabulary  instants, spans, what the crown did            (standard library only)
//   PagerGraphics    1-bit bitmap, primitives, fonts, PBM/PNG       (standard library only)
//   PagerCore        pages, crown interpreter, animation, indicator (CrownVocabulary, PagerGraphics)
//   SSD1306          commands, panels, driver, emulator, I2C traces (PagerGraphics)
//   CrownInput       quadrature decoding, button debouncing         (CrownVocabulary: not the pager core)
//   GlassViews       the glass in a terminal and as PNG, GIF, PBM   (pure: no OS imports)
//   PagerConfig      TOML 1.0 reader, checked configuration tables  (standard library only)
//   PagerSettings    the configuration: settings table, TOML, defaults (pure)
//   PagerControl     the control protocol; PagerCommand, one vocabulary (CrownVocabulary only)
//   PagerEngine      what the device does: pages, pacing, screen     (the pure targets but GlassViews:
//                    saver, recovery, the one runner                  no Glibc, no Foundation)
//   PagerTools       render, replay, wiring diagrams, test pattern  (pure, beside the engine)
//   PagerWeb         the engine for the browser page: its WebAssembly C ABI (pure, beside the tools)
//   PagerMirror      the live mirror's requests, token and glass events (CrownVocabulary, PagerGraphics)
//   LinuxSystem      the only target that talks to Linux: I2C, SPI, (CrownVocabulary, SSD1306, CrownInput)
//                    GPIO, input events, files, sockets, processes, the MQTT broker (libmosquitto)
//                    and browsers (libmicrohttpd), both loaded at run time
//   VhostUserI2C     vhost-user and virtio-i2c for a VM's panel     (SSD1306: standard library only)
//   CrownPagerApp    the shell: run loop, crown sources, readings   (PagerEngine, LinuxSystem, GlassViews)
//   crownpager       the command-line program                       (CrownPagerApp, ArgumentParser)
import PackageDescription

// The manifest declares and carries no flags: a release build here is the plain one. The link of the
// program the .deb ships (lld, packed relocations, static libstdc++, no exported symbols, a symbol
// order) is given on Scripts/release/package.sh's command line (Scripts/release/release-link.sh).

let package = Package(
    name: "CrownPager",
    products: [
        .executable(name: "crownpager", targets: ["crownpager"]),
        .executable(name: "crownpager-bench", targets: ["CrownPagerBenchmarks"]),
        // A test tool for VMs, not shipped: the panel on a guest's real /dev/i2c-N (Testing.md).
        .executable(name: "crownpager-vhost-i2c", targets: ["crownpager-vhost-i2c"]),
        .library(name: "CrownVocabulary", targets: ["CrownVocabulary"]),
        .library(name: "PagerGraphics", targets: ["PagerGraphics"]),
        .library(name: "PagerCore", targets: ["PagerCore"]),
        .library(name: "SSD1306", targets: ["SSD1306"]),
    ],
    dependencies: [
        // Lower bounds a Swift 6.0 toolchain can resolve: SwiftPM skips releases whose
        // manifest needs a newer tools version and settles on an older one.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // The words every layer shares: instants, spans, what the crown did. Standard library only.
        .target(name: "CrownVocabulary"),
        .target(name: "PagerGraphics", exclude: ["Fonts/BDF"]),
        // Double.rounded() calls libm's round, floor and ceil on Linux. Glibc's import used to bring
        // libm into every program; a program of pure targets alone (crownpager-bench) must name it.
        .target(
            name: "PagerCore", dependencies: ["CrownVocabulary", "PagerGraphics"],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(name: "SSD1306", dependencies: ["PagerGraphics"]),
        .target(name: "CrownInput", dependencies: ["CrownVocabulary"]),
        // The device end of a guest's virtio-i2c adapter: vhost-user messages, the split virtqueue
        // and I2C requests answered by the emulator. Standard library only; sockets and mappings
        // are LinuxSystem's.
        .target(name: "VhostUserI2C", dependencies: ["SSD1306"]),
        .target(name: "GlassViews", dependencies: ["CrownVocabulary", "PagerGraphics", "PagerCore", "SSD1306"]),
        // A TOML 1.0 reader and checked configuration tables: standard library only.
        .target(name: "PagerConfig"),
        // <linux/input.h> for the evdev reader: header only, nothing to link.
        .systemLibrary(name: "CLinuxInput", path: "Sources/CLinuxInput"),
        // libi2c (i2c-tools 4.3) ships no pkg-config file: the module map links `i2c` by name.
        .systemLibrary(name: "CI2C", path: "Sources/CI2C"),
        // The shim that gives libgpiod's two major APIs one small interface. It links no libgpiod:
        // it dlopens libgpiod.so.3 (2.x) or libgpiod.so.2 (1.x) at run time, so one binary runs on
        // Debian 12 and 13 and the build needs no libgpiod headers. dlopen is in libc from glibc
        // 2.34 on; older glibc keeps it in libdl.
        .target(name: "CrownPagerGPIO", linkerSettings: [.linkedLibrary("dl")]),
        // libmosquitto, the MQTT client, loaded at run time when [mqtt] has a host: the shim links
        // no libmosquitto (nor, through it, libssl and libcrypto) into runs without MQTT. The build
        // needs libmosquitto-dev for <mosquitto.h>, its types and constants.
        .target(name: "CrownPagerMosquitto", linkerSettings: [.linkedLibrary("dl")]),
        // GNU libmicrohttpd, the live mirror's HTTP server, loaded at run time when [web] listens:
        // a run without it maps none of it, and the build needs no libmicrohttpd-dev.
        .target(name: "CrownPagerMicroHTTPD", linkerSettings: [.linkedLibrary("dl")]),
        // A broker's name looked up without blocking the run loop: getaddrinfo_a(3), a GNU extension.
        .target(name: "CrownPagerLookup"),
        // The commit, compiler and libgpiod a build was made from (Scripts/release/build-info.sh), for --version.
        .target(name: "CrownPagerBuildInfo"),
        // Its system calls go through a small shim of its own (Errno, FileDescriptor) rather than Apple's
        // System library, whose current release needs tools 6.1: the package must build with Swift 6.0.3.
        .target(
            name: "LinuxSystem",
            dependencies: [
                "CrownVocabulary", "SSD1306", "CrownInput", "CLinuxInput", "CI2C", "CrownPagerGPIO",
                "CrownPagerMosquitto",
                "CrownPagerLookup", "CrownPagerMicroHTTPD",
            ]
        ),
        // The control socket's protocol: requests, responses, the bounded line buffer. Standard library only.
        .target(name: "PagerControl", dependencies: ["CrownVocabulary"]),
        // The configuration: its settings table, its TOML mapping, its defaults. Pure.
        .target(
            name: "PagerSettings",
            dependencies: ["CrownVocabulary", "PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "PagerConfig"]),
        // What decides what the device does, from the pure targets alone: no Glibc, no Foundation,
        // no LinuxSystem. Files, clocks and processes are the shells' business.
        .target(
            name: "PagerEngine",
            dependencies: [
                "CrownVocabulary", "PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "PagerConfig",
                "PagerSettings", "PagerControl",
            ]),
        // Tools beside the engine: render and its virtual panel, trace replay, wiring diagrams, the
        // test pattern, sample readings. Pure.
        .target(
            name: "PagerTools",
            dependencies: [
                "CrownVocabulary", "PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "PagerConfig",
                "PagerSettings",
                "PagerEngine",
            ]),
        // The browser page's pager and the WebAssembly module's C ABI (Scripts/web/build-wasm.sh). Pure.
        .target(
            name: "PagerWeb",
            dependencies: [
                "CrownVocabulary", "PagerGraphics", "PagerCore", "SSD1306", "GlassViews", "PagerConfig",
                "PagerSettings", "PagerEngine", "PagerTools",
            ],
            exclude: ["Page"]),
        // The live mirror's decisions: its requests, the token, the glass's events. Pure.
        .target(name: "PagerMirror", dependencies: ["CrownVocabulary", "PagerGraphics"]),
        .target(
            name: "CrownPagerApp",
            dependencies: [
                "CrownVocabulary", "PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "GlassViews",
                "LinuxSystem",
                "PagerConfig", "PagerSettings", "PagerEngine", "PagerTools", "PagerControl", "PagerMirror",
            ]
        ),
        .executableTarget(
            name: "crownpager",
            dependencies: [
                "CrownVocabulary", "CrownPagerApp", "PagerConfig", "PagerSettings", "PagerEngine", "PagerTools",
                "PagerControl", "LinuxSystem",
                "CrownPagerBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "crownpager-vhost-i2c",
            dependencies: [
                "VhostUserI2C", "SSD1306", "PagerGraphics", "LinuxSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Counts heap allocations for crownpager-bench by defining malloc and its kin (weakly) in the
        // program; only the benchmark links it, so no other program's allocator is touched.
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "CrownPagerBenchmarks",
            dependencies: [
                "CrownVocabulary", "PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "PagerSettings",
                "PagerEngine",
                "PagerTools", "CAllocationCounter",
            ]
        ),

        .target(name: "TestSupport", dependencies: ["PagerGraphics"], path: "Tests/TestSupport"),
        // A fake Linux kernel for the tests: /dev/i2c-N and /dev/gpiochipN under a test-chosen root.
        .target(name: "FakeKernel", path: "Tests/FakeKernel"),
        .testTarget(
            name: "PagerGraphicsTests", dependencies: ["PagerGraphics", "TestSupport"],
            exclude: ["Goldens", "Fixtures"]),
        .testTarget(
            name: "PagerCoreTests", dependencies: ["PagerCore", "CrownVocabulary", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "SSD1306Tests", dependencies: ["SSD1306", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(
            name: "CrownInputTests", dependencies: ["CrownInput", "CrownVocabulary", "PagerCore", "TestSupport"]),
        .testTarget(name: "PagerConfigTests", dependencies: ["PagerConfig", "TestSupport"]),
        .testTarget(name: "PagerControlTests", dependencies: ["PagerControl", "CrownVocabulary", "TestSupport"]),
        .testTarget(
            name: "GlassViewsTests", dependencies: ["GlassViews", "CrownVocabulary", "PagerGraphics", "TestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "LinuxSystemTests",
            dependencies: ["LinuxSystem", "CrownVocabulary", "SSD1306", "PagerGraphics", "TestSupport", "FakeKernel"]),
        .testTarget(
            name: "VhostUserI2CTests",
            dependencies: [
                "VhostUserI2C", "SSD1306", "PagerGraphics", "LinuxSystem", "TestSupport", "crownpager-vhost-i2c",
            ]),
        .testTarget(
            name: "PagerEngineTests",
            dependencies: ["PagerSettings", "PagerEngine", "PagerTools", "CrownVocabulary", "TestSupport"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "PagerSettingsTests", dependencies: ["PagerSettings", "PagerConfig", "PagerCore", "TestSupport"]),
        .testTarget(
            name: "PagerToolsTests",
            dependencies: ["PagerTools", "PagerEngine", "PagerSettings", "PagerCore", "PagerGraphics", "SSD1306"]),
        .testTarget(
            name: "PagerWebTests",
            dependencies: ["PagerWeb", "PagerSettings", "PagerEngine", "PagerTools", "CrownVocabulary", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "PagerMirrorTests", dependencies: ["PagerMirror", "CrownVocabulary", "PagerGraphics", "TestSupport"]),
        .testTarget(
            name: "CrownPagerAppTests",
            dependencies: [
                "CrownPagerApp", "PagerSettings", "PagerEngine", "PagerTools", "PagerControl", "CrownVocabulary",
                "crownpager", "TestSupport",
                "FakeKernel",
            ],
            exclude: ["Goldens", "Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
