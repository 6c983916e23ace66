// What a build of crownpager was made from, for `crownpager --version`.
//
// Scripts/release/build-info.sh writes these facts into build-info.generated.h beside build_info.c before
// each build made by the project's scripts; a plain `swift build` without it says "unknown".
#ifndef CROWNPAGER_BUILD_INFO_H
#define CROWNPAGER_BUILD_INFO_H

#ifdef __cplusplus
extern "C" {
#endif

/// The git commit the build was made from, e.g. "a87af90" or "a87af90-dirty", or "unknown".
const char *crownpager_build_commit(void);
/// The date of that commit, YYYY-MM-DD, or "" when unknown.
const char *crownpager_build_commit_date(void);
/// The first line of the compiler's `swift --version`, or "" when unknown.
const char *crownpager_build_swift_version(void);

#ifdef __cplusplus
}
#endif

#endif
