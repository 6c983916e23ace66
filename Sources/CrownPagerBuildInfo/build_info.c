// The build facts, from the header Scripts/release/build-info.sh generates (ignored by git), with
// defaults for a plain `swift build` of a fresh clone.
#include "CrownPagerBuildInfo.h"

#if __has_include("build-info.generated.h")
#include "build-info.generated.h"
#endif

#ifndef CROWNPAGER_BUILD_COMMIT
#define CROWNPAGER_BUILD_COMMIT "unknown"
#endif
#ifndef CROWNPAGER_BUILD_COMMIT_DATE
#define CROWNPAGER_BUILD_COMMIT_DATE ""
#endif
#ifndef CROWNPAGER_BUILD_SWIFT_VERSION
#define CROWNPAGER_BUILD_SWIFT_VERSION ""
#endif

const char *crownpager_build_commit(void) { return CROWNPAGER_BUILD_COMMIT; }
const char *crownpager_build_commit_date(void) { return CROWNPAGER_BUILD_COMMIT_DATE; }
const char *crownpager_build_swift_version(void) { return CROWNPAGER_BUILD_SWIFT_VERSION; }
