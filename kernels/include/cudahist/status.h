// cudahist: the status every library call returns.
//
// The library never throws and never aborts on bad input: a call that cannot
// run returns a Status whose message names the offending field, e.g.
// "plane[1].pitch: 100 bytes is smaller than a row (333 samples x 1 bytes)".
#pragma once

#include <string>
#include <utility>

namespace cudahist {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // a plane view, spec or buffer the caller passed is wrong
  kUnsupported,      // well-formed but not something this build can do
  kNoDevice,         // no CUDA device (or no driver) on this machine
  kCudaError,        // the CUDA runtime reported a failure; message has its text
};

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status Unsupported(std::string message) {
    return Status(StatusCode::kUnsupported, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Evaluates `expr` (a Status) and returns it from the calling function if it failed.
#define CUDAHIST_RETURN_IF_ERROR(expr)              \
  do {                                              \
    ::cudahist::Status cudahist_status_ = (expr);   \
    if (!cudahist_status_.ok()) return cudahist_status_; \
  } while (0)

}  // namespace cudahist
