// cudahist-qc: QCTools reports (FILE.qctools.xml.gz) for video files, their
// figures computed by the cudahistogram element on the GPU (or its CPU
// backend), many files at once.
#include <glib-unix.h>
#include <gst/gst.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "analysis_pipeline.h"
#include "command_line.h"
#include "file_job.h"
#include "input_files.h"
#include "progress.h"

namespace {

constexpr const char* kSummary =
    "Writes a QCTools report, FILE.qctools.xml.gz, for each video FILE and for every video file\n"
    "below each DIR: the document QCTools' qcli writes (ffprobe's XML with FFmpeg's lavfi.* tags of\n"
    "signalstats=stat=tout+vrep+brng, cropdetect=reset=1 and the PSNR between the two fields), computed\n"
    "by the cudahistogram element. QCTools, qct-parse and other readers of qcli's reports read it.\n"
    "\n"
    "Decoding: NVDEC where it is shown to decode the stream as FFmpeg does (docs/versions.md);\n"
    "otherwise FFmpeg's decoder (gst-libav), with frames uploaded to the GPU: MPEG-2, MPEG-4 Part 2\n"
    "and VC-1 always, interlaced H.264 from GStreamer 1.24 on. Each file's line names its decoder and\n"
    "why a GPU decoder was passed over; --decoder forces one. Without a GPU, the element's CPU\n"
    "backend. Reports are video-only: audio (qcli's lavfi.r128.* loudness) is not analysed.\n"
    "\n"
    "A report that exists is left alone and its file skipped, so an interrupted run resumes where it\n"
    "stopped (--force writes them again). A report is written under a temporary name and renamed when\n"
    "complete. Each file is independent: spread a collection over machines with GNU parallel or a\n"
    "batch scheduler (docs/qc.md).\n"
    "\n"
    "On a terminal (stderr): a progress bar per file and overall. Whenever stdout is not a terminal,\n"
    "or with --json: one JSON object per file on stdout\n"
    "({\"input\",\"report\",\"status\":\"written|skipped|failed\",\"error\",\"frames\",\"fps\",...})\n"
    "and a last {\"summary\":true,...}. The exit status is 0 when every file has its report, 1 when\n"
    "any failed (each error names its file), 2 for a wrong command line, 130 when interrupted\n"
    "(SIGINT, SIGTERM: the summary says \"interrupted\":true and how many files were not finished).\n"
    "\n"
    "Examples:\n"
    "  cudahist-qc tape01.mov                     # writes tape01.mov.qctools.xml.gz beside it\n"
    "  cudahist-qc -j 8 /archive/batch7           # every video below the folder, 8 at once\n"
    "  cudahist-qc -o /reports /archive/batch7    # reports under /reports, mirroring the folders\n"
    "  cudahist-qc --cpu clip.mkv                 # the CPU backend even with a GPU";

// What a shell returns for a program ended by SIGINT (128 + 2), whichever signal stopped the run.
constexpr int kInterruptedExit = 130;

struct Options {
  gint jobs = 0;
  gchar* output_dir = nullptr;
  gboolean force = FALSE;
  gboolean cpu = FALSE;
  gboolean json = FALSE;
  gchar* decoder = nullptr;
  gchar** inputs = nullptr;
};

// Pipelines at once when -j is not given: NVDEC and the counting run beside
// each other, so a few files per GPU keep it busy. On the CPU backend one
// file leaves cores idle (a decoder's threads wait on each other, the
// counting waits on the decoder): on the 2-core build VM, 8 files took 0.81
// (H.264) and 0.61 (FFV1) of the time with 2 at once as with 1, and 4 at
// once gained nothing more, so one file per core.
int DefaultJobs(const cudahist_tools::Backend& backend, bool cpu) {
  const int cores = int(g_get_num_processors());
  if (backend.gpu && !cpu) return std::max(2, std::min(4 * backend.gpu_count, 2 * cores));
  return std::max(1, cores);
}

class Scheduler {
 public:
  Scheduler(std::vector<qc::InputFile> inputs, const Options& options, const cudahist_tools::Backend& backend,
            int jobs, qc::ProgressOutputs outputs)
      : pending_(inputs.begin(), inputs.end()), options_(options), backend_(backend), jobs_(jobs),
        progress_(outputs, inputs.size()), loop_(g_main_loop_new(nullptr, FALSE)) {
    device_load_.assign(std::max(1, backend.gpu_count), 0);
  }
  ~Scheduler() { g_main_loop_unref(loop_); }

