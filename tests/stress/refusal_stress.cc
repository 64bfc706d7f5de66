// A refusal ends the pipeline, once. Every refusal of refusals.txt, and the
// state changes and flows around refusals, many times each (50, or
// CUDAHISTOGRAM_STRESS_RUNS; the gst-launch-1.0 processes
// CUDAHISTOGRAM_STRESS_LAUNCH_RUNS): each run must end within a deadline and post
// its error (or warning) exactly once.
//   Refusal          real pipelines of this process, each run twice from NULL
//                    (a run that does not end aborts the suite, naming it)
//   GstLaunchRefusal gst-launch-1.0 processes, as a user meets the refusals
//                    made before any frame (and the warnings)
//   Flow             the state changes and flows around refusals
// Messages are counted on the posting thread (a bus sync handler), so that
// one posted while the pipeline goes to NULL is counted too. The System
// instances run on frames in system memory; the Cuda instances repeat the
// cases marked `cuda` on CUDA frames (cudaupload) and skip without a CUDA
// device. The list is the one built in (refusals_list.h), or the file
// CUDAHISTOGRAM_REFUSALS names.
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <dirent.h>
#include <execinfo.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "element_test_util.h"
#include "gstcudahistogrammeta.h"
#include "lifetime.h"
#include "refusals_list.h"

namespace {

using element_test::CapsString;
using element_test::Launch;
using element_test::RandomFrame;
using element_test::VideoInfo;

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new element_test::PluginEnvironment("cudahistogram"));

int Runs() {
  const char* runs = g_getenv("CUDAHISTOGRAM_STRESS_RUNS");
  return runs ? std::max(1, atoi(runs)) : 50;
}

// The gst-launch-1.0 cases' runs: CUDAHISTOGRAM_STRESS_LAUNCH_RUNS, else
// Runs() (a process that loads nvcodec takes about 2 s to start).
int LaunchRuns() {
  const char* runs = g_getenv("CUDAHISTOGRAM_STRESS_LAUNCH_RUNS");
  return runs ? std::max(1, atoi(runs)) : Runs();
}

// Every run ends within this, teardown included; 2 cores shared with a
// parallel test run take well under a second.
constexpr std::chrono::seconds kDeadline(10);

// Every thread's stack on stderr, each thread printing its own from a
// signal handler: where a hang waits (the symbols of GStreamer, gst-cuda and
// the CUDA driver, which export theirs) is the one thing an abort loses.
void PrintOwnStack(int) {
  void* frames[48];
  const int n = backtrace(frames, 48);
  char header[64];
  const int len = snprintf(header, sizeof header, "--- thread %ld\n", long(syscall(SYS_gettid)));
  if (write(STDERR_FILENO, header, size_t(len)) < 0) return;
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
}

void PrintEveryThreadsStack() {
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc's unwinder here, not inside a handler
  signal(SIGUSR2, PrintOwnStack);
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks) return;
  while (const dirent* task = readdir(tasks)) {
    const long tid = atol(task->d_name);
    if (tid <= 0) continue;
    syscall(SYS_tgkill, long(getpid()), tid, SIGUSR2);
    usleep(50000);  // one thread's lines after another's
  }
  closedir(tasks);
}

// Aborts the process, naming `what`, unless destroyed within kDeadline: a
// hang fails the suite (meson reports the abort) instead of stalling it.
class Deadline {
 public:
  explicit Deadline(std::string what) : what_(std::move(what)), watch_([this] { Watch(); }) {}
  ~Deadline() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    watch_.join();
  }

 private:
  void Watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (cv_.wait_for(lock, kDeadline, [this] { return done_; })) return;
    fprintf(stderr, "HANG: %s did not end within %lld s\n", what_.c_str(), (long long)kDeadline.count());
    fflush(stderr);
    PrintEveryThreadsStack();
    std::abort();
  }
  std::string what_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread watch_;
};

