// Build information, generated at build time by cmake/BuildInfo.cmake.
#pragma once
namespace proxylab::build_info {
extern const char* const version;  // the CMake project version
extern const char* const git_hash;
extern const char* const git_dirty;  // "true", "false" or "unknown"
extern const char* const compiler;
extern const char* const flags;
extern const char* const build_type;
}  // namespace proxylab::build_info