  // Runs every input, or until SIGINT or SIGTERM; returns the number that failed.
  size_t Run(bool bars) {
    const gint64 start = g_get_monotonic_time();
    g_idle_add(&Scheduler::StartMoreOnIdle, this);
    const guint redraw = bars ? g_timeout_add(200, &Scheduler::Redraw, this) : 0;
    // Interrupted: the running jobs are released, which deletes their unfinished reports.
    const guint interrupt = g_unix_signal_add(SIGINT, &Scheduler::Interrupt, this);
    const guint terminate = g_unix_signal_add(SIGTERM, &Scheduler::Interrupt, this);
    g_main_loop_run(loop_);
    g_source_remove(interrupt);
    g_source_remove(terminate);
    if (redraw) g_source_remove(redraw);
    if (interrupted_) {
      running_.clear();
      finished_.clear();
    }
    progress_.Summary(double(g_get_monotonic_time() - start) / 1e6, jobs_, interrupted_);
    return progress_.failed();
  }
  bool interrupted() const { return interrupted_; }

 private:
  static gboolean StartMoreOnIdle(gpointer self) {
    static_cast<Scheduler*>(self)->StartMore();
    return G_SOURCE_REMOVE;
  }

  static gboolean Interrupt(gpointer self) {
    Scheduler* s = static_cast<Scheduler*>(self);
    s->interrupted_ = true;
    g_main_loop_quit(s->loop_);
    return G_SOURCE_CONTINUE;
  }

  static gboolean Redraw(gpointer self) {
    Scheduler* s = static_cast<Scheduler*>(self);
    std::vector<const qc::FileJob*> running;
    for (const auto& job : s->running_) running.push_back(job.get());
    s->progress_.Draw(running);
    return G_SOURCE_CONTINUE;
  }

  int LeastLoadedDevice() const {
    int device = 0;
    for (int d = 1; d < int(device_load_.size()); ++d)
      if (device_load_[d] < device_load_[device]) device = d;
    return device;
  }

  void StartMore() {
    while (!pending_.empty() && int(running_.size()) < jobs_) {
      qc::InputFile input = pending_.front();
      pending_.pop_front();
      if (!input.error.empty()) {
        qc::JobResult failed;
        failed.input = input.path;
        failed.error = input.error;
        progress_.Finished(failed);
        continue;
      }
      cudahist_tools::AnalysisTarget target;
      target.gpu = backend_.gpu && !options_.cpu;
      target.figures_in_meta = true;
      if (options_.decoder) target.decoder = options_.decoder;
      target.cuda_device_id = target.gpu ? LeastLoadedDevice() : 0;
      target.streams_at_once = std::min(jobs_, int(running_.size() + 1 + pending_.size()));
      ++device_load_[target.cuda_device_id];
      running_.push_back(std::make_unique<qc::FileJob>(input.path, input.report, target, options_.force,
                                                       [this](qc::FileJob* job) { OnJobDone(job); }));
      running_.back()->Start();
    }
    if (pending_.empty() && running_.empty()) g_main_loop_quit(loop_);
  }

  // Called from inside the job's own callbacks: the job is released later, from the loop.
  void OnJobDone(qc::FileJob* job) {
    progress_.Finished(job->result());
    --device_load_[job->cuda_device_id()];
    for (auto it = running_.begin(); it != running_.end(); ++it) {
      if (it->get() != job) continue;
      finished_.push_back(std::move(*it));
      running_.erase(it);
      break;
    }
    g_idle_add(&Scheduler::ReleaseAndContinue, this);
  }

  // The next file starts before the finished ones are released: releasing
  // sets a pipeline to NULL, which waits for its decoder to close (NVDEC's
  // nvh264sldec: about 0.2 s on the H100, docs/qc.md), and the next
  // file need not wait for that.
  static gboolean ReleaseAndContinue(gpointer self) {
    Scheduler* s = static_cast<Scheduler*>(self);
    s->StartMore();
    s->finished_.clear();
    return G_SOURCE_REMOVE;
  }