// What a pipeline posted, counted on the posting thread: the errors and
// warnings of the element named under_test, the errors of the others, EOS,
// "cudahistogram" messages; and the buffers under_test pushed. The counts
// are shared with the bus's sync handler and the pad probe, which GStreamer
// may still be running on a streaming thread when the Watch goes: each holds
// them until GStreamer drops it.
class Watch {
 public:
  explicit Watch(GstElement* pipeline) : pipeline_(pipeline), counts_(std::make_shared<Counts>()) {
    counts_->under_test = gst_bin_get_by_name(GST_BIN(pipeline), "under_test");
    GstBus* bus = gst_element_get_bus(pipeline);
    gst_bus_set_sync_handler(bus, OnMessage, new std::shared_ptr<Counts>(counts_), Release);
    gst_object_unref(bus);
    if (counts_->under_test) {
      GstPad* src = gst_element_get_static_pad(counts_->under_test, "src");
      probe_ = gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, OnBuffer, new std::shared_ptr<Counts>(counts_),
                                 Release);
      gst_object_unref(src);
    }
  }
  ~Watch() {
    GstBus* bus = gst_element_get_bus(pipeline_);
    gst_bus_set_sync_handler(bus, nullptr, nullptr, nullptr);
    gst_object_unref(bus);
    if (counts_->under_test) {
      GstPad* src = gst_element_get_static_pad(counts_->under_test, "src");
      gst_pad_remove_probe(src, probe_);
      gst_object_unref(src);
      gst_object_unref(counts_->under_test);
    }
  }
  GstElement* under_test() { return counts_->under_test; }

  void Reset() {
    std::lock_guard<std::mutex> lock(counts_->mutex);
    counts_->errors.clear();
    counts_->warnings.clear();
    counts_->other_errors.clear();
    counts_->eos = false;
    counts_->buffers = counts_->histograms = 0;
  }
  bool WaitForError() {
    return WaitUntil([](const Counts& c) { return !c.errors.empty(); });
  }
  bool WaitForEnd() {
    return WaitUntil([](const Counts& c) { return c.eos || !c.errors.empty() || !c.other_errors.empty(); });
  }
  bool WaitForBuffers(int n) {
    return WaitUntil([n](const Counts& c) { return c.buffers >= n; });
  }

  std::vector<std::string> errors() { return Read(&Counts::errors); }
  std::vector<std::string> warnings() { return Read(&Counts::warnings); }
  std::vector<std::string> other_errors() { return Read(&Counts::other_errors); }
  bool eos() { return Read(&Counts::eos); }
  int buffers() { return Read(&Counts::buffers); }
  int histograms() { return Read(&Counts::histograms); }
  std::vector<std::shared_ptr<GWeakRef>> cuda_contexts() { return Read(&Counts::cuda_contexts); }

 private:
  struct Counts {
    GstElement* under_test = nullptr;  // the Watch's reference
    std::mutex mutex;
    std::condition_variable cv;
    std::vector<std::string> errors, warnings, other_errors;
    bool eos = false;
    int buffers = 0, histograms = 0;
    std::vector<std::shared_ptr<GWeakRef>> cuda_contexts;  // those the pipeline made
  };

  // A weak reference to the GstCudaContext that `m` (HAVE_CONTEXT) shares.
  static void KeepCudaContext(GstMessage* m, std::vector<std::shared_ptr<GWeakRef>>* kept) {
    GstContext* context = nullptr;
    gst_message_parse_have_context(m, &context);
    GstCudaContext* cuda = nullptr;
    if (context && g_str_equal(gst_context_get_context_type(context), GST_CUDA_CONTEXT_TYPE)) {
      gst_structure_get(gst_context_get_structure(context), GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &cuda,
                        nullptr);
    }
    if (cuda) {
      auto weak = std::shared_ptr<GWeakRef>(new GWeakRef, [](GWeakRef* w) {
        g_weak_ref_clear(w);
        delete w;
      });
      g_weak_ref_init(weak.get(), cuda);
      kept->push_back(weak);
      gst_object_unref(cuda);
    }
    if (context) gst_context_unref(context);
  }

  // Waits (at most kDeadline) until `done` holds; false if it never did.
  bool WaitUntil(const std::function<bool(const Counts&)>& done) {
    std::unique_lock<std::mutex> lock(counts_->mutex);
    return counts_->cv.wait_for(lock, kDeadline, [&] { return done(*counts_); });
  }
  template <typename T>
  T Read(T Counts::*field) {
    std::lock_guard<std::mutex> lock(counts_->mutex);
    return (*counts_).*field;
  }

  static Counts& Of(gpointer data) { return **static_cast<std::shared_ptr<Counts>*>(data); }
  static void Release(gpointer data) { delete static_cast<std::shared_ptr<Counts>*>(data); }

  static GstBusSyncReply OnMessage(GstBus*, GstMessage* m, gpointer data) {
    Counts& c = Of(data);
    const bool from_under_test = GST_MESSAGE_SRC(m) == GST_OBJECT(c.under_test);
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      switch (GST_MESSAGE_TYPE(m)) {
        case GST_MESSAGE_ERROR:
          (from_under_test ? c.errors : c.other_errors).push_back(element_test::ErrorText(m));
          break;
        case GST_MESSAGE_WARNING:
          if (from_under_test) {
            GError* e = nullptr;
            gst_message_parse_warning(m, &e, nullptr);
            c.warnings.push_back(e->message);
            g_error_free(e);
          }
          break;
        case GST_MESSAGE_EOS:
          c.eos = true;
          break;
        case GST_MESSAGE_HAVE_CONTEXT:
          KeepCudaContext(m, &c.cuda_contexts);
          break;
        case GST_MESSAGE_ELEMENT:
          if (gst_message_has_name(m, "cudahistogram")) c.histograms++;
          break;
        default:
          break;
      }
    }
    c.cv.notify_all();
    gst_message_unref(m);  // a sync handler that drops a message owns it
    return GST_BUS_DROP;
  }
  static GstPadProbeReturn OnBuffer(GstPad*, GstPadProbeInfo*, gpointer data) {
    Counts& c = Of(data);
    {
      std::lock_guard<std::mutex> lock(c.mutex);
      c.buffers++;
    }
    c.cv.notify_all();
    return GST_PAD_PROBE_OK;
  }

  GstElement* pipeline_;
  std::shared_ptr<Counts> counts_;
  gulong probe_ = 0;
};

