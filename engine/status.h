// Errors as values: a cheap Status (spec error code, message, hint) and Result<T>.
// Codes are the strings of the specs' error tables so they reach agents verbatim.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace lscope {

// Error codes. Scanner codes: scanner-protocol.md §2.3. Engine codes: intent-engine.md App. C.
// Backend codes are ours (a browser that is missing, dead or unreachable).
namespace codes {
inline constexpr const char* kElementNotFound = "ELEMENT_NOT_FOUND";
inline constexpr const char* kElementStale = "ELEMENT_STALE";
inline constexpr const char* kElementNotVisible = "ELEMENT_NOT_VISIBLE";
inline constexpr const char* kElementDisabled = "ELEMENT_DISABLED";
inline constexpr const char* kElementNotInteractable = "ELEMENT_NOT_INTERACTABLE";
inline constexpr const char* kSelectorInvalid = "SELECTOR_INVALID";
inline constexpr const char* kTimeout = "TIMEOUT";
inline constexpr const char* kNavigationError = "NAVIGATION_ERROR";
inline constexpr const char* kScriptError = "SCRIPT_ERROR";
inline constexpr const char* kUnknownCommand = "UNKNOWN_COMMAND";

inline constexpr const char* kIntentNotFound = "INTENT_NOT_FOUND";
inline constexpr const char* kIntentUnavailable = "INTENT_UNAVAILABLE";
inline constexpr const char* kParameterMissing = "PARAMETER_MISSING";
inline constexpr const char* kParameterInvalid = "PARAMETER_INVALID";
inline constexpr const char* kTargetNotFound = "TARGET_NOT_FOUND";
inline constexpr const char* kTargetAmbiguous = "TARGET_AMBIGUOUS";
inline constexpr const char* kStepFailed = "STEP_FAILED";
inline constexpr const char* kVerificationFailed = "VERIFICATION_FAILED";
inline constexpr const char* kCheckpointInvalid = "CHECKPOINT_INVALID";
inline constexpr const char* kPackLoadFailed = "PACK_LOAD_FAILED";
// A community pack's step the sandbox refuses (intent-engine.md §13.3).
inline constexpr const char* kPackNotTrusted = "PACK_NOT_TRUSTED";
inline constexpr const char* kDefinitionInvalid = "DEFINITION_INVALID";

inline constexpr const char* kSyntaxError = "SYNTAX_ERROR";
inline constexpr const char* kCancelled = "CANCELLED";
inline constexpr const char* kBrowserNotFound = "BROWSER_NOT_FOUND";
inline constexpr const char* kBrowserError = "BROWSER_ERROR";
inline constexpr const char* kConnectionError = "CONNECTION_ERROR";
inline constexpr const char* kUnsupported = "UNSUPPORTED";
inline constexpr const char* kInternal = "INTERNAL_ERROR";
}  // namespace codes

class Status {
 public:
  Status() = default;  // OK
  Status(std::string code, std::string message, std::string hint = {})
      : code_(std::move(code)), message_(std::move(message)), hint_(std::move(hint)) {}

  static Status ok() { return Status(); }

  bool isOk() const { return code_.empty(); }
  explicit operator bool() const { return isOk(); }
  const std::string& code() const { return code_; }
  const std::string& message() const { return message_; }
  const std::string& hint() const { return hint_; }

  Status& withHint(std::string hint) & {
    hint_ = std::move(hint);
    return *this;
  }
  Status&& withHint(std::string hint) && {
    hint_ = std::move(hint);
    return std::move(*this);
  }
  // Prefixes the message with context ("scan: " + message); keeps code and hint.
  Status wrap(const std::string& context) const {
    return Status(code_, context + ": " + message_, hint_);
  }
  std::string toString() const { return isOk() ? "OK" : code_ + ": " + message_; }

 private:
  std::string code_;
  std::string message_;
  std::string hint_;
};

// A value or the Status explaining why there is none.
// REQUIRES: a Result built from a Status holds a non-OK Status.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<1>(v_);
  }

 private:
  std::variant<T, Status> v_;
};

}  // namespace lscope

namespace lscope {
// The element an action aimed at went away (removed, or the page re-rendered it).
inline bool isElementGone(const Status& s) {
  return s.code() == codes::kElementStale || s.code() == codes::kElementNotFound;
}
}  // namespace lscope

// Early return of a non-OK Status (or a failed Result's Status).
#define LSCOPE_RETURN_IF_ERROR(expr)                    \
  do {                                                  \
    auto _st = (expr);                                  \
    if (!_st) return ::lscope::statusOf(_st);           \
  } while (0)

namespace lscope {
inline const Status& statusOf(const Status& s) { return s; }
template <typename T>
const Status& statusOf(const Result<T>& r) {
  return r.status();
}
}  // namespace lscope
