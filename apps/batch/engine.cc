#include "engine.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace mjhand::batch {

std::vector<std::pair<RolloutSpec, bool>> plan_campaign(const Campaign& c, int shard_index, int shard_count) {
  std::vector<std::pair<RolloutSpec, bool>> out;
  const std::string dir = c.results_dir();
  for (RolloutSpec& s : expand_campaign(c)) {
    if (s.index % shard_count != shard_index) continue;
    const bool done = rollout_done(rollout_path(c, dir, s), s);
    out.emplace_back(std::move(s), done);
  }
  return out;
}

BatchReport run_campaign(const Campaign& c, const BatchOptions& o) {
  if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count) {
    throw std::runtime_error("shard " + std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count) +
                             ": the index must lie in [0, count)");
  }
  const std::string dir = c.results_dir();
  ensure_writable_dir(dir + "/rollouts");

  BatchReport rep;
  const std::vector<RolloutSpec> all = expand_campaign(c);
  rep.total = static_cast<int>(all.size());
  std::vector<const RolloutSpec*> todo;
  for (const RolloutSpec& s : all) {
    if (s.index % o.shard_count != o.shard_index) continue;
    ++rep.selected;
    const std::string path = rollout_path(c, dir, s);
    const StoredRollout stored = read_rollout_header(path);
    const bool current = stored.valid && stored.id == s.id && stored.hash == s.hash;
    if (current && !(o.retry_failed && stored.status == "failed")) {
      ++rep.skipped;
      continue;
    }
    std::remove((path + ".tmp").c_str());  // left by a killed run; ours to redo
    todo.push_back(&s);
  }

  // Waves of at most variants_per_wave distinct models, in order of first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const RolloutSpec*>> by_variant;
  for (const RolloutSpec* s : todo) {
    auto& list = by_variant[s->variant_key];
    if (list.empty()) order.push_back(s->variant_key);
    list.push_back(s);
  }
  const int hw = static_cast<int>(std::thread::hardware_concurrency());
  rep.threads = o.threads > 0 ? o.threads : std::max(1, hw);

  std::atomic<bool> never_stop{false};
  std::atomic<bool>& stop = o.stop ? *o.stop : never_stop;
  std::atomic<bool> halt{false};  // a write failed
  std::mutex lock;                // guards rep and the progress callback
  Progress progress;
  progress.total = static_cast<int>(todo.size());
  int started = 0;

  for (std::size_t first = 0; first < order.size(); first += static_cast<std::size_t>(o.variants_per_wave)) {
    if (stop.load() || halt.load()) break;
    const std::size_t last = std::min(order.size(), first + static_cast<std::size_t>(o.variants_per_wave));
    std::map<std::string, std::unique_ptr<Variant>> variants;
    std::vector<const RolloutSpec*> wave;
    for (std::size_t i = first; i < last; ++i) {  // compiled and attached while no worker runs
      const auto& list = by_variant[order[i]];
      variants[order[i]] = compile_variant(c, *list.front());
      wave.insert(wave.end(), list.begin(), list.end());
    }
    std::atomic<std::size_t> next{0};
    auto worker = [&]() {
      std::map<const Variant*, DataPtr> data;  // one mjData per model this worker meets
      for (;;) {
        if (stop.load() || halt.load()) return;
        const std::size_t i = next.fetch_add(1);
        if (i >= wave.size()) return;
        {
          std::lock_guard<std::mutex> g(lock);
          ++started;
        }
        const RolloutSpec& spec = *wave[i];
        const Variant& v = *variants.at(spec.variant_key);
        mjData* d = nullptr;
        if (v.error.empty()) {
          DataPtr& slot = data[&v];
          if (!slot) slot = make_data(v.model.get());
          d = slot.get();
        }
        const auto t0 = std::chrono::steady_clock::now();
        const RolloutResult r = run_rollout(c, spec, v, d, &stop);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (r.status == RolloutResult::Status::kDiscarded) {
          std::lock_guard<std::mutex> g(lock);
          ++rep.discarded;
          continue;
        }
        std::string error;
        try {
          write_file_atomically(rollout_path(c, dir, spec), rollout_file_text(c, spec, r), &o.hooks);
        } catch (const std::exception& e) {
          error = e.what();
        }
        std::lock_guard<std::mutex> g(lock);
        if (!error.empty()) {
          if (rep.io_error.empty()) rep.io_error = error;
          ++rep.discarded;
          halt.store(true);
          continue;
        }
        rep.steps += r.steps;
        const bool ok = r.status == RolloutResult::Status::kOk;
        (ok ? rep.ok : rep.failed)++;
        progress.done = rep.ok + rep.failed;
        progress.ok = rep.ok;
        progress.failed = rep.failed;
        progress.spec = &spec;
        progress.result = &r;
        progress.rollout_wall_s = wall;
        if (o.on_progress) o.on_progress(progress);
      }
    };
    const int n = std::min<int>(rep.threads, static_cast<int>(wave.size()));
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t) pool.emplace_back(worker);
    worker();  // the calling thread is worker 0
    for (std::thread& t : pool) t.join();
  }  // variants die here: their models are freed

  rep.pending = static_cast<int>(todo.size()) - started;
  rep.stopped = stop.load() || halt.load();
  try {
    rep.summary = write_summary(c, dir, all);
  } catch (const std::exception& e) {
    if (rep.io_error.empty()) rep.io_error = e.what();
  }
  return rep;
}

}  // namespace mjhand::batch