// Drops the test's reference to `pipeline`, which must be its last: a
// pipeline kept alive keeps its elements, and on CUDA frames their CUDA
// context (about 500 MB and a driver thread each).
void UnrefTheLastReference(GstElement* pipeline, const std::string& what) {
  GWeakRef weak;
  g_weak_ref_init(&weak, pipeline);
  gst_object_unref(pipeline);
  if (GObject* alive = cudahist_test::AliveAfter(&weak)) {
    ADD_FAILURE() << what << ": the pipeline outlived the test's last reference by 5 s, " << (alive->ref_count - 1)
                  << " reference(s) held";
    g_object_unref(alive);
  }
  g_weak_ref_clear(&weak);
}

std::string Joined(const std::vector<std::string>& texts) {
  std::string all;
  for (const std::string& t : texts) all += "\n  [" + t + "]";
  return all;
}

// --- refusals.txt -----------------------------------------------------------------

enum class When { kStart, kStream, kWarning };

struct RefusalCase {
  std::string name;
  When when = When::kStart;
  std::set<std::string> runs;
  std::string pipeline;  // with {upload}
  std::string text;
};

// A case is named by its name in the test's output.
void PrintTo(const RefusalCase& c, std::ostream* os) { *os << c.name; }

// The lines of refusals.txt that could not be read, for RefusalList.
std::vector<std::string>& BadLines() {
  static std::vector<std::string> bad;
  return bad;
}

std::string Trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> Split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(Trimmed(part));
  return parts;
}

// Whether the version guards among `runs` hold for the GStreamer we build against.
bool VersionHolds(const std::set<std::string>& runs) {
  const bool at_least_1_24 = GST_CHECK_VERSION(1, 24, 0);
  const bool at_least_1_26 = GST_CHECK_VERSION(1, 26, 0);
  if (runs.count("gst<1.24") && at_least_1_24) return false;
  if (runs.count("gst>=1.24") && !at_least_1_24) return false;
  if (runs.count("gst<1.26") && at_least_1_26) return false;
  return true;
}

const std::vector<RefusalCase>& AllRefusals() {
  static const std::vector<RefusalCase> cases = [] {
    std::vector<RefusalCase> all;
    std::stringstream list(kRefusalsTxt);
    std::ifstream file;
    if (const char* path = g_getenv("CUDAHISTOGRAM_REFUSALS")) {
      file.open(path);
      if (!file) BadLines().push_back(std::string("cannot read ") + path);
    }
    std::istream& in = file.is_open() ? static_cast<std::istream&>(file) : list;
    static const std::set<std::string> kRuns = {"cpu", "cuda", "no-gpu", "gst<1.24", "gst>=1.24", "gst<1.26"};
    for (std::string line; std::getline(in, line);) {
      line = Trimmed(line);
      if (line.empty() || line[0] == '#') continue;
      const std::vector<std::string> f = Split(line, '|');
      RefusalCase c;
      bool ok = f.size() == 5;
      if (ok) {
        c.name = f[0];
        c.pipeline = f[3];
        c.text = f[4];
        ok = f[1] == "start" || f[1] == "stream" || f[1] == "warning";
        c.when = f[1] == "start" ? When::kStart : f[1] == "stream" ? When::kStream : When::kWarning;
        for (const std::string& r : Split(f[2], ',')) {
          ok = ok && kRuns.count(r);
          c.runs.insert(r);
        }
        ok = ok && !c.name.empty() && !c.text.empty() && c.pipeline.find("name=under_test") != std::string::npos;
      }
      if (ok) {
        all.push_back(c);
      } else {
        BadLines().push_back(line);
      }
    }
    return all;
  }();
  return cases;
}