  std::deque<qc::InputFile> pending_;
  const Options& options_;
  cudahist_tools::Backend backend_;
  int jobs_;
  qc::Progress progress_;
  GMainLoop* loop_;
  std::vector<int> device_load_;
  std::vector<std::unique_ptr<qc::FileJob>> running_, finished_;
  bool interrupted_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  // A full disk or a file-size limit must fail the write with an error, not kill the process.
  std::signal(SIGXFSZ, SIG_IGN);
  Options options;
  const GOptionEntry entries[] = {
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &options.jobs,
       "Files analysed at once (default: 4 per GPU; one per CPU core without one, or with --cpu); "
       "with several GPUs the files are spread over them",
       "N"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output_dir,
       "Write the reports into DIR (a FILE's by its name, a DIR's files' by their path below it) "
       "instead of beside each file",
       "DIR"},
      {"force", 'f', 0, G_OPTION_ARG_NONE, &options.force, "Write reports that already exist again", nullptr},
      {"cpu", 0, 0, G_OPTION_ARG_NONE, &options.cpu,
       "Decode on the CPU and count in system memory (the element's CPU backend) even with a GPU", nullptr},
      {"json", 0, 0, G_OPTION_ARG_NONE, &options.json,
       "JSON lines on stdout even when it is a terminal (they go there whenever it is not)", nullptr},
      {"decoder", 0, 0, G_OPTION_ARG_STRING, &options.decoder,
       "Decode the video with this GStreamer decoder (nvmpeg2videodec, avdec_h264 ...) instead of the one "
       "chosen for its stream; a file whose stream it does not decode fails, naming the decoders that do",
       "NAME"},
      {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &options.inputs, nullptr, "FILE|DIR..."},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  std::string error;
  if (!cudahist_tools::ParseCommandLine("- QCTools reports from the GPU", nullptr, kSummary, entries, &argc, &argv,
                                        &error)) {
    std::fprintf(stderr, "cudahist-qc: %s\n", error.c_str());
    return 2;
  }
  if (!options.inputs || !options.inputs[0]) {
    std::fprintf(stderr, "cudahist-qc: name at least one FILE or DIR (see --help)\n");
    return 2;
  }
  if (options.jobs < 0) {
    std::fprintf(stderr, "cudahist-qc: -j takes a positive number of files\n");
    return 2;
  }
  gst_init(nullptr, nullptr);
  if (options.decoder) {
    const std::string problem = cudahist_tools::CheckDecoderName(options.decoder);
    if (!problem.empty()) {
      std::fprintf(stderr, "cudahist-qc: --decoder: %s\n", problem.c_str());
      return 2;
    }
  }
  const cudahist_tools::Backend backend = cudahist_tools::ProbeBackend();
  const int jobs = options.jobs > 0 ? options.jobs : DefaultJobs(backend, options.cpu);
  qc::ProgressOutputs outputs;
  outputs.bars = isatty(STDERR_FILENO);
  outputs.json = options.json || !isatty(STDOUT_FILENO);
  if (outputs.bars)
    std::fprintf(stderr, "cudahist-qc: %s; %d file%s at once\n",
                 options.cpu ? "--cpu: CPU backend" : cudahist_tools::DescribeBackend(backend).c_str(), jobs,
                 jobs == 1 ? "" : "s");

  std::vector<std::string> arguments;
  for (gchar** input = options.inputs; *input; ++input) arguments.push_back(*input);
  std::vector<qc::InputFile> inputs =
      qc::CollectInputs(arguments, options.output_dir ? options.output_dir : "");
  size_t failed = 0;
  bool interrupted = false;
  {
    Scheduler scheduler(std::move(inputs), options, backend, jobs, outputs);
    failed = scheduler.Run(outputs.bars);
    interrupted = scheduler.interrupted();
  }
  g_strfreev(options.inputs);
  g_free(options.output_dir);
  g_free(options.decoder);
  if (interrupted) return kInterruptedExit;
  return failed ? 1 : 0;
}