// The cases that run on system memory (`cuda` false) or on CUDA frames.
std::vector<RefusalCase> RefusalsOn(bool cuda) {
  std::vector<RefusalCase> chosen;
  for (const RefusalCase& c : AllRefusals()) {
    const bool runs = cuda ? c.runs.count("cuda") > 0 : c.runs.count("cpu") + c.runs.count("no-gpu") > 0;
    if (runs && VersionHolds(c.runs)) chosen.push_back(c);
  }
  return chosen;
}

std::string PipelineOn(const RefusalCase& c, bool cuda) {
  std::string p = c.pipeline;
  const std::string upload = cuda ? "cudaupload ! video/x-raw(memory:CUDAMemory) !" : "";
  for (size_t at; (at = p.find("{upload}")) != std::string::npos;) p.replace(at, 8, upload);
  return p;
}

TEST(RefusalList, IsReadWhole) {
  EXPECT_FALSE(AllRefusals().empty());
  EXPECT_TRUE(BadLines().empty()) << "lines of refusals.txt not in the form NAME | WHEN | RUNS | PIPELINE | TEXT:"
                                  << Joined(BadLines());
}

class Refusal : public ::testing::TestWithParam<RefusalCase> {};

// One round of a refusal case on `pipeline`: from NULL to PLAYING and back,
// the error (or warning) posted exactly once.
void RefusalRound(const RefusalCase& c, GstElement* pipeline, Watch* watch, const std::string& what) {
  Deadline deadline(what);
  watch->Reset();
  const GstStateChangeReturn ret = gst_element_set_state(pipeline, GST_STATE_PLAYING);
  switch (c.when) {
    case When::kStart:
      // Refused in the state change, on this thread: the error is there already.
      EXPECT_EQ(ret, GST_STATE_CHANGE_FAILURE) << what;
      break;
    case When::kStream:
      EXPECT_TRUE(watch->WaitForError()) << what << ": no error";
      break;
    case When::kWarning:
      EXPECT_NE(ret, GST_STATE_CHANGE_FAILURE) << what;
      EXPECT_TRUE(watch->WaitForEnd()) << what << ": no EOS";
      EXPECT_TRUE(watch->eos()) << what << Joined(watch->other_errors());
      break;
  }
  EXPECT_EQ(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << what;
  const std::vector<std::string> posted = c.when == When::kWarning ? watch->warnings() : watch->errors();
  ASSERT_EQ(posted.size(), 1u) << what << ": posted " << posted.size() << " times" << Joined(posted);
  EXPECT_NE(posted[0].find(c.text), std::string::npos) << what << ": " << posted[0];
  if (c.when == When::kWarning) {
    EXPECT_TRUE(watch->errors().empty()) << what << Joined(watch->errors());
  }
}

// Each run takes the pipeline to PLAYING twice: the refusal comes again,
// once, after the element was stopped and started.
void RunRefusal(const RefusalCase& c, bool cuda) {
  const std::string description = PipelineOn(c, cuda);
  for (int run = 0; run < Runs(); ++run) {
    GstElement* pipeline = Launch(description);
    ASSERT_NE(pipeline, nullptr) << description;
    {
      Watch watch(pipeline);
      ASSERT_NE(watch.under_test(), nullptr) << description;
      for (int round = 0; round < 2; ++round) {
        const std::string what = c.name + " run " + std::to_string(run) + " round " + std::to_string(round);
        ASSERT_NO_FATAL_FAILURE(RefusalRound(c, pipeline, &watch, what));
      }
    }
    UnrefTheLastReference(pipeline, c.name + " run " + std::to_string(run));
  }
}

// Why `c` is no refusal on this machine, or "": a no-gpu case where a CUDA
// driver loads.
std::string NotARefusalHere(const RefusalCase& c) {
  if (c.runs.count("no-gpu") && gst_cuda_load_library()) {
    return "a CUDA driver is here: " + c.name + " is a refusal only without one";
  }
  return "";
}

TEST_P(Refusal, PostedOnceAndThePipelineEnds) {
  if (const std::string why = NotARefusalHere(GetParam()); !why.empty()) GTEST_SKIP() << why;
  RunRefusal(GetParam(), false);
}

class CudaRefusal : public Refusal {};

TEST_P(CudaRefusal, PostedOnceAndThePipelineEnds) {
  SKIP_WITHOUT_CUDA();
  RunRefusal(GetParam(), true);
}

std::string CaseName(const ::testing::TestParamInfo<RefusalCase>& p) {
  std::string name = p.param.name;
  for (char& ch : name) {
    if (!g_ascii_isalnum(ch)) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(System, Refusal, ::testing::ValuesIn(RefusalsOn(false)), CaseName);
INSTANTIATE_TEST_SUITE_P(Cuda, CudaRefusal, ::testing::ValuesIn(RefusalsOn(true)), CaseName);

// --- through gst-launch-1.0 ---------------------------------------------------------
// The refusals made before any frame, and the warnings, as a user meets them.
// Not the `stream` ones: gst-launch-1.0 (1.22, and the same code in 1.26)
// loses an error posted from a streaming thread before its main loop runs and
// then waits forever, whichever element posts it (docs/element.md,
// "Refusals"); the Refusal tests above run those in this process.

std::vector<RefusalCase> BeforeAnyFrame(std::vector<RefusalCase> cases) {
  cases.erase(std::remove_if(cases.begin(), cases.end(), [](const RefusalCase& c) { return c.when == When::kStream; }),
              cases.end());
  return cases;
}

constexpr char kLaunchSeconds[] = "10";

// One gst-launch-1.0 run of `pipeline`, ended by timeout(1) after
// kLaunchSeconds: its exit status (124: it did not end) and its output.
int GstLaunch(const std::string& pipeline, bool quiet, std::string* output) {
  gint argc = 0;
  gchar** args = nullptr;
  GError* error = nullptr;
  if (!g_shell_parse_argv(pipeline.c_str(), &argc, &args, &error)) {
    *output = error->message;
    g_error_free(error);
    return -1;
  }
  std::vector<gchar*> argv = {const_cast<gchar*>("timeout"), const_cast<gchar*>(kLaunchSeconds),
                              const_cast<gchar*>("gst-launch-1.0")};
  if (quiet) argv.push_back(const_cast<gchar*>("-q"));  // -q hides warnings too
  argv.insert(argv.end(), args, args + argc);
  argv.push_back(nullptr);
  gchar *out = nullptr, *err = nullptr;
  gint wait_status = 0;
  const bool spawned = g_spawn_sync(nullptr, argv.data(), nullptr, G_SPAWN_SEARCH_PATH, nullptr, nullptr, &out, &err,
                                    &wait_status, &error);
  g_strfreev(args);
  if (!spawned) {
    *output = error->message;
    g_error_free(error);
    return -1;
  }
  *output = std::string(out) + err;
  g_free(out);
  g_free(err);
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

std::vector<std::string> LinesWith(const std::string& output, const std::string& part) {
  std::vector<std::string> lines;
  for (const std::string& line : Split(output, '\n')) {
    if (line.find(part) != std::string::npos) lines.push_back(line);
  }
  return lines;
}

// A refusal made before any frame: exit status non-zero, its text on one
// "ERROR: from element" line of under_test and no other error. A warning:
// exit status 0 (EOS), its text on one "WARNING: from element" line, no error.
void RunGstLaunch(const RefusalCase& c, bool cuda) {
  const bool refusal = c.when == When::kStart;
  const std::string kind = refusal ? "ERROR" : "WARNING";
  const std::string pipeline = PipelineOn(c, cuda);
  for (int run = 0; run < LaunchRuns(); ++run) {
    const std::string what = c.name + " gst-launch-1.0 run " + std::to_string(run);
    std::string output;
    const int status = GstLaunch(pipeline, refusal, &output);
    ASSERT_NE(status, 124) << what << ": did not end within " << kLaunchSeconds << " s\n" << output;
    ASSERT_NE(status, -1) << what << ": " << output;
    EXPECT_EQ(status != 0, refusal) << what << ": exit status " << status << "\n" << output;
    const std::vector<std::string> with_text = LinesWith(output, c.text),
                                   errors = LinesWith(output, "ERROR: from element ");
    ASSERT_EQ(with_text.size(), 1u) << what << ": the text on " << with_text.size() << " lines\n" << output;
    EXPECT_NE(with_text[0].find(kind + ": from element "), std::string::npos) << what << "\n" << output;
    EXPECT_NE(with_text[0].find(":under_test: "), std::string::npos) << what << "\n" << output;
    EXPECT_EQ(errors.size(), refusal ? 1u : 0u) << what << "\n" << output;
  }
}

class GstLaunchRefusal : public Refusal {};

TEST_P(GstLaunchRefusal, PostedOnceAndTheProcessEnds) {
  if (const std::string why = NotARefusalHere(GetParam()); !why.empty()) GTEST_SKIP() << why;
  RunGstLaunch(GetParam(), false);
}

class CudaGstLaunchRefusal : public Refusal {};

TEST_P(CudaGstLaunchRefusal, PostedOnceAndTheProcessEnds) {
  SKIP_WITHOUT_CUDA();
  RunGstLaunch(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(System, GstLaunchRefusal, ::testing::ValuesIn(BeforeAnyFrame(RefusalsOn(false))), CaseName);
INSTANTIATE_TEST_SUITE_P(Cuda, CudaGstLaunchRefusal, ::testing::ValuesIn(BeforeAnyFrame(RefusalsOn(true))), CaseName);

// --- state changes and flows ----------------------------------------------------

// The two elements, each as the pipelines below put it after an I420 source.
const char* const kElements[] = {"cudahistogram", "cudavideoscope"};

std::string Counting(const char* element, const std::string& properties = "") {
  return std::string("videotestsrc ! video/x-raw,format=I420,width=64,height=48,framerate=25/1 ! ") + element +
         " name=under_test " + properties + " ! fakesink sync=false";
}

// PLAYING to NULL while frames flow.
TEST(Flow, PlayingToNullMidStream) {
  for (const char* element : kElements) {
    for (int run = 0; run < Runs(); ++run) {
      const std::string what = std::string(element) + " PLAYING to NULL, run " + std::to_string(run);
      GstElement* pipeline = Launch(Counting(element));
      {
        Watch watch(pipeline);
        Deadline deadline(what);
        gst_element_set_state(pipeline, GST_STATE_PLAYING);
        EXPECT_TRUE(watch.WaitForBuffers(3 + run % 5)) << what;
        EXPECT_EQ(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << what;
        EXPECT_TRUE(watch.errors().empty() && watch.other_errors().empty())
            << what << Joined(watch.errors()) << Joined(watch.other_errors());
      }
      UnrefTheLastReference(pipeline, what);
    }
  }
}

// Flushing seeks while frames are counted: each is answered, frames keep
// coming, no error.
TEST(Flow, FlushingSeeksWhileCounting) {
  for (const char* element : kElements) {
    const std::string what = std::string(element) + " flushing seeks";
    GstElement* pipeline = Launch(Counting(element));
    {
      Watch watch(pipeline);
      gst_element_set_state(pipeline, GST_STATE_PLAYING);
      ASSERT_TRUE(watch.WaitForBuffers(2)) << what;
      for (int seek = 0; seek < Runs(); ++seek) {
        Deadline deadline(what + " " + std::to_string(seek));
        const int before = watch.buffers();
        EXPECT_TRUE(gst_element_seek_simple(pipeline, GST_FORMAT_TIME,
                                            GstSeekFlags(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE),
                                            (seek % 7) * GST_SECOND / 25))
            << what << " " << seek;
        EXPECT_TRUE(watch.WaitForBuffers(before + 2)) << what << " " << seek;
      }
      {
        Deadline deadline(what + " to NULL");
        EXPECT_EQ(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << what;
      }
      EXPECT_TRUE(watch.errors().empty() && watch.other_errors().empty())
          << what << Joined(watch.errors()) << Joined(watch.other_errors());
      if (g_str_equal(element, "cudahistogram")) {
        EXPECT_GE(watch.histograms(), watch.buffers()) << what;
      }
    }
    UnrefTheLastReference(pipeline, what);
  }
}

// EOS before any frame: no error, no message, the pipeline ends.
TEST(Flow, EosWithNoFrame) {
  for (const char* element : kElements) {
    for (int run = 0; run < Runs(); ++run) {
      const std::string what = std::string(element) + " EOS with no frame, run " + std::to_string(run);
      GstElement* pipeline = Launch(std::string("videotestsrc num-buffers=0 ! video/x-raw,format=I420,width=64,height=48 ! ") +
                                    element + " name=under_test ! fakesink");
      {
        Watch watch(pipeline);
        Deadline deadline(what);
        gst_element_set_state(pipeline, GST_STATE_PLAYING);
        EXPECT_TRUE(watch.WaitForEnd()) << what;
        EXPECT_TRUE(watch.eos()) << what;
        EXPECT_EQ(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << what;
        EXPECT_TRUE(watch.errors().empty() && watch.other_errors().empty())
            << what << Joined(watch.errors()) << Joined(watch.other_errors());
        EXPECT_EQ(watch.buffers(), 0) << what;
        EXPECT_EQ(watch.histograms(), 0) << what;
      }
      UnrefTheLastReference(pipeline, what);
    }
  }
}

// Renegotiation mid-stream to a format the properties refuse, and back:
// each refusal is posted once however many frames meet it, and counting
// resumes on the format it takes.
struct Renegotiation {
  const char* element;
  const char* properties;
  GstVideoFormat taken, refused;
  const char* text;
};

TEST(Flow, RenegotiationToARefusedFormatAndBack) {
  for (const Renegotiation& r :
       {Renegotiation{"cudahistogram", "bins=512", GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_GRAY8,
                      "bins 512 exceeds the 256 code values"},
        Renegotiation{"cudavideoscope", "style=vectorscope", GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGBA,
                      "style vectorscope of RGBA"}}) {
    element_test::Harness hx(r.properties, r.element);
    const GstVideoInfo taken = VideoInfo(r.taken, 16, 8), refused = VideoInfo(r.refused, 16, 8);
    std::mt19937_64 rng(37);
    GstBuffer* taken_frame = RandomFrame(taken, rng);
    GstBuffer* refused_frame = RandomFrame(refused, rng);
    const int runs = Runs();
    for (int run = 0; run < runs; ++run) {
      const std::string what = std::string(r.element) + " renegotiation " + std::to_string(run);
      Deadline deadline(what);
      hx.SetCaps(taken);
      ASSERT_EQ(hx.Push(taken_frame, 0, element_test::kFrame), GST_FLOW_OK) << what;
      gst_buffer_unref(gst_harness_pull(hx.h()));
      hx.SetCaps(refused);
      for (int frame = 0; frame < 3; ++frame) {
        EXPECT_EQ(hx.Push(refused_frame, 0, element_test::kFrame), GST_FLOW_NOT_NEGOTIATED) << what;
      }
      const std::string text = element_test::PopErrorText(hx.bus());
      EXPECT_NE(text.find(r.text), std::string::npos) << what << ": " << text;
      EXPECT_EQ(element_test::PopErrorText(hx.bus()), "") << what << ": posted again";
      hx.SetCaps(taken);
      ASSERT_EQ(hx.Push(taken_frame, 0, element_test::kFrame), GST_FLOW_OK) << what;
      GstBuffer* out = gst_harness_pull(hx.h());
      if (g_str_equal(r.element, "cudahistogram")) {
        EXPECT_NE(gst_buffer_get_cuda_histogram_meta(out), nullptr);
      }
      gst_buffer_unref(out);
    }
    gst_buffer_unref(taken_frame);
    gst_buffer_unref(refused_frame);
  }
}

// Properties set from another thread while frames flow: values the caps
// take are counted from the next frame on, without an error; a value they
// cannot take is refused once, and the pipeline ends.
struct PropertyChange {
  const char* element;
  std::vector<std::vector<std::pair<const char*, const char*>>> taken;  // settings the I420 frames take
  std::pair<const char*, const char*> refused;
  const char* text;
};

void SetProperty(GstElement* element, const std::pair<const char*, const char*>& p) {
  gst_util_set_object_arg(G_OBJECT(element), p.first, p.second);
}

TEST(Flow, PropertiesSetFromAnotherThreadWhileFramesFlow) {
  const std::vector<PropertyChange> changes = {
      {"cudahistogram",
       {{{"bins", "16"}, {"components", "Y"}},
        {{"bins", "256"}, {"components", "all"}, {"roi-x", "8"}, {"roi-width", "16"}},
        {{"interval", "80000000"}, {"signalstats", "true"}, {"roi-x", "0"}, {"roi-width", "0"}},
        {{"signalstats", "false"}, {"cropdetect", "true"}, {"interval", "0"}},
        {{"cropdetect", "false"}, {"attach-meta", "false"}},
        {{"attach-meta", "true"}, {"bins", "64"}, {"components", "U,V"}}},
       {"bins", "1000"},
       "bins 1000 exceeds the 256 code values"},
      {"cudavideoscope",
       {{{"style", "histogram"}},
        {{"style", "parade"}, {"scale", "linear"}},
        {{"style", "vectorscope"}, {"graticule", "none"}},
        {{"style", "waveform"}, {"components", "Y,U"}, {"gain", "4"}},
        {{"components", "all"}, {"graticule", "legal"}}},
       {"components", "Y,Q"},
       "\"Q\" is not a component of I420"},
  };
  for (const PropertyChange& change : changes) {
    for (int run = 0; run < Runs(); ++run) {
      const std::string what = std::string(change.element) + " properties from another thread, run " +
                               std::to_string(run);
      GstElement* pipeline = Launch(Counting(change.element));
      {
        Watch watch(pipeline);
        Deadline deadline(what);
        gst_element_set_state(pipeline, GST_STATE_PLAYING);
        ASSERT_TRUE(watch.WaitForBuffers(1)) << what;
        const bool refuse = run % 2 == 1;  // every other run ends on a value the frames cannot take
        std::thread setter([&] {
          for (const auto& settings : change.taken) {
            const int seen = watch.buffers();
            for (const auto& p : settings) SetProperty(watch.under_test(), p);
            watch.WaitForBuffers(seen + 2);
          }
          if (refuse) SetProperty(watch.under_test(), change.refused);
        });
        setter.join();
        if (refuse) {
          EXPECT_TRUE(watch.WaitForError()) << what << ": no error";
        } else {
          EXPECT_TRUE(watch.WaitForBuffers(watch.buffers() + 2)) << what;
        }
        EXPECT_EQ(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << what;
        const std::vector<std::string> errors = watch.errors();
        ASSERT_EQ(errors.size(), refuse ? 1u : 0u) << what << Joined(errors);
        if (refuse) {
          EXPECT_NE(errors[0].find(change.text), std::string::npos) << what << ": " << errors[0];
        }
      }
      UnrefTheLastReference(pipeline, what);
    }
  }
}

// --- CUDA contexts ----------------------------------------------------------------
// Every CUDA context a pipeline makes ends with the pipeline: a context
// costs about 500 MB of GPU memory and a driver thread, so one left behind
// per pipeline stops a process that makes pipelines (the monitor restarting
// a stream, this suite) after a hundred or so.

struct ContextCase {
  const char* name;
  const char* pipeline;
};

void PrintTo(const ContextCase& c, std::ostream* os) { *os << c.name; }

const ContextCase kContextCases[] = {
    {"cudaupload_alone", "cudaupload ! fakesink"},
    {"histogram", "cudaupload ! cudahistogram name=under_test ! fakesink"},
    {"histogram_signalstats", "cudaupload ! cudahistogram name=under_test signalstats=true ! fakesink"},
    {"histogram_upload", "cudahistogram name=under_test upload=true ! fakesink"},
    {"scope", "cudaupload ! cudavideoscope name=under_test ! fakesink"},
    {"scope_refused",
     "cudaupload ! cudavideoscope name=under_test ! video/x-raw(ANY),width=100000,height=64 ! fakesink"},
};

int LiveThreads() {
  int n = 0;
  if (DIR* tasks = opendir("/proc/self/task")) {
    while (const dirent* task = readdir(tasks)) n += atol(task->d_name) > 0;
    closedir(tasks);
  }
  return n;
}

class CudaContextOfPipeline : public ::testing::TestWithParam<ContextCase> {};

TEST_P(CudaContextOfPipeline, EndsWithThePipeline) {
  SKIP_WITHOUT_CUDA();
  const ContextCase& c = GetParam();
  const std::string description =
      std::string("videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=48 ! ") + c.pipeline;
  const int threads_before = LiveThreads();
  const int runs = std::min(Runs(), 10);
  int made = 0;
  for (int run = 0; run < runs; ++run) {
    const std::string what = std::string(c.name) + " run " + std::to_string(run);
    GstElement* pipeline = Launch(description);
    ASSERT_NE(pipeline, nullptr) << description;
    std::vector<std::shared_ptr<GWeakRef>> contexts;
    {
      Watch watch(pipeline);
      Deadline deadline(what);
      gst_element_set_state(pipeline, GST_STATE_PLAYING);
      EXPECT_TRUE(watch.WaitForEnd()) << what;
      EXPECT_EQ(gst_element_set_state(pipeline, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << what;
      contexts = watch.cuda_contexts();
    }
    UnrefTheLastReference(pipeline, what);
    made += int(contexts.size());
    for (const auto& weak : contexts) {
      if (GObject* alive = static_cast<GObject*>(g_weak_ref_get(weak.get()))) {
        ADD_FAILURE() << what << ": its CUDA context outlived the pipeline, " << (alive->ref_count - 1)
                      << " reference(s) held";
        g_object_unref(alive);
      }
    }
  }
  EXPECT_GT(made, 0) << c.name << ": no CUDA context was shared (HAVE_CONTEXT) to watch";
  printf("%s: %d runs, %d CUDA contexts, threads %d before and %d after\n", c.name, runs, made, threads_before,
         LiveThreads());
}

std::string ContextCaseName(const ::testing::TestParamInfo<ContextCase>& p) { return p.param.name; }

INSTANTIATE_TEST_SUITE_P(Cuda, CudaContextOfPipeline, ::testing::ValuesIn(kContextCases), ContextCaseName);

}  // namespace
